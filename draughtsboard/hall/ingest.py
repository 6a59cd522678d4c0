"""What the hall does with each message from a board: the decisions, apart from MQTT and
threads, so that every case (a duplicate, a gap, a stale message, a takeback, an illegal
move, a game the hall did not expect, a claim it cannot prove) is a plain test.

`Ingest.handle(board, kind, payload, now)` applies one message to the `HallStore` (the
caller holds its lock) and returns the `Resend` requests to send to boards. A message
that breaks the protocol raises `MessageError`: the caller logs it with the board's number
and drops it. Nothing here can take the hall down or stop another board's games.

What a board is believed for (docs/hall.md, "What the hall believes"): a move only when
the rules accept it as the next one, and broadcast only once the board's whole game
(its state, sent right after each move) confirms it; a takeback only in a game whose
mode lets a board take moves back and that is no round's game, its ``changes`` only as
far as the moves account for; a result only when the position proves it. Anything else a
board says is a claim (`claims`): shown to the arbiter, who confirms or dismisses it,
while the hall's record and the feed stay as they were. When two messages of one board
disagree (one of them forged), the hall never settles it silently: moves no state
confirmed give way to the board's whole game; otherwise the arbiter is asked.
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from draughtsboard.board.game.record import Game, normalise_result
from draughtsboard.board.game.records import Setter
from draughtsboard.board.message import Message
from draughtsboard.board.rules.draws import Reason
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall_protocol.messages import (
    ClockStatus,
    GameRecord,
    MessageError,
    MoveRecord,
    PlyMessage,
    StateMessage,
    StatusMessage,
)

from .asking import AskSchedule
from .claims import Claim, ClaimBook, ClaimError
from .feed import CONTESTED, round_game_of
from .room_links import RoomLinks
from .said import said, said_reason
from .store import HallGame, HallStore, game_number

log = logging.getLogger("draughtsboard.hall")

BUFFERED_LIMIT = 500  # moves held per game while an earlier gap is being filled
MAX_GAMES_PER_ROUND = 10  # games one board may start in one round
MAX_NEW_GAMES_PER_HOUR = 120  # games one board may start in an hour (puzzles included)
MAX_CHANGES = 5000  # changes of one game's move list the hall follows (takebacks included)
MAX_RECORDS_PER_HOUR = 4000  # journal records one board's games may take in an hour
UNCONFIRMED_WAIT = 5.0  # seconds a move may wait for its board's state before it is asked
ORDERS_KEPT = 10_000  # the arbiter's orders a board carried out, awaiting its game's word


@dataclass(frozen=True)
class Resend:
    """Ask board ``board`` for moves ``first..last`` of ``game`` (both None: the whole
    game)."""

    board: int
    game: str
    first: int | None = None
    last: int | None = None


@dataclass
class BoardLive:
    """What the hall knows of a board now, beyond its games (not journalled: the board
    sends it again)."""

    online: bool = False  # what its status says, unless its room is cut off (below)
    seen: bool = False
    said_online: bool = False  # what its last status said
    room_cut: str | None = None  # the room whose cut link keeps it from the hall now
    software: str = ""
    uptime: float | None = None
    health: dict[str, Any] = field(default_factory=dict)
    current: str | None = None  # the game of its latest state or status, among those taken
    said_current: str | None = None  # the game its status names (perhaps not taken)
    flags: tuple[str, ...] = ()
    unacknowledged: int = 0
    events: tuple[dict[str, Any], ...] = ()
    changed: float | None = None
    # the game clock of its latest state (None: no time control, or an older board) and
    # when the hall received it, on the hall's own clock: the age is never the board's
    clock: ClockStatus | None = None
    clock_received: float | None = None
    clock_game: str | None = None  # the game that clock is of
    status_received: float | None = None
    problems: list[Message] = field(default_factory=list)  # bad messages, the last few
    new_games: deque[float] = field(default_factory=deque)  # when its games began here
    # journal records the board's games took, per minute of the last hour: its budget
    written: deque[list[int]] = field(default_factory=deque)
    written_seen: int = 0
    version: int = 0


class Ingest:
    """``paired``: (board, round) -> the game the board began for the round's pairing
    (the arbiter's log keeps it): such a game is a tournament game whatever its mode,
    and only the arbiter closes it unfinished."""

    def __init__(self, store: HallStore,
                 paired: Mapping[tuple[int, str], str] | None = None,
                 links: RoomLinks | None = None, venue_record: bool = False) -> None:
        self.store = store
        # a public mirror's hall: what it reads is the venue hall's own record (its
        # broker lets only the venue's mirror write the boards' tree), so a result or a
        # tag the venue settled is settled here too; moves are still proved by the rules
        self.venue_record = venue_record
        self.links = links if links is not None else RoomLinks()
        self.paired: Mapping[tuple[int, str], str] = paired if paired is not None else {}
        self.boards: dict[int, BoardLive] = {}
        self.claims = ClaimBook()
        self._buffered: dict[tuple[int, str], dict[int, PlyMessage]] = {}
        self._asks = AskSchedule()
        self._given_up: set[tuple[int, str]] = set()
        self._wanted: dict[tuple[int, str], Message] = {}  # whole games to ask for, and why
        self._orders: OrderedDict[tuple, None] = OrderedDict()  # the arbiter's, carried out

    def live(self, board: int) -> BoardLive:
        """What the hall knows of ``board`` now (a blank entry for a board not seen yet).
        Safe on any thread: a board's entry is made once (`dict.setdefault` is one
        step), so a look from the page's or a test's thread that comes just as the ingest
        thread takes the board's first messages never replaces the entry that thread has
        filled since (the hall would forget the board's game, and that it is online,
        until its next status, half a minute later)."""
        live = self.boards.get(board)
        if live is None:
            live = self.boards.setdefault(board, BoardLive())
        return live

    def room_link(self, room: str, payload: bytes) -> bool:
        """Room ``room``'s bridge is up ("1") or cut ("0"): its boards the hall has seen
        are online again as their last status said, or cut off (`RoomLinks`). True when
        that changed anything."""
        if not self.links.link(room, payload):
            return False
        for board in self.links.boards_of(room):
            live = self.boards.get(board)
            if live is None:
                continue
            live.room_cut = self.links.cut_off(board)
            live.online = live.said_online and live.room_cut is None
            live.version += 1
        return True

    def note_problem(self, board: int, text: Message) -> None:
        live = self.live(board)
        live.problems = (live.problems + [text])[-5:]
        live.version += 1

    def clear_problems(self, board: int) -> None:
        """The arbiter has seen the board's bad messages: they leave its card."""
        live = self.boards.get(board)
        if live is not None and live.problems:
            live.problems = []
            live.version += 1

    def want(self, board: int, game_id: str, why: Message) -> None:
        """Ask the board for this game whole until it comes (and take it when it does)."""
        if self.store.game(board, game_id) is None:
            self._wanted.setdefault((board, game_id), why)
            self.live(board).version += 1

    # -- one message -------------------------------------------------------------------------

    def handle(self, board: int, kind: str, payload: bytes, now: float) -> list[Resend]:
        if kind == "status":
            self._status(board, StatusMessage.from_json(payload), now)
            return []
        if kind in ("state", "game", "ply"):
            self._within_budget(board, now)
        if kind in ("state", "game"):
            try:
                message = StateMessage.from_json(payload)
            except MessageError:
                if kind == "state":  # the board's current game is then unknown: ask it
                    self._want_current(board, said("hall.wanted.state_unreadable"))
                raise
            game_id = message.record.game
            if kind == "state":
                self._said(board, game_id)
            out = self._guarded(board, game_id,
                                lambda: self._record(board, message.record, now))
            if kind == "state" and self.store.game(board, game_id) is not None:
                self._follow(board, game_id)
                live = self.live(board)
                live.flags, live.unacknowledged = message.flags, message.unacknowledged
                live.events, live.changed = message.events, message.changed
                live.clock, live.clock_received = message.clock, now
                live.clock_game = game_id
                live.version += 1
            elif kind == "game" and game_id == self.live(board).said_current \
                    and self.store.game(board, game_id) is not None:
                # the game its status named when the hall lacked it (its state lost or
                # unreadable), come at the hall's asking: the board's current game now,
                # not at its next status half a minute later
                self._follow(board, game_id)
            return out
        if kind == "ply":
            message_ply = PlyMessage.from_json(payload)
            return self._guarded(board, message_ply.game,
                                 lambda: self._ply(board, message_ply, now))
        if kind == "reply":
            return []  # the service matches replies to its commands
        raise MessageError(f"a board does not send {kind!r}")

    def _within_budget(self, board: int, now: float) -> None:
        """`MessageError` when the board's games have taken more than
        MAX_RECORDS_PER_HOUR records of the hall's journal in the last hour (a board
        plays a few hundred moves an hour; a leaked password must not fill the disk). Its
        messages wait, and what they held is asked for again later."""
        live = self.live(board)
        written = self.store.records_written[board]
        fresh, live.written_seen = written - live.written_seen, written
        minute = int(now // 60)
        window = live.written
        if fresh:
            if window and window[-1][0] == minute:
                window[-1][1] += fresh
            else:
                window.append([minute, fresh])
        while window and window[0][0] <= minute - 60:
            window.popleft()
        if sum(count for _, count in window) >= MAX_RECORDS_PER_HOUR:
            raise MessageError(f"board {board}'s games changed more than "
                               f"{MAX_RECORDS_PER_HOUR} times in an hour: its messages wait")

    def _guarded(self, board: int, game_id: str, work) -> list[Resend]:
        """Do ``work``; when the hall's disk refuses it, ask the board for the game again
        once the disk takes writes (the copy in memory is as it was)."""
        try:
            return work()
        except OSError:
            self._wanted[(board, game_id)] = said("hall.wanted.disk_refused")
            self.live(board).version += 1
            raise

    # -- status and which game is current -------------------------------------------------------

    def _status(self, board: int, status: StatusMessage, now: float) -> None:
        live = self.live(board)
        live.said_online, live.seen = status.online, True
        live.room_cut = self.links.cut_off(board)
        # a status from a room cut off is one the broker kept from before the cut
        live.online = status.online and live.room_cut is None
        if status.online:
            live.software, live.uptime = status.software, status.uptime
            live.health = status.health
            live.said_current = status.game
            if status.game is not None:
                if self.store.game(board, status.game) is not None:
                    self._follow(board, status.game)
                else:  # a game the hall lacks: no game of the hall is the board's now
                    if live.current is not None:
                        live.current = None
                        live.flags, live.unacknowledged, live.events = (), 0, ()
                    self._want_current(board, said("hall.wanted.named_in_status"))
        live.status_received = now
        live.version += 1

    def _said(self, board: int, game_id: str) -> None:
        """The board's state is about ``game_id``: the game it plays now, unless it named
        a later one (what the hall's commands name; the rules decide what is recorded)."""
        live = self.live(board)
        if live.said_current is None or game_number(game_id) >= game_number(live.said_current):
            if live.said_current != game_id:
                live.said_current = game_id
                live.version += 1

    def expect(self, board: int, game_id: str) -> None:
        """The board answered the hall's ``new_game`` with ``game_id``: the game it plays
        now, before its state says so (the game itself is expected: the pairing names
        it)."""
        self._said(board, game_id)

    def _want_current(self, board: int, why: Message) -> None:
        said = self.live(board).said_current
        if said is not None and self.store.game(board, said) is None \
                and self._unexpected_reason(board, said) is None:
            self.want(board, said, why)

    def _follow(self, board: int, game_id: str) -> None:
        """The board's current game becomes ``game_id`` (a game the hall took in): the
        game of its latest state or status, which is what the board calls current. (The
        arbiter's actions name the game they are about: a message of someone else's that
        made another game current misleads no action.)"""
        live = self.live(board)
        if live.current != game_id:
            live.flags, live.unacknowledged, live.events = (), 0, ()
            live.current = game_id
            live.version += 1

    # -- which games the hall expects ------------------------------------------------------------

    def _unexpected_reason(self, board: int, game_id: str) -> Message | None:
        """Why a game the hall does not have is not expected (None: it is: the hall asked
        for it, or the board has no game here yet, or it is the next after the game the
        hall took in last)."""
        if (board, game_id) in self._wanted or (board, game_id) in self.store.set_aside_games \
                or self._named_by_pairing(board, game_id):
            return None
        newest = self.store.newest(board)
        if newest is None or game_number(game_id) == newest.number + 1:
            return None
        return said("claim.game.not_next", game=game_id, board=board, last=newest.game_id)

    def _admission(self, board: int, record: GameRecord, now: float) -> Message | None:
        """Why a new game is not taken into the record (None: it is)."""
        reason = self._unexpected_reason(board, record.game)
        if reason is not None:
            return reason
        if self._named_by_pairing(board, record.game):
            return None  # the game the hall asked for: no cap keeps it out
        round_name = record.tags.get("Round", "")
        if round_name:
            in_round = sum(1 for g in self.store.board_games(board) if g.round == round_name)
            if in_round >= MAX_GAMES_PER_ROUND:
                return said("claim.game.round_cap", game=record.game, board=board,
                            count=in_round, round=round_name)
        recent = self.live(board).new_games
        while recent and recent[0] < now - 3600:
            recent.popleft()
        if len(recent) >= MAX_NEW_GAMES_PER_HOUR:
            return said("claim.game.hour_cap", game=record.game, board=board, count=len(recent))
        return None

    def _named_by_pairing(self, board: int, game_id: str) -> bool:
        return any(b == board and game == game_id for (b, _), game in self.paired.items())

    def _round_game(self, hall_game: HallGame) -> bool:
        """Whether this is a board's game for a round (the pairing's, the arbiter's, or
        the first with the round's tag): such a game is a tournament game whatever its
        mode, and only the arbiter closes it unfinished."""
        return bool(hall_game.round) and round_game_of(
            self.store, hall_game.board, hall_game.round, self.paired) is hall_game

    def _takebacks(self, hall_game: HallGame) -> bool:
        """Whether the board may take moves back on its own in this game."""
        return hall_game.takebacks_allowed and not self._round_game(hall_game)

    def contested_rounds(self) -> set[tuple[int, str]]:
        """(board, round) pairs whose game for the round the arbiter is asked about and
        no single answer of the board to the round's pairing names: the feed leaves those
        boards out until it is settled."""
        out = set()
        for board in self.boards:
            for kind, game_id in self.claims.of(board):
                hall_game = self.store.game(board, game_id) if kind == "round" else None
                if hall_game is None:
                    continue
                named = self.paired.get((board, hall_game.round))
                if named is None or named == CONTESTED:  # the board's answer does not say
                    out.add((board, hall_game.round))
        return out

    # -- a whole game (state or game message) ---------------------------------------------------

    def _record(self, board: int, record: GameRecord, now: float) -> list[Resend]:
        _check_result(record)
        hall_game = self.store.game(board, record.game)
        if hall_game is None:
            reason = self._admission(board, record, now)
            if reason is not None:
                self._claim(board, Claim("game", record.game,
                                         said("claim.game.accept", reason=reason), now,
                                         record))
                return []
            hall_game = self._create(board, record, now)
        self._wanted.pop((board, record.game), None)
        self._reconcile(hall_game, record, now)
        return self._drain(hall_game, now)

    def _create(self, board: int, record: GameRecord, now: float) -> HallGame:
        hall_game = self.store.create(board, record, now)
        log.info("board %d: game %s (%s)", board, record.game, record.variant)
        self.live(board).new_games.append(now)
        self._drop_claim(board, ("game", record.game))
        self.round_changed(board, hall_game.round, now)
        for older in self.store.board_games(board):  # closed unfinished: now it is over
            claim = self.claims.get(board, "result", older.game_id)
            if older.number < hall_game.number and not older.finished and claim is not None \
                    and claim.record is not None and claim.record.result == "*" \
                    and not self._round_game(older):
                self.store.set_result(older, "*", believed_reason(older.game, claim.record),
                                      now, "board")
                self._drop_claim(board, claim.key)
        return hall_game

    def round_changed(self, board: int, round_name: str, now: float) -> None:
        """A board's games of a round, or which is the round's, changed: a game of the
        round besides the round's own game is a claim (the feed keeps the round's)."""
        if not round_name:
            return
        contested = self.paired.get((board, round_name)) == CONTESTED
        chosen = round_game_of(self.store, board, round_name, self.paired)
        for hall_game in self.store.board_games(board):
            key = ("round", hall_game.game_id)
            closed_by_arbiter = hall_game.finished and hall_game.game.result is None \
                and hall_game.result_source == "arbiter"
            if hall_game.round != round_name or hall_game is chosen or closed_by_arbiter or \
                    (chosen is None and not contested):
                self._drop_claim(board, key)
            elif contested:
                self._claim(board, Claim(
                    "round", hall_game.game_id,
                    said("claim.round.two_answers", board=board, round=round_name,
                         game=hall_game.game_id), now))
            else:
                assert chosen is not None  # (chosen is None and not contested) went above
                self._claim(board, Claim(
                    "round", hall_game.game_id,
                    said("claim.round.another", board=board, round=round_name,
                         game=hall_game.game_id, chosen=chosen.game_id), now))

    def _reconcile(self, hall_game: HallGame, record: GameRecord, now: float, *,
                   follow: bool = False) -> None:
        """Bring the hall's copy up to the board's whole game as far as it is believed
        (``follow``: the arbiter confirmed the board's game: all of it, its corrections
        of the position included)."""
        board = hall_game.board
        theirs = dict(record.corrections)
        ours = hall_game.corrections
        common = min(_common_moves(hall_game, record.moves),
                     _first_difference(ours, theirs, hall_game.ply))
        if hall_game.finished:
            if common < hall_game.ply or len(record.moves) > hall_game.ply:
                self._dispute(hall_game, common + 1, Claim(
                    "moves", record.game,
                    said("claim.moves.after_result", result=hall_game.game.result_text(),
                         move=common + 1, board_move=_text_at(record.moves, common)),
                    now, record))
                return
            # the board's whole game has the hall's moves: what an older picture of it
            # disputed (a restarted broker's stale retained state) is settled, and the
            # feed shows the whole game again
            self._confirm_moves(hall_game, hall_game.ply)
            self._drop_claim(board, ("moves", record.game))
            if record.result not in (None, "*") and hall_game.result_source != "arbiter" \
                    and normalise_result(hall_game.game.variant, record.result) \
                    != hall_game.game.result:
                if self.venue_record:  # the venue's arbiter changed it there
                    self.store.set_result(hall_game, record.result,
                                          believed_reason(hall_game.game, record), now,
                                          "venue")
                    return
                self._claim(board, Claim(
                    "result", record.game,
                    said("claim.result.differs", claimed=record.result,
                         reason=claimed_reason(record) or said("claim.no_reason"),
                         recorded=hall_game.game.result_text()), now, record))
            return
        if not follow and any(ours.get(ply) != theirs.get(ply) for ply in ours
                              if ply <= common):
            self._dispute(hall_game, common + 1, Claim(
                "moves", record.game, said("claim.moves.lacks_correction", move=common + 1),
                now))
            return
        takebacks = self._takebacks(hall_game)
        if takebacks and record.changes < hall_game.changes:
            return  # an older picture of the game than the hall has
        if common < hall_game.ply:  # the board's moves differ from the hall's
            removed = hall_game.ply - common
            if follow or self._take_order(board, record.game, "takeback", common):
                # the arbiter's takeback (ordered, or the board's confirmed): its changes
                self.store.truncate(hall_game, common,
                                    min(max(record.changes, hall_game.changes),
                                        hall_game.changes + 2 * removed), now, by="arbiter")
                self._buffered.pop((board, record.game), None)  # plies of the old line
            elif common >= hall_game.confirmed:  # moves no state confirmed give way
                self.store.truncate(hall_game, common, hall_game.changes, now)
            elif takebacks and record.changes > hall_game.changes and \
                    hall_game.changes < MAX_CHANGES:
                self.store.truncate(hall_game, common,
                                    min(record.changes, hall_game.changes + 2 * removed), now)
            else:
                self._dispute(hall_game, common + 1, Claim(
                    "moves", record.game,
                    said("claim.moves.differ", move=common + 1,
                         board_move=_text_at(record.moves, common),
                         hall_move=_text_at(hall_game.game.moves, common)), now, record))
                return
        if not self._follow_moves(hall_game, record, theirs, now, follow):
            return
        self._confirm_moves(hall_game, hall_game.ply)  # the board's whole game says so
        self._drop_claim(board, ("moves", record.game))
        self._tags(hall_game, record, now)
        self._result(hall_game, record, now)

    def _follow_moves(self, hall_game: HallGame, record: GameRecord, theirs: dict[int, str],
                      now: float, follow: bool) -> bool:
        """Add the board's moves past the hall's, with the corrections of the position it
        made on the way: one the hall ordered (`order`), or any in a game whose mode lets
        the board change its moves, or that the arbiter confirmed (``follow``); another
        is a claim, and the moves after it wait (False)."""
        board = hall_game.board
        while True:
            ply = hall_game.ply
            fen = theirs.get(ply)
            if fen is not None and hall_game.corrections.get(ply) != fen:
                ordered = self._take_order(board, record.game, "position", fen)
                if not (follow or ordered or self._takebacks(hall_game)):
                    self._dispute(hall_game, ply + 1, Claim(
                        "moves", record.game, said("claim.moves.corrected", move=ply + 1,
                                                   fen=fen[:80]), now, record))
                    return False
                self.store.correct(hall_game, fen, now,
                                   "arbiter" if follow or ordered else "board")
            until = min([p for p in theirs if p > ply] + [len(record.moves)])
            added = record.moves[ply:until]
            if not added:
                return True
            self.store.add_moves(hall_game, added,
                                 min(record.changes, hall_game.changes + len(added)), now)

    def order(self, board: int, game_id: str, kind: str, value: int | str) -> None:
        """The board did what the hall asked of it (``takeback`` to a ply, a ``position``,
        ``close`` a game for a pairing): its game will show it, and the hall follows it
        there, not as a claim."""
        self._orders[(board, game_id, kind, value)] = None
        while len(self._orders) > ORDERS_KEPT:
            self._orders.popitem(last=False)

    def _take_order(self, board: int, game_id: str, kind: str, value: int | str) -> bool:
        return self._orders.pop((board, game_id, kind, value), False) is None

    def _tags(self, hall_game: HallGame, record: GameRecord, now: float) -> None:
        """Tags a game began with are the board's; a change after that is a claim (the
        hall's own arbiter changes them through the hall, which records them first)."""
        key = ("tags", hall_game.game_id)
        have = dict(hall_game.game.tags)
        if record.tags == have:
            self._drop_claim(hall_game.board, key)
            return
        if self.venue_record:  # the venue's arbiter changed them there
            self.store.set_tags(hall_game, record.tags)
            self._drop_claim(hall_game.board, key)
            return
        changed = sorted(set(have) | set(record.tags))
        words = ", ".join(f"{name} {have.get(name, '')!r} -> {record.tags.get(name, '')!r}"
                          for name in changed if have.get(name) != record.tags.get(name))
        self._claim(hall_game.board, Claim("tags", hall_game.game_id,
                                           said("claim.tags.changed", changes=words[:300]),
                                           now, record))

    def _result(self, hall_game: HallGame, record: GameRecord, now: float) -> None:
        board, key = hall_game.board, ("result", hall_game.game_id)
        claimed = record.result
        if claimed is None:
            self._drop_claim(board, key)
            return
        if len(record.moves) != hall_game.ply:
            return  # the hall has not all the moves yet: they come first
        reason = believed_reason(hall_game.game, record)
        if self.venue_record:  # proved by the rules or confirmed by the venue's arbiter
            self.store.set_result(hall_game, claimed, reason, now, "venue")
            self._drop_claim(board, key)
            return
        if claimed == "*":
            newest = self.store.newest(board)
            if self._take_order(board, hall_game.game_id, "close", "*"):
                # closed for a pairing the arbiter sent (a game with moves only when the
                # arbiter named it): the arbiter's
                self.store.set_result(hall_game, "*", reason, now, "arbiter")
                self._drop_claim(board, key)
                self.round_changed(board, hall_game.round, now)
            elif not self._round_game(hall_game) and newest is not None \
                    and newest.number > hall_game.number:
                self.store.set_result(hall_game, "*", reason, now, "board")
                self._drop_claim(board, key)
            else:
                self._claim(board, Claim("result", hall_game.game_id,
                                         said("claim.result.closed", game=hall_game.game_id,
                                              reason=claimed_reason(record)
                                              or said("claim.no_reason")),
                                         now, record))
            return
        proven = hall_game.game.outcome()
        variant = hall_game.game.variant
        if proven is not None and normalise_result(variant, claimed) == proven[0]:
            # the board's typed reason when the rules prove it; its words when they say
            # more than a rule (a person's, a board's before the typed reason, a draw its
            # arbiter accepted for reasons the rules prove); else the rules' own
            claimed_rules = [record.result_rule] if record.result_rule is not None \
                else record.result_rules
            if isinstance(reason, str) and (not reason or not all(
                    proves(hall_game.game, rule) for rule in claimed_rules)):
                reason = proven[1]
            self.store.set_result(hall_game, claimed, reason, now, "rules")
            self._drop_claim(board, key)
            return
        self._claim(board, Claim("result", hall_game.game_id,
                                 said("claim.result.unproven_reason", claimed=claimed,
                                      reason=claimed_reason(record))
                                 if claimed_reason(record) else
                                 said("claim.result.unproven", claimed=claimed), now, record))

    # -- claims --------------------------------------------------------------------------------

    def _claim(self, board: int, claim: Claim) -> None:
        if self.claims.raise_(board, claim):
            self.live(board).version += 1

    def _drop_claim(self, board: int, key: tuple[str, str]) -> None:
        if self.claims.drop(board, key):
            self.live(board).version += 1

    def _dispute(self, hall_game: HallGame, move_number: int, claim: Claim) -> None:
        """The board's moves differ from the hall's from ``move_number`` on: the feed
        shows the game up to the move before, until the arbiter settles it."""
        self._confirm_moves(hall_game, min(hall_game.confirmed, move_number - 1))
        self._claim(hall_game.board, claim)

    def _confirm_moves(self, hall_game: HallGame, count: int) -> None:
        self.store.confirm(hall_game, count)

    def confirm(self, board: int, kind: str, game_id: str, claim_id: str,
                now: float) -> Message:
        """The arbiter confirms the claim they read (``claim_id``): the hall follows the
        board. What was done, in words; `ClaimError` if the claim is gone or changed."""
        claim = self.claims.settled(board, kind, game_id, claim_id)
        record = claim.record
        hall_game = self.store.game(board, game_id)
        if kind == "round":
            if hall_game is None:
                raise ClaimError(said("claim.error.no_game", board=board, game=game_id))
            self._drop_claim(board, claim.key)  # the caller makes it the round's game
            return said("claim.confirmed.round", game=game_id, round=hall_game.round,
                        board=board)
        if record is None:
            raise ClaimError(said("claim.error.not_arrived"))
        if kind == "game":
            if hall_game is None:
                hall_game = self._create(board, record, now)
            self._drop_claim(board, claim.key)
            self._reconcile(hall_game, record, now, follow=True)
            return said("claim.confirmed.game", game=game_id, board=board)
        if hall_game is None:
            raise ClaimError(said("claim.error.no_game", board=board, game=game_id))
        if kind == "moves":
            if hall_game.finished:
                self.store.reopen(hall_game, now)
            common = _common_moves(hall_game, record.moves)
            if common < hall_game.ply:
                self.store.truncate(hall_game, common, max(hall_game.changes, record.changes),
                                    now, by="arbiter")
            self._drop_claim(board, claim.key)
            self._reconcile(hall_game, record, now, follow=True)
            return said("claim.confirmed.moves", board=board, game=game_id)
        if kind == "tags":
            self.store.set_tags(hall_game, record.tags)
            self._drop_claim(board, claim.key)
            return said("claim.confirmed.tags", board=board, game=game_id)
        result = record.result or "*"
        self.store.set_result(hall_game, result, believed_reason(hall_game.game, record)
                              or "confirmed by the arbiter", now, "arbiter")
        self._drop_claim(board, claim.key)
        return said("claim.confirmed.result", result=result, board=board, game=game_id)

    def dismiss(self, board: int, kind: str, game_id: str, claim_id: str) -> Message:
        """The arbiter sets the claim they read aside: the hall's record stays as it is,
        and the same claim is not shown again."""
        claim = self.claims.settled(board, kind, game_id, claim_id)
        self.claims.dismiss(board, claim)
        self.live(board).version += 1
        hall_game = self.store.game(board, game_id)
        if kind == "moves" and hall_game is not None:
            self._confirm_moves(hall_game, hall_game.ply)  # the arbiter keeps the hall's
        return said("claim.dismissed", claim=said(f"claim.kind.{kind}"), board=board,
                    game=game_id)

    def arbiter_tags(self, board: int, game_id: str, tags: dict[str, str]) -> None:
        """The arbiter's tags in the hall (merged into the game's, as the board does)."""
        hall_game = self._arbiters_game(board, game_id)
        self.store.set_tags(hall_game, {**hall_game.game.tags, **tags})
        self._drop_claim(board, ("tags", game_id))

    def arbiter_result(self, board: int, game_id: str, result: str, reason: str,
                       now: float) -> None:
        """The arbiter's result in the hall: the record has it at once, whatever the board
        says after (`InvalidResultError` for a result the variant does not have)."""
        hall_game = self._arbiters_game(board, game_id)
        self.store.set_result(hall_game, result, reason, now, "arbiter")
        self._drop_claim(board, ("result", game_id))

    def _arbiters_game(self, board: int, game_id: str) -> HallGame:
        hall_game = self.store.game(board, game_id)
        if hall_game is None:
            raise ClaimError(said("claim.error.no_game", board=board, game=game_id))
        return hall_game

    # -- one move --------------------------------------------------------------------------------

    def _ply(self, board: int, message: PlyMessage, now: float) -> list[Resend]:
        hall_game = self.store.game(board, message.game)
        if hall_game is None:  # its start is in the state, which is on its way or lost
            if self._unexpected_reason(board, message.game) is not None:
                return []  # not a game the hall expects: its state decides (a claim)
            self._buffer(board, message)
            return self._ask(board, message.game, None, None, now)
        seq = message.seq
        if hall_game.finished:
            agrees = seq <= hall_game.ply and \
                hall_game.move_record(seq - 1).same_move(message.move)
            return [] if agrees else self._ask(board, message.game, None, None, now)
        if seq <= hall_game.ply:
            here = hall_game.move_record(seq - 1)
            if here.same_move(message.move):
                return []  # a duplicate (QoS 1 is at least once; resends)
            if not (self._takebacks(hall_game) and message.changes > hall_game.changes
                    and hall_game.changes < MAX_CHANGES):
                if seq <= hall_game.confirmed and not self._takebacks(hall_game):
                    self._dispute(hall_game, seq, Claim(
                        "moves", message.game,
                        said("claim.moves.ply_differs", move=seq, board_move=message.move.text,
                             hall_move=here.text), now))
                # which of the two is the board's: its whole game says
                return self._ask(board, message.game, None, None, now)
            removed = hall_game.ply - seq + 1
            self.store.truncate(hall_game, seq - 1, min(message.changes - 1,
                                                        hall_game.changes + 2 * removed), now)
        if seq > hall_game.ply + 1:
            self._buffer(board, message)
            return self._ask(board, message.game, hall_game.ply + 1, seq - 1, now)
        self.store.add_moves(hall_game, [message.move],
                             min(message.changes, hall_game.changes + 1), now)
        return self._drain(hall_game, now)

    def _buffer(self, board: int, message: PlyMessage) -> None:
        key = (board, message.game)
        if key not in self._buffered:
            for other in [k for k in self._buffered if k[0] == board and k != key
                          and self.store.game(*k) is None]:
                del self._buffered[other]  # one game the hall lacks is held: the newest
        held = self._buffered.setdefault(key, {})
        if len(held) < BUFFERED_LIMIT or message.seq in held:
            held[message.seq] = message

    def _drain(self, hall_game: HallGame, now: float) -> list[Resend]:
        key = (hall_game.board, hall_game.game_id)
        held = self._buffered.get(key)
        run: list[MoveRecord] = []
        changes = hall_game.changes
        while held and not hall_game.finished:
            message = held.pop(hall_game.ply + len(run) + 1, None)
            if message is None:
                break
            run.append(message.move)
            changes = max(changes, message.changes)
        if run:
            self.store.add_moves(hall_game, run, min(changes, hall_game.changes + len(run)),
                                 now)
        if held:
            for seq in [s for s in held if s <= hall_game.ply]:
                del held[seq]
        if not held:
            self._buffered.pop(key, None)
            if key not in self._wanted:
                self._asks.forget(key)
            return []
        return self._ask(hall_game.board, hall_game.game_id, hall_game.ply + 1,
                         min(held) - 1, now)

    def _ask(self, board: int, game_id: str, first: int | None, last: int | None,
             now: float) -> list[Resend]:
        """A request for what is missing, unless one went out a moment ago
        (`AskSchedule`: less and less often, at most once a minute per game)."""
        if not self._asks.due((board, game_id), now):
            return []
        return [Resend(board, game_id, first, last)]

    def give_up(self, board: int, game_id: str, why: str) -> None:
        """The board cannot send this game (its journal no longer has it): stop asking,
        and tell the arbiter."""
        if (board, game_id) not in self._given_up:
            self._given_up.add((board, game_id))
            self._wanted.pop((board, game_id), None)
            self._buffered.pop((board, game_id), None)
            self.note_problem(board, said("hall.problem.incomplete", game=game_id,
                                          why=str(why)[:200]))

    # -- the periodic look for what is still missing -------------------------------------------

    def missing(self, now: float) -> list[Resend]:
        """Ranges still missing; games the hall wants whole (set aside, refused by its
        disk, named by a board whose state could not be read, named as a round's game);
        a game whose last moves no state of the board confirmed; and older games of
        online boards that never got their result (their end came while the hall was
        away)."""
        out: list[Resend] = []
        for (board, game_id), held in list(self._buffered.items()):
            hall_game = self.store.game(board, game_id)
            if hall_game is None:
                if self._unexpected_reason(board, game_id) is None:
                    out += self._ask(board, game_id, None, None, now)
                else:
                    del self._buffered[(board, game_id)]
            elif held:
                out += self._ask(board, game_id, hall_game.ply + 1, min(held) - 1, now)
        for board, game_id in list(self.store.set_aside_games):
            self._wanted.setdefault((board, game_id), said("hall.wanted.set_aside"))
        for board, live in self.boards.items():
            if not live.online:
                continue
            for game_id in [g for b, g in self._wanted if b == board]:
                if (board, game_id) not in self._given_up:
                    out += self._ask(board, game_id, None, None, now)
            if live.current is None:
                continue
            claims = self.claims.of(board)
            for hall_game in self.store.board_games(board):
                key = (board, hall_game.game_id)
                if not hall_game.finished and hall_game.confirmed < hall_game.ply and \
                        hall_game.received[hall_game.confirmed] < now - UNCONFIRMED_WAIT \
                        and ("moves", hall_game.game_id) not in claims:
                    out += self._ask(board, hall_game.game_id, None, None, now)
                    continue  # a move its state never confirmed: the whole game, to see
                if hall_game.finished or key in self._given_up or key in self._wanted \
                        or hall_game.number >= game_number(live.current) \
                        or ("result", hall_game.game_id) in claims:
                    continue
                out += self._ask(board, hall_game.game_id, None, None, now)
        return out

    def wanted(self, board: int) -> dict[str, Message]:
        """The games of a board the hall is asking for whole, and why (for the page)."""
        out = {game_id: why for (b, game_id), why in self._wanted.items() if b == board}
        for (b, game_id), why in self.store.set_aside_games.items():
            if b == board:
                out.setdefault(game_id, said("hall.wanted.set_aside_why", why=why))
        return out


def _common_moves(hall_game: HallGame, moves: tuple[MoveRecord, ...]) -> int:
    common = 0
    for index, move in enumerate(moves[:hall_game.ply]):
        if not hall_game.move_record(index).same_move(move):
            break
        common += 1
    return common


def _text_at(moves, index: int) -> str | Message:
    return moves[index].text if index < len(moves) else said("claim.no_move")


def _first_difference(ours: dict[int, str], theirs: dict[int, str], ply: int) -> int:
    """The first ply before ``ply`` (the hall's moves) at which the board's corrections
    differ from the hall's: the game differs from there (``ply`` if none does)."""
    return min([p for p in set(ours) | set(theirs) if p < ply and ours.get(p) != theirs.get(p)],
               default=ply)


def _check_result(record: GameRecord) -> None:
    """A result the game's variant has, or ``*`` (`MessageError` otherwise), checked
    before anything of the message is written."""
    if record.result is None:
        return
    try:
        normalise_result(get_variant(record.variant), record.result)
    except DraughtsError as error:
        raise MessageError(f"result: {error}") from None


def believed_reason(game: Game, record: GameRecord) -> Reason | str:
    """Why a board's game has its result, as the hall records it. The hall believes a
    rule's typed reason only as far as it proves it, as it does a result: a board's
    rule's reason (``result_rule``) is kept typed when the hall's own copy of the game, its
    moves checked by the rules, has that reason now (no legal move, a draw rule's count
    reached, a repetition); anything else is the board's words (``result_reason``), kept
    as words, never read as a rule's."""
    if record.result_rule is not None and proves(game, record.result_rule):
        return record.result_rule
    return record.result_reason


def proves(game: Game, reason: Reason) -> bool:
    """Whether the game as the hall has it, its moves checked by the rules, has this
    rule's reason now: no legal move, a draw rule's count reached, a repetition."""
    outcome = game.outcome()
    return outcome is not None and outcome[1] == reason or reason in game.draw_reasons()


def claimed_reason(record: GameRecord) -> Message | str:
    """Why the board says its game has its result, for a claim the arbiter reads: a
    rule's reason it sent typed in the arbiter's language, else its words."""
    if record.result_rule is not None:
        return said_reason(record.result_rule)
    if record.result_rules:
        return said_reason(record.result_rules, Setter.ARBITER)
    return record.result_reason
