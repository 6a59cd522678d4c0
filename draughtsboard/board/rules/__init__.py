"""The rules of the five games: geometry, variants as data, move generation, positions,
their text (FEN), move notation, draw rules and errors. Pure and self-contained: nothing
here imports anything above it.

Import order, bottom up: `errors`, `geometry`, `variants`, `movegen` and `columns` (the
move generators, raw tuples in and out), `generators` (which generator plays a variant),
`position` (`Position` and `Move`), `fen` (reading position text), `notation` (reading and
writing moves), `draws` (move-count draw rules), `perft`.
"""

from .draws import DrawRules, Material, UnknownDrawRulesError, draw_rules
from .errors import (
    AmbiguousMoveError,
    DraughtsError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveSyntaxError,
    InvalidPositionError,
    InvalidSyntaxError,
    UnknownVariantError,
)
from .fen import format_fen, initial_position, parse_fen, parse_start_fen
from .generators import generator_for
from .geometry import Geometry, Numbering, board_geometry, board_name, board_of_name
from .notation import format_move, format_square, parse_move, parse_square, traversed_squares
from .perft import perft
from .position import Move, Position
from .variants import (
    VARIANTS,
    CapturePromotion,
    Variant,
    get_variant,
    variant_names,
    variants_on,
)

__all__ = [
    "VARIANTS", "AmbiguousMoveError", "CapturePromotion", "DraughtsError",
    "DrawRules", "Geometry", "IllegalMoveError", "InvalidFenError", "InvalidMoveSyntaxError",
    "InvalidPositionError", "InvalidSyntaxError", "Material", "Move", "Numbering", "Position",
    "UnknownDrawRulesError", "UnknownVariantError", "Variant", "draw_rules", "format_fen",
    "board_geometry", "board_name", "board_of_name", "format_move", "format_square",
    "generator_for", "get_variant",
    "initial_position", "parse_fen", "parse_move", "parse_square", "parse_start_fen", "perft",
    "traversed_squares", "variant_names", "variants_on",
]
