"""Move notation: the variant's squares, short and long move forms, tolerant reading.

Writing follows PDN 3.0: the short form (start and end: ``32-28``, ``28x19``, Russian
``c3-d4``, ``c3:e5``) unless another legal move has the same start and end, then the
long form with every landing square (``28x19x10``); column games always write every
landing square, since different capture orders build different columns.

Reading is tolerant: ``x`` or ``:`` for a capture, ``-`` accepted too, spaces around the
separators (``47x 9``, ``1- 7``), numbers or algebraic names. The given squares must be the
start, the end and, in order, any squares the piece passes through; a text that fits more
than one legal move is an `AmbiguousMoveError` listing them, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveSyntaxError
from .position import Move, Position
from .variants import Variant

_SEPARATOR = re.compile(r"\s*[-x:×]\s*", re.IGNORECASE)
_TOKEN = re.compile(r"^(?:\d{1,2}|[a-z]\d{1,2})$", re.IGNORECASE)


def format_square(variant: Variant, number: int) -> str:
    """A square as the variant writes it: algebraic (``c3``) or its number (``32``)."""
    return variant.geometry.name(number) if variant.algebraic_moves else str(number)


def parse_square(variant: Variant, token: str) -> int:
    """A square number from a number or an algebraic name; `InvalidMoveSyntaxError` if
    it is neither or not a playable square."""
    token = token.strip()
    geometry = variant.geometry
    if token.isdigit():
        number = int(token)
        if 1 <= number <= geometry.square_count:
            return number
        raise InvalidMoveSyntaxError(
            f"square {token!r} is not on the board (1-{geometry.square_count})")
    try:
        return geometry.number_of_name(token.lower())
    except KeyError:
        raise InvalidMoveSyntaxError(f"{token!r} is not a playable square") from None


def format_move(position: Position, move: Move, legal: Sequence[Move] | None = None) -> str:
    """PDN text of a legal move in ``position``."""
    variant = position.variant
    separator = variant.capture_separator if move.captures else "-"
    long_form = move.captures and (
        variant.full_capture_path
        or _shares_start_and_end(move, position.legal_moves() if legal is None else legal))
    squares = move.path if long_form else (move.start, move.end)
    return separator.join(format_square(variant, square) for square in squares)


def _shares_start_and_end(move: Move, legal: Sequence[Move]) -> bool:
    return any(other != move and other.start == move.start and other.end == move.end
               for other in legal)


def split_move(variant: Variant, text: str) -> list[int]:
    """The squares of a move text, in order; `InvalidMoveSyntaxError` when it is not one."""
    stripped = text.strip()
    tokens = _SEPARATOR.split(stripped)
    if len(tokens) < 2 or not all(_TOKEN.match(token) for token in tokens):
        raise InvalidMoveSyntaxError(f"not a move: {text!r}")
    return [parse_square(variant, token) for token in tokens]


def parse_move(position: Position, text: str) -> Move:
    """The legal move a text denotes; `InvalidMoveSyntaxError`, `IllegalMoveError` or
    `AmbiguousMoveError` otherwise."""
    squares = split_move(position.variant, text)
    legal = position.legal_moves()
    candidates = [move for move in legal if _fits(position, move, squares)]
    if len(candidates) > 1:
        # A text that lists every landing square names that path, even where another
        # capture passes over the same squares on its way.
        exact = [move for move in candidates if list(move.path) == squares]
        if len(exact) == 1:
            candidates = exact
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise IllegalMoveError(text.strip(), position.fen(), _why_illegal(position, squares))
    raise AmbiguousMoveError(text.strip(), position.fen(),
                             [format_move(position, move, legal) for move in candidates])


def _fits(position: Position, move: Move, squares: list[int]) -> bool:
    if move.start != squares[0] or move.end != squares[-1]:
        return False
    middle = squares[1:-1]
    if not middle:
        return True
    passed = iter(traversed_squares(position.variant, move))
    return all(any(square == seen for seen in passed) for square in middle)


def traversed_squares(variant: Variant, move: Move) -> list[int]:
    """Every square the moving piece passes over or lands on after its start, in order."""
    geometry = variant.geometry
    out: list[int] = []
    for here, there in zip(move.path, move.path[1:], strict=False):
        file, rank = geometry.coords(here)
        to_file, to_rank = geometry.coords(there)
        step_file = (to_file > file) - (to_file < file)
        step_rank = (to_rank > rank) - (to_rank < rank)
        while (file, rank) != (to_file, to_rank):
            file, rank = file + step_file, rank + step_rank
            if (file + rank) % 2 == 0:
                out.append(geometry.number_at(file, rank))
    return out


def _why_illegal(position: Position, squares: list[int]) -> str:
    variant = position.variant
    start = squares[0]
    piece = position.piece_at(start)
    name = format_square(variant, start)
    if piece is None:
        return f"no piece on {name}"
    if (piece.lower() == "w") != position.white_to_move:
        return f"the piece on {name} is not the side to move's"
    legal = position.legal_moves()
    if legal and legal[0].captures and not any(m.start == start for m in legal):
        return "a capture is required elsewhere"
    return f"the piece on {name} cannot go there"
