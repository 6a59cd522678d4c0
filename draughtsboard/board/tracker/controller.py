"""The controller: each snapshot it is given -> tracker -> game record and LEDs.

It owns no thread, reads no sensor and does no I/O of its own: whoever drives it (the
play session's controller thread, a test in virtual time) hands it snapshots and the
time; the record callback writes the journal, the LED sink drives the LEDs. Every move
event reaches the record callback, which returns only once the move is on stable
storage, *before* the LED frame that confirms it is shown.
"""

from __future__ import annotations

from collections.abc import Callable

from ..ports import LedSink, Snapshot
from ..rules.position import Move, Position
from .events import IRREGULARITY_INTENTS
from .leds import render
from .states import State
from .tracker import LedEvent, Tracker, TrackerEvent

RecordCallback = Callable[[TrackerEvent], None]


class Controller:
    """Feeds the tracker, hands its events to the record callback and shows the LED
    frames (see the module doc)."""
    def __init__(self, tracker: Tracker, leds: LedSink,
                 record: RecordCallback | None = None, *,
                 dark_irregularities: bool = False) -> None:
        # The organiser keeps irregularities off the board (tournament): the arbiter's
        # page shows them, the board's LEDs do not.
        self.dark_irregularities = dark_irregularities
        self.tracker = tracker
        self.leds = leds
        self.record = record
        self.square_count = tracker.position.variant.geometry.square_count

    def handle(self, snapshot: Snapshot) -> list[TrackerEvent]:
        """One snapshot through the tracker, the record and the LEDs."""
        return self._dispatch(self.tracker.feed(snapshot))

    def tick(self, now: float) -> list[TrackerEvent]:
        return self._dispatch(self.tracker.tick(now))

    def accept(self, position: Position, now: float) -> list[TrackerEvent]:
        """The arbiter's position (a correction, or a take-back): the tracker goes on
        from it; the LEDs show what differs until the board matches."""
        return self._dispatch(self.tracker.accept(position, now))

    def expect(self, position: Position, move: Move | None,
               now: float) -> list[TrackerEvent]:
        """The opponent's move to carry out in ``position`` (None: it thinks): the board
        takes only that move there, and the LEDs show it."""
        return self._dispatch(self.tracker.expect(position, move, now))

    def _frame_of(self, intents: dict[str, tuple[int, ...]]):
        if self.dark_irregularities and self.tracker.state is State.ILLEGAL:
            intents = {k: v for k, v in intents.items() if k not in IRREGULARITY_INTENTS}
        return render(intents, self.square_count)

    def _dispatch(self, events: list[TrackerEvent]) -> list[TrackerEvent]:
        for event in events:
            if isinstance(event, LedEvent):
                self.leds.show(self._frame_of(event.intents))
            elif self.record is not None:
                self.record(event)
        return events
