"""An irregular move flagged under the fmjd policy, waiting for the opponent's decision.

The switches may read one board two ways (a capture with a piece left on and the
opponent lifting one of his, or the capturer taking the wrong piece off; a capture
stopped, or finished with a piece the opponent lifted): every reading is kept, each with
the position it made, until the opponent's playing on (a legal move from exactly one of
them) tells which it was. A reading whose position the board settles on becomes the
first. What counts as played after the flag must have put its piece down after it, and
not before its start emptied: a piece lands only after it has left (a square filled
first and another emptied later are two hands, as when snapshots were lost on a line and
the board is further on than the readings know).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from ..ports import squares_from_mask
from ..rules.position import Position
from .irregular import IrregularAction, Irregularity, explain, jumpable
from .move_table import MoveShape, MoveTable

MAX_READINGS = 4


class PendingIrregularity:
    """The readings of a flagged irregular move and the squares changed since the flag."""

    def __init__(self, readings: list[IrregularAction], before: MoveTable,
                 table_of: Callable[[Position], MoveTable], flagged_board: int) -> None:
        self.before = before  # the position the irregular move was made from
        self._table_of = table_of
        self.readings: list[tuple[IrregularAction, MoveTable]] = [
            (reading, table_of(reading.after)) for reading in readings]
        self._previous = flagged_board
        # what the opponent has done already, if he has begun to play on
        self.changed = 0
        for reading in readings:
            self.changed |= flagged_board ^ reading.after.occupancy()
        # boards seen since the flag (0: the flagged one), and for each square the board
        # that last emptied or filled it
        self._boards = 0
        self._emptied_at: dict[int, int] = {}
        self._filled_at: dict[int, int] = {}

    def copy(self) -> PendingIrregularity:
        """An independent copy (the tracker's classification observes a board on one)."""
        other = copy.copy(self)
        other.readings = list(self.readings)
        other._emptied_at = dict(self._emptied_at)
        other._filled_at = dict(self._filled_at)
        return other

    @property
    def action(self) -> IrregularAction:
        """The first reading (the one the flag names first)."""
        return self.readings[0][0]

    def observe(self, occupied: int, removal_order: list[int]) -> MoveShape | None:
        """A new board while flagged: the opponent's move from exactly one reading, once
        made (the reading it proves becomes the first), else None."""
        self._note_order(occupied)
        self.changed |= occupied ^ self._previous
        self._previous = occupied
        self._follow_the_mover(occupied, removal_order)
        for index, (_, table) in enumerate(self.readings):
            if index and table.occupancy == occupied:  # the board settles on this one
                self.readings.insert(0, self.readings.pop(index))
                break
        played_on = [(index, shape) for index, (_, table) in enumerate(self.readings)
                     for shape in table.by_occupancy.get(occupied, ())
                     if self.changed & shape.end_bit and self._in_order(shape)]
        if len(played_on) != 1:
            return None
        index, shape = played_on[0]
        self.readings.insert(0, self.readings.pop(index))
        return shape

    def corrected(self, occupied: int) -> MoveShape | None:
        """A legal move from the position itself, made after the flag (the irregular move
        corrected on the board), else None."""
        shapes = [shape for shape in self.before.by_occupancy.get(occupied, ())
                  if self.changed & shape.end_bit and self._in_order(shape)]
        return shapes[0] if len(shapes) == 1 else None

    def _note_order(self, occupied: int) -> None:
        self._boards += 1
        previous, board = self._previous, self._boards
        for square in squares_from_mask(previous & ~occupied):
            self._emptied_at[square] = board
        for square in squares_from_mask(occupied & ~previous):
            self._filled_at[square] = board

    def _in_order(self, shape: MoveShape) -> bool:
        """Whether the move's start emptied no later than its end last filled (in the
        same board at the latest); a start already empty at the flag counts as first."""
        return self._emptied_at.get(shape.move.start, 0) <= \
            self._filled_at.get(shape.move.end, 0)

    def _follow_the_mover(self, occupied: int, removal_order: list[int]) -> None:
        """The player may still be finishing his irregular move (a captured piece taken
        off after the flag), or the opponent lifted a piece the mover could have taken:
        both readings are kept."""
        first = self.action
        if first.kind is Irregularity.TAKEBACK or len(self.readings) >= MAX_READINGS:
            return
        table = self.before
        action = explain(table, table.occupancy & ~occupied, occupied & ~table.occupancy,
                         removal_order)
        if (action is not None and action.path == first.path
                and set(first.removed) < set(action.removed)
                and set(action.removed) <= jumpable(table, *action.path)
                and action.after not in {r.after for r, _ in self.readings}):
            self.readings.append((action, self._table_of(action.after)))
