"""Per-square debouncing as whole-board bit operations.

A reed switch bounces for a millisecond or two when a piece lands, and a hand brushing
past can close one for a single scan. A square's debounced state changes only after
``count`` consecutive scans agree on the new level. The work is a handful of integer
operations per scan whatever the board size, and nothing at all while the board is
quiet, which is what keeps a million-scan replay cheap.
"""

from __future__ import annotations


def _squares(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length()
        mask ^= low


class Debouncer:
    """Turns raw scans (bit ``n - 1`` for square ``n``) into debounced occupancy."""

    __slots__ = ("count", "stable", "pending", "_runs", "primed", "_scans",
                 "changes", "bounces", "changes_by_square", "bounces_by_square",
                 "together_by_square")

    def __init__(self, count: int = 3) -> None:
        if count < 1:
            raise ValueError(f"debounce count must be at least 1, got {count}")
        self.count = count
        self.stable = 0
        self.pending = 0  # squares whose raw level differs from ``stable`` right now
        # _runs[k]: squares that have differed for at least k + 1 consecutive scans.
        self._runs = [0] * count
        self.primed = False  # True once the first ``count`` scans have been seen
        self._scans = 0
        self.changes = 0
        self.bounces = 0
        self.changes_by_square: dict[int, int] = {}
        self.bounces_by_square: dict[int, int] = {}
        # square -> mask of the squares that changed in the same scan at every one of its
        # changes (diagnostics: two bridged wires make squares change in pairs)
        self.together_by_square: dict[int, int] = {}

    def update(self, raw: int) -> int:
        """Feed one raw scan; return the mask of squares whose debounced state changed."""
        counting = self.primed  # the first reading of the board is not a change
        if not counting:
            self._scans += 1
            if self._scans >= self.count:
                self.primed = True
        diff = raw ^ self.stable
        if not diff:
            if self.pending:
                self._bounced(self.pending)
                self.pending = 0
                self._runs = [0] * self.count
            return 0
        if self.pending & ~diff:
            self._bounced(self.pending & ~diff)
        runs = self._runs
        previous = diff
        runs_new = [diff]
        for k in range(1, self.count):
            previous = runs[k - 1] & diff
            runs_new.append(previous)
        accepted = runs_new[-1]
        if accepted:
            self.stable ^= accepted
            runs_new = [r & ~accepted for r in runs_new]
        if accepted and counting:
            self.changes += accepted.bit_count()
            by_square = self.changes_by_square
            together = self.together_by_square
            for square in _squares(accepted):
                by_square[square] = by_square.get(square, 0) + 1
                together[square] = together.get(square, accepted) & accepted
        self._runs = runs_new
        self.pending = diff & ~accepted
        return accepted

    def _bounced(self, mask: int) -> None:
        self.bounces += mask.bit_count()
        by_square = self.bounces_by_square
        for square in _squares(mask):
            by_square[square] = by_square.get(square, 0) + 1
