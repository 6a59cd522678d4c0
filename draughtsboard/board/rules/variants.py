"""The five games, as data: each `Variant` says what a rule *is*.

Men capture backwards or not, kings fly or not, the majority rule, what a man reaching
the last row during a capture does, whether squares hold columns, how moves and positions
are written, which draw rules apply. The move generator (`movegen`, `columns`) and the
rest of the rules package read these values; nothing asks which variant it is by name.
A variant builds nothing: its move generator is looked up with
`generators.generator_for`, its start position read with `fen.initial_position`.
The rules themselves are described in docs/rules.md and docs/columns.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from .errors import UnknownVariantError
from .geometry import Geometry, board_geometry


class CapturePromotion(Enum):
    """What a man that reaches the last row during a capture does."""

    CONTINUES_AS_KING = "continues as king"  # Russian: crowned at once, goes on capturing
    ONLY_WHEN_CAPTURE_ENDS = "only when the capture ends there"  # international (7.4.2)
    ENDS_THE_MOVE = "ends the move"  # Lasca: promoted, the move stops there


@dataclass(frozen=True, eq=False)
class Variant:
    """One game: its board, its rules and how it is written down."""

    name: str
    title: str
    geometry: Geometry
    initial_fen: str
    pieces_per_side: int
    men_capture_backwards: bool
    kings_fly: bool
    majority_rule: bool
    capture_promotion: CapturePromotion
    holds_columns: bool
    algebraic_moves: bool  # moves written c3-d4 (else numbers 32-28)
    capture_separator: str  # ':' Russian, 'x' international and column games
    full_capture_path: bool  # always write every landing square (columns: path matters)
    pdn_gametype: str  # PDN GameType tag value (a number, or a full spec for Lasca games)
    pdn_variant_tag: str | None  # value of a [Variant] tag where no GameType number exists
    results: tuple[str, str, str]  # white wins, draw, black wins
    draw_rules: str  # name of the draw-rule family (see the game record's draw rules)

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


RUSSIAN = Variant(
    name="russian",
    title="Russian draughts",
    geometry=board_geometry(8),
    initial_fen="W:W21-32:B1-12",
    pieces_per_side=12,
    men_capture_backwards=True,
    kings_fly=True,
    majority_rule=False,
    capture_promotion=CapturePromotion.CONTINUES_AS_KING,
    holds_columns=False,
    algebraic_moves=True,
    capture_separator=":",
    full_capture_path=False,
    pdn_gametype="25",
    pdn_variant_tag=None,
    results=("1-0", "1/2-1/2", "0-1"),
    draw_rules="russian",
)

INTERNATIONAL = Variant(
    name="international",
    title="International draughts",
    geometry=board_geometry(10),
    initial_fen="W:W31-50:B1-20",
    pieces_per_side=20,
    men_capture_backwards=True,
    kings_fly=True,
    majority_rule=True,
    capture_promotion=CapturePromotion.ONLY_WHEN_CAPTURE_ENDS,
    holds_columns=False,
    algebraic_moves=False,
    capture_separator="x",
    full_capture_path=False,
    pdn_gametype="20",
    pdn_variant_tag=None,
    results=("2-0", "1-1", "0-2"),
    draw_rules="international",
)


def _column_start(geometry: Geometry, white: range, black: range) -> str:
    """The start position text of a column game: one man on each starting square."""
    squares = sorted([(geometry.bit_of_number[n], geometry.name(n), "w") for n in white]
                     + [(geometry.bit_of_number[n], geometry.name(n), "b") for n in black])
    return "W:" + ",".join(f"{square}={piece}" for _, square, piece in squares)


_LASCA_BOARD = board_geometry(7)

LASCA = Variant(
    name="lasca",
    title="Lasca (international column draughts, Lasker's rules)",
    geometry=_LASCA_BOARD,
    initial_fen=_column_start(_LASCA_BOARD, range(1, 12), range(15, 26)),
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
)

# The two column games reuse the rules they are made of (a variant by delegation): Russian
# column draughts is Russian draughts with columns, written the column games' way; the
# federation's 7x7 game is that on Lasca's board, from Lasca's start.
COLUMN = replace(
    RUSSIAN,
    name="column",
    title="Russian column draughts",
    initial_fen=_column_start(RUSSIAN.geometry, range(21, 33), range(1, 13)),
    holds_columns=True,
    capture_separator="x",
    full_capture_path=True,
    pdn_gametype="25,W,8,8,A0,0",
    pdn_variant_tag="Russian column draughts",
)

COLUMN_7X7 = replace(
    COLUMN,
    name="column-7x7",
    title="Column draughts on 7x7 (the federation's Lasca)",
    geometry=_LASCA_BOARD,
    initial_fen=LASCA.initial_fen,
    pieces_per_side=LASCA.pieces_per_side,
    pdn_gametype="25,W,7,7,A0,0",
    pdn_variant_tag="Column draughts 7x7",
)

VARIANTS: dict[str, Variant] = {
    variant.name: variant for variant in (RUSSIAN, INTERNATIONAL, LASCA, COLUMN, COLUMN_7X7)
}


def get_variant(name: str) -> Variant:
    """The variant of a name; `UnknownVariantError` naming the known ones."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise UnknownVariantError(f"unknown variant {name!r} (known: {known})") from None


def variant_names() -> list[str]:
    """The names of every variant, sorted (for command-line choices)."""
    return sorted(VARIANTS)


def variants_on(board: Geometry) -> list[Variant]:
    """The variants played on ``board``, the board's own game first (the first one
    registered: Russian on 8x8, international on 10x10, Lasca on 7x7)."""
    return [variant for variant in VARIANTS.values() if variant.geometry is board]
