"""Compile the gettext catalogs into the files the board reads, and check them.

    python -m draughtsboard.words.compile          # write catalogs/<language>.json
    python -m draughtsboard.words.compile --check  # say what is out of date or wrong

A maintainer's tool (Babel is a test and development dependency, not a board's): Babel
reads each ``catalogs/<language>.po`` and gives the language's plural rule and CLDR data;
this writes what `catalog.load_catalog` reads. The checks (also run by the tests): every
catalog has every message id of the English one and no other, with the same placeholders,
the same kind (plural or not) and every plural form filled; each gettext plural form
matches one CLDR plural category, so Python and the browser pick the same form; and each
language keeps to its glossary (``glossary.toml``: one word for each thing).
"""

from __future__ import annotations

import argparse
import gettext
import json
import pathlib
import re
import sys
from dataclasses import dataclass

from babel import Locale
from babel.messages.pofile import read_po

from .catalog import SOURCE_LANGUAGE
from .glossary import catalog_problems, load_glossary
from .numbers import NumberSpecError, check_spec

CATALOGS = pathlib.Path(__file__).resolve().parent / "catalogs"
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([a-z-]+))?\}")
# the counts on which plural forms and CLDR categories must agree (French has a form for
# whole millions)
SAMPLES = (*range(0, 1001), 1_000_000, 1_000_001, 2_000_000, 10_000_000)


class CatalogProblem(ValueError):
    """A catalog that cannot be compiled as it is: each line says where and what."""


@dataclass(frozen=True)
class SourceCatalog:
    language: str
    messages: dict[str, str | tuple[str, ...]]
    num_plurals: int
    plural_expr: str
    fuzzy: tuple[str, ...]


def po_path(language: str) -> pathlib.Path:
    return CATALOGS / f"{language}.po"


def source_languages() -> list[str]:
    found = sorted(path.stem for path in CATALOGS.glob("*.po"))
    return sorted(found, key=lambda code: code != SOURCE_LANGUAGE)


def read_source(language: str) -> SourceCatalog:
    with po_path(language).open("rb") as handle:
        catalog = read_po(handle, locale=language)
    messages: dict[str, str | tuple[str, ...]] = {}
    fuzzy = []
    for message in catalog:
        if not message.id:
            continue
        # (babel types an id and a string as a text or a sequence of them, a string also
        # as None; a .po file gives a plural message tuples and any other texts)
        key = message.id if isinstance(message.id, str) else message.id[0]
        if message.fuzzy:
            fuzzy.append(key)
        string = message.string
        if isinstance(message.id, tuple):
            messages[key] = tuple(string) if isinstance(string, (tuple, list)) \
                else (string or "",)
        else:
            messages[key] = string if isinstance(string, str) else ""
    return SourceCatalog(language, messages, catalog.num_plurals, catalog.plural_expr,
                         tuple(fuzzy))


def placeholders(entry: str | tuple[str, ...]) -> set[str]:
    forms = entry if isinstance(entry, tuple) else (entry,)
    return {name for form in forms for name, _ in PLACEHOLDER.findall(form)}


def spec_problems(key: str, entry: str | tuple[str, ...]) -> list[str]:
    """A placeholder's number spec that says no gender and case (numbers.py)."""
    forms = entry if isinstance(entry, tuple) else (entry,)
    found = []
    for form in forms:
        for _, spec in PLACEHOLDER.findall(form):
            try:
                if spec:
                    check_spec(spec)
            except NumberSpecError as error:
                found.append(f"{key}: {error}")
    return found


def plural_categories(language: str, num_plurals: int, expression: str) -> tuple[str, ...]:
    """The CLDR category of each gettext plural form of ``language``, found by counting:
    a form that two categories share, or none, is a problem."""
    index_of = gettext.c2py(expression)
    rule = Locale.parse(language).plural_form
    seen: dict[int, set[str]] = {}
    for n in SAMPLES:
        seen.setdefault(index_of(n), set()).add(rule(n))
    categories = []
    for index in range(num_plurals):
        found = seen.get(index, set())
        if len(found) != 1:
            raise CatalogProblem(f"{language}: plural form {index} is CLDR's "
                                 f"{sorted(found) or 'nothing'}; it must be one category")
        categories.append(found.pop())
    return tuple(categories)


def problems(source: SourceCatalog, reference: SourceCatalog) -> list[str]:
    """What is wrong with ``source`` against the English ``reference``."""
    found = []
    name = source.language
    for key in sorted(reference.messages.keys() - source.messages.keys()):
        found.append(f"{name}: {key} is missing")
    for key in sorted(source.messages.keys() - reference.messages.keys()):
        found.append(f"{name}: {key} is not in the English catalog")
    for key in sorted(source.messages.keys() & reference.messages.keys()):
        entry, model = source.messages[key], reference.messages[key]
        if isinstance(entry, tuple) != isinstance(model, tuple):
            found.append(f"{name}: {key} must {'' if isinstance(model, tuple) else 'not '}"
                         "be a plural message")
            continue
        if placeholders(entry) != placeholders(model):
            found.append(f"{name}: {key} has placeholders {sorted(placeholders(entry))}, "
                         f"English {sorted(placeholders(model))}")
        forms = entry if isinstance(entry, tuple) else (entry,)
        found += [f"{name}: {problem}" for problem in spec_problems(key, entry)]
        if isinstance(entry, tuple) and len(entry) != source.num_plurals:
            found.append(f"{name}: {key} has {len(entry)} plural forms, the language "
                         f"{source.num_plurals}")
        if any(not form.strip() for form in forms):
            found.append(f"{name}: {key} is not translated")
    for key in source.fuzzy:
        found.append(f"{name}: {key} is marked fuzzy")
    return found


def compiled(source: SourceCatalog) -> dict:
    locale = Locale.parse(source.language)
    name = locale.get_display_name(source.language) or source.language
    lists = {style: {part: locale.list_patterns[kind][part]
                     for part in ("start", "middle", "end", "2")}
             for style, kind in (("and", "standard"), ("or", "or"))}
    return {
        "language": source.language,
        "name": name[:1].upper() + name[1:],
        "plural": {"forms": source.plural_expr,
                   "categories": list(plural_categories(source.language, source.num_plurals,
                                                        source.plural_expr))},
        "lists": lists,
        "messages": {key: list(value) if isinstance(value, tuple) else value
                     for key, value in sorted(source.messages.items())},
    }


def compiled_text(source: SourceCatalog) -> str:
    return json.dumps(compiled(source), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def check_all() -> list[str]:
    """Every problem of every catalog, and every compiled file that is out of date."""
    reference = read_source(SOURCE_LANGUAGE)
    found = []
    for language in source_languages():
        source = reference if language == SOURCE_LANGUAGE else read_source(language)
        found += problems(source, reference)
        found += catalog_problems(load_glossary(), language, source.messages)
        try:
            text = compiled_text(source)
        except CatalogProblem as problem:
            found.append(str(problem))
            continue
        target = CATALOGS / f"{language}.json"
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            found.append(f"{language}: {target.name} is out of date: run "
                         "python -m draughtsboard.words.compile")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only say what is wrong or out of date")
    options = parser.parse_args(argv)
    if options.check:
        found = check_all()
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    reference = read_source(SOURCE_LANGUAGE)
    status = 0
    for language in source_languages():
        source = reference if language == SOURCE_LANGUAGE else read_source(language)
        wrong = problems(source, reference)
        for line in wrong:
            print(line, file=sys.stderr)
        try:
            text = compiled_text(source)
        except CatalogProblem as problem:
            print(problem, file=sys.stderr)
            status = 1
            continue
        (CATALOGS / f"{language}.json").write_text(text, encoding="utf-8")
        status = status or (1 if wrong else 0)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
