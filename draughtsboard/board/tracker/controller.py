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
from .leds import render
from .tracker import LedEvent, Tracker, TrackerEvent

RecordCallback = Callable[[TrackerEvent], None]


class Controller:
    """Feeds the tracker from a sensor source, hands move events to the record callback and
    shows the LED frames (see the module doc)."""
    def __init__(self, source: SensorSource, tracker: Tracker, leds: LedSink,
                 record: RecordCallback | None = None, *, tick_interval: float = 0.1) -> None:
        self.source = source
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

    def _dispatch(self, events: list[TrackerEvent]) -> list[TrackerEvent]:
        for event in events:
            if isinstance(event, LedEvent):
                self.leds.show(render(event.intents, self.square_count))
            elif self.record is not None:
                self.record(event)
        return events

    def run(self, clock: Callable[[], float]) -> None:
        """Feed snapshots until `stop`; between them let time pass for the tracker."""
        self.leds.show(render(self.tracker.intents, self.square_count))
        while not self._stopped:
            snapshot = self.source.read(timeout=self.tick_interval)
            if snapshot is not None:
                self.handle(snapshot)
            else:
                self.tick(clock())
