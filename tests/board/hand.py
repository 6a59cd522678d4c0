"""A scripted hand for tracker tests: lifts and places pieces by algebraic square name and
feeds the debounced occupancy to a tracker, in virtual time."""

from draughtsboard.board.ports import Snapshot


class TrackerHand:
    def __init__(self, tracker, step=0.05, missing=()):
        self.tracker = tracker
        self.geometry = tracker.position.variant.geometry
        self.occupied = tracker.position.occupancy()
        for name in missing:
            self.occupied &= ~self._bit(name)
        self.now = 0.0
        self.step = step
        self.events = []
        self._feed()

    def _bit(self, name):
        return 1 << (self.geometry.number_of_name(name) - 1)

    def _feed(self):
        self.now += self.step
        self.events.extend(self.tracker.feed(Snapshot(self.occupied, self.now)))

    def lift(self, *names):
        for name in names:
            self.occupied &= ~self._bit(name)
            self._feed()
        return self

    def place(self, *names):
        for name in names:
            self.occupied |= self._bit(name)
            self._feed()
        return self

    def change(self, lift=(), place=()):
        """Lift and place several pieces in one snapshot (the snapshots between them lost
        on a serial line, or a hand faster than the scan)."""
        for name in lift:
            self.occupied &= ~self._bit(name)
        for name in place:
            self.occupied |= self._bit(name)
        self._feed()
        return self

    def move(self, start, *landings, rest=0.15):
        """Lift ``start`` and put the piece down on each landing square in turn, resting
        ``rest`` seconds on each before it is lifted again (a slide rests 0)."""
        self.lift(start)
        for index, square in enumerate(landings):
            self.place(square)
            if index < len(landings) - 1:
                self.now += rest
                self.lift(square)
        return self

    def wait(self, seconds):
        self.now += seconds
        self.events.extend(self.tracker.tick(self.now))
        return self

    # -- what happened ------------------------------------------------------------------

    def moves(self):
        return [e.notation for e in self.events if e.kind == "move"]

    def flags(self, kind=None):
        return [e for e in self.events if e.kind in ((kind,) if kind else ("illegal",
                                                                           "disturbed"))]

    def names(self, squares):
        return sorted(self.geometry.name(s) for s in squares)

    def intent(self, name):
        return self.names(self.tracker.intents.get(name, ()))
