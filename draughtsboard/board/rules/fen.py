"""Position text: reading PDN 3.0 FEN, and the column games' position text.

* FEN, for single-piece games: ``W:W31-50:B1-20``: side to move, then each side's
  squares, ``K`` before a king, ranges of numbers allowed. Russian squares may be numbers
  (1 = b8) or algebraic (``c3``).
* Column games: ``W:a1=w,c3=wbB,...``: side to move, then each occupied square as
  ``square=column``, the column listed top first (``w``/``b`` men, ``W``/``B`` officers);
  squares algebraic or by the variant's numbers (docs/columns.md).

Reading is tolerant (spaces, a trailing full stop, sections in either order, lidraughts'
``H``/``F`` counters ignored). Writing is the position's own job (`Position.fen`, always
canonical); `format_fen` is the same as a function.
"""

from __future__ import annotations

import re
from functools import cache

from .columns import PIECES
from .errors import InvalidFenError, InvalidPositionError
from .geometry import Geometry, iter_bits
from .position import Position
from .variants import Variant

_SQUARE = re.compile(r"^(K?)([a-z]\d{1,2}|\d{1,2})(?:-(\d{1,2}))?$", re.IGNORECASE)
_COUNTER = re.compile(r"^[HF]\d+$", re.IGNORECASE)
_COLUMN_TOKEN = re.compile(r"^([a-z]\d{1,2}|\d{1,3})\s*[=:]\s*(.*)$", re.IGNORECASE)


@cache
def initial_position(variant: Variant) -> Position:
    """The start position of a variant (read once from its ``initial_fen``)."""
    return parse_fen(variant, variant.initial_fen)


def format_fen(position: Position) -> str:
    """The canonical text of a position (`Position.fen`)."""
    return position.fen()


def parse_start_fen(variant: Variant, text: str) -> Position:
    """A position a new game can start from: as `parse_fen`, and `InvalidPositionError`
    when the game would be over before its first move (a side with no piece, or the side
    to move with no legal move: an empty board ``W:W:B`` among them)."""
    position = parse_fen(variant, text)
    if position.is_game_over():
        raise InvalidPositionError(f"FEN {text.strip()!r}: a game cannot start here, the side "
                                   "to move has no piece or no legal move")
    return position


def parse_fen(variant: Variant, text: str) -> Position:
    """Read a position; `InvalidFenError` for bad syntax, `InvalidPositionError` for an
    impossible position. Both messages quote the offending part."""
    if variant.holds_columns:
        return parse_column_text(variant, text)
    source = text
    text = text.strip().rstrip(".").strip().strip('"').strip()
    if not text:
        raise InvalidFenError("empty FEN")
    sections = [part.strip() for part in text.split(":")]
    side = sections[0].upper()
    if side not in ("W", "B"):
        raise InvalidFenError(f"FEN {source!r}: side to move must be W or B, got {sections[0]!r}")
    pieces: dict[int, str] = {}
    seen_colours = set()
    for section in sections[1:]:
        if not section or _COUNTER.match(section):
            continue
        colour = section[0].upper()
        if colour not in ("W", "B"):
            raise InvalidFenError(f"FEN {source!r}: section {section!r} must start with W or B")
        if colour in seen_colours:
            raise InvalidFenError(f"FEN {source!r}: two sections for {colour}")
        seen_colours.add(colour)
        for token in section[1:].split(","):
            token = token.strip().replace(" ", "")
            if not token:
                continue
            match = _SQUARE.match(token)
            if not match:
                raise InvalidFenError(f"FEN {source!r}: bad square {token!r}")
            king, first, last = match.groups()
            numbers = _expand(variant, source, token, first, last)
            for number in numbers:
                if number in pieces:
                    raise InvalidPositionError(
                        f"FEN {source!r}: square {_square_name(variant, number)} given twice")
                pieces[number] = (colour if king else colour.lower())
    position = _build(variant, pieces, side == "W")
    _validate(variant, position, source)
    return position


def _expand(variant: Variant, source: str, token: str, first: str, last: str | None) -> list[int]:
    geometry = variant.geometry
    if first.isdigit():
        start = int(first)
        end = int(last) if last else start
        if not (1 <= start <= geometry.square_count and 1 <= end <= geometry.square_count):
            raise InvalidFenError(
                f"FEN {source!r}: square {token!r} is not on the board "
                f"(1-{geometry.square_count})")
        if end < start:
            raise InvalidFenError(f"FEN {source!r}: range {token!r} runs backwards")
        return list(range(start, end + 1))
    if last:
        raise InvalidFenError(f"FEN {source!r}: ranges need numbers, got {token!r}")
    try:
        return [geometry.number_of_name(first.lower())]
    except KeyError:
        raise InvalidFenError(f"FEN {source!r}: {first!r} is not a playable square") from None


def _build(variant: Variant, pieces: dict[int, str], white_to_move: bool) -> Position:
    bit_of = variant.geometry.bit_of_number
    white = black = kings = 0
    for number, piece in pieces.items():
        bit = 1 << bit_of[number]
        if piece in "wW":
            white |= bit
        else:
            black |= bit
        if piece.isupper():
            kings |= bit
    return Position(variant, white, black, kings, white_to_move)


def _validate(variant: Variant, position: Position, source: str) -> None:
    geometry = variant.geometry
    limit = variant.pieces_per_side
    for name, pieces in (("White", position.white), ("Black", position.black)):
        if pieces.bit_count() > limit:
            raise InvalidPositionError(
                f"FEN {source!r}: {name} has {pieces.bit_count()} pieces, at most {limit}")
    top, bottom = geometry.rank_masks[-1], geometry.rank_masks[0]
    for name, men, row in (("White", position.white & ~position.kings, top),
                           ("Black", position.black & ~position.kings, bottom)):
        stuck = men & row
        if stuck:
            squares = ", ".join(_square_name(variant, geometry.number_of_bit[bit])
                                for bit in iter_bits(stuck))
            raise InvalidPositionError(
                f"FEN {source!r}: {name} man on its promotion row ({squares})")


def _square_name(variant: Variant, number: int) -> str:
    return variant.geometry.name(number) if variant.algebraic_moves else str(number)


# -- column games ------------------------------------------------------------------------

def parse_column_text(variant: Variant, text: str) -> Position:
    """Read ``W:a1=w,c3=wbB,...``; `InvalidFenError` for a token that cannot be read,
    `InvalidPositionError` for a square given twice or too many pieces. Each message
    quotes the whole text and names the bad token."""
    source = text
    text = text.strip().rstrip(".").strip().strip('"').strip().rstrip(".").strip()
    if not text:
        raise InvalidFenError("empty position text")
    side, _, body = text.partition(":")
    side = side.strip().upper()
    if side not in ("W", "B"):
        raise InvalidFenError(
            f"position {source!r}: side to move must be W or B, got {side or text!r}")
    geometry = variant.geometry
    columns = [""] * len(geometry.number_of_bit)
    for token in body.split(","):
        token = token.strip()
        if not token:
            continue
        match = _COLUMN_TOKEN.match(token)
        if not match:
            raise InvalidFenError(
                f"position {source!r}: bad token {token!r} (expected square=column, "
                f"e.g. d4=wbB)")
        square, column = match.group(1), match.group(2).strip()
        bit = _square_bit(geometry, source, square)
        if not column:
            raise InvalidFenError(f"position {source!r}: empty column in {token!r}")
        for letter in column:
            if letter not in PIECES:
                raise InvalidFenError(
                    f"position {source!r}: unknown piece {letter!r} in {token!r} "
                    f"(w, b men; W, B officers)")
        if columns[bit]:
            raise InvalidPositionError(
                f"position {source!r}: square {geometry.name_of_bit[bit]} given twice")
        columns[bit] = column
    for colour, letters in (("White", "wW"), ("Black", "bB")):
        count = sum(column.count(letters[0]) + column.count(letters[1]) for column in columns)
        if count > variant.pieces_per_side:
            raise InvalidPositionError(
                f"position {source!r}: {colour} has {count} pieces, "
                f"at most {variant.pieces_per_side}")
    return Position.from_columns(variant, columns, side == "W")


def _square_bit(geometry: Geometry, source: str, square: str) -> int:
    if square.isdigit():
        number = int(square)
        if not 1 <= number <= geometry.square_count:
            raise InvalidFenError(
                f"position {source!r}: square {square!r} is not on the board "
                f"(1-{geometry.square_count})")
        return geometry.bit_of_number[number]
    bit = geometry.bit_of_name.get(square.lower())
    if bit is None:
        raise InvalidFenError(f"position {source!r}: {square!r} is not a playable square")
    return bit
