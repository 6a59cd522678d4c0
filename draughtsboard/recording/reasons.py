"""A result's or a draw's reason as the page says it: a rule's message, or a person's
words.

The rules give typed reasons (`draughtsboard.board.rules.draws.Reason`) and records keep
them typed, so nothing here reads a sentence: a rule's reason becomes its message
(`draughtsboard.board.game.reasons.message`), rendered in the reader's language; a
reason that is a person's words (what an arbiter typed: "resigned") stays as it is.
"""

from __future__ import annotations

from draughtsboard.board.game import reasons
from draughtsboard.board.game.records import Setter, Why
from draughtsboard.board.message import Message


def reason_message(reason: Why, by: Setter = Setter.UNKNOWN) -> Message | str:
    """The message a rule's reason says (the reasons of a draw accepted, with who
    accepted it: ``by``, the result's setter), or a person's words as they are."""
    return reasons.why_message(reason, by)
