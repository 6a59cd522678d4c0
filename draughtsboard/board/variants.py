"""The games the engine plays, each as data plus a few named hooks.

A `Variant` says what a rule *is* (men capture backwards, kings fly, the majority rule,
what happens to a man reaching the last row during a capture, whether squares hold
columns, how moves and positions are written, the draw rules); the single move generator
in `movegen` reads these values. Nothing outside this module asks which variant it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from .errors import UnknownVariantError
from .geometry import Geometry, geometry_for_variant

if TYPE_CHECKING:
    from .movegen import MoveGenerator


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

    # -- named hooks ------------------------------------------------------------------

    def select_captures(self, captures: Sequence) -> list:
        """Which of the complete capture sequences are legal (hook: majority rule).

        ``captures`` are raw moves whose fifth item is the tuple of captured squares.
        """
        if not self.majority_rule or not captures:
            return list(captures)
        most = max(len(move[5]) for move in captures)
        return [move for move in captures if len(move[5]) == most]

    # -- engine access ----------------------------------------------------------------

    @property
    def generator(self) -> MoveGenerator:
        """The move generator of this variant (built once, then shared)."""
        cached = self.__dict__.get("_generator")
        if cached is None:
            if self.holds_columns:
                from .columns import ColumnMoveGenerator as generator_class
            else:
                from .movegen import MoveGenerator as generator_class
            cached = generator_class(self)
            object.__setattr__(self, "_generator", cached)
        return cached

    def initial_position(self):
        from .fen import parse_fen

        return parse_fen(self, self.initial_fen)


RUSSIAN = Variant(
    name="russian",
    title="Russian draughts",
    geometry=geometry_for_variant("russian"),
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
    geometry=geometry_for_variant("international"),
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

VARIANTS: dict[str, Variant] = {v.name: v for v in (RUSSIAN, INTERNATIONAL)}


def register(variant: Variant) -> Variant:
    """Add a variant to the registry (used by the column games' module)."""
    VARIANTS[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    """The variant of a name; `UnknownVariantError` naming the known ones."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise UnknownVariantError(f"unknown variant {name!r} (known: {known})") from None


def variant_names() -> list[str]:
    return sorted(VARIANTS)


# The column games live in their own module, which registers them here; imported last so
# that `get_variant("lasca")` works without the caller importing it first.
from . import columns as _columns  # noqa: E402, F401
