"""A Russian game heard through ``play --language ru --speech all --speech-to DIR``: a
move, an illegal move, a capture, a crowning, the clocks asked for.
Every number is said as a word that agrees with its noun, and no Latin letter is said
(espeak-ng writes each announcement into a WAV file and the list says what it said)."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from draughtsboard.board.rules.variants import get_variant
from tests.web.helpers import PlayProcess, wait_until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("espeak-ng") is None,
                       reason="needs Debian's espeak-ng (apt-get install espeak-ng)"),
]

SQUARE = get_variant("russian").geometry.number_of_name
PAGE = re.compile(r"страница доски: (http://[0-9.]+:\d+)/")


class RussianPlay(PlayProcess):
    """`PlayProcess` for a board that speaks Russian: its page's line is Russian too."""

    page_line = PAGE
START = "W:Wc3,e7,a1:Bd4,a7,h6"  # White must take d4 with c3; e7 crowns on d8 or f8


def said_lines(index):
    if not index.exists():
        return []
    return [json.loads(line) for line in index.read_text(encoding="utf-8").splitlines()]


def test_a_russian_game_is_said_with_words_for_numbers_and_no_latin_letter(tmp_path):
    out = tmp_path / "speech"
    index = out / "announcements.jsonl"
    with RussianPlay(tmp_path / "data", "--language", "ru", "--speech", "all",
                     "--speech-to", str(out), "--fen", START, "--mode", "training",
                     "--irregular", "restore", "--tag", "TimeControl=300+5") as play:
        def hands(*actions):
            play.post("/api/hands", {"actions": [[kind, SQUARE(name)]
                                                  for kind, name in actions]})

        def view():
            return json.loads(play.get("/api/state"))

        def settled(moves, what):
            """The board took ``moves`` moves and stands still, no square to put right:
            the next hand moves from there (as a player waits for the board)."""
            wait_until(lambda: len((v := view())["moves"]) == moves and v["state"] == "ready"
                       and not v["intents"].get("restore") and not v["intents"].get("illegal"),
                       timeout=30, what=what)

        def heard(start, what):
            """Wait until a line said begins with ``start``; all lines said so far."""
            return wait_until(lambda: any(line["text"].startswith(start)
                                          for line in said_lines(index)) and said_lines(index),
                              timeout=30, what=what)

        heard("Доска говорит", "the board's first words")
        play.post("/api/hands", {"actions": [["setup", 0]]})  # the pieces as the FEN has them
        settled(0, "the position set up")
        hands(("lift", "a1"), ("place", "b2"))  # no: White must capture
        heard("Недопустимый ход", "the illegal move")  # once the piece rests on b2
        hands(("lift", "b2"), ("place", "a1"))  # put back
        settled(0, "the position put back")
        hands(("lift", "c3"), ("place", "e5"), ("lift", "d4"))  # c3:e5
        heard("цэ три бьёт", "the capture")
        settled(1, "the capture recorded")
        hands(("lift", "a7"), ("place", "b6"))
        heard("а семь", "Black's move")
        settled(2, "Black's move recorded")
        hands(("lift", "e7"), ("place", "f8"))  # crowned
        heard("е семь", "the crowning")
        play.post("/api/ask/clocks", {})  # one question: the board paces its answers
        lines = heard("У белых", "the clocks")
    texts = [line["text"] for line in lines]
    print("\n".join(texts))
    assert texts[0] == "Доска говорит."
    assert {"Недопустимый ход. Исправьте поля бэ два и а один.",  # in the order they came
            "Бить обязательно: цэ три."} <= set(texts[1:3])
    assert texts[-4:-1] == ["цэ три бьёт е пять, взята одна шашка.", "а семь — бэ шесть.",
                            "е семь — эф восемь. Шашка проходит в дамки."]
    assert re.fullmatch(r"У белых (четыре|пять) минут\w* [а-я ]+ секунд\w*, у чёрных (четыре|пять) "
                        r"минут\w* [а-я ]+ секунд\w*\.", texts[-1]), texts[-1]
    for text in texts:
        assert not re.search(r"\d", text), text
        assert not re.search(r"[A-Za-z]", text), text
    assert all(line["ok"] for line in lines)
