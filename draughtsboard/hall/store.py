"""The hall's copy of every board's games, crash-safe: one journal per game,
``<data>/boards/<N>/<game id>.jsonl``, in the board journal's file format (checksummed JSON
lines, each fsynced before the copy in memory changes), replayed at start-up.

The boards stay the source of truth. The hall's journal spares it asking for every game
again after a restart; a hall journal that cannot be read back is set aside
(``<name>.damaged-<n>``, never overwriting an earlier one), remembered in
`HallStore.set_aside_games`, and the game is asked for again from the board.

Records (typed in `records`: the record model's records of the game with what is the
hall's own beside them; the journal adds its own ``seq``, the record's number in the
file, so a record never uses that name): ``start`` (game id, variant, start FEN, tags,
mode, start times), ``moves`` (one or more moves from move number ``first``, with the
board's ``changes``: a whole game caught up in one record, one fsync), ``truncate`` (a
takeback: keep the first ``keep`` moves), ``correction`` (the arbiter's: play goes on
from ``fen`` at ``ply``), ``tags``, ``result`` (with its ``source``: the ``rules``
proved it, the ``arbiter`` set or confirmed it, or the ``board`` closed the game
unfinished), ``reopen`` (the arbiter took a result back: withdrawn, or to follow the
board) and ``confirmed`` (how many moves the board's whole game or the arbiter
confirmed: the feed's). Each carries ``received``, the hall's wall-clock time: the
broadcast's delay is counted on the hall's clock, which a board's clock cannot upset.
Journals written before the ``moves`` record (``move`` records, whose number the
journal's ``seq`` had overwritten) are read in file order. The records go through the
record model's codec (`records`), with its versions: a journal holding a record of a
newer format than this release reads is not read, and left as it is (one line).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from draughtsboard.board.game.apply import close, game_of_start, take_back_to
from draughtsboard.board.game.codec import NewerRecordError
from draughtsboard.board.game.record import Game, normalise_result
from draughtsboard.board.game.records import Result, Setter
from draughtsboard.board.message import Message
from draughtsboard.board.rules import parse_fen
from draughtsboard.board.rules.draws import Reason
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.position import Move
from draughtsboard.hall_protocol.games import (
    TAKEBACK_MODES,
    correct_record,
    corrections,
    move_record,
    play_record,
    start_game,
    start_of,
)
from draughtsboard.hall_protocol.messages import GAME_ID, GameRecord, MessageError, MoveRecord
from draughtsboard.recording import Journal, JournalError
from draughtsboard.recording.journal import set_aside

from . import records as hall_records
from .records import (
    RESULT_SOURCES,
    Confirmed,
    HallCorrection,
    HallRecord,
    HallResult,
    HallStart,
    Moves,
    Reopen,
    TagsSet,
    Truncate,
)
from .said import said

log = logging.getLogger("draughtsboard.hall")


@dataclass
class HallGame:
    """One board's game as the hall has it. ``received[i]`` is when move ``i + 1``
    arrived; ``finished`` covers an abandoned game too (result ``*``);
    ``result_source`` says who the result is believed on (`RESULT_SOURCES`)."""

    board: int
    game_id: str
    game: Game
    path: Path
    journal: Journal | None
    changes: int = 0
    received: list[float] = field(default_factory=list)
    started_received: float = 0.0
    finished: bool = False
    result_received: float | None = None
    result_source: str = ""
    # moves the board's whole game (its state, or a resend) or the arbiter has confirmed:
    # the feed shows no more. A ply alone, forged or not, waits for the board's state.
    confirmed: int = 0
    version: int = 0

    @property
    def ply(self) -> int:
        return self.game.ply

    @property
    def number(self) -> int:
        """The game's running number on its board (orders a board's games)."""
        return game_number(self.game_id)

    @property
    def round(self) -> str:
        return self.game.tags.get("Round", "")

    @property
    def takebacks_allowed(self) -> bool:
        """Whether the board may take moves back on its own (training, free play,
        puzzles); in a tournament game only the arbiter can."""
        return self.game.mode in TAKEBACK_MODES

    @property
    def corrections(self) -> dict[int, str]:
        """The arbiter's corrections in effect, by ply (the last one at a ply wins)."""
        return dict(corrections(self.game))

    def move_record(self, index: int) -> MoveRecord:
        return move_record(self.game.moves[index])


def game_number(game_id: str) -> int:
    return int(game_id.split("-", 1)[0])


class HallStore:
    """Every board's games, in memory and in journals. All changes and reads hold
    ``lock`` (the ingest thread writes, the web server reads). A change is journalled
    first: when the disk refuses it (`OSError`), the copy in memory is as it was."""

    def __init__(self, directory: Path | str, *, sync: bool = True) -> None:
        self.directory = Path(directory)
        self.boards_dir = self.directory / "boards"
        self.sync = sync
        self.lock = threading.RLock()
        self.games: dict[int, dict[str, HallGame]] = {}
        self.set_aside_games: dict[tuple[int, str], str] = {}  # (board, game) -> why
        self.write_error: Message | None = None  # the last write the disk refused, until one works
        self.records_written: Counter[int] = Counter()  # per board, since the hall started

    # -- reading back -----------------------------------------------------------------------

    def load(self) -> int:
        """Replay every journal; the number of games loaded. A journal that cannot be
        replayed is set aside and its game noted in ``set_aside_games``."""
        count = 0
        if not self.boards_dir.is_dir():
            return 0
        for board_dir in sorted(self.boards_dir.iterdir()):
            if not board_dir.name.isdigit() or not board_dir.name.isascii():
                continue
            board = int(board_dir.name)
            for path in sorted(board_dir.glob("*.jsonl")):
                if not GAME_ID.match(path.stem):
                    continue
                try:
                    hall_game = self._replay(board, path)
                except NewerRecordError as error:
                    self._newer(board, path, str(error))
                    continue
                except (JournalError, DraughtsError, MessageError, KeyError, TypeError,
                        ValueError, IndexError) as error:
                    self._set_aside(board, path, str(error))
                    continue
                self.games.setdefault(board, {})[hall_game.game_id] = hall_game
                count += 1
        return count

    def _newer(self, board: int, path: Path, why: str) -> None:
        """A journal holding a record of a newer format: one line, and the file is left
        as it is (a newer release reads it whole); its game is noted like one set aside
        (the arbiter sees why, the board is asked for the game). Should the board send
        it, `create` sets this file aside under a new name, its bytes kept."""
        log.error("board %d: hall journal %s not read: %s", board, path.name, why)
        self.set_aside_games[(board, path.stem)] = why[:200]

    def _set_aside(self, board: int, path: Path, why: str) -> None:
        try:
            aside = set_aside(path, sync=self.sync)
        except OSError as error:
            log.error("board %d: hall journal %s unusable (%s) and cannot be set aside: %s",
                      board, path.name, why, error)
            aside = path
        else:
            log.error("board %d: hall journal %s unusable (%s); set aside as %s, the board "
                      "is asked for the game again", board, path.name, why, aside.name)
        self.set_aside_games[(board, path.stem)] = why[:200]

    def _replay(self, board: int, path: Path) -> HallGame:
        journal = Journal(path, sync=self.sync)
        try:
            records = journal.records
            if not records:
                raise JournalError("no start record")
            start = hall_records.decode_start(records[0])
            if start.game != path.stem:
                raise JournalError(f"the start record names game {start.game!r}")
            hall_game = HallGame(board, start.game, game_of_start(start.start), path,
                                 journal, started_received=start.received)
            for record in records[1:]:
                _apply(hall_game, hall_records.decode(record))
        except BaseException:
            journal.close()
            raise
        if hall_game.finished:
            journal.close()
            hall_game.journal = None
        if not any(r.get("type") == "confirmed" for r in records):
            hall_game.confirmed = hall_game.ply  # a journal from before the record
        return hall_game

    # -- changes: journal first, then memory -------------------------------------------------

    def _refused(self, error: OSError) -> None:
        self.write_error = said("hall.storage.cannot_write", error=str(error)[:300])

    def _write(self, hall_game: HallGame, record: HallRecord) -> None:
        try:
            if hall_game.journal is None:  # a finished game, changed by the arbiter
                hall_game.journal = Journal(hall_game.path, sync=self.sync)
            hall_game.journal.append(hall_records.encode(record))
        except OSError as error:
            self._refused(error)
            raise
        self.write_error = None
        self.records_written[hall_game.board] += 1
        _apply(hall_game, record)
        hall_game.version += 1
        if hall_game.finished:
            hall_game.journal.close()
            hall_game.journal = None

    def create(self, board: int, record: GameRecord, received: float) -> HallGame:
        """A game the hall has not seen before (checked: variant, start position).
        `OSError` when its journal cannot be written (nothing is kept open then)."""
        game = start_game(record)
        path = self.boards_dir / str(board) / f"{record.game}.jsonl"
        if path.exists():  # left by a start that the disk refused half-way
            self._set_aside(board, path, "a journal without its game")
            self.set_aside_games.pop((board, record.game), None)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            journal = Journal(path, sync=self.sync)
        except OSError as error:
            self._refused(error)
            raise
        try:
            journal.append(hall_records.encode(HallStart(record.game, start_of(record),
                                                         received)))
        except BaseException as error:
            journal.close()  # nothing of it kept open, nor on disk
            with contextlib.suppress(OSError):
                path.unlink()
            if isinstance(error, OSError):
                self._refused(error)
            raise
        self.write_error = None
        self.records_written[board] += 1
        hall_game = HallGame(board, record.game, game, path, journal,
                             started_received=received)
        self.games.setdefault(board, {})[record.game] = hall_game
        self.set_aside_games.pop((board, record.game), None)
        return hall_game

    def add_moves(self, hall_game: HallGame, moves: Sequence[MoveRecord], changes: int,
                  received: float) -> None:
        """The next moves, in one record (the rules check each first: `MessageError`
        names the first illegal one, and then nothing is added)."""
        if not moves:
            return
        probe = hall_game.game.position
        for offset, move in enumerate(moves):
            try:
                probe = probe.play(Move(move.path, move.captures))
            except DraughtsError as error:
                raise MessageError(f"move {hall_game.ply + offset + 1} ({move.text}): "
                                   f"{error}") from None
        self._write(hall_game, Moves(hall_game.ply + 1, tuple(moves), changes, received))

    def confirm(self, hall_game: HallGame, count: int) -> None:
        """The first ``count`` moves are confirmed (broadcast): the board's whole game
        says so, or the arbiter; fewer after a dispute. Written down, so a restart
        broadcasts no move the hall had not confirmed."""
        if count != hall_game.confirmed:
            self._write(hall_game, Confirmed(count))

    def truncate(self, hall_game: HallGame, keep: int, changes: int, received: float,
                 by: str = "board") -> None:
        self._write(hall_game, Truncate(keep, changes, received, by))

    def correct(self, hall_game: HallGame, fen: str, received: float, by: str) -> None:
        """An arbiter's correction of the current position, checked before it is
        written (`MessageError`): play goes on from ``fen``."""
        try:
            parse_fen(hall_game.game.variant, fen)
        except DraughtsError as error:
            raise MessageError(f"correction {fen[:60]!r}: {error}") from None
        self._write(hall_game, HallCorrection(hall_game.ply, fen, received, by))

    def withdraw_result(self, hall_game: HallGame, received: float) -> None:
        """The arbiter takes the game's result back: it is in play again."""
        if not hall_game.finished:
            raise ValueError(f"game {hall_game.game_id} has no result to withdraw")
        self.reopen(hall_game, received)

    def set_tags(self, hall_game: HallGame, tags: dict[str, str]) -> None:
        self._write(hall_game, TagsSet(tags))

    def reopen(self, hall_game: HallGame, received: float) -> None:
        """Take a game's result back (the arbiter follows a board whose game went on or
        differs from the one the result closed)."""
        self._write(hall_game, Reopen(received))

    def set_result(self, hall_game: HallGame, result: str, reason: Reason | str,
                   received: float, source: str) -> None:
        """Close the game with ``result`` (``*``: closed unfinished), checked for the
        variant before anything is written."""
        normalise_result(hall_game.game.variant, result)  # InvalidResultError
        if source not in RESULT_SOURCES:
            raise ValueError(f"result source {source!r}")
        self._write(hall_game, HallResult(Result(result, reason, Setter(source)), received))

    # -- questions -----------------------------------------------------------------------

    def game(self, board: int, game_id: str) -> HallGame | None:
        return self.games.get(board, {}).get(game_id)

    def board_games(self, board: int) -> list[HallGame]:
        """A board's games, oldest first."""
        return sorted(self.games.get(board, {}).values(), key=lambda g: g.number)

    def latest(self, board: int) -> HallGame | None:
        """A board's game with the highest running number."""
        games = self.games.get(board)
        return max(games.values(), key=lambda g: g.number) if games else None

    def newest(self, board: int) -> HallGame | None:
        """A board's game the hall took in last: a board's games follow each other from
        it (one high number someone sent once does not set where the board's next game
        must be)."""
        games = self.games.get(board)
        return max(games.values(), key=lambda g: (g.started_received, g.number)) \
            if games else None

    def all_games(self) -> Iterator[HallGame]:
        for board in sorted(self.games):
            yield from self.board_games(board)

    def close(self) -> None:
        with self.lock:
            for hall_game in self.all_games():
                if hall_game.journal is not None:
                    hall_game.journal.close()
                    hall_game.journal = None


def _apply(hall_game: HallGame, record: HallRecord) -> None:
    """One journal record applied to the copy in memory: the same function live and
    when a journal is read back, so a game read back is the game that was written. What
    a record does to the game is the record model's (`board.game.apply`: a move, a
    take-back, a correction, a result); what is the hall's own (when each move came,
    what is confirmed, who set the result) is kept here."""
    if isinstance(record, Moves):
        if record.first is not None and record.first != hall_game.ply + 1:
            raise JournalError(f"moves from {record.first} after {hall_game.ply} moves")
        for move in record.moves:
            play_record(hall_game.game, move)
            hall_game.received.append(record.received)
        hall_game.changes = max(hall_game.changes, record.changes)
    elif isinstance(record, Truncate):
        if not 0 <= record.keep <= hall_game.ply:
            raise JournalError(f"truncate to {record.keep} moves of {hall_game.ply}")
        take_back_to(hall_game.game, record.keep)
        del hall_game.received[record.keep:]
        hall_game.changes = max(hall_game.changes, record.changes)
        hall_game.confirmed = min(hall_game.confirmed, hall_game.ply)
    elif isinstance(record, TagsSet):
        hall_game.game.tags.clear()
        hall_game.game.tags.update(record.tags)
    elif isinstance(record, HallCorrection):
        if record.ply != hall_game.ply:
            raise JournalError(f"correction at ply {record.ply} after {hall_game.ply} moves")
        correct_record(hall_game.game, record.fen)
    elif isinstance(record, HallResult):
        close(hall_game.game, record.result.result, record.result.reason, record.result.by)
        hall_game.finished = True
        hall_game.result_received = record.received
        hall_game.result_source = record.result.by.value
        hall_game.confirmed = hall_game.ply  # the rules or the arbiter saw the game whole
    elif isinstance(record, Confirmed):
        if not 0 <= record.count <= hall_game.ply:
            raise JournalError(f"{record.count} moves confirmed of {hall_game.ply}")
        hall_game.confirmed = record.count
    else:
        hall_game.game.set_result("*")
        hall_game.finished = False
        hall_game.result_received = None
        hall_game.result_source = ""
