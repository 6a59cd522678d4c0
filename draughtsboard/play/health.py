"""Switches that look stuck, for the board's health report to the hall.

A reed switch that sticks closed (a piece no one can see) or open (a piece the board
cannot see) shows first as a disturbed position, which the players and the arbiter put
right by hand; when putting it right does not help, the arbiter wants the square named.
`SwitchWatch` is shown the board's switches and the position they should show whenever
the health report is made, and names every square whose switch disagreed at every look
for `STUCK_AFTER` seconds. It cannot tell a stuck switch from a piece left off the board
for that long, so the report says "suspect". Pure: time is an input.
"""

from __future__ import annotations

from typing import Any

STUCK_AFTER = 90.0  # seconds of disagreement at every look before a square is named


class SwitchWatch:
    """Per square, since when its switch has disagreed with the expected position."""

    def __init__(self, stuck_after: float = STUCK_AFTER) -> None:
        self.stuck_after = stuck_after
        self._since: dict[int, float] = {}
        self._occupied = 0

    def look(self, now: float, occupied: int, expected: int) -> None:
        """One look: the switches (a bit per square, square 1 the lowest) and the
        position they should show."""
        differing = occupied ^ expected
        self._since = {square: since for square, since in self._since.items()
                       if differing >> (square - 1) & 1}
        square = 1
        while differing >> (square - 1):
            if differing >> (square - 1) & 1:
                self._since.setdefault(square, now)
            square += 1
        self._occupied = occupied

    def suspects(self, now: float) -> list[dict[str, Any]]:
        """The squares that have disagreed for `stuck_after` seconds or more:
        ``{"square", "closed", "seconds"}`` each, by square."""
        return [{"square": square, "closed": bool(self._occupied >> (square - 1) & 1),
                 "seconds": round(now - since)}
                for square, since in sorted(self._since.items())
                if now - since >= self.stuck_after]
