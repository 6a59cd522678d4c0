"""Column games: Lasca (Lasker's rules) and column draughts with Russian mechanics.

A square holds a *column*: a string of pieces listed top first (``'wbB'``: a white man on
top of a black man on top of a black officer). The top piece owns and moves the column, so
move generation needs only the top pieces: the `Position` bitboards (``white``, ``black``,
``kings``) describe the tops, and the single capture walker of `movegen` runs on them
unchanged. What this module adds is what happens to the columns when a move is played:

* the moving column goes from the start square to the end square; if its top piece is a
  man that is promoted, that piece (and only it) becomes an officer / king;
* each jumped column loses its top piece, which goes under the capturing column, in the
  order taken (the first directly under the original column);
* what is left of a jumped column stays on its square, owned by its new top piece (a
  buried officer is still an officer); a square whose column is used up is empty.

It also reads and writes the position text of column games, ``W:a1=w,c3=wbB,...`` (side
to move, then each occupied square as ``square=column``, top first; squares algebraic or
by the variant's numbers on input, algebraic on output), and registers the three column
variants: ``lasca``, ``column`` (8x8) and ``column-7x7``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import position as _position
from .errors import InvalidFenError, InvalidPositionError
from .geometry import Geometry, geometry_for_variant
from .movegen import MoveGenerator, RawMove
from .variants import CapturePromotion, Variant, register

if TYPE_CHECKING:
    from .position import Position

PIECES = "wbWB"
_WHITE_PIECE = {"w": True, "W": True, "b": False, "B": False}
_OFFICER = {"w": False, "b": False, "W": True, "B": True}
_CROWN = {"w": "W", "b": "B", "W": "W", "B": "B"}
_TOKEN = re.compile(r"^([a-z]\d{1,2}|\d{1,3})\s*[=:]\s*(.*)$", re.IGNORECASE)


class ColumnMoveGenerator(MoveGenerator):
    """The shared walker on the top pieces, plus the column bookkeeping of a move.

    ``legal``, ``count``, ``captures`` and ``has_capture`` are inherited as they are:
    their input is the top-piece bitboards. ``play`` and ``perft_position`` carry the
    columns along; perft keeps one mutable list of columns and undoes each move, and the
    last ply is the inherited bulk ``count`` (no columns needed there).
    """

    @staticmethod
    def make(columns: list[str], own: int, enemy: int, kings: int,
             raw: RawMove) -> tuple[int, int, int]:
        """Play ``raw`` on a mutable list of columns (indexed by bit) and return the
        mover's (own, enemy, kings) top bitboards after it. The caller keeps the old
        strings of the start, end and captured squares if it wants to undo."""
        start, end, _, promotes, _, captured = raw
        start_bit = 1 << start
        end_bit = 1 << end
        moving = columns[start]
        top = moving[0]
        if promotes:
            top = _CROWN[top]
            moving = top + moving[1:]
        own = (own & ~start_bit) | end_bit
        kings &= ~start_bit
        if _OFFICER[top]:
            kings |= end_bit
        if captured:
            mover_is_white = _WHITE_PIECE[top]
            for square in captured:
                column = columns[square]
                moving += column[0]
                rest = column[1:]
                columns[square] = rest
                bit = 1 << square
                if not rest:
                    enemy &= ~bit
                    kings &= ~bit
                    continue
                new_top = rest[0]
                if _WHITE_PIECE[new_top] is mover_is_white:
                    enemy &= ~bit
                    own |= bit
                if _OFFICER[new_top]:
                    kings |= bit
                else:
                    kings &= ~bit
        columns[start] = ""
        columns[end] = moving
        return own, enemy, kings

    def play(self, position: Position, raw: RawMove) -> Position:
        columns = list(position.columns)
        own, enemy, kings = self.make(columns, position.own, position.enemy, position.kings,
                                      raw)
        if position.white_to_move:
            return _position.Position(self.variant, own, enemy, kings, False,
                                      tuple(columns))
        return _position.Position(self.variant, enemy, own, kings, True, tuple(columns))

    def perft_position(self, position: Position, depth: int) -> int:
        if depth <= 0:
            return 1
        columns = list(position.columns)
        tall = sum(1 << bit for bit, column in enumerate(columns) if len(column) > 1)
        return self._perft(columns, tall, position.own, position.enemy, position.kings,
                           position.white_to_move, depth)

    def _perft(self, columns: list[str], tall: int, own: int, enemy: int, kings: int,
               white: bool, depth: int) -> int:
        """Perft on a mutable list of columns, each move made and undone in place.

        Written out rather than calling `make`. ``tall`` is the bitboard of the squares
        holding two pieces or more: a move that jumps none of them changes the top
        bitboards exactly as in a single-piece game, which is all the last two plies need.
        """
        if depth <= 2:
            if depth == 1:
                return self.count(own, enemy, kings, white)
            return self._perft_last_two(columns, tall, own, enemy, kings, white)
        black_to_move = not white
        deeper = depth - 1
        search = self._perft_last_two if deeper == 2 else self._perft
        total = 0
        for start, end, mask, promotes, _, captured in self.legal(own, enemy, kings, white):
            start_bit = 1 << start
            end_bit = 1 << end
            new_own = (own & ~start_bit) | end_bit
            if kings & start_bit or promotes:
                new_kings = (kings & ~start_bit) | end_bit
            else:
                new_kings = kings & ~start_bit
            moving = saved_start = columns[start]
            if promotes:
                moving = _CROWN[moving[0]] + moving[1:]
            if not captured:
                new_tall = (tall & ~start_bit) | end_bit if tall & start_bit else tall
                columns[start] = ""
                columns[end] = moving
                total += search(columns, new_tall, enemy, new_own, new_kings, black_to_move,
                                deeper)
                columns[end] = ""
                columns[start] = saved_start
                continue
            new_enemy = enemy & ~mask
            new_kings &= ~mask
            new_tall = (tall & ~start_bit) | end_bit
            saved = []
            for square in captured:
                column = columns[square]
                saved.append(column)
                moving += column[0]
                rest = column[1:]
                columns[square] = rest
                if rest:
                    bit = 1 << square
                    new_top = rest[0]
                    if _WHITE_PIECE[new_top] is white:
                        new_own |= bit
                    else:
                        new_enemy |= bit
                    if new_top < "a":  # an officer (capital letter)
                        new_kings |= bit
                    if len(rest) == 1:
                        new_tall &= ~bit
            columns[start] = ""
            columns[end] = moving
            total += search(columns, new_tall, new_enemy, new_own, new_kings, black_to_move,
                            deeper)
            columns[end] = ""
            columns[start] = saved_start
            for square, column in zip(captured, saved, strict=True):
                columns[square] = column
        return total

    def _perft_last_two(self, columns: list[str], tall: int, own: int, enemy: int,
                        kings: int, white: bool, depth: int = 2) -> int:
        # Depth 2 (the argument only matches `_perft`'s): the columns are only read, and
        # each child is counted from its top bitboards.
        count = self.count
        black_to_move = not white
        total = 0
        for start, end, mask, promotes, _, captured in self.legal(own, enemy, kings, white):
            start_bit = 1 << start
            end_bit = 1 << end
            new_own = (own & ~start_bit) | end_bit
            if kings & start_bit or promotes:
                new_kings = ((kings & ~start_bit) | end_bit) & ~mask
            else:
                new_kings = kings & ~(start_bit | mask)
            if not mask:  # a quiet move
                total += count(enemy, new_own, new_kings, black_to_move)
                continue
            new_enemy = enemy & ~mask
            if mask & tall:
                for square in captured:
                    column = columns[square]
                    if len(column) > 1:
                        bit = 1 << square
                        new_top = column[1]
                        if _WHITE_PIECE[new_top] is white:
                            new_own |= bit
                        else:
                            new_enemy |= bit
                        if new_top < "a":  # an officer (capital letter)
                            new_kings |= bit
            total += count(new_enemy, new_own, new_kings, black_to_move)
        return total


# -- position text ------------------------------------------------------------------------------

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
        match = _TOKEN.match(token)
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
    return position_of_columns(variant, columns, side == "W")


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


def position_of_columns(variant: Variant, columns, white_to_move: bool) -> Position:
    """A `Position` from columns indexed by bit index (top bitboards derived from them)."""
    white = black = kings = 0
    for bit, column in enumerate(columns):
        if not column:
            continue
        top = column[0]
        if _WHITE_PIECE[top]:
            white |= 1 << bit
        else:
            black |= 1 << bit
        if _OFFICER[top]:
            kings |= 1 << bit
    return _position.Position(variant, white, black, kings, white_to_move, tuple(columns))


def format_column_text(position: Position) -> str:
    """Canonical text: squares algebraic, from a1 rank by rank upwards."""
    names = position.variant.geometry.name_of_bit
    items = [f"{names[bit]}={column}" for bit, column in enumerate(position.columns) if column]
    return ("W" if position.white_to_move else "B") + ":" + ",".join(items)


# -- the variants ----------------------------------------------------------------------------

def _initial_text(geometry: Geometry, white: range, black: range) -> str:
    name = geometry.name
    squares = sorted([(geometry.bit_of_number[n], name(n), "w") for n in white]
                     + [(geometry.bit_of_number[n], name(n), "b") for n in black])
    return "W:" + ",".join(f"{square}={piece}" for _, square, piece in squares)


_LASCA_BOARD = geometry_for_variant("lasca")
_COLUMN_BOARD = geometry_for_variant("column")

LASCA = register(Variant(
    name="lasca",
    title="Lasca (international column draughts, Lasker's rules)",
    geometry=_LASCA_BOARD,
    initial_fen=_initial_text(_LASCA_BOARD, range(1, 12), range(15, 26)),
    pieces_per_side=11,
    men_capture_backwards=False,
    kings_fly=False,
    majority_rule=False,
    capture_promotion=CapturePromotion.ENDS_THE_MOVE,
    holds_columns=True,
    algebraic_moves=True,
    capture_separator="x",
    full_capture_path=True,
    pdn_gametype="21,W,7,7,A0,0",
    pdn_variant_tag="Lasca",
    results=("1-0", "1/2-1/2", "0-1"),
    draw_rules="repetition",
))

COLUMN = register(Variant(
    name="column",
    title="Russian column draughts",
    geometry=_COLUMN_BOARD,
    initial_fen=_initial_text(_COLUMN_BOARD, range(21, 33), range(1, 13)),
    pieces_per_side=12,
    men_capture_backwards=True,
    kings_fly=True,
    majority_rule=False,
    capture_promotion=CapturePromotion.CONTINUES_AS_KING,
    holds_columns=True,
    algebraic_moves=True,
    capture_separator="x",
    full_capture_path=True,
    pdn_gametype="25,W,8,8,A0,0",
    pdn_variant_tag="Russian column draughts",
    results=("1-0", "1/2-1/2", "0-1"),
    draw_rules="russian",
))

COLUMN_7X7 = register(Variant(
    name="column-7x7",
    title="Column draughts on 7x7 (the federation's Lasca)",
    geometry=geometry_for_variant("column-7x7"),
    initial_fen=_initial_text(_LASCA_BOARD, range(1, 12), range(15, 26)),
    pieces_per_side=11,
    men_capture_backwards=True,
    kings_fly=True,
    majority_rule=False,
    capture_promotion=CapturePromotion.CONTINUES_AS_KING,
    holds_columns=True,
    algebraic_moves=True,
    capture_separator="x",
    full_capture_path=True,
    pdn_gametype="25,W,7,7,A0,0",
    pdn_variant_tag="Column draughts 7x7",
    results=("1-0", "1/2-1/2", "0-1"),
    draw_rules="russian",
))
