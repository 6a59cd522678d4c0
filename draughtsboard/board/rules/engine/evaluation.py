"""The engine's judgement of a quiet position, in hundredths of a man, from White's side.

Two families, chosen by what a square holds (`Variant.holds_columns`), both read from the
variant's data, never its name:

* **Single pieces** (Russian, international): material (a king is worth more where kings
  fly), then square tables for men (advancement, the centre, the back rank that keeps the
  other side's men from crowning, the row before promotion) and kings (the long diagonals),
  mobility (legal moves of each side, counted without listing them), and two endgame
  corrections: ahead in material, fewer pieces on the board is better (so the engine
  trades down and converts), and with kings only and a difference of one piece the game is
  usually drawn, so the score shrinks.
* **Columns** (Lasca, column draughts): a column is valued by what it holds: the top piece
  in full; the pieces of the top's colour just under it (its reserves: they take over
  when the top is taken) nearly in full; prisoners (pieces of the other colour under the
  top) count little for their own side, since they come back only if the column is
  broken up; then the same square tables and mobility, on the top pieces.

Square tables are sums of popcounts: a table of small whole numbers is cut into its binary
digits, one bitboard per digit, so a side's positional score is a handful of ``bit_count``
calls rather than a loop over its pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..variants import Variant

MAN = 100



def _digit_masks(values: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """(weight, mask) pairs with sum(weight * popcount(x & mask)) = sum(values[bit] for bit
    in x), for a table of non-negative whole numbers indexed by bit."""
    out = []
    digit = 0
    while any(value >> digit for value in values):
        mask = 0
        for bit, value in enumerate(values):
            if (value >> digit) & 1:
                mask |= 1 << bit
        if mask:
            out.append((1 << digit, mask))
        digit += 1
    return tuple(out)


def _table_score(pieces: int, table: tuple[tuple[int, int], ...]) -> int:
    total = 0
    for weight, mask in table:
        total += weight * (pieces & mask).bit_count()
    return total


class _SquareTables:
    """The positional tables of one variant: men and kings, for each colour."""

    def __init__(self, variant: Variant) -> None:
        geometry = variant.geometry
        size = geometry.size
        width = size + 1
        bits = len(geometry.number_of_bit)
        centre = (size - 1) / 2
        men = [0] * bits
        kings = [0] * bits
        for bit in range(bits):
            if not geometry.number_of_bit[bit]:
                continue
            rank, file = divmod(bit, width)
            value = 3 * rank  # advancement
            if rank == size - 2:
                value += 8  # one step from the crown
            if rank == 0:
                value += 6  # the back rank keeps the other side's men from crowning
            if 0 < file < size - 1 and 0 < rank < size - 1:
                value += 4 - int(abs(file - centre))  # the centre, not the edge
            men[bit] = max(0, value)
            on_long = file == rank or file + rank == size - 1 or abs(file - rank) == 1
            kings[bit] = 10 if on_long else 0
        mirror = [0] * bits
        kings_mirror = [0] * bits
        for bit in range(bits):
            if geometry.number_of_bit[bit]:
                rank, file = divmod(bit, width)
                other = (size - 1 - rank) * width + (size - 1 - file)
                mirror[other] = men[bit]
                kings_mirror[other] = kings[bit]
        self.men = (_digit_masks(men), _digit_masks(mirror))
        self.kings = (_digit_masks(kings), _digit_masks(kings_mirror))

    def score(self, white: int, black: int, kings: int) -> int:
        total = 0
        pieces = white & ~kings
        for weight, mask in self.men[0]:
            total += weight * (pieces & mask).bit_count()
        pieces = black & ~kings
        for weight, mask in self.men[1]:
            total -= weight * (pieces & mask).bit_count()
        if kings:
            total += _table_score(white & kings, self.kings[0])
            total -= _table_score(black & kings, self.kings[1])
        return total


class PieceEvaluation:
    """Single-piece games (see the module doc)."""

    MOBILITY = 3

    def __init__(self, variant: Variant) -> None:
        self.king = 300 if variant.kings_fly else 200
        self.tables = _SquareTables(variant)
        self.full_army = 2 * variant.pieces_per_side

    def __call__(self, white: int, black: int, kings: int, columns, tall: int,
                 white_moves: int, black_moves: int) -> int:
        white_kings = (white & kings).bit_count()
        black_kings = (black & kings).bit_count()
        white_men = white.bit_count() - white_kings
        black_men = black.bit_count() - black_kings
        material = MAN * (white_men - black_men) + self.king * (white_kings - black_kings)
        score = (material + self.tables.score(white, black, kings)
                 + self.MOBILITY * (white_moves - black_moves))
        pieces = white_men + black_men + white_kings + black_kings
        if material:
            # ahead, trade down: the same lead is worth more with fewer pieces left
            score += material * (self.full_army - pieces) // (2 * self.full_army)
        if not white_men and not black_men and abs(white_kings - black_kings) <= 1:
            score //= 4  # kings only, one piece apart: mostly drawn
        return score


class ColumnEvaluation:
    """Column games (see the module doc)."""

    MOBILITY = 3
    # the weight of a piece by where it lies in its column (see the module doc)
    TOP, RESERVE, PRISONER, BURIED = 1.0, 0.8, 0.3, 0.5

    def __init__(self, variant: Variant) -> None:
        self.officer = 250 if variant.kings_fly else 180
        self.tables = _SquareTables(variant)
        self._values: dict[str, int] = {}

    def column_value(self, column: str) -> int:
        """What a column holds, from White's side (hundredths of a man)."""
        value = self._values.get(column)
        if value is None:
            top_white = column[0] in "wW"
            total = 0.0
            reserves = True
            for depth, piece in enumerate(column):
                white = piece in "wW"
                worth = MAN if piece in "wb" else self.officer
                if depth == 0:
                    weight = self.TOP
                elif white == top_white and reserves:
                    weight = self.RESERVE
                else:
                    reserves = False
                    weight = self.BURIED if white == top_white else self.PRISONER
                total += worth * weight if white else -worth * weight
            if len(self._values) > 1 << 14:
                self._values.clear()
            value = self._values[column] = int(total)
        return value

    def __call__(self, white: int, black: int, kings: int, columns: Sequence[str], tall: int,
                 white_moves: int, black_moves: int) -> int:
        short_white = white & ~tall
        short_black = black & ~tall
        white_officers = (short_white & kings).bit_count()
        black_officers = (short_black & kings).bit_count()
        score = (MAN * (short_white.bit_count() - white_officers
                        - short_black.bit_count() + black_officers)
                 + self.officer * (white_officers - black_officers))
        value = self.column_value
        while tall:
            low = tall & -tall
            tall ^= low
            score += value(columns[low.bit_length() - 1])
        score += self.tables.score(white, black, kings)
        score += self.MOBILITY * (white_moves - black_moves)
        return score


Evaluation = Callable[..., int]


def evaluation_for(variant: Variant) -> Evaluation:
    """The evaluation of a variant's family: ``f(white, black, kings, columns, tall,
    white_moves, black_moves)`` (``tall``: the squares holding two pieces or more;
    the moves: each side's number of legal moves, which the search has counted)."""
    return ColumnEvaluation(variant) if variant.holds_columns else PieceEvaluation(variant)
