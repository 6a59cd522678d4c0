"""What the hall does with each message from a board: the decisions, apart from MQTT and
threads, so that every case (a duplicate, a gap, a stale message, a takeback, an illegal
move, another board's game) is a plain test.

`Ingest.handle(board, kind, payload, now)` applies one message to the `HallStore` (the
caller holds its lock) and returns the `Resend` requests to send to boards. A message
that breaks the protocol raises `MessageError`: the caller logs it with the board's number
and drops it. Nothing here can take the hall down or stop another board's games.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from draughtsboard.hall_protocol.messages import (
    GameRecord,
    MessageError,
    PlyMessage,
    StateMessage,
    StatusMessage,
)

from .store import HallGame, HallStore

log = logging.getLogger("draughtsboard.hall")

BUFFERED_LIMIT = 500  # moves held per game while an earlier gap is being filled
ASK_AGAIN = 2.0  # seconds before a missing range is asked for again
ASK_GAME_AGAIN = 10.0  # seconds before an unfinished older game is asked for again


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

    online: bool = False
    seen: bool = False
    software: str = ""
    uptime: float | None = None
    health: dict[str, Any] = field(default_factory=dict)
    current: str | None = None  # the board's current game id
    flags: tuple[str, ...] = ()
    unacknowledged: int = 0
    events: tuple[dict[str, Any], ...] = ()
    changed: float | None = None
    status_received: float | None = None
    problems: list[str] = field(default_factory=list)  # bad messages, the last few
    version: int = 0


class Ingest:
    def __init__(self, store: HallStore) -> None:
        self.store = store
        self.boards: dict[int, BoardLive] = {}
        self._buffered: dict[tuple[int, str], dict[int, PlyMessage]] = {}
        self._asked: dict[tuple[int, str], float] = {}
        self._given_up: set[tuple[int, str]] = set()

    def live(self, board: int) -> BoardLive:
        live = self.boards.get(board)
        if live is None:
            live = self.boards[board] = BoardLive()
        return live

    def note_problem(self, board: int, text: str) -> None:
        live = self.live(board)
        live.problems = (live.problems + [text])[-5:]
        live.version += 1

    def handle(self, board: int, kind: str, payload: bytes, now: float) -> list[Resend]:
        if kind == "status":
            self._status(board, StatusMessage.from_json(payload), now)
            return []
        if kind == "state":
            message = StateMessage.from_json(payload)
            live = self.live(board)
            self._current(board, message.record.game)
            if message.record.game == live.current:
                live.flags, live.unacknowledged = message.flags, message.unacknowledged
                live.events, live.changed = message.events, message.changed
                live.version += 1
            return self._record(board, message.record, now)
        if kind == "game":
            return self._record(board, StateMessage.from_json(payload).record, now)
        if kind == "ply":
            return self._ply(board, PlyMessage.from_json(payload), now)
        if kind == "reply":
            return []  # the service matches replies to its commands
        raise MessageError(f"a board does not send {kind!r}")

    # -- status and which game is current -------------------------------------------------------

    def _status(self, board: int, status: StatusMessage, now: float) -> None:
        live = self.live(board)
        live.online, live.seen = status.online, True
        if status.online:
            live.software, live.uptime = status.software, status.uptime
            live.health = status.health
            if status.game is not None:
                self._current(board, status.game)
        live.status_received = now
        live.version += 1

    def _current(self, board: int, game_id: str) -> None:
        live = self.live(board)
        if live.current is None or _number(game_id) >= _number(live.current):
            if live.current != game_id:
                live.flags, live.unacknowledged, live.events = (), 0, ()
            live.current = game_id
            live.version += 1

    # -- a whole game (state or game message) ---------------------------------------------------

    def _record(self, board: int, record: GameRecord, now: float) -> list[Resend]:
        store = self.store
        hall_game = store.game(board, record.game)
        if hall_game is None:
            hall_game = store.create(board, record, now)
            log.info("board %d: game %s (%s)", board, record.game, record.variant)
        if record.changes >= hall_game.changes and not hall_game.finished:
            common = 0
            for index, move in enumerate(record.moves[:hall_game.ply]):
                if not hall_game.move_record(index).same_move(move):
                    break
                common += 1
            if common < hall_game.ply and record.changes > hall_game.changes:
                store.truncate(hall_game, common, record.changes, now)
            if common == hall_game.ply:
                for seq in range(hall_game.ply + 1, len(record.moves) + 1):
                    store.add_move(hall_game, record.moves[seq - 1],
                                   record.changes - len(record.moves) + seq, now)
            if record.tags != dict(hall_game.game.tags):
                store.set_tags(hall_game, record.tags)
        if record.result is not None and not hall_game.finished \
                and len(record.moves) == hall_game.ply:
            store.set_result(hall_game, record.result, record.result_reason, now)
        return self._drain(hall_game, now)

    # -- one move --------------------------------------------------------------------------------

    def _ply(self, board: int, message: PlyMessage, now: float) -> list[Resend]:
        hall_game = self.store.game(board, message.game)
        if hall_game is None:  # its start is in the state, which is on its way or lost
            self._buffer(board, message)
            return self._ask(board, message.game, None, None, now)
        seq = message.seq
        if seq <= hall_game.ply:
            if hall_game.move_record(seq - 1).same_move(message.move):
                return []  # a duplicate (QoS 1 is at least once; resends)
            if message.changes > hall_game.changes and not hall_game.finished:
                self.store.truncate(hall_game, seq - 1, message.changes - 1, now)
            else:
                return []  # older than what the hall has
        if hall_game.finished:
            return []
        if seq > hall_game.ply + 1:
            self._buffer(board, message)
            return self._ask(board, message.game, hall_game.ply + 1, seq - 1, now)
        self.store.add_move(hall_game, message.move, message.changes, now)
        return self._drain(hall_game, now)

    def _buffer(self, board: int, message: PlyMessage) -> None:
        held = self._buffered.setdefault((board, message.game), {})
        if len(held) < BUFFERED_LIMIT or message.seq in held:
            held[message.seq] = message

    def _drain(self, hall_game: HallGame, now: float) -> list[Resend]:
        key = (hall_game.board, hall_game.game_id)
        held = self._buffered.get(key)
        while held and not hall_game.finished:
            message = held.pop(hall_game.ply + 1, None)
            if message is None:
                break
            self.store.add_move(hall_game, message.move, message.changes, now)
        if held:
            for seq in [s for s in held if s <= hall_game.ply]:
                del held[seq]
        if not held:
            self._buffered.pop(key, None)
            self._asked.pop(key, None)
            return []
        return self._ask(hall_game.board, hall_game.game_id, hall_game.ply + 1,
                         min(held) - 1, now)

    def _ask(self, board: int, game_id: str, first: int | None, last: int | None,
             now: float, again: float = ASK_AGAIN) -> list[Resend]:
        key = (board, game_id)
        if now - self._asked.get(key, -1e9) < again:
            return []
        self._asked[key] = now
        return [Resend(board, game_id, first, last)]

    def give_up(self, board: int, game_id: str, why: str) -> None:
        """The board cannot send this game (its journal no longer has it): stop asking,
        and tell the arbiter."""
        if (board, game_id) not in self._given_up:
            self._given_up.add((board, game_id))
            self.note_problem(board, f"game {game_id} cannot be completed: {why}"[:300])

    # -- the periodic look for what is still missing -------------------------------------------

    def missing(self, now: float) -> list[Resend]:
        """Ranges still missing, and older games of online boards that never got their
        result (their end came while the hall was away)."""
        out: list[Resend] = []
        for (board, game_id), held in list(self._buffered.items()):
            hall_game = self.store.game(board, game_id)
            if hall_game is None:
                out += self._ask(board, game_id, None, None, now)
            elif held:
                out += self._ask(board, game_id, hall_game.ply + 1, min(held) - 1, now)
        for board, live in self.boards.items():
            if not live.online or live.current is None:
                continue
            for hall_game in self.store.board_games(board):
                if (board, hall_game.game_id) in self._given_up:
                    continue
                if not hall_game.finished and hall_game.number < _number(live.current):
                    out += self._ask(board, hall_game.game_id, None, None, now,
                                     ASK_GAME_AGAIN)
        return out


def _number(game_id: str) -> int:
    return int(game_id.split("-", 1)[0])
