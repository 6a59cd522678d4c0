"""The message catalogs as the running program reads them: one compiled file per language.

Translators edit gettext catalogs (``catalogs/<language>.po``, docs/languages.md); Babel
compiles each into ``catalogs/<language>.json`` (`draughtsboard.words.compile`, checked by
a test to be up to date). The compiled file holds the messages, the language's plural rule
(gettext's ``Plural-Forms`` expression, with the CLDR category of each of its forms, so
the browser's ``Intl.PluralRules`` picks the same form) and CLDR's list patterns. Reading
it needs only the standard library: Babel and its locale data stay out of a board's
memory (a Pi Zero 2 W has 512 MB).

``qps`` is a pseudo-language made from English at load: every message wrapped in ⟦…⟧,
so a test can see any word on a page that did not come from a catalog.
"""

from __future__ import annotations

import gettext
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

SOURCE_LANGUAGE = "en"
PSEUDO_LANGUAGE = "qps"
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"

Entry = str | tuple[str, ...]


class UnknownLanguageError(ValueError):
    """A language with no catalog."""

    def __init__(self, language: str) -> None:
        self.language = language
        super().__init__(f"no catalog for language {language!r} (known: "
                         f"{', '.join(catalog_languages())})")


def _catalog_dir():
    return resources.files("draughtsboard.words").joinpath("catalogs")


@cache
def catalog_languages() -> tuple[str, ...]:
    """The languages with a compiled catalog, source language first: adding a language is
    adding its catalog (docs/languages.md)."""
    found = sorted(entry.name.removesuffix(".json") for entry in _catalog_dir().iterdir()
                   if entry.name.endswith(".json"))
    return tuple(sorted(found, key=lambda code: code != SOURCE_LANGUAGE))


@dataclass(frozen=True)
class Catalog:
    """One language's compiled catalog: ``messages`` by id (a plural message has one
    form per plural category, in gettext's order), the ``plural_forms`` expression and
    the CLDR ``plural_categories`` of its forms, CLDR's list ``lists`` patterns, and the
    language's ``name`` in itself."""

    language: str
    name: str
    messages: dict[str, Entry]
    plural_forms: str
    plural_categories: tuple[str, ...]
    lists: dict[str, dict[str, str]]

    def as_json(self) -> dict[str, Any]:
        return {"language": self.language, "name": self.name,
                "plural": {"forms": self.plural_forms,
                           "categories": list(self.plural_categories)},
                "lists": self.lists,
                "messages": {key: list(value) if isinstance(value, tuple) else value
                             for key, value in self.messages.items()}}

    @property
    def plural_index(self) -> Callable[[int], int]:
        return _plural_function(self.plural_forms)


@cache
def _plural_function(expression: str) -> Callable[[int], int]:
    return gettext.c2py(expression)


def _from_json(data: dict[str, Any]) -> Catalog:
    messages = {key: tuple(value) if isinstance(value, list) else value
                for key, value in data["messages"].items()}
    return Catalog(data["language"], data["name"], messages, data["plural"]["forms"],
                   tuple(data["plural"]["categories"]), data["lists"])


@cache
def load_catalog(language: str) -> Catalog:
    """The compiled catalog of ``language`` (``qps``: the pseudo-language), read once."""
    if language == PSEUDO_LANGUAGE:
        return pseudo_catalog(load_catalog(SOURCE_LANGUAGE))
    if language not in catalog_languages():
        raise UnknownLanguageError(language)
    text = _catalog_dir().joinpath(f"{language}.json").read_text(encoding="utf-8")
    return _from_json(json.loads(text))


def pseudo_catalog(source: Catalog) -> Catalog:
    """``source`` with every message wrapped in ⟦…⟧ (placeholders kept)."""
    def wrap(text: str) -> str:
        return PSEUDO_OPEN + text + PSEUDO_CLOSE
    messages = {key: tuple(wrap(form) for form in value) if isinstance(value, tuple)
                else wrap(value) for key, value in source.messages.items()}
    lists = {style: {part: _wrap_between_placeholders(pattern, wrap)
                     for part, pattern in patterns.items()}
             for style, patterns in source.lists.items()}
    return Catalog(PSEUDO_LANGUAGE, wrap(source.name), messages, source.plural_forms,
                   source.plural_categories, lists)


def _wrap_between_placeholders(pattern: str, wrap: Callable[[str], str]) -> str:
    """A list pattern's own words wrapped ("{0}, and {1}" -> "{0}⟦, and ⟧{1}"): the
    words that join a list are the catalog's too."""
    return "".join(part if part in ("{0}", "{1}") or not part.strip() else wrap(part)
                   for part in re.split(r"(\{[01]\})", pattern))
