"""Position and Move: the immutable values the rest of the product passes around.

A `Position` asks its variant's generator (`generators.generator_for`) for raw moves and
the bitboards after one, and builds the next position itself. It also writes its own text
(`Position.fen`: FEN for single-piece games, ``W:a1=w,c3=wbB`` for column games); reading
a text into a position is `fen.parse_fen`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import NamedTuple

from .columns import OFFICER, WHITE_PIECE
from .errors import IllegalMoveError
from .generators import generator_for
from .geometry import iter_bits
from .movegen import RawMove
from .variants import Variant


class Move(NamedTuple):
    """A move by square numbers: ``path`` is the start and every landing square (the end
    last); ``captures`` the jumped squares in the order they were taken.

    For single-piece games, moves with the same start, end and set of captured pieces are
    one move and the generator keeps one path for them; for column games the path matters.
    An immutable value (a named tuple: cheap to build, which legal-move generation does a
    lot of).
    """

    path: tuple[int, ...]
    captures: tuple[int, ...] = ()

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    def __str__(self) -> str:
        """Plain numeric form, independent of the variant's notation (see `notation`)."""
        if self.captures:
            return "x".join(str(square) for square in self.path)
        return f"{self.path[0]}-{self.path[-1]}"


class Position:
    """A position of a variant: where the pieces (or columns) stand and who is to move.

    Immutable and hashable (repetition detection keys on it). Bitboards use the engine's
    layout (`geometry.Geometry`); `columns` is ``None`` for single-piece games, else a
    tuple indexed by bit index of column strings listed top first (``'wbB'``), ``''`` for
    an empty square. Build positions with `fen.parse_fen` or `fen.initial_position`.
    """

    __slots__ = ("variant", "white", "black", "kings", "white_to_move", "columns", "_hash",
                 "__dict__")
    # Declared for the type checker only (bare annotations make no class attribute, so
    # they do not clash with the slots); __init__ sets each once through object.__setattr__.
    variant: Variant
    white: int
    black: int
    kings: int
    white_to_move: bool
    columns: tuple[str, ...] | None
    _hash: int

    def __init__(self, variant: Variant, white: int, black: int, kings: int,
                 white_to_move: bool, columns: tuple[str, ...] | None = None) -> None:
        set_ = object.__setattr__
        set_(self, "variant", variant)
        set_(self, "white", white)
        set_(self, "black", black)
        set_(self, "kings", kings)
        set_(self, "white_to_move", white_to_move)
        set_(self, "columns", columns)
        set_(self, "_hash", hash((variant.name, white, black, kings, white_to_move, columns)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self._hash == other._hash and self.variant is other.variant
                and self.white == other.white and self.black == other.black
                and self.kings == other.kings and self.white_to_move == other.white_to_move
                and self.columns == other.columns)

    def __repr__(self) -> str:
        return f"Position({self.variant.name!r}, {self.fen()!r})"

    @classmethod
    def from_columns(cls, variant: Variant, columns: Sequence[str],
                     white_to_move: bool) -> Position:
        """A column-game position from its columns indexed by bit index (the top-piece
        bitboards are derived from them)."""
        white = black = kings = 0
        for bit, column in enumerate(columns):
            if not column:
                continue
            top = column[0]
            if WHITE_PIECE[top]:
                white |= 1 << bit
            else:
                black |= 1 << bit
            if OFFICER[top]:
                kings |= 1 << bit
        return cls(variant, white, black, kings, white_to_move, tuple(columns))

    # -- text ------------------------------------------------------------------------------

    def fen(self) -> str:
        """The position's canonical text: PDN FEN (numbers ascending, runs of three or
        more men as ranges, ``K`` before a king) or, for column games, each occupied
        square as ``square=column`` with algebraic squares from a1 rank by rank."""
        if self.columns is not None:
            names = self.variant.geometry.name_of_bit
            items = [f"{names[bit]}={column}" for bit, column in enumerate(self.columns)
                     if column]
            return ("W" if self.white_to_move else "B") + ":" + ",".join(items)
        number_of_bit = self.variant.geometry.number_of_bit
        parts = ["W" if self.white_to_move else "B"]
        for colour, pieces in (("W", self.white), ("B", self.black)):
            men = sorted(number_of_bit[b] for b in iter_bits(pieces & ~self.kings))
            kings = sorted(number_of_bit[b] for b in iter_bits(pieces & self.kings))
            parts.append(colour + ",".join(_ranges(men) + [f"K{number}" for number in kings]))
        return ":".join(parts)

    # -- the side to move's view -----------------------------------------------------------

    @property
    def own(self) -> int:
        return self.white if self.white_to_move else self.black

    @property
    def enemy(self) -> int:
        return self.black if self.white_to_move else self.white

    # -- moves ---------------------------------------------------------------------------------

    @cached_property
    def _raw_moves(self) -> dict[Move, RawMove]:
        generator = generator_for(self.variant)
        raws = generator.legal(self.own, self.enemy, self.kings, self.white_to_move)
        to_move = self.move_of_raw
        quiet = generator.quiet_move_values  # (start, end) -> Move, shared by positions
        moves = {}
        for raw in raws:
            if raw[5]:
                moves[to_move(raw)] = raw
            else:
                key = (raw[0], raw[1])
                move = quiet.get(key)
                if move is None:
                    move = quiet[key] = to_move(raw)
                moves[move] = raw
        return moves

    def legal_moves(self) -> list[Move]:
        """Every legal move, in generation order (stable for a given position)."""
        return list(self._raw_moves)

    def is_legal(self, move: Move) -> bool:
        return move in self._raw_moves

    def move_of_raw(self, raw: RawMove) -> Move:
        number = self.variant.geometry.number_of_bit.__getitem__
        return Move((number(raw[0]), *map(number, raw[4])), tuple(map(number, raw[5])))

    def play(self, move: Move) -> Position:
        """The position after a legal move; `IllegalMoveError` (with the FEN) otherwise."""
        raw = self._raw_moves.get(move)
        if raw is None:
            raise IllegalMoveError(str(move), self.fen(), "not among the legal moves")
        own, enemy, kings, columns = generator_for(self.variant).apply(
            self.own, self.enemy, self.kings, self.columns, raw)
        if self.white_to_move:
            return Position(self.variant, own, enemy, kings, False, columns)
        return Position(self.variant, enemy, own, kings, True, columns)

    def is_game_over(self) -> bool:
        """No legal move: the side to move has lost (docs/rules.md, all games)."""
        return not self._raw_moves

    # -- what the sensors can check ------------------------------------------------------------

    def occupancy(self) -> int:
        """Occupancy mask over square numbers (bit n-1 for square n), as the sensors see it."""
        return self.variant.geometry.mask_of_bits(self.white | self.black)

    def piece_at(self, square: int) -> str | None:
        """``'w'``, ``'b'``, ``'W'``, ``'B'`` (capital for a king) or None, by square number;
        for a column, its top piece."""
        bit = 1 << self.variant.geometry.bit_of_number[square]
        if self.white & bit:
            return "W" if self.kings & bit else "w"
        if self.black & bit:
            return "B" if self.kings & bit else "b"
        return None

    def column_at(self, square: int) -> str:
        """The column on a square, top first (a single piece for non-column games)."""
        if self.columns is not None:
            return self.columns[self.variant.geometry.bit_of_number[square]]
        return self.piece_at(square) or ""


def _ranges(numbers: list[int]) -> list[str]:
    """Sorted square numbers with runs of three or more written as ranges (``21-32``)."""
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


__all__ = ["Move", "Position"]
