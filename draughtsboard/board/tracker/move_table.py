"""What each legal move of a position looks like to the switches, computed once per position.

The tracker compares every snapshot with these tables: the occupancy after each legal
move (a completed move), the squares a move may pass or land on while it is being made
(tolerated placements), and the squares it empties (its start and the captured pieces).
Everything is an occupancy mask over square numbers (bit n-1 for square n), the form the
sensors deliver, so the per-snapshot work is a few integer operations and dict lookups.
"""

from __future__ import annotations

import copy

from ..ports import mask_from_squares
from ..rules.notation import format_move, traversed_squares
from ..rules.position import Move, Position


class MoveShape:
    """One legal move as the switches see it. The position after it and its notation are
    worked out only when needed (the move is played, or shown)."""

    __slots__ = ("move", "start_bit", "end_bit", "after_occupancy", "passage", "landings",
                 "landing_mask", "emptied", "may_empty", "_before", "_after", "_notation")

    def __init__(self, before: Position, move: Move, occupancy: int) -> None:
        self.move = move
        self._before = before
        self._after: Position | None = None
        self._notation: str | None = None
        self.start_bit = 1 << (move.start - 1)
        self.end_bit = 1 << (move.end - 1)
        # Captured squares that end up empty, in capture order (in column games a jumped
        # column that keeps pieces stays occupied and is not listed).
        self.emptied = tuple(s for s in move.captures if len(before.column_at(s)) == 1)
        emptied_mask = mask_from_squares(self.emptied)
        self.after_occupancy = (occupancy & ~self.start_bit & ~emptied_mask) | self.end_bit
        # Squares the piece passes over or lands on (not the start): placements there are
        # part of showing the move, never an illegal placement.
        self.passage = mask_from_squares(traversed_squares(before.variant, move))
        # Landing squares in order (end last): they tell apart moves that leave the same
        # occupancy (column games) from the order of placements.
        self.landings = move.path[1:]
        self.landing_mask = mask_from_squares(self.landings)
        # Every square the move may leave empty along the way: the start and the emptied.
        self.may_empty = self.start_bit | emptied_mask

    @property
    def after(self) -> Position:
        if self._after is None:
            self._after = self._before.play(self.move)
        return self._after

    @property
    def notation(self) -> str:
        if self._notation is None:
            self._notation = format_move(self._before, self.move)
        return self._notation


class MoveTable:
    """All legal moves of one position, indexed for the tracker."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.occupancy = position.occupancy()
        legal = position.legal_moves()
        self.shapes: list[MoveShape] = []
        self.by_occupancy: dict[int, list[MoveShape]] = {}
        self.by_start: dict[int, list[MoveShape]] = {}
        for move in legal:
            shape = MoveShape(position, move, self.occupancy)
            self.shapes.append(shape)
            self.by_occupancy.setdefault(shape.after_occupancy, []).append(shape)
            self.by_start.setdefault(move.start, []).append(shape)
        self.capture_required = bool(legal) and legal[0].is_capture
        self.starts = mask_from_squares(self.by_start)
        own = position.white if position.white_to_move else position.black
        self.own_occupancy = position.variant.geometry.mask_of_bits(own)
        self.legal_count = len(legal)  # the position's, also in a table limited to fewer
        self.limited = False

    @property
    def is_game_over(self) -> bool:
        """Whether the side to move has no legal move (in the position: a table limited
        to the opponent's move, or to none while it thinks, is not a game over)."""
        return not self.legal_count

    def limited_to(self, moves: tuple[Move, ...]) -> MoveTable:
        """This table with only ``moves`` (legal moves of its position) accepted: the
        opponent's turn, where the board takes only the move the opponent chose, and
        none while it thinks. Everything else (the position, its occupancy, whether a
        capture is required, whether the game is over) stays the position's."""
        table = copy.copy(self)
        table.shapes = [shape for shape in self.shapes if shape.move in moves]
        table.by_occupancy, table.by_start = {}, {}
        for shape in table.shapes:
            table.by_occupancy.setdefault(shape.after_occupancy, []).append(shape)
            table.by_start.setdefault(shape.move.start, []).append(shape)
        table.starts = mask_from_squares(table.by_start)
        table.limited = True
        return table

    def consistent(self, removed: int, added: int) -> list[MoveShape]:
        """Moves that the in-between state (squares emptied and filled relative to this
        position) could be part of: one piece lifted from the move's start, at most one
        square filled and that on the move's passage, the rest of the emptied squares
        among the pieces the move captures."""
        if added & (added - 1):
            return []
        out = []
        for shape in self.shapes:
            if removed & ~shape.may_empty:
                continue
            if added and (not removed & shape.start_bit or added & ~shape.passage):
                continue
            out.append(shape)
        return out


class MoveTableCache:
    """The move tables of the positions the tracker meets, built once each.

    The tracker looks tables up for the position, the positions after its legal moves
    (is the game over? what does the reply look like?) and the position before the last
    move (takebacks, amendments). Bounded: past ``limit`` tables the cache starts afresh,
    so a long game runs in constant memory (tables are cheap to rebuild)."""

    def __init__(self, limit: int = 64) -> None:
        self.limit = limit
        self._tables: dict[Position, MoveTable] = {}

    def of(self, position: Position) -> MoveTable:
        """The move table of ``position`` (built on first use)."""
        table = self._tables.get(position)
        if table is None:
            if len(self._tables) >= self.limit:
                self._tables.clear()
            table = self._tables[position] = MoveTable(position)
        return table
