"""What the hall says to people, as messages (docs/languages.md): a board's needs, a
claim, a pairing's state, the console's answers and refusals are `Message` values, and
the page renders them in its reader's language. The hall's records keep codes and
messages' JSON, never words, so changing language never changes what is recorded.

`HallError` is a refusal the arbiter reads: its message goes to the page, its English
(``str``) to logs and tests. `shown` turns what the page receives into JSON.
"""

from __future__ import annotations

from typing import Any

from draughtsboard.board.game import reasons
from draughtsboard.board.game.records import Setter, Why
from draughtsboard.board.message import Message
from draughtsboard.words import english

said = Message.of


def said_reason(why: Why, by: Setter = Setter.UNKNOWN) -> Message | str:
    """Why a game has its result as the page receives it: a rule's typed reason as its
    message (rendered in each reader's language; the reasons of a draw accepted with
    who accepted it, ``by``), a person's words as they are."""
    return reasons.why_message(why, by)


class HallError(ValueError):
    """A refusal in a message: the console shows it in the arbiter's language."""

    def __init__(self, message: Message) -> None:
        super().__init__(english(message))
        self.message = message


def shown(value: Any) -> Any:
    """``value`` as the page receives it: each `Message` as its JSON, in lists and dicts
    too; anything else as it is (an older record's plain text shows as it was)."""
    if isinstance(value, Message):
        return value.as_json()
    if isinstance(value, dict):
        return {key: shown(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [shown(item) for item in value]
    return value


__all__ = ["HallError", "said", "said_reason", "shown"]
