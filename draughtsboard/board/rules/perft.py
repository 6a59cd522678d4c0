"""Perft: the number of leaves of the move tree below a position, the engine's self-test.

Counts agree with published figures and with pydraughts (tests/data/perft.json,
tests/data/perft_columns.json); `draughtsboard perft` prints them and
benchmarks/perft.py times them. Column games count move paths (two capture orders that
build different columns are two moves).
"""

from __future__ import annotations

from .generators import generator_for
from .position import Position


def perft(position: Position, depth: int) -> int:
    """Leaf count of the move tree ``depth`` plies below ``position`` (1 at depth 0)."""
    return generator_for(position.variant).perft_position(position, depth)
