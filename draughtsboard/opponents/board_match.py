"""Another board as the opponent: a match between two boards, each in its own town, whose
brokers are bridged (docs/opponents.md, "A board elsewhere"; docs/hall.md, "A match
between towns").

Each board plays its person's side and sees the other board as its opponent: the other
person's move, once carried out and recorded there, arrives here as the opponent's move
to carry out (the LEDs show it); this board's own moves go there the same way. The
protocol is `match_state` (pure); the messages travel through a `MatchTransport` the
composition root gives (the hall link's MQTT client, `hall_link.match_link`), so this
module knows no broker.

The game in play tells the opponent what its journal holds after every change
(`game_recorded`: the record is published from the journal, the one source of truth),
asks whether the other board is reachable (`reachable`: the match clock pauses on both
sides while it is not), and takes the clocks each move was recorded with by its mover
(`clocks_of`), so both journals hold the same game. ``move`` waits for the other board's
move as long as it takes (its ``stop`` cuts the wait short); nothing from the other
board is believed but what our rules prove.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import Variant

from .base import (
    Clocks,
    GameTrack,
    OpponentGoneError,
    OpponentProtocolError,
    OpponentStartError,
    OpponentStoppedError,
)
from .match_state import LOST_AFTER, MatchConflict, MatchState, ResultCall, other_seat
from .match_stops import describe

log = logging.getLogger("draughtsboard.opponent.match")

BEAT_EVERY = 1.0  # seconds between beats
WAIT_STEP = 0.05  # how often a wait looks at ``stop``
REFUSALS_KEPT = 5  # refusals kept for the page between two looks (a flood: the latest)


class MatchStoppedError(OpponentProtocolError):
    """The match stopped: the two boards cannot be the same game (or this board may not
    play it). ``message`` says why (`match_stops`), for each board to say in its own
    language; the same reason is in both boards' records."""

    def __init__(self, message: Message) -> None:
        super().__init__(describe(message))
        self.message = message


class MatchTransport(Protocol):
    """How the messages of one seat of one match travel (`hall_link.match_link.MatchLink`
    over MQTT; a pair of in-memory ones in the tests)."""

    def open(self, deliver: Callable[[str, bytes], None]) -> None:
        """Start; every message of the other seat goes to ``deliver(kind, payload)`` (on
        the transport's own thread)."""
        ...

    def publish(self, kind: str, payload: bytes) -> None:
        """Send one of our messages (a ``record`` retained; a ``beat`` not); never
        blocks, and what cannot go now goes when it can."""
        ...

    def close(self) -> None:
        """Say goodbye (``offline``) and stop; safe twice."""
        ...


class BoardOpponent:
    """The board of match ``match`` across ``transport`` as the opponent; this board
    plays ``seat`` (see the module doc). ``name`` is this board's player's name, ``tags``
    the game's tags (those both boards must agree on are compared:
    `match_state.AGREED_TAGS`); ``clock`` is monotonic time; ``beat_every``: seconds
    between beats on a thread of its own (None: no thread, the caller calls `beat`)."""

    kind = "board"

    def __init__(self, variant: Variant, match: str, seat: str, transport: MatchTransport,
                 *, name: str = "", tags: dict[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 beat_every: float | None = BEAT_EVERY, lost_after: float = LOST_AFTER
                 ) -> None:
        if seat not in ("white", "black"):
            raise OpponentStartError(f"match {match}: seat {seat!r}: expected white or black")
        self.variant = variant
        self.match = match
        self.seat = seat
        self.transport = transport
        self.own_name = name
        self.tags = dict(tags or {})
        self.clock = clock
        self.beat_every = beat_every
        self.lost_after = lost_after
        self.state: MatchState | None = None  # (from the first game recorded)
        self._track = GameTrack(variant)
        self._lock = threading.Condition()
        self._closed = threading.Event()
        self._beats: threading.Thread | None = None
        # the other board's messages refused since the page last took them (the latest)
        self._refusals: deque[str] = deque(maxlen=REFUSALS_KEPT)

    @property
    def name(self) -> str:
        state = self.state
        theirs = state.theirs if state is not None else None
        if theirs is not None:
            return theirs.name
        return f"the board at {other_seat(self.seat)} of match {self.match}"

    # -- the Opponent ---------------------------------------------------------------------

    def start(self, position: Position, opponent_is_white: bool,
              history: tuple[Position, ...] = ()) -> None:
        """Wait until the other board is heard from and agrees on the game
        (`OpponentProtocolError` when it does not)."""
        if opponent_is_white != (self.seat == "black"):
            raise OpponentStartError(f"match {self.match}: this board plays {self.seat}, "
                                     f"so its opponent cannot play "
                                     f"{'white' if opponent_is_white else 'black'}")
        if self.state is None:
            raise OpponentStartError(f"match {self.match}: no game recorded yet")
        self._track.begin(position, opponent_is_white, history)
        if self.beat_every is not None and self._beats is None:
            self._beats = threading.Thread(target=self._beat, daemon=True,
                                           name=f"match-{self.match}-beat")
            self._beats.start()
        self._wait(lambda state: state.theirs is not None or state.conflict is not None,
                   None)
        self._raise_conflict()

    def other_side_moved(self, move: Move) -> None:
        self._track.other_side_moved(move)  # (the record goes out from the journal)

    def move(self, clocks: Clocks, stop: Callable[[], bool] | None = None) -> Move:
        """The other board's next move, once it has recorded it (as long as it takes)."""
        position = self._track.check_opponents_turn()
        found: list[Move] = []

        def ready(state: MatchState) -> bool:
            answer = state.next_move(position)
            if answer is not None:
                found.append(answer[0])
            return answer is not None

        try:
            self._wait(ready, stop)
        except MatchConflict as error:
            self._publish_stop()  # (the other board stops too: our record says why)
            raise MatchStoppedError(error.message) from None
        self._track.play(found[0])
        return found[0]

    def close(self) -> None:
        if not self._closed.is_set():
            self._closed.set()
            with self._lock:
                self._lock.notify_all()
            self.transport.close()

    # -- what the game in play tells and asks ---------------------------------------------

    def game_recorded(self, game: Game) -> None:
        """The journal's game is now ``game``: publish it if it changed (any thread). The
        first game joins the match (the transport opens)."""
        with self._lock:
            state = self.state
            first = state is None
            if state is None:
                state = self.state = MatchState(
                    self.match, self.seat, self.own_name or self.seat, self.variant.name,
                    game.start.fen(), self.tags, lost_after=self.lost_after)
            # (ours first: then what comes is compared)
            payload = state.recorded(game, self.clock())
            self._lock.notify_all()
        if first:
            self.transport.open(self._deliver)
        if payload is not None and not self._closed.is_set():
            self.transport.publish("record", payload)

    def reachable(self) -> bool:
        """Whether the other board is heard from (before the match starts: yes)."""
        with self._lock:
            state = self.state
            return state is None or state.theirs is None or state.reachable(self.clock())

    def amended(self, position: Position, move: Move) -> bool:
        """Whether the other board's record now holds another move than ``move`` in
        ``position`` (its move amended there, a king slid on, after ``move`` was given)."""
        with self._lock:
            state = self.state
            if state is None or state.conflict is not None:
                return False
            try:
                answer = state.next_move(position)
            except MatchConflict:
                answer = None  # (the conflict stops the match: `conflict`)
        if answer is None:
            self._publish_stop()
            return False
        return answer[0] != move

    def last_heard(self) -> float | None:
        """When the other board was last heard from (this board's monotonic clock)."""
        with self._lock:
            state = self.state
            return state.heard_at if state is not None else None

    def clocks_of(self, ply: int) -> tuple[float, float] | None:
        """The clocks the other board recorded with its move at ``ply`` (0-based)."""
        with self._lock:
            theirs = self.state.theirs if self.state is not None else None
            if theirs is None or ply >= len(theirs.plies):
                return None
            return theirs.plies[ply].clock

    def result_call(self, game: Game) -> ResultCall | None:
        """What to do of the other board's result, this board's game being ``game``
        (`MatchState.result_call`)."""
        with self._lock:
            state = self.state
            return state.result_call(game) if state is not None else None

    def unmeasured(self) -> float | None:
        """Seconds of the other side's last turn this board cannot count as its thinking
        (`MatchState.unmeasured`)."""
        with self._lock:
            state = self.state
            return state.unmeasured() if state is not None else None

    def claimed_reason(self, result: str) -> str | None:
        """The other board's reason for ``result``, if it holds that result."""
        with self._lock:
            state = self.state
            return state.claimed_reason(result) if state is not None else None

    def date_to_take(self, game: Game) -> str | None:
        """The white board's ``Date``, for the black board to record (None: the same)."""
        with self._lock:
            state = self.state
            return state.date_to_take(game) if state is not None else None

    def take_refusals(self) -> tuple[str, ...]:
        """The other board's messages refused since the last call (one line each, the
        latest `REFUSALS_KEPT`): the page shows each once, the log has them all."""
        with self._lock:
            taken = tuple(self._refusals)
            self._refusals.clear()
            return taken

    @property
    def conflict(self) -> Message | None:
        """Why the match stopped (None: it goes on)."""
        state = self.state
        return state.conflict if state is not None else None

    # -- the other board's messages and the beats -------------------------------------------

    def _publish_stop(self) -> None:
        """Publish our record now that it says the match stopped (if it changed)."""
        with self._lock:
            state = self.state
            again = state.unpublished() if state is not None else None
        if again is not None and not self._closed.is_set():
            self.transport.publish("record", again)

    def _deliver(self, kind: str, payload: bytes) -> None:
        with self._lock:
            state = self.state
            if state is None:
                return
            refused = state.refused
            refusal = state.receive(kind, payload, self.clock())
            if state.refused > refused and refusal is not None:
                self._refusals.append(refusal)  # (for the page, once: `take_refusals`)
            again = state.unpublished()  # (our refusal of the match, said in our record)
            note = state.take_note()
            self._lock.notify_all()
        if refusal is not None:
            log.warning("%s", refusal)
        if note is not None:
            log.warning("%s", note)
        if again is not None and not self._closed.is_set():
            self.transport.publish("record", again)

    def beat(self) -> None:
        """Say this board is here (and how much of the other's game it holds); send the
        record again when the other board's beat says it lacks some of it."""
        with self._lock:
            state = self.state
            if state is None:
                return
            beat = state.beat()
            again = state.record().to_json() if state.needs_resend() else None
            self._lock.notify_all()  # (a waiting start or move looks again)
        self.transport.publish("beat", beat)
        if again is not None:
            self.transport.publish("record", again)

    def _beat(self) -> None:
        while not self._closed.wait(self.beat_every):
            self.beat()

    def _wait(self, ready: Callable[[MatchState], bool],
              stop: Callable[[], bool] | None) -> None:
        with self._lock:
            while True:
                if self._closed.is_set():
                    raise OpponentGoneError(f"match {self.match}: the board left the match")
                state = self.state
                if state is not None and ready(state):
                    return
                if stop is not None and stop():
                    raise OpponentStoppedError(f"match {self.match}: stopped while waiting "
                                               f"for the board at {other_seat(self.seat)}")
                self._lock.wait(WAIT_STEP)

    def _raise_conflict(self) -> None:
        conflict = self.conflict
        if conflict is not None:
            raise MatchStoppedError(conflict)
