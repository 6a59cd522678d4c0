"""Which move generator plays which variant: looked up here, never built by the variant.

Single-piece games use `movegen.MoveGenerator`; games whose squares hold columns use
`columns.ColumnMoveGenerator`, which adds the column bookkeeping. A generator holds only
constant tables, so one is built per variant, on first use, and shared.
"""

from __future__ import annotations

from functools import cache

from .columns import ColumnMoveGenerator
from .movegen import MoveGenerator
from .variants import Variant


@cache
def generator_for(variant: Variant) -> MoveGenerator:
    """The shared move generator of ``variant`` (built on first use)."""
    if variant.holds_columns:
        return ColumnMoveGenerator(variant)
    return MoveGenerator(variant)
