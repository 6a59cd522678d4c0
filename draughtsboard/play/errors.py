"""The refusals of a board in play, in one place: each is a request or a setting that
cannot be done as asked, so all are bad input (`PlayError`, a `ValueError`: the page
answers 400, a command exits 65), except the coach's, which the page answers 409 (right
request, wrong mode or moment). Storage failures are recording's (`RecordingError`).
"""

from __future__ import annotations

from draughtsboard.board.message import Message
from draughtsboard.words import english


class PlayError(ValueError):
    """A request or setting of a board in play that cannot be done as asked."""


class ArbiterError(PlayError):
    """An arbiter action that cannot be done as asked (bad result, bad tag, bad FEN, a
    new game while moves wait to be recorded). Made with a `Message` (``said``), the
    page shows it in its reader's language and the text is its English; made with a
    text (a refusal another part gave: a bad FEN, a bad tag), the page shows that."""

    def __init__(self, said: Message | str) -> None:
        self.said = said if isinstance(said, Message) else None
        super().__init__(english(said) if isinstance(said, Message) else said)


class ClockActionError(PlayError):
    """An arbiter's clock action that does not fit the clock's state."""


class TimeControlError(PlayError):
    """A ``TimeControl`` tag that the clock cannot run."""


class CoachError(PlayError):
    """A coach request that cannot be done now: tournament mode, hints switched off, a
    finished game, no legal move."""


class PuzzleError(PlayError):
    """A puzzle file that cannot be used (unreadable, no puzzle in it, wrong variant), or
    a puzzle action that does not fit now (all puzzles done)."""
