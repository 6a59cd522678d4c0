"""The `Recorder`: the one owner of the journal format, and what the controller calls to
record games and to resume one.

One journal file per game, ``<data dir>/games/<game id>.jsonl`` (see `journal`). Every
call that records something returns only once the record is on stable storage; the
controller lights the confirmation LED after that, never before. A move is checked
against the rules before it is written, so the journal never holds an illegal move.

Records go in only through the recorder's ``record_*`` methods. Each builds its record,
a typed record of the record model (`draughtsboard.board.game.records`), and hands it to
one path (`Recorder._append`): the record is applied to the live game by the model's
`apply`, the very function `rebuild_game` applies every record with, and only then
written as the model's codec writes it; so a game read from disk is the game that was
recorded, by construction. The games the recorder hands out are read-only copies
(`Game.read_only_copy`): changing a game means journalling the change first, here.

Game ids are ``NNNNN-YYYYmmdd-HHMMSS``: the running number orders games even on a
Raspberry Pi whose clock is wrong until the network sets it; the date is for people.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from draughtsboard.board.game.apply import apply, game_of_start, start_of
from draughtsboard.board.game.codec import encode
from draughtsboard.board.game.pdn_writer import Say, write_game
from draughtsboard.board.game.record import Game, GameFinishedError
from draughtsboard.board.game.records import (
    ClockEvent,
    CoachSwitch,
    Correction,
    Declined,
    Event,
    IrregularMove,
    MoveMade,
    Record,
    RecordKind,
    Result,
    ResultWithdrawn,
    Setter,
    Takeback,
    TakebackKind,
    TakebackTo,
    Times,
    Why,
)
from draughtsboard.board.game.tags import clean_tags
from draughtsboard.board.message import Message
from draughtsboard.board.mode import Mode
from draughtsboard.board.rules.notation import format_move, parse_move
from draughtsboard.board.rules.position import Move
from draughtsboard.board.rules.variants import Variant, get_variant

from .errors import GameIdError, JournalDamagedError, JournalError
from .journal import Journal, load_journal, repair_journal, set_aside
from .lock import DataDirLock
from .records import RecordMismatchError, is_closed, rebuild_game, rebuild_prefix

ENV_DATA_DIR = "DRAUGHTSBOARD_DATA"
_ID = re.compile(r"^(\d{5,})-\d{8}-\d{6}$")
FINISHED_KEPT = 4  # finished games kept in memory (a page shows the last one after its result)
CLOCK_ACTIONS = {"start": RecordKind.CLOCK_START, "pause": RecordKind.CLOCK_PAUSE,
                 "resume": RecordKind.CLOCK_RESUME}


def default_data_dir() -> Path:
    """``$DRAUGHTSBOARD_DATA``, else the user's data directory (platformdirs; on Linux
    ``$XDG_DATA_HOME/draughtsboard``, by default ``~/.local/share/draughtsboard``)."""
    configured = os.environ.get(ENV_DATA_DIR)
    if configured:
        return Path(configured)
    from platformdirs import user_data_dir

    return Path(user_data_dir("draughtsboard", appauthor=False))


@dataclass(frozen=True)
class GameSummary:
    """One line of ``draughtsboard games``: a recorded game's id, variant, status and players."""
    game_id: str
    variant: str
    status: str  # "unfinished", "finished" or "damaged"
    moves: int
    result: str
    white: str = ""
    black: str = ""
    event: str = ""
    started: float | None = None  # wall-clock seconds
    problem: str = ""


@dataclass(frozen=True)
class DamagedGame:
    """An unfinished game whose journal is damaged: what `play` must show the arbiter
    instead of starting a new game. ``good`` records (the first ones) fit; ``game`` is
    the game they describe (``None`` when not even the start record is good, and then
    the game can only be set aside)."""

    game_id: str
    problem: str
    good: int
    game: Game | None

    @property
    def resumable(self) -> bool:
        return self.game is not None

    def describe(self) -> Message:
        """What is wrong and what is kept, as a message for the page and the log (the
        journal's ``problem`` as the reader said it: "record 3: ...")."""
        kept = (Message.of("damage.kept", count=self.good, ply=self.game.ply)
                if self.game is not None else Message.of("damage.no_start"))
        return Message.of("damage.journal", game_id=self.game_id, problem=self.problem,
                          kept=kept)


class Recorder:
    """Records games in a directory of journals; safe to reopen after a crash.

    Open games keep their journal open for appending and their `Game` in memory, changed
    only after each record is on disk. Read-only copies of a game are cached until the
    next change, so a page that asks for the game at every update costs nothing; the
    last few finished games stay cached too (their journals are closed).

    Only one process writes a data directory: the first write (or `lock`) takes the
    directory's lock (`DataDirLock`), held until `close`; reading needs no lock.

    ``sync=False`` skips fsync (tests on slow disks only); ``chunk_size`` is for the
    crash benchmark (see `Journal`); ``lock=False`` is for tests that play two writers
    in one process on purpose.
    """

    def __init__(self, directory: Path | str | None = None, *, sync: bool = True,
                 chunk_size: int | None = None, lock: bool = True) -> None:
        self.directory = Path(directory) if directory is not None else default_data_dir()
        self.games_dir = self.directory / "games"
        self.sync = sync
        self.chunk_size = chunk_size
        self._lock = DataDirLock(self.directory) if lock else None
        self._open: dict[str, tuple[Journal, Game]] = {}
        self._copies: dict[str, Game] = {}  # read-only copies, dropped at each change
        self._finished: dict[str, Game] = {}  # read-only, the last FINISHED_KEPT games

    # -- files ------------------------------------------------------------------------

    def path_of(self, game_id: str) -> Path:
        if not _ID.match(game_id):
            raise GameIdError(f"not a game id: {game_id!r}")
        return self.games_dir / f"{game_id}.jsonl"

    def game_ids(self) -> list[str]:
        """Every recorded game, oldest first."""
        if not self.games_dir.is_dir():
            return []
        ids = {p.stem: int(m.group(1)) for p in self.games_dir.glob("*.jsonl")
               if (m := _ID.match(p.stem))}
        return sorted(ids, key=ids.__getitem__)

    def _new_id(self, t_wall: float) -> str:
        """The next running number: past every game's, a damaged file set aside
        (``<id>.jsonl.damaged-N``) included, so that no id is ever given twice."""
        numbers = [int(m.group(1)) for p in self.games_dir.glob("*.jsonl*")
                   if (m := _ID.match(p.name.split(".", 1)[0]))]
        number = max(numbers) + 1 if numbers else 1
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(t_wall))
        return f"{number:05d}-{stamp}"

    def lock(self) -> None:
        """Take the data directory's lock now (`DataDirBusyError` if another process
        has it); every write takes it anyway."""
        if self._lock is not None:
            self._lock.acquire()

    def _journal(self, game_id: str) -> tuple[Journal, Game]:
        """The open journal of a game and its live `Game` (opened on first use)."""
        entry = self._open.get(game_id)
        if entry is None:
            self.lock()
            path = self.path_of(game_id)
            if not path.exists():
                raise GameIdError(f"no recorded game {game_id!r} in {self.games_dir}")
            journal = Journal(path, sync=self.sync, chunk_size=self.chunk_size)
            game, _, problem = rebuild_prefix(journal.records)
            if problem or game is None:
                journal.close()
                raise JournalDamagedError(f"{path.name}: {problem}")
            assert game is not None  # rebuild_prefix gives a game when it names no problem
            entry = self._open[game_id] = (journal, game)
        return entry

    def _changed(self, game_id: str) -> None:
        self._copies.pop(game_id, None)

    def close(self) -> None:
        for journal, _ in self._open.values():
            journal.close()
        self._open.clear()
        self._copies.clear()
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- recording --------------------------------------------------------------------

    def _append(self, game_id: str, record: Record) -> Game:
        """The one way a record goes in: applied to the live game by the model's `apply`
        (the function `rebuild_game` uses), then written as the codec writes it. A
        record the game refuses is never written; a write that fails leaves the game as
        its journal has it (rebuilt from the journal's records). A closed journal (its
        game has a result, ``*`` included) takes only the withdrawal of that result. The
        live game, once the record is on disk."""
        journal, game = self._journal(game_id)
        if record.kind is not RecordKind.RESULT_WITHDRAWN and is_closed(journal.records):
            raise GameFinishedError(f"game {game_id} is closed ({game.result_text()}, "
                                    f"{game.result_reason}): withdraw its result first")
        apply(game, record)
        try:
            journal.append(encode(record))
        except BaseException:
            self._open[game_id] = (journal, rebuild_game(journal.records))
            raise
        finally:
            self._changed(game_id)
        return game

    def start_game(self, variant: Variant | str, tags: dict[str, str] | None = None,
                   start_fen: str | None = None, mode: Mode | str = Mode.TOURNAMENT, *,
                   draw_preset: str | None = None, t_monotonic: float | None = None,
                   t_wall: float | None = None) -> str:
        """Begin a game; its id. The start record is durable when this returns."""
        variant = get_variant(variant) if isinstance(variant, str) else variant
        t_wall = time.time() if t_wall is None else t_wall
        tags = {str(k): str(v) for k, v in (tags or {}).items()}
        tags.setdefault("Date", time.strftime("%Y.%m.%d", time.localtime(t_wall)))
        record = start_of(variant, tags, start_fen, mode, draw_preset,
                          Times(t_monotonic, t_wall))
        game = game_of_start(record)  # checks the preset before anything is written
        self.lock()
        self.games_dir.mkdir(parents=True, exist_ok=True)
        game_id = self._new_id(t_wall)
        path = self.path_of(game_id)
        journal = Journal(path, sync=self.sync, chunk_size=self.chunk_size)
        try:
            journal.append(encode(record))
        except BaseException:
            journal.close()  # an empty file is no game: leave nothing behind
            try:
                if path.stat().st_size == 0:
                    path.unlink()
            except OSError:
                pass
            raise
        self._open[game_id] = (journal, game)
        return game_id

    def record_move(self, game_id: str, move: Move | str, t_monotonic: float | None,
                    t_wall: float | None, clock: tuple[float, float] | None = None):
        """Check and record a move; returns the `PlayedMove` once it is on disk.

        The rules' errors (`IllegalMoveError`, ...) leave the journal unchanged.
        """
        _, game = self._journal(game_id)
        position = game.position
        if isinstance(move, str):
            move = parse_move(position, move)
        game = self._append(game_id, MoveMade(
            game.ply, move.path, move.captures, format_move(position, move),
            Times(t_monotonic, t_wall), (clock[0], clock[1]) if clock else None))
        return game.moves[-1]

    def _event(self, game_id: str, kind: RecordKind, text: str, t_monotonic: float | None,
               t_wall: float | None, message: Message | None = None, *,
               tags: dict[str, str] | None = None,
               switch: CoachSwitch | None = None) -> Game:
        _, game = self._journal(game_id)
        return self._append(game_id, Event(kind, game.ply, text, message,
                                           Times(t_monotonic, t_wall), tags, switch))

    def record_illegal(self, game_id: str, text: str, reason: str = "",
                       t_monotonic: float | None = None, t_wall: float | None = None, *,
                       message: Message | None = None) -> None:
        """An illegal attempt, for the arbiter (not a move). ``text`` is what PDN
        comments show; ``message`` the same as a message (kept beside it as JSON)."""
        self._event(game_id, RecordKind.ILLEGAL, f"{text} ({reason})" if reason else text,
                    t_monotonic, t_wall, message)

    def record_irregularity(self, game_id: str, text: str, t_monotonic: float | None = None,
                            t_wall: float | None = None, *,
                            message: Message | None = None) -> None:
        """An irregularity of procedure: the move counted, the log notes it (``message``:
        as `record_illegal`)."""
        self._event(game_id, RecordKind.IRREGULARITY, text, t_monotonic, t_wall, message)

    def record_resume(self, game_id: str, t_monotonic: float | None = None,
                      t_wall: float | None = None) -> None:
        """Note that play resumed after a restart (monotonic times restart there)."""
        self._event(game_id, RecordKind.RESUME, "play resumed after a restart", t_monotonic,
                    t_wall, Message.of("pdn.text.resume"))

    def record_hint(self, game_id: str, text: str, t_monotonic: float | None = None,
                    t_wall: float | None = None) -> None:
        """A hint the player asked for (training): the PDN notes it where it was given."""
        self._event(game_id, RecordKind.HINT, text, t_monotonic, t_wall)

    def record_coach_note(self, game_id: str, text: str, t_monotonic: float | None = None,
                          t_wall: float | None = None, *,
                          switch: CoachSwitch | None = None) -> None:
        """What the coach said or was told (a blunder warning; with ``switch``, an aid
        switched on or off, kept as data beside the words PDN shows)."""
        self._event(game_id, RecordKind.COACH, text, t_monotonic, t_wall, switch=switch)

    def record_tags(self, game_id: str, tags: dict[str, str], t_monotonic: float | None = None,
                    t_wall: float | None = None) -> dict[str, str]:
        """Set tags during a game (checked: `InvalidTagError`); every tag of the game
        afterwards. A finished game's tags cannot change (`GameFinishedError`)."""
        cleaned = clean_tags(tags)
        listed = ", ".join(f"{k}={v}" for k, v in cleaned.items())
        text = "tags set by the arbiter: " + listed
        game = self._event(game_id, RecordKind.NOTE, text, t_monotonic, t_wall,
                           Message.of("pdn.text.tags_set", tags=listed), tags=cleaned)
        return dict(game.tags)

    def record_takeback(self, game_id: str, t_monotonic: float | None = None,
                        t_wall: float | None = None, *, amended_by: str | None = None,
                        irregularity: str = "") -> None:
        """The last move is taken back (training mode), or, with ``amended_by``, replaced:
        its piece slid on along its line before anyone else moved, and the move that
        follows this record is the one played."""
        _, game = self._journal(game_id)
        if not game.moves:
            raise RecordMismatchError("no move to take back")
        last = game.moves[-1].text
        message: Message | None = None
        if amended_by:
            kind = TakebackKind.AMENDMENT
            text = f"{last} amended to {amended_by}: the piece slid on before it was let go"
            message = Message.of("pdn.text.amended", move=last, amended=amended_by)
        else:
            kind, text = TakebackKind.TAKEBACK, f"{last} taken back"
            if irregularity:  # the caller's words: kept as they are
                text += f": {irregularity}"
            else:
                message = Message.of("pdn.text.taken_back", move=last)
        self._append(game_id, Takeback(game.ply - 1, kind, text, message,
                                       Times(t_monotonic, t_wall)))

    def record_note(self, game_id: str, text: str, t_monotonic: float | None = None,
                    t_wall: float | None = None) -> None:
        """A note for the arbiter's record (an option refused on resume, ...)."""
        self._event(game_id, RecordKind.NOTE, text, t_monotonic, t_wall)

    def record_clock(self, game_id: str, action: str, clock: tuple[float, float],
                     text: str = "", t_monotonic: float | None = None,
                     t_wall: float | None = None, *, message: Message | None = None) -> None:
        """The game clock started, paused or resumed (``action``), with both clocks'
        remaining seconds at that moment (``message``: as `record_illegal`)."""
        if action not in CLOCK_ACTIONS:
            raise ValueError(f"clock action {action!r}: expected one of "
                             f"{', '.join(CLOCK_ACTIONS)}")
        self._clock_event(game_id, CLOCK_ACTIONS[action], clock, text or f"clock {action}",
                          t_monotonic, t_wall, message)

    def record_flag_fall(self, game_id: str, clock: tuple[float, float], text: str,
                         t_monotonic: float | None = None,
                         t_wall: float | None = None, *,
                         message: Message | None = None) -> None:
        """The side to move ran out of time (its flag fell). The game goes on: the
        arbiter rules on it."""
        self._clock_event(game_id, RecordKind.FLAG, clock, text, t_monotonic, t_wall, message)

    def _clock_event(self, game_id: str, kind: RecordKind, clock: tuple[float, float],
                     text: str, t_monotonic: float | None, t_wall: float | None,
                     message: Message | None = None) -> None:
        both = (round(float(clock[0]), 3), round(float(clock[1]), 3))
        _, game = self._journal(game_id)
        self._append(game_id, ClockEvent(kind, game.ply, both, text, message,
                                         Times(t_monotonic, t_wall)))

    def record_draw_offer(self, game_id: str, text: str, t_monotonic: float | None = None,
                          t_wall: float | None = None) -> None:
        """The rules declare the position drawn: offered to the arbiter, who declares
        the draw or lets play go on (the record keeps the offer as a comment)."""
        self._event(game_id, RecordKind.DRAW_OFFER, text, t_monotonic, t_wall)

    def record_result_withdrawn(self, game_id: str, text: str = "",
                                t_monotonic: float | None = None,
                                t_wall: float | None = None, *,
                                declined: Declined | None = None) -> None:
        """The arbiter takes a result back: the game is open again (its journal is
        reopened) and the record keeps both the result and its withdrawal; in a match,
        ``declined`` says which of the other board's results this was, as data."""
        _, game = self._journal(game_id)
        if game.result is None:
            raise RecordMismatchError(f"game {game_id} has no result to withdraw")
        message = None if text else Message.of("pdn.text.result_withdrawn",
                                                result=game.result)
        text = text or f"result {game.result} withdrawn by the arbiter"
        self._append(game_id, ResultWithdrawn(game.ply, text, message,
                                              Times(t_monotonic, t_wall), declined))
        self._finished.pop(game_id, None)

    def record_irregular_move(self, game_id: str, path: tuple[int, ...],
                              removed: tuple[int, ...], text: str, irregularity: str,
                              comment: str, after_fen: str, t_monotonic: float | None = None,
                              t_wall: float | None = None):
        """An irregular move the opponent let stand (FMJD Annex 1, 5.4): recorded as
        played, with the position it made (``after_fen``) and its comment; returns the
        `PlayedMove` once it is on disk."""
        _, game = self._journal(game_id)
        game = self._append(game_id, IrregularMove(
            game.ply, tuple(path), tuple(removed), text, irregularity, comment, after_fen,
            Times(t_monotonic, t_wall)))
        return game.moves[-1]

    def record_correction(self, game_id: str, fen: str, text: str,
                          t_monotonic: float | None = None,
                          t_wall: float | None = None, *,
                          message: Message | None = None) -> None:
        """An arbiter correction: play goes on from the position ``fen`` (checked first;
        ``message``: as `record_illegal`)."""
        _, game = self._journal(game_id)
        self._append(game_id, Correction(game.ply, fen, text, Times(t_monotonic, t_wall),
                                         message))

    def record_takeback_to(self, game_id: str, ply: int, text: str,
                           t_monotonic: float | None = None,
                           t_wall: float | None = None, *,
                           message: Message | None = None) -> None:
        """The arbiter takes the game back to ``ply`` (0: the start; ``message``: as
        `record_illegal`)."""
        self._append(game_id, TakebackTo(ply, text, message, Times(t_monotonic, t_wall)))

    def record_result(self, game_id: str, result: str, reason: Why = "",
                      t_monotonic: float | None = None, t_wall: float | None = None, *,
                      by: Setter = Setter.UNKNOWN) -> None:
        """The result (any common spelling; ``*`` for an abandoned game), why (a rule's
        typed `Reason`, the reasons of a draw accepted, or a person's words), and who
        set it when the caller knows. The journal is closed after it; the game stays
        readable (`game`)."""
        game = self._append(game_id, Result(result, reason, by, Times(t_monotonic, t_wall)))
        journal, _ = self._open.pop(game_id)
        journal.close()
        self._finished[game_id] = game.read_only_copy()
        while len(self._finished) > FINISHED_KEPT:
            del self._finished[next(iter(self._finished))]

    # -- reading ----------------------------------------------------------------------

    def game(self, game_id: str) -> Game:
        """The game as recorded, as a read-only copy (cached until the next change: ask
        again after recording). A torn last record is dropped; `JournalDamagedError`
        when a bad record lies before good ones."""
        copy = self._copies.get(game_id) or self._finished.get(game_id)
        if copy is not None:
            return copy
        entry = self._open.get(game_id)
        if entry is not None:
            copy = self._copies[game_id] = entry[1].read_only_copy()
            return copy
        loaded = load_journal(self.path_of(game_id))
        if loaded.damaged:
            raise JournalDamagedError(loaded.damage)
        return rebuild_game(loaded.records).read_only_copy()

    load = game  # the name the commands and the tests have used

    def find_unfinished(self) -> tuple[str, Game] | DamagedGame | None:
        """The newest game without a result: ready to continue as its id and a read-only
        copy, or, when its journal is damaged, a `DamagedGame` for the arbiter to decide
        on (`repair`); ``None`` if every game is finished. A damaged journal is never
        passed over for an older game or a new one: that would hide it."""
        for game_id in reversed(self.game_ids()):
            if game_id in self._open:
                return game_id, self.game(game_id)
            loaded = load_journal(self.path_of(game_id))
            if not loaded.records and not loaded.damaged:
                continue  # cut off while it was created: nothing was ever confirmed
            game, good, problem = rebuild_prefix(loaded.records)
            closed = is_closed(loaded.records[:good])
            if loaded.damaged or problem:
                if closed and good == len(loaded.records) and not loaded.crlf:
                    continue  # damage after the result record: the game is whole
                return DamagedGame(game_id, loaded.damage or problem, good, game)
            if closed:
                continue
            self._journal(game_id)
            return game_id, self.game(game_id)
        return None

    def unfinished_game(self) -> tuple[str, Game] | None:
        """The most recent game without a result, ready to continue, as its id and a
        read-only copy; ``None`` if there is none, or if the newest unfinished journal is
        damaged (`find_unfinished` says which)."""
        found = self.find_unfinished()
        return None if isinstance(found, DamagedGame) else found

    def repair(self, game_id: str, action: str, t_monotonic: float | None = None,
               t_wall: float | None = None) -> tuple[str, Path | None]:
        """The arbiter's choice for a damaged journal, after a copy of the damaged file
        is kept beside it (its path is returned with a one-line account):

        * ``resume``: keep the good records, drop the rest, note the repair in the game
          and carry on from there;
        * ``abandon``: keep the good records and close the game as abandoned (``*``), or
          set the whole file aside when not even its start record is good.
        """
        if action not in ("resume", "abandon"):
            raise JournalError(f"unknown repair {action!r}: resume or abandon")
        self.lock()
        path = self.path_of(game_id)
        loaded = load_journal(path)
        game, good, problem = rebuild_prefix(loaded.records)
        if not loaded.damaged and not problem:
            raise JournalError(f"the journal of game {game_id} is not damaged")
        what = loaded.damage or problem
        if game is None:
            if action == "resume":
                raise JournalError(f"game {game_id} cannot be resumed: {what}")
            copy = set_aside(path, sync=self.sync)
            return f"game {game_id} set aside as {copy.name} ({what})", copy
        copy = repair_journal(path, good, sync=self.sync)
        note = (f"journal repaired by the arbiter: {what}; the first {good} record(s) kept, "
                f"the damaged file is kept as {copy.name}")
        self._event(game_id, RecordKind.NOTE, note, t_monotonic, t_wall)
        if action == "abandon":
            self.record_result(game_id, "*", "abandoned: the journal was damaged",
                               t_monotonic, t_wall, by=Setter.ARBITER)
            return f"game {game_id} closed as abandoned; {note}", copy
        return f"game {game_id} resumed at ply {self.game(game_id).ply}; {note}", copy

    def list_games(self) -> list[GameSummary]:
        """A summary of every recorded game, oldest first; damaged and empty journals included."""
        out = []
        for game_id in self.game_ids():
            loaded = load_journal(self.path_of(game_id))
            if not loaded.records and not loaded.damaged:
                out.append(GameSummary(game_id, "?", "empty", 0, "*",
                                       problem="no complete start record (cut off)"))
                continue
            game, _, problem = rebuild_prefix(loaded.records)
            if game is None:
                out.append(GameSummary(game_id, "?", "damaged", 0, "*",
                                       problem=loaded.damage or problem))
                continue
            closed = is_closed(loaded.records)
            damaged = loaded.damaged or bool(problem)
            status = "damaged" if damaged else ("finished" if closed else "unfinished")
            out.append(GameSummary(
                game_id, game.variant.name, status, game.ply, game.result_text(),
                game.tags.get("White", ""), game.tags.get("Black", ""),
                game.tags.get("Event", ""), game.start_wall, loaded.damage or problem))
        return out

    def export_pdn(self, game_id: str, *, say: Say | None = None) -> str:
        """A recorded game as PDN (the good part of a damaged one: `JournalDamagedError`);
        ``say`` puts the words of its comments into a language (default English)."""
        return write_game(self.game(game_id), say=say)

