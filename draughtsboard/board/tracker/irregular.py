"""Irregular moves: what a player did, in the words of the rules, and the position it made.

The FMJD rules (Annex 1, article 5.4) list the irregularities an opponent may let stand;
presence sensors see those that change which squares are occupied: a piece moved
irregularly, a piece of the side not on turn moved (two moves in a row, or the opponent's
piece), a piece played when a capture is possible, fewer pieces captured than possible
(or a multiple capture stopped), pieces removed that were not jumped or without reason,
own pieces removed, captured pieces left on the board, a move taken back. (Touching one
piece and moving another, a promotion without crowning and a king left uncrowned do not
change the occupancy: the board cannot see them.)

`explain` turns one action of a player (one piece from one square to another, perhaps
with pieces taken off) into an `IrregularAction`: its kind, its text for the arbiter, and
the position it leaves, from which the opponent may play on. An action that no single
piece moved explains (a knocked board) is not an irregular move: `explain` says None.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..message import Message
from ..ports import squares_from_mask
from ..rules.notation import format_square, traversed_squares
from ..rules.position import Move, Position
from .move_table import MoveTable

ARTICLE = "FMJD Annex 1, 5.4"


class Irregularity(Enum):
    """The irregularities of FMJD Annex 1, 5.4 that presence sensors can see."""

    IRREGULAR_MOVE = "a piece moved irregularly"
    NOT_ON_TURN = "a piece of the side not on turn moved (two moves in a row, or the " \
                  "opponent's piece moved)"
    CAPTURE_REQUIRED = "a piece played when a capture is possible"
    FEWER_CAPTURED = "fewer pieces captured than possible, or a multiple capture stopped"
    NOT_JUMPED = "pieces removed that were not jumped"
    WITHOUT_REASON = "pieces removed without reason"
    OWN_REMOVED = "own pieces removed"
    NOT_REMOVED = "fewer pieces removed than captured"
    TAKEBACK = "a move taken back"

    @property
    def comment(self) -> str:
        """The PDN comment of an irregular move that stood."""
        return f"irregular ({ARTICLE}): {self.value}; allowed to stand"


@dataclass(frozen=True)
class IrregularAction:
    """One irregular action: ``path`` (start, end), the squares it took pieces off
    (``removed``), its kind, the arbiter's text and the position it made (``after``,
    the opponent to move; for a takeback, the position before the move taken back)."""

    kind: Irregularity
    path: tuple[int, ...]
    removed: tuple[int, ...]
    notation: str
    description: str
    after: Position

    @property
    def message(self) -> Message:
        """What `description` says, as a message for the page and the arbiter's log:
        "c3-e5: a piece moved irregularly (off the board: d4)"."""
        if self.kind is Irregularity.TAKEBACK:
            return Message.of("irregular.taken_back", move=self.notation)
        kind = Message.of("irregular." + self.kind.name.lower())
        if self.removed:
            return Message.of("irregular.action_off", move=self.notation, kind=kind,
                              squares=[format_square(self.after.variant, s)
                                       for s in self.removed])
        return Message.of("irregular.action", move=self.notation, kind=kind)


def explain(table: MoveTable, removed: int, added: int,
            removal_order: list[int]) -> IrregularAction | None:
    """The irregular action that turns the position of ``table`` into the board (``removed``
    and ``added``: occupancy masks relative to it), or None when no single piece moved
    explains it. ``removal_order`` (squares in the order they emptied) picks the moving
    piece when the squares emptied hold more than one candidate."""
    position = table.position
    variant = position.variant
    if not added or added & (added - 1) or not removed:
        return None
    end = squares_from_mask(added)[0]
    emptied = squares_from_mask(removed)
    start = _mover(position, emptied, end, removal_order)
    if start is None:
        return None
    others = tuple(s for s in emptied if s != start)
    piece = position.piece_at(start)
    assert piece is not None  # the mover's start is among the squares the position fills
    white = piece.lower() == "w"
    kind = _kind(table, start, end, others, white)
    captures = kind in (Irregularity.NOT_REMOVED, Irregularity.FEWER_CAPTURED,
                        Irregularity.NOT_JUMPED)
    separator = variant.capture_separator if captures else "-"
    notation = f"{format_square(variant, start)}{separator}{format_square(variant, end)}"
    description = f"{notation}: {kind.value}"
    if others:
        description += " (off the board: " + ", ".join(
            format_square(variant, s) for s in others) + ")"
    return IrregularAction(kind, (start, end), others, notation, description,
                           moved(position, start, end, others, white))


def jumpable(table: MoveTable, start: int, end: int) -> set[int]:
    """Squares a piece going from ``start`` to ``end`` may have jumped: those between them
    on a diagonal, and those any legal capture from ``start`` takes."""
    out = set(_line(table.position, start, end))
    for shape in table.by_start.get(start, ()):
        out.update(shape.move.captures)
    return out


def takeback(before: Position, notation: str) -> IrregularAction:
    """A move taken back: the board is back in ``before``, the position before it."""
    return IrregularAction(Irregularity.TAKEBACK, (), (), notation,
                           f"{notation} taken back: {Irregularity.TAKEBACK.value}", before)


def _mover(position: Position, emptied: list[int], end: int,
           order: list[int]) -> int | None:
    """The square the moving piece left: the only square emptied; else the one square of
    the side to move's emptied (preferring one on a diagonal with ``end``); else the last
    emptied."""
    if len(emptied) == 1:
        return emptied[0]
    side = "w" if position.white_to_move else "b"
    own = [s for s in emptied if (position.piece_at(s) or " ").lower() == side]
    if len(own) > 1:
        own = [s for s in own if _line(position, s, end)] or own
    if len(own) == 1:
        return own[0]
    lifted = [s for s in order if s in emptied]
    return lifted[-1] if lifted else None


def _kind(table: MoveTable, start: int, end: int, others: tuple[int, ...],
          white: bool) -> Irregularity:
    position = table.position
    if white != position.white_to_move:
        return Irregularity.NOT_ON_TURN
    if any((position.piece_at(s) or " ").lower() == ("w" if white else "b") for s in others):
        return Irregularity.OWN_REMOVED
    line = set(_line(position, start, end))
    from_start = table.by_start.get(start, ())
    enemy = "b" if white else "w"
    if any(shape.move.captures and shape.move.end == end
           and set(others) < set(shape.emptied) for shape in from_start):
        return Irregularity.NOT_REMOVED
    if others:
        if any(shape.move.captures and set(others) <= set(shape.move.captures)
               for shape in from_start) or set(others) <= line:
            return Irregularity.FEWER_CAPTURED
        if any(shape.move.captures and shape.move.end == end for shape in from_start):
            return Irregularity.NOT_JUMPED
        return Irregularity.WITHOUT_REASON
    if any((position.piece_at(s) or " ").lower() == enemy for s in line):
        return Irregularity.FEWER_CAPTURED  # a capture attempted, not one the rules allow
    if table.capture_required:
        return Irregularity.CAPTURE_REQUIRED
    return Irregularity.IRREGULAR_MOVE


def _line(position: Position, start: int, end: int) -> list[int]:
    """The squares from ``start`` to ``end`` when they share a diagonal, else none."""
    geometry = position.variant.geometry
    (f1, r1), (f2, r2) = geometry.coords(start), geometry.coords(end)
    if abs(f1 - f2) != abs(r1 - r2) or start == end:
        return []
    return traversed_squares(position.variant, Move((start, end)))


def moved(position: Position, start: int, end: int, removed: tuple[int, ...],
          white: bool | None = None) -> Position:
    """``position`` with the piece (or column) on ``start`` moved to ``end`` (crowned on
    its far row), the pieces on ``removed`` taken off, and the other side to move."""
    variant = position.variant
    geometry = variant.geometry
    if white is None:
        white = (position.piece_at(start) or "w").lower() == "w"
    far_rank = geometry.size - 1 if white else 0
    crowned = geometry.coords(end)[1] == far_rank
    if position.columns is not None:
        columns = list(position.columns)
        bit = geometry.bit_of_number
        column = columns[bit[start]]
        if crowned and column:
            column = column[0].upper() + column[1:]
        columns[bit[start]] = ""
        for square in removed:
            columns[bit[square]] = ""
        columns[bit[end]] = column
        return Position.from_columns(variant, columns, not white)
    bit_of = geometry.bit_of_number
    start_bit, end_bit = 1 << bit_of[start], 1 << bit_of[end]
    gone = 0
    for square in removed:
        gone |= 1 << bit_of[square]
    whites, blacks, kings = position.white, position.black, position.kings
    was_king = bool(kings & start_bit)
    whites &= ~(start_bit | gone)
    blacks &= ~(start_bit | gone)
    kings &= ~(start_bit | gone | end_bit)
    if white:
        whites |= end_bit
    else:
        blacks |= end_bit
    if was_king or crowned:
        kings |= end_bit
    return Position(variant, whites, blacks, kings, not white)


def with_side(position: Position, white_to_move: bool) -> Position:
    """``position`` with ``white_to_move`` (an arbiter names the side to move)."""
    if position.white_to_move == white_to_move:
        return position
    return Position(position.variant, position.white, position.black, position.kings,
                    white_to_move, position.columns)


def without(position: Position, removed: int) -> Position:
    """``position`` with the pieces (or columns) on the squares of mask ``removed`` gone."""
    geometry = position.variant.geometry
    gone = 0
    for square in squares_from_mask(removed):
        gone |= 1 << geometry.bit_of_number[square]
    if position.columns is not None:
        columns = [("" if gone >> bit & 1 else column)
                   for bit, column in enumerate(position.columns)]
        return Position.from_columns(position.variant, columns, position.white_to_move)
    return Position(position.variant, position.white & ~gone, position.black & ~gone,
                    position.kings & ~gone, position.white_to_move)
