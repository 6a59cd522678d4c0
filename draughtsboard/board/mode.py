"""The modes of play: how the board treats its players. One enum for the whole program:
the tracker plays by it, the game records it, the session and the command line take it.

A mode is a string too (`StrEnum`): it is written to journals and messages as its value
(``"training"``), and a game read back gets the enum again (`Mode.parse`).
"""

from __future__ import annotations

from enum import StrEnum

from .rules.errors import DraughtsError


class UnknownModeError(DraughtsError):
    """A mode name that is not one of `Mode`."""


class Mode(StrEnum):
    """How the board treats its players."""

    TOURNAMENT = "tournament"  # no hints; flags only what is attempted; no takebacks
    TRAINING = "training"  # hints: required captures, landing squares; takeback allowed
    FREE = "free"  # records legal moves from any set-up; takeback allowed; no hints
    PUZZLE = "puzzle"  # training on set positions: the coach's puzzles judge the moves

    @property
    def shows_moves(self) -> bool:
        """Whether the board shows the moves a lifted piece has (the landing squares and
        the captures that are required): the modes that teach."""
        return self in (Mode.TRAINING, Mode.PUZZLE)

    @classmethod
    def parse(cls, text: str | None) -> Mode:
        """The mode named ``text`` (``None`` or ``""``: tournament, the mode of a game
        that does not say); `UnknownModeError` otherwise."""
        if not text:
            return cls.TOURNAMENT
        try:
            return cls(text)
        except ValueError:
            raise UnknownModeError(f"unknown mode {text!r}: expected one of "
                                   f"{', '.join(m.value for m in cls)}") from None
