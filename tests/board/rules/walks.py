"""Seeded random games for the rules' property tests and the engine's tests: a player
that half of the time makes the most advancing move (so that kings and tall columns
appear) and otherwise a random one."""

from __future__ import annotations

import random
from collections.abc import Iterator

from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.position import Position
from draughtsboard.board.rules.variants import get_variant


def random_game(variant_name: str, seed: int, plies: int) -> Iterator[Position]:
    """The positions of a seeded game from the initial position, up to ``plies`` plies;
    it stops at a position with no legal move, and plays on through the draw rules."""
    variant = get_variant(variant_name)
    rank = variant.geometry.coords
    rng = random.Random(seed)
    position = initial_position(variant)
    yield position
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            return
        if rng.random() < 0.5:
            sign = 1 if position.white_to_move else -1
            move = max(moves, key=lambda m: sign * (rank(m.end)[1] - rank(m.start)[1]))
        else:
            move = rng.choice(moves)
        position = position.play(move)
        yield position
