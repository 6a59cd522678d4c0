"""Turning a `Message` into words in one language: the one renderer at the edge.

The browser's ``words.js`` does exactly the same with the same catalog (placeholders
``{name}``, the plural form picked by the parameter ``count``, lists joined by CLDR's
patterns); `tests/words/` holds both to the same cases. What the board says aloud is
rendered by `Words.spoken`: a placeholder with a spec (``{count:f}``) says its number
in words, in the spec's gender and case (`numbers`); a page shows the digits.
"""

from __future__ import annotations

import re
from functools import cache

from draughtsboard.board.message import Listed, Message, Param

from .catalog import SOURCE_LANGUAGE, Catalog, load_catalog
from .numbers import spell, spoken_number

# {name}, or {name:spec} (a number said in words in speech: numbers.py)
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([a-z-]+))?\}")
PLURAL_PARAM = "count"


class Words:
    """One language's renderer: ``words(message)`` is the message in words; an id the
    catalog lacks falls back to the source language, then to the id itself (a test keeps
    every catalog complete, so neither happens in a release)."""

    def __init__(self, catalog: Catalog, fallback: Catalog | None = None, *,
                 spelled: bool = False) -> None:
        self.catalog = catalog
        self._fallback = fallback
        self._plural_index = catalog.plural_index
        self.spelled = spelled
        self._spoken: Words | None = self if spelled else None

    def spoken(self) -> Words:
        """This language's renderer for speech: numbers of placeholders with a spec said
        in words ("взяты {count:f} шашки": «взяты две шашки»)."""
        if self._spoken is None:
            self._spoken = Words(self.catalog, self._fallback, spelled=True)
        return self._spoken

    @property
    def language(self) -> str:
        return self.catalog.language

    def __call__(self, message: Message) -> str:
        entry = self.catalog.messages.get(message.id)
        plural_index = self._plural_index
        if entry is None and self._fallback is not None:
            entry = self._fallback.messages.get(message.id)
            plural_index = self._fallback.plural_index
        if entry is None:
            return message.id
        if isinstance(entry, tuple):
            count = message.param(PLURAL_PARAM, 0)
            index = plural_index(count if isinstance(count, int) else 0)
            entry = entry[min(index, len(entry) - 1)]
        params = message.mapping
        return PLACEHOLDER.sub(
            lambda m: self.param(params[m.group(1)], m.group(2) or "")
            if m.group(1) in params else m.group(0),
            entry)

    def text(self, message_id: str, /, **params: Param | list | tuple) -> str:
        """``words.text("side.white")``: a message made and rendered at once."""
        return self(Message.of(message_id, **params))

    def param(self, value: Param, spec: str = "") -> str:
        """A parameter in words; with a ``spec`` in speech, a number in words (each of a
        list's numbers too)."""
        if isinstance(value, Message):
            return self(value)
        if isinstance(value, Listed):
            return self.join([self.param(item, spec) for item in value.items], value.style)
        if spec and self.spelled:
            number = spoken_number(value)
            if number is not None:
                return spell(number, self.language, spec)
        return str(value)

    def join(self, items: list[str], style: str = "and") -> str:
        """CLDR's list patterns: "a", "a and b", "a, b and c"."""
        patterns = self.catalog.lists[style]
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        if len(items) == 2:
            return _fill(patterns["2"], items[0], items[1])
        result = _fill(patterns["end"], items[-2], items[-1])
        for item in reversed(items[1:-2]):
            result = _fill(patterns["middle"], item, result)
        return _fill(patterns["start"], items[0], result)


def _fill(pattern: str, first: str, second: str) -> str:
    return pattern.replace("{0}", first).replace("{1}", second)


@cache
def words_for(language: str) -> Words:
    """The renderer of ``language`` (`UnknownLanguageError` for one without a catalog)."""
    catalog = load_catalog(language)
    fallback = None if language == SOURCE_LANGUAGE else load_catalog(SOURCE_LANGUAGE)
    return Words(catalog, fallback)


def english(message: Message) -> str:
    """The message in the source language: logs read by developers, tests."""
    return words_for(SOURCE_LANGUAGE)(message)
