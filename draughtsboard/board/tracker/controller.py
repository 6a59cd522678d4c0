"""The controller: sensors -> tracker -> game record and LEDs, until stopped.

It owns no thread and does no I/O of its own: the sensor source blocks in ``read``, the
record callback writes the journal, the LED sink drives the LEDs, and whoever builds the
controller (``draughtsboard.cli``) chooses them. Every move event reaches the record
callback, which returns only once the move is on stable storage, *before* the LED frame
that confirms it is shown.
"""

from __future__ import annotations

from collections.abc import Callable

from ..ports import LedSink, SensorSource, Snapshot
from ..rules.position import Position
from .events import IRREGULARITY_INTENTS
from .leds import render
from .states import State
from .tracker import LedEvent, Tracker, TrackerEvent

RecordCallback = Callable[[TrackerEvent], None]


class Controller:
    """Feeds the tracker from a sensor source, hands move events to the record callback and
    shows the LED frames (see the module doc)."""
    def __init__(self, source: SensorSource, tracker: Tracker, leds: LedSink,
                 record: RecordCallback | None = None, *, tick_interval: float = 0.1,
                 dark_irregularities: bool = False) -> None:
        self.source = source
        # The organiser keeps irregularities off the board (tournament): the arbiter's
        # page shows them, the board's LEDs do not.
        self.dark_irregularities = dark_irregularities
        self.tracker = tracker
        self.leds = leds
        self.record = record
        self.tick_interval = tick_interval
        self.square_count = tracker.position.variant.geometry.square_count
        self._stopped = False

    def stop(self) -> None:
        """Ask `run` to return after the snapshot it is handling (safe from any thread)."""
        self._stopped = True

    def handle(self, snapshot: Snapshot) -> list[TrackerEvent]:
        """One snapshot through the tracker, the record and the LEDs."""
        return self._dispatch(self.tracker.feed(snapshot))

    def tick(self, now: float) -> list[TrackerEvent]:
        return self._dispatch(self.tracker.tick(now))

    def accept(self, position: Position, now: float) -> list[TrackerEvent]:
        """The arbiter's position (a correction, or a take-back): the tracker goes on
        from it; the LEDs show what differs until the board matches."""
        return self._dispatch(self.tracker.accept(position, now))

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

    def run(self, clock: Callable[[], float]) -> None:
        """Feed snapshots until `stop`; between them let time pass for the tracker."""
        self.leds.show(self._frame_of(self.tracker.intents))
        while not self._stopped:
            snapshot = self.source.read(timeout=self.tick_interval)
            if snapshot is not None:
                self.handle(snapshot)
            else:
                self.tick(clock())
