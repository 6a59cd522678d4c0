"""What the board says, in words: whole recorded games heard in each language, moves as
players say them, nothing left unsaid, no English in the Russian."""

from __future__ import annotations

import re

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.position import Move
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.speech.spoken import (
    FLAG,
    INFO,
    MOVE,
    Announcement,
    for_level,
    level_for_mode,
    spoken_move,
    text_of,
    what_changed,
)
from draughtsboard.words import words_for

from .games import INTERNATIONAL, RUSSIAN, heard, recorded_game


def spoken_words(language):
    """A language's renderer as the speaker says it (numbers in words)."""
    return words_for(language).spoken()


LATIN = re.compile(r"[A-Za-z]")
# What a text must never hold: a placeholder or a message id left, an empty sentence.
GAP = re.compile(r"\{|\}|spoken\.|speech\.|\.\s*\.|,\s*[,.]|\s{2,}|^\s*\.|\(\s*\)")


def check_whole(said, recorded: Game) -> list[str]:
    texts = [text for _, text in said]
    for text in texts:
        assert text.strip() and not GAP.search(text), text
    moves = [a for a, _ in said if a.kind == MOVE and a.recorded_at is not None]
    assert len(moves) == len(recorded.moves)  # every move said, once
    return texts


def test_a_whole_russian_game_is_said_in_russian_with_no_latin_letter():
    recorded = recorded_game(*RUSSIAN)
    texts = check_whole(heard(recorded, "ru"), recorded)
    for text in texts:
        assert not LATIN.search(text), text
    assert texts[:3] == ["цэ три — дэ четыре.", "дэ шесть — цэ пять.",
                         "Недопустимый ход. Исправьте поля цэ три и бэ два."]
    assert "Ход соперника: бэ шесть — а пять. Сделайте его на доске." in texts
    assert "Бить обязательно: дэ четыре." in texts
    assert "дэ четыре бьёт бэ шесть, взята одна шашка." in texts
    assert any(re.search(r"бьёт \S+ \S+ и \S+ \S+, взяты две шашки\.", t) for t in texts)
    for text in texts:
        assert not re.search(r"\d", text), text  # every number said as a word
    assert "гэ семь — эф восемь. Шашка проходит в дамки." in texts
    assert "Можно заявить ничью." in texts
    assert texts[-1] == "Победа чёрных."


def test_a_whole_russian_game_in_english_dutch_and_french():
    recorded = recorded_game(*RUSSIAN)
    english = check_whole(heard(recorded, "en"), recorded)
    assert english[:3] == ["c3 to d4.", "d6 to c5.", "Illegal move. Put right squares c3 and b2."]
    assert "d4 takes b6, 1 piece." in english
    assert "g7 to f8. The piece becomes a king." in english
    assert "Capture is required: a7 and a5." in english
    assert english[-1] == "Black wins."
    dutch = check_whole(heard(recorded, "nl"), recorded)
    assert "d4 slaat b6, 1 schijf." in dutch and dutch[-1] == "Zwart wint."
    assert "g7 naar f8. De schijf wordt dam." in dutch
    french = check_whole(heard(recorded, "fr"), recorded)
    assert "d4 prend b6, une pièce prise." in french and french[-1] == "Les noirs gagnent."
    assert "g7 va en f8. Le pion va à dame." in french


@pytest.mark.parametrize(("language", "step", "capture", "crowned", "result"), [
    ("en", "32 to 28.", "28 takes 17, 1 piece.", "The piece becomes a king.", "White wins."),
    ("ru", "тридцать два — двадцать восемь.", "двадцать восемь бьёт семнадцать, взята одна "
     "шашка.", "Шашка проходит в дамки.", "Победа белых."),
    ("nl", "32 naar 28.", "28 slaat 17, 1 schijf.", "De schijf wordt dam.", "Wit wint."),
    ("fr", "32 va en 28.", "28 prend 17, une pièce prise.", "Le pion va à dame.",
     "Les blancs gagnent."),
])
def test_a_whole_international_game_says_its_numbered_squares(language, step, capture,
                                                               crowned, result):
    recorded = recorded_game(*INTERNATIONAL)
    texts = check_whole(heard(recorded, language), recorded)
    assert texts[0] == step and capture in texts and texts[-1] == result
    assert any(text.endswith(crowned) for text in texts)
    seventeen, twenty_eight = {"ru": ("семнадцать", "двадцать восемь")}.get(language,
                                                                          ("17", "28"))
    assert any(re.search(rf"\b{seventeen}\b.*\b{twenty_eight}\b", t)
               for t in texts if t not in (step, capture))
    if language == "ru":
        for text in texts:
            assert not LATIN.search(text), text


@pytest.mark.parametrize(("count", "russian", "french"), [
    (1, "взята одна шашка", "une pièce prise"), (2, "взяты две шашки", "deux pièces prises"),
    (5, "взято пять шашек", "cinq pièces prises")])
def test_a_capture_says_how_many_pieces_it_takes(count, russian, french):
    variant = get_variant("russian")
    number = variant.geometry.number_of_name
    path = tuple(number(n) for n in ("c1", "e3", "g5", "e7", "c5", "a3")[:count + 1])
    move = Move(path, tuple(range(1, count + 1)))
    assert spoken_words("ru")(spoken_move(variant, move)).endswith(russian)
    assert spoken_words("fr")(spoken_move(variant, move)).endswith(french)
    english = spoken_words("en")(spoken_move(variant, move))
    assert english.endswith(f"{count} piece" + ("s" if count > 1 else ""))


def test_the_first_publication_says_nothing_and_a_new_game_and_a_takeback_are_said():
    variant = get_variant("russian")
    game = Game(variant)
    heard_now, said = what_changed(None, "a", game, {})
    assert said == []
    game.play("c3-d4", t_monotonic=1.0)
    heard_now, said = what_changed(heard_now, "a", game.read_only_copy(), {})
    assert [a.kind for a in said] == [MOVE] and said[0].recorded_at == 1.0
    game.undo()
    heard_now, said = what_changed(heard_now, "a", game.read_only_copy(), {})
    assert said == [Announcement(INFO, (Message.of("spoken.takeback"),))]
    heard_now, said = what_changed(heard_now, "b", Game(variant), {})
    assert said == [Announcement(INFO, (Message.of("spoken.new_game"),))]


def test_the_levels_keep_what_they_speak_and_tournament_mode_is_silent_unasked():
    move = Announcement(MOVE, (Message.of("spoken.result.draw"),), 3.0)
    flag = Announcement(FLAG, (Message.of("spoken.flag.must_capture", squares=["c3"]),))
    info = Announcement(INFO, (Message.of("spoken.draw_claim"),))
    news = [move, flag, info]
    assert for_level(news, "off") is None
    assert for_level(news, "moves").messages == move.messages
    assert for_level(news, "flags").messages == move.messages + flag.messages
    everything = for_level(news, "all")
    assert everything.messages == move.messages + flag.messages + info.messages
    assert everything.recorded_at == 3.0
    assert for_level([info], "flags") is None
    assert level_for_mode(None, "tournament") == "off"
    assert level_for_mode(None, "training") == "moves"
    assert level_for_mode("all", "tournament") == "all"
    assert text_of(spoken_words("en"), everything) == (
        "Draw. Capture is required: c3. A draw can be claimed.")


FREE = "W:WK29:B4,5"


def test_a_move_amended_in_place_is_said_as_changed_in_every_language():
    """Free play: the king lifted from a1 is put on b2, then lifted again and put on c3:
    one publication holds the move taken back and the new one (the number of moves is
    the same)."""
    variant = get_variant("russian")
    start = parse_fen(variant, FREE)
    first, amended = Game(variant, start=start), Game(variant, start=start)
    first.play(Move((29, 25)), t_monotonic=1.0)
    amended.play(Move((29, 22)), t_monotonic=2.0)
    heard_now, _ = what_changed(None, "a", Game(variant, start=start), {})
    heard_now, said = what_changed(heard_now, "a", first.read_only_copy(), {})
    assert text_of(spoken_words("ru"), said[0]) == "а один — бэ два."
    heard_now, said = what_changed(heard_now, "a", amended.read_only_copy(), {})
    assert [a.kind for a in said] == [MOVE] and said[0].recorded_at == 2.0
    assert {language: text_of(spoken_words(language), said[0])
            for language in ("en", "ru", "nl", "fr")} == {
        "en": "Move changed. a1 to c3.", "ru": "Ход изменён. а один — цэ три.",
        "nl": "Zet gewijzigd. a1 naar c3.", "fr": "Coup modifié. a1 va en c3."}
    heard_now, said = what_changed(heard_now, "a", amended.read_only_copy(), {})
    assert said == []  # said once


def test_two_moves_amended_say_how_many_changed():
    variant = get_variant("russian")
    game = Game(variant)
    for move in ("c3-d4", "f6-g5"):
        game.play(move)
    heard_now, _ = what_changed(None, "a", game.read_only_copy(), {})
    other = Game(variant)
    for move in ("c3-b4", "f6-e5", "b4-a5"):
        other.play(move)
    _, said = what_changed(heard_now, "a", other.read_only_copy(), {})
    assert text_of(spoken_words("ru"), said[0]) == (
        "Изменены два хода. цэ три — бэ четыре. эф шесть — е пять. бэ четыре — а пять.")
    assert text_of(spoken_words("en"), said[0]).startswith("2 moves changed. c3 to b4.")


@pytest.mark.parametrize("state", ["disturbed", "setup", "ready"])
def test_squares_to_put_right_are_said_without_an_illegal_move_once_per_change(state):
    """Free play reports an illegal move as "disturbed"; a piece knocked over or kept
    off the board is "disturbed" in every mode; the squares are published as
    ``restore`` (the opponent's turn owes a takeback: "ready" with ``restore``)."""
    variant = get_variant("russian")
    game = Game(variant, start=parse_fen(variant, FREE)).read_only_copy()
    number = variant.geometry.number_of_name
    c3, e5 = number("c3"), number("e5")

    def view(*squares):
        return {"state": state, "intents": {"restore": list(squares)} if squares else {}}

    heard_now, _ = what_changed(None, "a", game, view())
    said_all = []
    for squares in [(c3,), (c3,), (c3, e5), (e5,), (), (e5,)]:
        heard_now, said = what_changed(heard_now, "a", game, view(*squares))
        said_all.append([text_of(spoken_words("ru"), a) for a in said])
        assert all(a.kind == FLAG for a in said)
    assert said_all == [["Исправьте поле цэ три."], [], ["Исправьте поля е пять и цэ три."],
                        [], [], ["Исправьте поле е пять."]]
    _, said = what_changed(None, "a", game, view())
    _, said = what_changed(_, "a", game, view(c3, e5))
    assert text_of(spoken_words("en"), said[0]) == "Put right squares e5 and c3."
