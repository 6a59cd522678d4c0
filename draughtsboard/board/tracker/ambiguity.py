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
# A piece put back on the start of a capture that went straight to its end is a touch if
# it leaves again within this time; left there, the board is back as it was (no move).
START_TOUCH_LIMIT = 1.0


class Ambiguity:
    """The candidates of one ambiguous board, the contacts on their squares, the choice."""

    def __init__(self, candidates: list[MoveShape]) -> None:
        self.candidates = candidates
        self.chosen: MoveShape | None = None
        self._contacts: dict[int, tuple[bool, float]] = {}  # square: (closed, since)
        self.common = candidates[0].after_occupancy if candidates else 0

    def copy(self) -> Ambiguity:
        """An independent copy (the tracker's classification notes contacts on one)."""
        other = Ambiguity(self.candidates)
        other.chosen = self.chosen
        other._contacts = dict(self._contacts)
        return other

    def signature(self, shape: MoveShape) -> tuple[int, ...]:
        """The squares that tell ``shape`` apart from the other candidates: the first
        landing where its path leaves every other candidate's. A capture that went
        straight to its end, with no landing of its own, is told by its start square (the
        piece put back there for a moment), when it is the only such candidate."""
        others = [other for other in self.candidates if other is not shape]
        for index, square in enumerate(shape.landings[:-1]):
            if all(index >= len(o.landings) - 1 or o.landings[index] != square
                   for o in others):
                return (square,)
        if shape.move.start != shape.move.end and all(
                self._landing_signature(other) for other in others):
            return (shape.move.start,)
        return ()

    def _landing_signature(self, shape: MoveShape) -> bool:
        others = [other for other in self.candidates if other is not shape]
        return any(all(index >= len(o.landings) - 1 or o.landings[index] != square
                       for o in others)
                   for index, square in enumerate(shape.landings[:-1]))

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

    @property
    def start_square(self) -> int | None:
        """The start square, when it is blinking (a capture that went straight to its
        end is told by it)."""
        for shape in self.candidates:
            if self.signature(shape) == (shape.move.start,):
                return shape.move.start
        return None

    def held_on_start(self, now: float) -> float:
        """How long a piece has been down on the blinking start square (0: it is not)."""
        start = self.start_square
        contact = self._contacts.get(start) if start is not None else None
        if contact is None or not contact[0]:
            return 0.0
        return now - contact[1]
