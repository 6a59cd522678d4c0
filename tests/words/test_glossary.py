"""The glossary (draughtsboard/words/glossary.toml): every catalog and every doc of a
language uses its one word for each thing, never a forbidden synonym, and never the same
word for an illegal move and an irregular move."""

from __future__ import annotations

from pathlib import Path

import pytest

from draughtsboard.words.compile import read_source
from draughtsboard.words.glossary import (
    catalog_problems,
    doc_problems,
    load_glossary,
    markdown_table,
)

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("ru", "nl", "fr")


def docs_in(language: str) -> list[Path]:
    return sorted((ROOT / "docs" / language).glob("*.md"))


def test_each_language_names_every_thing():
    glossary = load_glossary()
    assert set(LANGUAGES) <= set(glossary.languages)
    for language in LANGUAGES:
        assert glossary.terms[language].keys() == glossary.things.keys(), language


def test_the_message_ids_of_a_thing_are_in_the_catalogs():
    english = read_source("en").messages
    for thing in load_glossary().things.values():
        for pattern in thing.ids:
            assert any(thing.covers(key) for key in english), (thing.name, pattern)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_keeps_to_the_glossary(language):
    assert catalog_problems(load_glossary(), language, read_source(language).messages) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_doc_of_the_language_keeps_to_the_glossary(language):
    glossary = load_glossary()
    found = [problem for page in docs_in(language)
             for problem in doc_problems(glossary, language, page.name,
                                         page.read_text(encoding="utf-8"))]
    assert found == []


def test_the_russian_docs_are_checked():
    assert len(docs_in("ru")) >= 2


@pytest.mark.parametrize(("key", "text"), [
    ("console.heading", "Пульт арбитра"),
    ("console.token", "Токен"),
    ("flag.illegal", "Неправильный ход"),
    ("flag.irregular", "Ход с нарушением правил"),
    ("log.irregular_stood", "{move}: неправильный ход (FMJD, приложение 1): {kind}"),
    ("page.legend.led.illegal", "недопустимо: неправильный ход")])
def test_a_slip_is_found(key, text):
    assert catalog_problems(load_glossary(), "ru", {key: text})


@pytest.mark.parametrize(("key", "text"), [
    ("console.heading", "Пульт судьи"),
    ("flag.illegal", "Недопустимый ход"),
    ("flag.irregular", "Неправильный ход"),
    ("log.irregular_stood", "{move}: неправильный ход (ФМЖД, приложение 1): {kind}")])
def test_the_glossary_words_pass(key, text):
    assert catalog_problems(load_glossary(), "ru", {key: text}) == []


def test_a_doc_is_read_without_its_code():
    glossary = load_glossary()
    page = "Судья вводит ключ.\n\n```sh\ndraughtsboard token  # арбитр\n```\n`FMJD` и " \
           "[ссылка](арбитр.md)\n"
    assert doc_problems(glossary, "ru", "page.md", page) == []
    assert doc_problems(glossary, "ru", "page.md", "Арбитр вводит токен по FMJD.\n")


def test_the_glossary_table_of_the_languages_page_is_the_data_file():
    page = (ROOT / "docs" / "languages.md").read_text(encoding="utf-8")
    assert markdown_table(load_glossary()) in page
