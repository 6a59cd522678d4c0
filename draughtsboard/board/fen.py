"""Position text: PDN 3.0 FEN for single-piece games.

``W:W31-50:B1-20``: side to move, then each side's squares, ``K`` before a king, ranges
of numbers allowed. Russian squares may be numbers (1 = b8) or algebraic (``c3``).
Reading is tolerant (spaces, a trailing full stop, sections in either order, lidraughts'
``H``/``F`` counters ignored); writing is canonical. Column games have their own text
(`columns`), chosen by the variant's ``holds_columns``.
"""

from __future__ import annotations

import re

from .errors import InvalidFenError, InvalidPositionError
from .geometry import iter_bits
from .position import Position
from .variants import Variant

_SQUARE = re.compile(r"^(K?)([a-z]\d{1,2}|\d{1,2})(?:-(\d{1,2}))?$", re.IGNORECASE)
_COUNTER = re.compile(r"^[HF]\d+$", re.IGNORECASE)


def parse_fen(variant: Variant, text: str) -> Position:
    """Read a position; `InvalidFenError` for bad syntax, `InvalidPositionError` for an
    impossible position. Both messages quote the offending part."""
    if variant.holds_columns:
        from .columns import parse_column_text

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


def format_fen(position: Position) -> str:
    """Canonical FEN: numbers ascending, runs of three or more men as ranges."""
    variant = position.variant
    if variant.holds_columns:
        from .columns import format_column_text

        return format_column_text(position)
    geometry = variant.geometry
    parts = ["W" if position.white_to_move else "B"]
    for colour, pieces in (("W", position.white), ("B", position.black)):
        men = sorted(geometry.number_of_bit[b] for b in iter_bits(pieces & ~position.kings))
        kings = sorted(geometry.number_of_bit[b] for b in iter_bits(pieces & position.kings))
        items = _ranges(men) + [f"K{number}" for number in kings]
        parts.append(colour + ",".join(items))
    return ":".join(parts)


def _ranges(numbers: list[int]) -> list[str]:
    items: list[str] = []
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        if j - i >= 2:
            items.append(f"{numbers[i]}-{numbers[j]}")
            i = j + 1
        else:
            items.append(str(numbers[i]))
            i += 1
    return items
