"""Numbers said as people say them: a placeholder with a spec ({count:f}) is a number in
words, in the spec's gender and case, when the board speaks; a page keeps the digits."""

from __future__ import annotations

import pytest

from draughtsboard.board.message import Listed, Message
from draughtsboard.words import words_for
from draughtsboard.words.compile import placeholders, spec_problems
from draughtsboard.words.numbers import NumberSpecError, check_spec, spell


@pytest.mark.parametrize(("number", "spec", "said"), [
    (1, "f", "одна"), (2, "f", "две"), (21, "f", "двадцать одна"), (22, "f", "двадцать две"),
    (1, "m", "один"), (2, "m", "два"), (5, "f", "пять"), (0, "f", "ноль"),
    (1, "f-a", "одну"), (2, "f-g", "двух"), (3, "m-a", "три"), (1, "n", "одно")])
def test_russian_numbers_agree_with_their_noun(number, spec, said):
    assert spell(number, "ru", spec) == said


def test_french_says_une_for_a_feminine_one_and_others_ignore_what_they_lack():
    assert spell(1, "fr", "f") == "une"
    assert spell(21, "fr", "f") == "vingt et une"
    assert spell(1, "fr", "m") == "un"
    assert spell(3, "nl", "f") == "drie"
    assert spell(21, "en", "f-g") == "twenty-one"


def test_a_spoken_message_says_its_numbers_and_a_page_shows_them():
    message = Message.of("ask.minutes", count=2)
    assert words_for("ru").spoken()(message) == "две минуты"
    assert words_for("ru")(message) == "2 минуты"
    capture = Message.of("spoken.move.capture", start="32", landings=Listed(("21", "12")),
                         count=2)
    assert words_for("ru").spoken()(capture) == \
        "тридцать два бьёт двадцать один и двенадцать, взяты две шашки"
    assert words_for("ru")(capture) == "32 бьёт 21 и 12, взяты 2 шашки"


def test_a_number_without_a_spec_and_a_value_that_is_no_number_stay_as_they_are():
    spoken = words_for("ru").spoken()
    assert spoken(Message.of("console.state_count", state="тур", count=3)) == "тур: 3"
    assert spoken.param("c3", "m") == "c3"
    assert spoken.param(Message.of("side.white"), "m") == "Белые"


def test_a_spec_is_a_gender_and_a_case():
    for spec in ("m", "f", "n", "f-a", "m-g", "n-p"):
        check_spec(spec)
    for wrong in ("x", "fem", "f-x", "-a", ""):
        with pytest.raises(NumberSpecError):
            check_spec(wrong)
    assert placeholders("{count:f} минута, {name}") == {"count", "name"}
    assert spec_problems("ask.minutes", ("{count:f} минута", "{count:feminine} минуты"))
    assert spec_problems("ask.minutes", "{count:f-a} минуту") == []
