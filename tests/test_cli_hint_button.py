"""play's start-up line for the board's hint button says what its short press does in
the game's mode: a hint from the coach where it asks for one, the last move in
tournament mode (where the coach gives no hint), never a hint the coach would refuse."""

from __future__ import annotations

import logging

import pytest

from draughtsboard.cli import wire_hint_button
from draughtsboard.words import words_for


class Button:
    """gpiozero's Button as ButtonPresses uses it: two callbacks."""

    when_pressed = None
    when_released = None


class Source:
    def __init__(self) -> None:
        self.buttons = {"hint": Button()}


class Session:
    """What wire_hint_button reads of a PlaySession: the published view's mode, and its
    words (here Russian, as `play --language ru` says them)."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.words = words_for("ru")

    def published(self):
        return "game", None, {"mode": self.mode}


def start_up_lines(mode: str, coach: object | None, caplog) -> list[str]:
    log = logging.getLogger("test.hint_button")
    with caplog.at_level(logging.INFO, logger=log.name):
        wire_hint_button(Source(), Session(mode), coach, log)
    return [record.getMessage() for record in caplog.records if record.name == log.name]


@pytest.mark.parametrize("mode", ["training", "free", "puzzle"])
def test_where_the_button_asks_the_coach_the_line_says_so(mode, caplog):
    assert start_up_lines(mode, object(), caplog) == [
        "кнопка подсказки просит подсказку у тренера"]


def test_in_tournament_mode_the_line_says_the_last_move_not_a_hint(caplog):
    lines = start_up_lines("tournament", object(), caplog)
    assert lines == ["кнопка подсказки называет последний ход (в турнирном режиме подсказок нет)"]
    assert "тренер" not in lines[0]


def test_without_a_coach_the_button_promises_no_hint(caplog):
    assert "тренер" not in start_up_lines("training", None, caplog)[0]
