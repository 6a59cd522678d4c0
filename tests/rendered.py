"""Views and messages read in a language, for tests that compare what a person reads."""

from __future__ import annotations

from typing import Any

from draughtsboard.board.message import Message, is_message_json
from draughtsboard.words import words_for


def rendered(value: Any, language: str = "en") -> Any:
    """``value`` with every message in it (a `Message`, or a message's JSON inside a
    view) read in ``language``; everything else as it is."""
    words = words_for(language)
    if isinstance(value, Message):
        return words(value)
    if is_message_json(value):
        return words(Message.from_json(value))
    if isinstance(value, dict):
        return {key: rendered(item, language) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(rendered(item, language) for item in value)
    return value


def in_english(value: Any) -> Any:
    """``value`` read in English (see `rendered`)."""
    return rendered(value, "en")
