"""The board's answers to a player's questions, in words: exact sentences for a real
position in Russian and English, the clocks with their plurals, the hint."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.speech.answers import (
    answer_clocks,
    answer_hint,
    answer_last_move,
    answer_position,
    duration,
    question_for,
    spoken_text,
)
from draughtsboard.words import words_for

RUSSIAN = get_variant("russian")
START = parse_fen(RUSSIAN, "W:WKc3,e5,a1,c1,g7:Bd6,h8")  # White: e5 takes d6 (to c7)


def said(language, message):
    """An answer as the speaker says it (numbers in words where the catalog asks)."""
    return spoken_text(words_for(language).spoken(), message)


def played() -> Game:
    game = Game(RUSSIAN, start=START)
    (move,) = START.legal_moves()
    game.play(move, t_monotonic=1.0)
    return game


def test_the_last_move_in_russian_and_english():
    game = played()
    assert said("ru", answer_last_move(game, {})) == \
        "Последний ход белых: е пять бьёт цэ семь, взята одна шашка."
    assert said("en", answer_last_move(game, {})) == "White's last move: e5 takes c7, 1 piece."
    assert said("ru", answer_last_move(Game(RUSSIAN, start=START), {})) == "Ходов ещё не было."


def test_a_crowning_last_move_and_the_opponents_move_waiting():
    start = parse_fen(RUSSIAN, "W:Wg7:Bb6")
    game = Game(RUSSIAN, start=start)
    game.play(next(m for m in start.legal_moves() if RUSSIAN.geometry.name(m.end) == "h8"),
              t_monotonic=1.0)
    assert said("ru", answer_last_move(game, {})) == \
        "Последний ход белых: гэ семь — аш восемь. Шашка прошла в дамки."
    waiting = {"opponent": {"pending": {"path": [9, 13], "captures": []}}}
    assert said("en", answer_last_move(game, waiting)) == \
        "Opponent's move: b6 to a5. Carry it out on the board."


def test_the_position_kings_first_then_men_side_to_move_first_then_white():
    position = played().position
    assert said("ru", answer_position(position)) == (
        "Ход чёрных. Белые: одна дамка на цэ три; четыре простые на а один, цэ один, цэ семь "
        "и гэ семь. Чёрные: одна простая на аш восемь.")
    assert said("fr", answer_position(position)) == (
        "Les noirs ont le trait. Blancs : une dame sur c3 ; quatre pions sur a1, c1, c7 et g7. "
        "Noirs : un pion sur h8.")
    assert said("en", answer_position(position)) == (
        "Black to move. White: 1 king: c3; 4 men: a1, c1, c7, and g7. Black: 1 man: h8.")
    alone = parse_fen(RUSSIAN, "B:WKc3:BKa7,Kb8")
    assert said("ru", answer_position(alone)) == \
        "Ход чёрных. Белые: одна дамка на цэ три. Чёрные: две дамки на а семь и бэ восемь."
    assert said("en", answer_position(parse_fen(RUSSIAN, "W:Wc3:B"))) == \
        "White to move. White: 1 man: c3. Black has no pieces."


def test_a_numbered_board_says_its_numbers():
    international = get_variant("international")
    position = parse_fen(international, "W:W32,K28,31:B19")
    assert said("en", answer_position(position)) == \
        "White to move. White: 1 king: 28; 2 men: 31 and 32. Black: 1 man: 19."


@pytest.mark.parametrize(("seconds", "russian", "on_a_page", "english"), [
    (1, "одна секунда", "1 секунда", "1 second"),
    (2, "две секунды", "2 секунды", "2 seconds"),
    (5, "пять секунд", "5 секунд", "5 seconds"),
    (21, "двадцать одна секунда", "21 секунда", "21 seconds"),
    (60, "одна минута", "1 минута", "1 minute"),
    (122, "две минуты две секунды", "2 минуты 2 секунды", "2 minutes 2 seconds"),
    (245.9, "четыре минуты пять секунд", "4 минуты 5 секунд", "4 minutes 5 seconds"),
    (305, "пять минут пять секунд", "5 минут 5 секунд", "5 minutes 5 seconds"),
    (21 * 60 + 21, "двадцать одна минута двадцать одна секунда", "21 минута 21 секунда",
     "21 minutes 21 seconds"),
    (3600 + 120 + 5, "один час две минуты пять секунд", "1 час 2 минуты 5 секунд",
     "1 hour 2 minutes 5 seconds"),
    (2 * 3600 + 22 * 60, "два часа двадцать две минуты", "2 часа 22 минуты",
     "2 hours 22 minutes"),
    (0, "ноль секунд", "0 секунд", "0 seconds"),
])
def test_durations_as_a_person_says_them(seconds, russian, on_a_page, english):
    """Said, a number agrees with its noun («две минуты»); a page keeps the digits."""
    assert words_for("ru").spoken()(duration(seconds)) == russian
    assert words_for("ru")(duration(seconds)) == on_a_page
    assert words_for("en").spoken()(duration(seconds)) == english


# A digit right before a feminine noun: the speech engine reads it masculine.
MASCULINE_BEFORE_FEMININE = {
    "ru": re.compile(r"\d\s+(минут|секунд|дамк|дамок|прост)"),
    "fr": re.compile(r"\d\s+(d')?(heure|minute|seconde|dame)"),
}


@pytest.mark.parametrize("language", ["ru", "fr"])
@pytest.mark.parametrize("count", [1, 2, 21, 22])
def test_no_count_is_read_in_the_wrong_gender(language, count):
    """espeak-ng reads "1 минута" as "один минута" and "1 heure" as "un heure": a
    count never stands right before a feminine noun (checked by hand with
    ``espeak-ng -v ru -x``; the engine's own reading is checked below when it is
    installed)."""
    spoken = words_for(language).spoken()
    texts = [spoken(duration(seconds)) for seconds in (count, count * 60, count * 3600)]
    position = parse_fen(RUSSIAN, "W:WKc3,e5:Bd6")
    for side in ("kings", "men"):
        texts.append(spoken(Message.of(f"ask.position.{side}", count=count, squares=["c3"])))
    for text in texts:
        assert not MASCULINE_BEFORE_FEMININE[language].search(text), text
        if language == "ru":
            assert not re.search(r"\d", text.replace("c3", "")), text
    assert said(language, answer_position(position))


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_espeak_reads_the_counts_in_the_right_gender():
    def phonemes(language, text):
        return subprocess.run(["espeak-ng", "-q", "-x", "-v", language, text],
                              capture_output=True, text=True, check=True).stdout

    assert "ojd;'in m;in'uta" in phonemes("ru", "1 минута")  # the fault: "один минута"
    for seconds in (1, 60, 21 * 60 + 1, 3600 + 60 + 1):
        heard = phonemes("ru", said("ru", duration(seconds)))
        assert "ojd;'in m" not in heard and "ojd;'in s" not in heard, heard
        assert "Vdn'A" in heard, heard  # «одна»
    heard = phonemes("fr", said("fr", duration(3600 + 60 + 1)))
    assert "'W~ 'Wr" not in phonemes("fr", said("fr", duration(3600))), heard


def test_the_clocks_count_the_running_side_down_to_now():
    view = {"clocks": {"white": 246.0, "black": 61.0, "running": "white", "since": 100.0,
                       "held": False, "status": "running"}}
    assert said("ru", answer_clocks(view, 100.5)) == \
        "У белых четыре минуты пять секунд, у чёрных одна минута одна секунда."
    assert said("en", answer_clocks(view, 125.0)) == \
        "White: 3 minutes 41 seconds. Black: 1 minute 1 second."
    assert said("en", answer_clocks(view, 10_000.0)) == \
        "White: 0 seconds. Black: 1 minute 1 second."
    held = {"clocks": {**view["clocks"], "held": True}}
    assert said("en", answer_clocks(held, 125.0)) == \
        "White: 4 minutes 6 seconds. Black: 1 minute 1 second."
    assert said("ru", answer_clocks({"clocks": None}, 0.0)) == "В этой партии нет часов."


def test_the_hint_as_said():
    assert said("ru", answer_hint(START, {"stage": 1, "squares": [15]})) == \
        "Подсказка: ходите шашкой с е пять."
    assert said("en", answer_hint(START, {"stage": 2, "squares": [15, 6]})) == \
        "Hint: e5 takes c7, 1 piece."
    assert said("en", answer_hint(START, {"stage": 0, "thinking": True})) == \
        "The coach is thinking: ask again in a moment."
    assert said("ru", answer_hint(START, None)) == "В этой позиции подсказку не просили."


def test_which_press_asks_what():
    assert question_for("long", "hint", "training") == "clocks"
    assert question_for("double", "ask", "tournament") == "position"
    assert question_for("short", "hint", "training") == "hint"
    assert question_for("short", "hint", "free") == "hint"
    assert question_for("short", "hint", "tournament") == "last-move"
    assert question_for("short", "ask", "training") == "last-move"


def test_a_column_game_says_each_column_and_true_counts():
    """In the column game a capture takes the prisoner under the capturing piece: after
    22-18 11-15 18x11 7x16 (c3-d4 f6-e5 d4xf6 g7xe5), White has 11 men alone and a
    prisoner under e5, 12 in all."""
    column = get_variant("column")
    game = Game(column)
    for move in ("c3-d4", "f6-e5", "d4xf6", "g7xe5"):
        game.play(move)
    text = said("ru", answer_position(game.position))
    assert text.startswith("Ход белых. Белые: одиннадцать простых на а один,")
    assert text.endswith("е пять: башня из двух шашек (сверху вниз: чёрная и белая). "
                         "Всего шашек: у белых двенадцать, у чёрных двенадцать.")
    tower = parse_fen(column, "W:g7=wbb,a7=b,c7=b,e7=b")
    assert said("en", answer_position(tower)) == (
        "White to move. White: none alone, all in columns. Black: 3 men: a7, c7, and e7. "
        "g7: a column of 3 (top first: white, black, and black). In all, White 1, Black 5.")
    officer = parse_fen(column, "B:a1=W,c3=w")
    assert said("en", answer_position(officer)) == (
        "Black to move. White: 1 king: a1; 1 man: c3. Black has no pieces. No columns. "
        "In all, White 2, Black 0.")
