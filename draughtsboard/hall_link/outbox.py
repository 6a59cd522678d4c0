"""What a board must publish next: a pure bookkeeper of what went out and what the
broker acknowledged, fed the current game and answering with publications.

It never holds the game itself (the journal does, through the session's read-only
copies); it remembers, for the current game, the moves handed to the client since the
last connection and the moves the broker acknowledged (QoS 1 PUBACK). After a
reconnection everything past the acknowledged moves goes out again, with the retained
state: the hall drops what it already has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import (
    CLOCK_STATUSES,
    FLAGS,
    SIDES,
    ClockStatus,
    GameRecord,
    MoveRecord,
    PlyMessage,
    StateMessage,
)

EVENTS_SENT = 10  # the last arbiter events carried by the state


@dataclass(frozen=True)
class Publication:
    kind: str  # a topic kind: state, ply, game, status, reply
    payload: bytes
    retain: bool = False
    ply: tuple[str, int] | None = None  # (game, seq) of a ply, to note its PUBACK


def ply_publication(game_id: str, seq: int, changes: int, move: MoveRecord) -> Publication:
    return Publication("ply", PlyMessage(game_id, seq, changes, move).to_json(),
                       ply=(game_id, seq))


def clock_status(clocks: Any, now: float) -> ClockStatus | None:
    """The game clock as the board's page counts it (`GameClock.view`: seconds left as
    last recorded, the running side and since when, on the board's wall clock), stated
    at ``now`` on that same clock: the running side's time taken off, never below zero.
    A side runs only while its time goes (not waiting, paused, held, stopped, nor with
    its flag fallen). None without a time control."""
    if not isinstance(clocks, dict):
        return None
    white, black = float(clocks.get("white") or 0.0), float(clocks.get("black") or 0.0)
    flagged = tuple(f for f in clocks.get("flagged") or () if f in SIDES)
    side, since = clocks.get("running"), clocks.get("since")
    status = str(clocks.get("status"))
    if status not in CLOCK_STATUSES:
        status = "waiting"
    running = side if side in SIDES and since is not None and side not in flagged \
        and status == "running" else None
    if running is not None and since is not None:
        left = max(0.0, (white if running == "white" else black) - max(0.0, now - since))
        white, black = (left, black) if running == "white" else (white, left)
    return ClockStatus(round(white, 3), round(black, 3), running, status,
                       str(clocks.get("control") or "")[:40], flagged, now)


def clock_key(clocks: Any) -> tuple:
    """What of the clock changes the retained state: not the passing of time (the hall
    counts the running side down itself), only what the clock does and its readings."""
    if not isinstance(clocks, dict):
        return ()
    return tuple(repr(clocks.get(k)) for k in ("white", "black", "status", "running",
                                               "since", "held", "flagged", "control"))


def game_publication(record: GameRecord) -> Publication:
    """A whole game (any of the board's games) on the ``game`` topic."""
    return Publication("game", StateMessage(record).to_json())


class Outbox:
    def __init__(self) -> None:
        self.game_id: str | None = None
        self.sent: list[MoveRecord] = []  # moves of the current game handed to the client
        self.acked = 0  # moves 1..acked of the current game acknowledged by the broker
        self._acked_beyond: set[int] = set()
        self._state_key: tuple | None = None
        self._previous: tuple[str, Game] | None = None
        self._last: tuple[str, Game] | None = None
        self.ended: str | None = None  # a game just left: to be sent whole, from the journal

    def connected(self) -> None:
        """A new connection: what the broker did not acknowledge goes out again."""
        del self.sent[self.acked:]
        self._state_key = None

    def acknowledged(self, game_id: str, seq: int) -> None:
        if game_id != self.game_id or seq <= self.acked:
            return
        self._acked_beyond.add(seq)
        while self.acked + 1 in self._acked_beyond and self.acked < len(self.sent):
            self._acked_beyond.discard(self.acked + 1)
            self.acked += 1

    def plan(self, game_id: str, game: Game, view: dict[str, Any],
             now: float) -> list[Publication]:
        """The publications that bring the broker up to this game (the new moves, then
        the retained state). When the game is a new one, `take_ended` names the one
        before, to be sent whole."""
        out: list[Publication] = []
        if game_id != self.game_id:
            if self._last is not None and self._last[0] != game_id:
                # the copy seen last may lack the game's end (its last move and result
                # can come just before the new game): the link sends it from the journal
                self._previous = self._last
                self.ended = self._last[0]
            self.game_id, self.sent, self.acked = game_id, [], 0
            self._acked_beyond.clear()
            self._state_key = None
        self._last = (game_id, game)
        record = game_record(game_id, game)
        moves = record.moves
        common = 0
        for sent, move in zip(self.sent, moves, strict=False):
            if not sent.same_move(move):
                break
            common += 1
        if common < len(self.sent):  # a takeback: those moves are no longer the game's
            del self.sent[common:]
            self.acked = min(self.acked, common)
            self._acked_beyond = {s for s in self._acked_beyond if s <= common}
        for seq in range(len(self.sent) + 1, len(moves) + 1):
            out.append(ply_publication(game_id, seq, record.changes - len(moves) + seq,
                                       moves[seq - 1]))
        self.sent = list(moves)
        flags = tuple(f for f in view.get("flags", ()) if f in FLAGS)
        unacknowledged = int(view.get("unacknowledged") or 0)
        key = (game_id, record.changes, record.result, tuple(record.tags.items()), flags,
               unacknowledged, len(game.events), clock_key(view.get("clocks")))
        if key != self._state_key:
            self._state_key = key
            events = tuple({"kind": e.kind, "text": e.text[:2000], "ply": e.ply,
                            "t_wall": e.t_wall,
                            **({"message": e.message.as_json()} if e.message else {})}
                           for e in game.events[-EVENTS_SENT:])
            out.append(Publication("state", StateMessage(
                record, flags, unacknowledged, events, now, write_game(game),
                clock_status(view.get("clocks"), now)).to_json(),
                retain=True))
        return out

    def take_ended(self) -> str | None:
        ended, self.ended = self.ended, None
        return ended

    def previous(self, game_id: str) -> Game | None:
        """The copy last seen of the game before the current one, if that is ``game_id``
        (it may lack the game's end: read the journal where you can)."""
        if self._previous is not None and self._previous[0] == game_id:
            return self._previous[1]
        return None
