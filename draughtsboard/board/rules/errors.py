"""Errors of the core, split by cause. All are ``ValueError``s, as in python-chess.

Each message carries the offending input and, where a position is involved, its FEN, so
that a one-line report is enough to reproduce the problem.
"""

from __future__ import annotations

from collections.abc import Sequence


class DraughtsError(ValueError):
    """Base of every error the core raises about bad input."""


class InvalidSyntaxError(DraughtsError):
    """Text that cannot be read at all (a move or a position)."""


class InvalidMoveSyntaxError(InvalidSyntaxError):
    """A move text that is not a move: ``'32-'``, ``'z9-a1'``, ``'99-98'``."""


class InvalidFenError(InvalidSyntaxError):
    """A position text (FEN, or a column position) that cannot be read."""


class InvalidPositionError(DraughtsError):
    """A readable position that cannot occur: too many pieces, a man on its own
    promotion row, a square given twice."""


class IllegalMoveError(DraughtsError):
    """A well-formed move that the rules do not allow in this position."""

    def __init__(self, move: str, fen: str, reason: str = "") -> None:
        self.move = move
        self.fen = fen
        self.reason = reason
        detail = f": {reason}" if reason else ""
        super().__init__(f"illegal move {move!r} in {fen}{detail}")


class AmbiguousMoveError(DraughtsError):
    """A move text that matches more than one legal move; lists the candidates."""

    def __init__(self, move: str, fen: str, candidates: Sequence[str]) -> None:
        self.move = move
        self.fen = fen
        self.candidates = tuple(candidates)
        super().__init__(
            f"ambiguous move {move!r} in {fen}: could be {', '.join(self.candidates)}"
        )


class UnknownVariantError(DraughtsError):
    """A variant name (or PDN GameType) that the engine does not play."""
