"""The glossary: the one word for each thing in each language, and the check that holds a
language's catalog and docs to it.

A judge who reads «арбитр» on one screen and «судья» on the next, or one word for the
move the board refuses and the move the opponent may let stand, cannot tell what the
board means. ``glossary.toml`` (beside the catalogs, so that a translator edits both in
one place, and `compile --check` reports a slip where it reports a missing message) says
each language's word for each thing, the synonyms it must not use and, for the things
that have messages of their own (an illegal move, an irregular move), which messages
those are: each of them holds the thing's word and never the word of the thing it is
distinct from. Standard library only (``tomllib``); a maintainer's and the tests' tool.
"""

from __future__ import annotations

import fnmatch
import pathlib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

GLOSSARY = pathlib.Path(__file__).resolve().parent / "glossary.toml"
CODE_BLOCK = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*(?::[a-z-]+)?\}")


@dataclass(frozen=True)
class Thing:
    """A thing every language names: what it means, the message ids about it alone
    (globs), and the thing whose word its messages never use."""

    name: str
    means: str
    ids: tuple[str, ...] = ()
    distinct_from: str | None = None

    def covers(self, message_id: str) -> bool:
        return any(fnmatch.fnmatchcase(message_id, pattern) for pattern in self.ids)


@dataclass(frozen=True)
class Term:
    """One language's word for a thing: the word, the beginnings of its forms, the
    synonyms it must not use (regular expressions), and why."""

    thing: str
    word: str
    stems: tuple[str, ...]
    forbidden: tuple[str, ...]
    note: str = ""

    def has_stem(self, text: str) -> bool:
        lowered = text.lower()
        return any(stem.lower() in lowered for stem in self.stems)


@dataclass(frozen=True)
class Glossary:
    things: dict[str, Thing]
    terms: dict[str, dict[str, Term]]  # language -> thing -> term

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(self.terms)


def _pattern(word: str) -> re.Pattern[str]:
    """A forbidden word as matched: at the start of a word; a word starting in lower
    case matches its capital too."""
    alternatives = {word, word[:1].upper() + word[1:]}
    return re.compile(r"(?<!\w)(?:" + "|".join(sorted(alternatives)) + ")")


@cache
def load_glossary(path: pathlib.Path = GLOSSARY) -> Glossary:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    things = {name: Thing(name, entry["means"], tuple(entry.get("ids", ())),
                          entry.get("distinct_from"))
              for name, entry in data.pop("things").items()}
    terms: dict[str, dict[str, Term]] = {}
    for language, entries in data.items():
        terms[language] = {}
        for name, entry in entries.items():
            if name not in things:
                raise ValueError(f"glossary {language}.{name}: no such thing in [things]")
            terms[language][name] = Term(name, entry["word"], tuple(entry.get("stems", ())),
                                         tuple(entry.get("forbidden", ())),
                                         entry.get("note", ""))
    return Glossary(things, terms)


def forbidden_words(glossary: Glossary, language: str, text: str) -> list[str]:
    """Each forbidden word found in ``text``: "«арбитр» (say «судья»)"."""
    found = []
    text = INLINE_CODE.sub(" ", PLACEHOLDER.sub(" ", text))
    for term in glossary.terms.get(language, {}).values():
        for word in term.forbidden:
            for match in _pattern(word).finditer(text):
                found.append(f"«{match.group(0)}» (say «{term.word}»)")
    return found


def catalog_problems(glossary: Glossary, language: str,
                     messages: Mapping[str, str | tuple[str, ...]]) -> list[str]:
    """What breaks the glossary in a language's catalog (msgid -> msgstr or forms)."""
    terms = glossary.terms.get(language)
    if not terms:
        return []
    found = []
    for key, entry in sorted(messages.items()):
        forms = entry if isinstance(entry, tuple) else (entry,)
        text = " ".join(forms)
        for word in forbidden_words(glossary, language, text):
            found.append(f"{language}: {key}: {word}")
        for thing in glossary.things.values():
            term = terms.get(thing.name)
            if term is None or not thing.covers(key):
                continue
            if not all(term.has_stem(form) for form in forms):
                found.append(f"{language}: {key} is about the {thing.name.replace('_', ' ')}"
                             f": say «{term.word}»")
            other = terms.get(thing.distinct_from or "")
            if other is not None and any(other.has_stem(form) for form in forms):
                found.append(f"{language}: {key} is about the {thing.name.replace('_', ' ')}"
                             f" but uses the word of the {other.thing.replace('_', ' ')} "
                             f"(«{other.word}»)")
    return found


def prose(markdown: str) -> str:
    """A doc's words: without its code blocks, inline code and link targets (commands,
    option values and paths are not words of the language)."""
    text = CODE_BLOCK.sub("", markdown)
    text = INLINE_CODE.sub("", text)
    return LINK_TARGET.sub("]", text)


def doc_problems(glossary: Glossary, language: str, name: str, markdown: str) -> list[str]:
    """What breaks the glossary in a doc written in ``language``, line by line."""
    found = []
    for line in prose(markdown).splitlines():
        for word in forbidden_words(glossary, language, line):
            found.append(f"{name}: {word}: {line.strip()[:80]}")
    return found


def markdown_table(glossary: Glossary, languages: tuple[str, ...] = ("ru", "nl", "fr"),
                   names: tuple[str, ...] = ("Russian", "Dutch", "French")) -> str:
    """The glossary as docs/languages.md shows it: a row per thing, each language's word
    and the synonyms it must not use (a test keeps the page and this file the same)."""
    def cell(language: str, thing: str) -> str:
        term = glossary.terms[language][thing]
        avoided = ", ".join(word.replace("\\b", "") for word in term.forbidden)
        return term.word + (f" (not: {avoided})" if avoided else "")

    rows = ["| thing | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    rows += [f"| {thing.replace('_', ' ')} | "
             + " | ".join(cell(language, thing) for language in languages) + " |"
             for thing in glossary.things]
    return "\n".join(rows) + "\n"
