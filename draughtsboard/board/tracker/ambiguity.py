"""A blinking ambiguity and the touch that answers it.

When the landings seen still fit several moves with different results, the squares that
tell them apart blink, and the players answer with a *touch*: a contact of at least
`TOUCH_TIME` on one of them (a piece put down and lifted, or lifted and put back, or left
there that long). A brush or a slide is shorter and never counts. Kept apart from the
tracker so that the definition in time has one home.
"""

from __future__ import annotations

from ..ports import squares_from_mask
from .move_table import MoveShape

TOUCH_TIME = 0.15


class Ambiguity:
    """The candidates of one ambiguous board, the contacts on their squares, the choice."""

    def __init__(self, candidates: list[MoveShape]) -> None:
        self.candidates = candidates
        self.chosen: MoveShape | None = None
        self._contacts: dict[int, tuple[bool, float]] = {}  # square: (closed, since)
        self.common = candidates[0].after_occupancy if candidates else 0

    def signature(self, shape: MoveShape) -> tuple[int, ...]:
        """The landing squares that tell ``shape`` apart from the other candidates: the
        first landing where its path leaves every other candidate's."""
        others = [other for other in self.candidates if other is not shape]
        for index, square in enumerate(shape.landings[:-1]):
            if all(index >= len(o.landings) - 1 or o.landings[index] != square
                   for o in others):
                return (square,)
        return ()

    def squares(self) -> dict[int, MoveShape]:
        """The blinking squares, each with the candidate it picks."""
        out: dict[int, MoveShape] = {}
        for shape in self.candidates:
            for square in self.signature(shape):
                out[square] = shape
        return out

    def observe(self, changed: int, occupied: int, now: float) -> bool:
        """A board changed (``changed``: the squares that flipped): note the contacts on
        the blinking squares; True when a candidate is chosen and the board is back."""
        signatures = self.squares()
        for square in squares_from_mask(changed):
            if square not in signatures:
                continue
            closed = bool(occupied >> (square - 1) & 1)
            before = self._contacts.get(square)
            if before is not None and now - before[1] >= TOUCH_TIME:
                self.chosen = signatures[square]
            self._contacts[square] = (closed, now)
        self.note_held(now)
        return occupied == self.common and self.chosen is not None

    def note_held(self, now: float) -> None:
        """A piece put down on a blinking square (or lifted from it) and left so
        `TOUCH_TIME` picks it."""
        signatures = self.squares()
        for square, (closed, since) in self._contacts.items():
            if square in signatures and now - since >= TOUCH_TIME and \
                    closed != bool(self.common >> (square - 1) & 1):
                self.chosen = signatures[square]
