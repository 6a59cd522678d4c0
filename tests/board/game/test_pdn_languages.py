"""The comments the board writes into PDN are in the board's language, and every one of
them reads back: a game written in Russian (or Dutch, French, English) reads back to the
same moves, positions and corrections, and so does a file in the English every earlier
version wrote. Tag names, result codes and notation never change with the language."""

from pathlib import Path

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import ENGLISH, EVENT_LABELS, write_game
from draughtsboard.board.message import Message
from draughtsboard.board.tracker.irregular import Irregularity
from draughtsboard.words import catalog_languages, english, load_catalog, words_for

from .test_pdn_irregular import assert_same_game, lasca_game, russian_game

OLD_ENGLISH = Path(__file__).parents[2] / "data" / "old-english-irregular.pdn"
LANGUAGES = catalog_languages()


def a_game_with_every_comment():
    """Irregular moves, corrections (one taken back) and a clock event."""
    game = russian_game()
    game.add_event("clock-start", "clock started", 5.0, 1_700_000_100.0)
    return game


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_game_written_in_any_language_reads_back_the_same(language):
    game = a_game_with_every_comment()
    text = write_game(game, say=words_for(language))
    result = read_pdn(text, source=language)
    assert result.errors == []
    assert_same_game(result.games[0].game, game)
    lasca = lasca_game()
    assert read_pdn(write_game(lasca, say=words_for(language))).games[0].game.positions \
        == lasca.positions


def test_russian_comments_are_russian_and_the_standard_stays_standard():
    game = a_game_with_every_comment()
    text = write_game(game, say=words_for("ru"))
    assert "неправильный ход (ФМЖД, приложение 1, п. 5.4): шашка пошла не по правилам; " \
        "ход оставлен в силе [%fen " in text
    assert "{исправление судьи в 22:13:20 UTC: position accepted by the arbiter " \
        "[%setup W:W21-32:B1-12]}" in text
    assert "{часы в 22:15:00 UTC: clock started}" in text
    for english_word in ("allowed to stand", "irregular (", "arbiter correction", "{clock "):
        assert english_word not in text
    # tag names, result codes, notation and the embedded commands are the standard's
    assert text.startswith('[Event "irregular"]\n[Result "*"]\n[GameType "25"]\n')
    assert "1. c3-d4 f6-h4" in text and text.rstrip().endswith("*")


def test_a_correction_written_in_french_keeps_its_text():
    game = russian_game()
    text = write_game(game, say=words_for("fr"))
    assert "{correction de l'arbitre à 22:13:20 UTC : position accepted" in text
    assert_same_game(read_pdn(text).games[0].game, game)


def test_the_old_english_form_still_reads_back():
    """A file written before the board spoke languages (the English form, byte for
    byte what the writer still writes when no language is given)."""
    text = OLD_ENGLISH.read_text(encoding="utf-8")
    result = read_pdn(text, source=OLD_ENGLISH.name)
    assert result.errors == []
    game = a_game_with_every_comment()
    assert_same_game(result.games[0].game, game)
    assert write_game(game) == text


def test_the_english_catalog_says_what_the_writer_says_without_a_language():
    game = a_game_with_every_comment()
    assert write_game(game, say=english) == write_game(game)
    catalog = load_catalog("en").messages
    for message_id, words in ENGLISH.items():
        assert catalog[message_id] == words


def test_every_irregularity_has_its_comment_in_every_language():
    for language in LANGUAGES:
        catalog = load_catalog(language).messages
        for kind in Irregularity:
            assert f"pdn.irregular.{kind.name.lower()}" in catalog, (language, kind)
    for kind in Irregularity:
        # English: the very words recorded with the move (and written without a language)
        assert english(Message.of(f"pdn.irregular.{kind.name.lower()}")) == kind.comment


def test_no_event_label_has_a_colon_the_reader_would_stop_at():
    ids = {*EVENT_LABELS.values(), "pdn.event.correction_undone"}
    for language in LANGUAGES:
        catalog = load_catalog(language).messages
        for message_id in ids:
            assert ":" not in catalog[message_id], (language, message_id)


def test_a_game_read_back_keeps_its_comment_when_written_in_another_language():
    """An irregular move read from a file has no kind the catalogs name: its comment (in
    whatever language it was written) is written again as it was."""
    russian = write_game(a_game_with_every_comment(), say=words_for("ru"))
    again = read_pdn(russian).games[0].game
    in_dutch = write_game(again, say=words_for("nl"))
    assert "шашка пошла не по правилам; ход оставлен в силе [%fen " in in_dutch
    assert "pdn.irregular" not in in_dutch
