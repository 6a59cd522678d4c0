"""What each legal move of a position looks like to the switches, computed once per position.

The tracker compares every snapshot with these tables: the occupancy after each legal
move (a completed move), the squares a move may pass or land on while it is being made
(tolerated placements), and the squares it empties (its start and the captured pieces).
Everything is an occupancy mask over square numbers (bit n-1 for square n), the form the
sensors deliver, so the per-snapshot work is a few integer operations and dict lookups.
"""

from __future__ import annotations

from dataclasses import dataclass

from .notation import format_move, traversed_squares
from .ports import mask_from_squares
from .position import Move, Position


@dataclass(frozen=True, slots=True)
class MoveShape:
    """One legal move as the switches see it."""

    move: Move
    notation: str
    after: Position
    after_occupancy: int
    start_bit: int
    end_bit: int
    # Squares the piece passes over or lands on (not the start): placements there are
    # part of showing the move, never an illegal placement.
    passage: int
    # Landing squares in order (start excluded, end last): used to tell apart moves that
    # leave the same occupancy (column games) from the order of placements.
    landings: tuple[int, ...]
    # Captured squares that end up empty, in capture order (in column games a jumped
    # column that keeps pieces stays occupied and is not listed).
    emptied: tuple[int, ...]
    # Every square the move may leave empty along the way: the start and the emptied.
    may_empty: int


class MoveTable:
    """All legal moves of one position, indexed for the tracker."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.occupancy = position.occupancy()
        legal = position.legal_moves()
        self.shapes: list[MoveShape] = []
        self.by_occupancy: dict[int, list[MoveShape]] = {}
        self.by_start: dict[int, list[MoveShape]] = {}
        variant = position.variant
        for move in legal:
            after = position.play(move)
            after_occupancy = after.occupancy()
            emptied = tuple(s for s in move.captures if not (after_occupancy >> (s - 1)) & 1
                            and s != move.end)
            passage = mask_from_squares(traversed_squares(variant, move))
            start_bit = 1 << (move.start - 1)
            shape = MoveShape(
                move=move,
                notation=format_move(position, move, legal),
                after=after,
                after_occupancy=after_occupancy,
                start_bit=start_bit,
                end_bit=1 << (move.end - 1),
                passage=passage,
                landings=move.path[1:],
                emptied=emptied,
                may_empty=start_bit | mask_from_squares(emptied),
            )
            self.shapes.append(shape)
            self.by_occupancy.setdefault(after_occupancy, []).append(shape)
            self.by_start.setdefault(move.start, []).append(shape)
        self.capture_required = bool(legal) and legal[0].is_capture
        self.starts = mask_from_squares(self.by_start)
        own = position.white if position.white_to_move else position.black
        self.own_occupancy = variant.geometry.mask_of_bits(own)

    @property
    def is_game_over(self) -> bool:
        return not self.shapes

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
