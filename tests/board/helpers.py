"""Small helpers that let rule tests set up positions by algebraic square names."""

from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.notation import format_move
from draughtsboard.board.rules.variants import get_variant


def position(variant_name, white=(), black=(), white_kings=(), black_kings=(), to_move="W"):
    """A position from algebraic names, through the FEN reader (numbers for the FEN)."""
    variant = get_variant(variant_name)
    geometry = variant.geometry

    def numbers(names, king):
        return [("K" if king else "") + str(geometry.number_of_name(n)) for n in names]

    white_items = numbers(white, False) + numbers(white_kings, True)
    black_items = numbers(black, False) + numbers(black_kings, True)
    return parse_fen(variant, f"{to_move}:W{','.join(white_items)}:B{','.join(black_items)}")


def names(pos, squares):
    return [pos.variant.geometry.name(square) for square in squares]


def summary(pos):
    """Each legal move as (start, end, sorted captured names), algebraic, as a sorted list."""
    return sorted(
        (
            pos.variant.geometry.name(move.start),
            pos.variant.geometry.name(move.end),
            tuple(sorted(names(pos, move.captures))),
        )
        for move in pos.legal_moves()
    )


def notations(pos):
    legal = pos.legal_moves()
    return sorted(format_move(pos, move, legal) for move in legal)
