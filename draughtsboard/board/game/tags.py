"""Tag pairs as PDN allows them, checked before they reach a game record.

A tag name is ASCII letters, digits and ``_``, starting with a letter; a value is one line
of at most 200 printable characters (tags come from the arbiter's page, the command line
and the boards of a hall, and end up in PDN files that other programs read). Tags the
record derives from its own data (``Result``, ``FEN``, ``GameType``, ``SetUp``,
``Variant``) cannot be set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..rules.errors import DraughtsError
from .record import DERIVED_TAGS

MAX_TAG_VALUE = 200


class InvalidTagError(DraughtsError):
    """A tag name or value that a game record cannot hold."""


def clean_tags(tags: Mapping[Any, object]) -> dict[str, str]:
    """The tags as strings, checked; `InvalidTagError` naming the first bad one."""
    out = {}
    for key, value in tags.items():
        key = str(key).strip()
        if not is_tag_name(key):
            raise InvalidTagError(f"not a tag name: {key!r}")
        if key in DERIVED_TAGS:
            raise InvalidTagError(f"the {key} tag is derived from the game, not set")
        text = str(value)
        if not text.isprintable() or len(text) > MAX_TAG_VALUE:
            raise InvalidTagError(f"tag {key}: one line of at most {MAX_TAG_VALUE} printable "
                                  "characters")
        out[key] = text
    return out


def is_tag_name(name: str) -> bool:
    return bool(name) and name[0].isalpha() and name.isascii() and \
        all(c.isalnum() or c == "_" for c in name)


def printable(text: str) -> str:
    """A tag value as a PDN line can hold it, whatever a record holds: every character
    that is not printable (line breaks of any kind, controls) becomes a space."""
    return "".join(c if c.isprintable() else " " for c in text)


def parse_tag_options(items: Iterable[str]) -> dict[str, str]:
    """``KEY=VALUE`` command-line items as checked tags."""
    tags = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise InvalidTagError(f"--tag {item!r}: expected KEY=VALUE")
        tags.update(clean_tags({key: value}))
    return tags
