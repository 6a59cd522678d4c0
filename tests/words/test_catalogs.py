"""The message catalogs: complete in every language, the same placeholders, compiled files
up to date, plural forms right (Russian's three), and the pseudo-language wrapping all."""

from __future__ import annotations

import pytest

from draughtsboard.board.message import Listed, Message
from draughtsboard.words import PSEUDO_LANGUAGE, catalog_languages, load_catalog, words_for
from draughtsboard.words.compile import (
    check_all,
    placeholders,
    plural_categories,
    read_source,
    source_languages,
)

LANGUAGES = ("en", "ru", "nl", "fr")


def test_the_four_languages_have_catalogs_and_every_source_is_compiled():
    assert set(LANGUAGES) <= set(catalog_languages())
    assert set(source_languages()) == set(catalog_languages())
    assert catalog_languages()[0] == "en"


def test_every_catalog_is_complete_with_the_same_placeholders_and_up_to_date():
    assert check_all() == []


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_catalog_has_every_english_message_id(language):
    english = read_source("en").messages
    other = read_source(language).messages
    assert english.keys() == other.keys()
    for key, entry in english.items():
        assert placeholders(other[key]) == placeholders(entry), key
        assert isinstance(other[key], tuple) == isinstance(entry, tuple), key


@pytest.mark.parametrize(("count", "expected"), [
    (1, "1 ход"), (2, "2 хода"), (5, "5 ходов"), (11, "11 ходов"), (21, "21 ход"),
    (22, "22 хода"), (25, "25 ходов"), (0, "0 ходов"), (12, "12 ходов"), (104, "104 хода"),
    (111, "111 ходов")])
def test_russian_plural_forms(count, expected):
    assert words_for("ru").text("count.moves", count=count) == expected


@pytest.mark.parametrize(("count", "expected"), [
    (1, "1 шашка"), (2, "2 шашки"), (5, "5 шашек"), (11, "11 шашек"), (21, "21 шашка"),
    (22, "22 шашки"), (25, "25 шашек")])
def test_russian_plural_forms_of_pieces(count, expected):
    assert words_for("ru").text("count.pieces", count=count) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_plural_form_is_one_cldr_category_as_the_browser_picks_it(language):
    catalog = load_catalog(language)
    source = read_source(language)
    assert catalog.plural_categories == plural_categories(
        language, source.num_plurals, source.plural_expr)


def test_english_and_french_plurals():
    assert words_for("en").text("count.moves", count=1) == "1 move"
    assert words_for("en").text("count.moves", count=0) == "0 moves"
    assert words_for("fr").text("count.moves", count=0) == "0 coup"
    assert words_for("fr").text("count.moves", count=2) == "2 coups"
    assert words_for("nl").text("count.moves", count=2) == "2 zetten"


def test_lists_are_joined_by_each_languages_pattern():
    squares = Listed(("c3", "e5", "g7"))
    assert words_for("en").param(squares) == "c3, e5, and g7"
    assert words_for("ru").param(squares) == "c3, e5 и g7"
    assert words_for("ru").param(Listed(("c3", "e5"), "or")) == "c3 или e5"
    assert words_for("fr").param(Listed(("c3",))) == "c3"


def test_nested_messages_render_in_the_same_language():
    message = Message.of("count.moves", count=3)
    assert words_for("ru")(message) == "3 хода"
    assert words_for("ru").param(Listed((Message.of("side.white"), Message.of("side.black")))) \
        == "Белые и Чёрные"


def test_an_unknown_id_reads_as_the_id_and_a_missing_parameter_stays_visible():
    assert words_for("ru")(Message.of("no.such.message")) == "no.such.message"
    assert words_for("en")(Message("count.moves")) == "{count} moves"


def test_the_pseudo_language_wraps_every_message_and_every_list_word():
    pseudo = words_for(PSEUDO_LANGUAGE)
    assert pseudo.text("side.white") == "⟦White⟧"
    assert pseudo.text("count.moves", count=2) == "⟦2 moves⟧"
    assert pseudo.param(Listed(("c3", "e5", "g7"))) == "c3⟦, ⟧e5⟦, and ⟧g7"
    assert PSEUDO_LANGUAGE not in catalog_languages()
