"""The board's page speaks only the catalog's words: a walk through a game in the
pseudo-language (every message wrapped in ⟦…⟧) finds no word outside the brackets but
notation, numbers and the names the test set; the same walk in Russian reads as the
Russian catalog says. Headless Chromium, as in test_browser."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .helpers import PlayProcess
from .page_words import stray_words
from .walks import GAME_ARGS, click_move, damaged, damaged_walk, open_in, walk

pytestmark = pytest.mark.browser

# the names the walk sets (the game's tag values are read from its view), and the tag
# field's example: a PDN tag name, typed as the PDN spells it in every language
NAMES = {"Ann", "Bea", "White"}


def tags_of(play: PlayProcess) -> set[str]:
    """The game's tag values as the page lists them, as they are (the tags' names are
    labelled from the catalogs)."""
    return set(play.state()["tags"].values())


def walk_the_game(browser, expect, tmp_path, language: str, first: dict[str, str],
                  check: Callable[..., None]) -> None:
    """The walk through a game on the page in ``language``: the page says ``first``
    (selector: text) at once, then ``check(page, play, state)`` at each state of the
    walk; and the page logs no error."""
    with PlayProcess(tmp_path / "walk", *GAME_ARGS) as play:
        page = open_in(browser, play, language)
        for selector, text in first.items():
            expect(page.locator(selector)).to_have_text(text)
        walk(page, expect, lambda state: check(page, play, state))
        assert page.errors == []


def test_every_word_of_the_board_page_comes_from_the_catalog(browser, tmp_path, expect):
    def check(page, play, state):
        assert stray_words(page, NAMES | tags_of(play)) == [], state

    walk_the_game(browser, expect, tmp_path, "qps", {"#connection": "⟦live⟧"}, check)
    damaged(tmp_path / "damaged")
    with PlayProcess(tmp_path / "damaged") as play:
        page = open_in(browser, play, "qps")
        game_id = play.state()["game_id"]
        # the reader's technical account of the damage is shown as it is, in the message
        names = NAMES | tags_of(play) | {game_id, f"{game_id}.jsonl"} | {
            "record", "fails", "its", "check", "later", "line(s)", "left", "unread"}

        def check_damaged(state):
            assert stray_words(page, names) == [], state

        damaged_walk(page, expect, check_damaged)


def test_the_check_finds_a_word_left_in_the_code(browser, tmp_path, expect):
    with PlayProcess(tmp_path / "data") as play:
        page = open_in(browser, play, "qps")
        expect(page.locator("#status")).not_to_be_empty()
        assert stray_words(page, tags_of(play)) == []
        page.evaluate("""() => {
          const p = document.createElement("p");
          p.textContent = "⟦Ход белых⟧ Hello c3-d4";
          document.body.appendChild(p);
          document.getElementById("status").setAttribute("title", "lifted");
        }""")
        assert sorted(stray_words(page, tags_of(play))) == ["Hello", "lifted"]
        # and a word a style sheet writes (CSS content) is found too
        page.evaluate("""() => {
          // (CSSOM: the page's CSP forbids a <style> element of its own)
          document.styleSheets[0].insertRule('#status::after { content: " · to move"; }');
        }""")
        assert sorted(stray_words(page, tags_of(play))) == ["Hello", "lifted", "move", "to"]


def test_a_running_clock_and_the_tags_speak_only_catalog_words(browser, tmp_path, expect):
    """Beside the running clock ("· to move") and the game's tags' names (Event, Round,
    TimeControl) are the catalog's words; only the tags' values stand as they are."""
    tags = ("--tag", "Event=Open", "--tag", "Round=Final", "--tag", "TimeControl=300+5")
    with PlayProcess(tmp_path / "data", *GAME_ARGS, *tags) as play:
        page = open_in(browser, play, "qps")
        expect(page.locator("#white-clock")).to_be_visible()
        click_move(page, 22, 18)  # c3-d4: Black's clock runs
        expect(page.locator("#black-player")).to_have_class(re.compile(r"\brunning\b"))
        expect(page.locator("#black-player .to-move")).to_have_text("⟦· to move⟧")
        expect(page.locator("#tags th").first).to_have_text(re.compile("^⟦.*⟧$"))
        assert stray_words(page, NAMES | tags_of(play)) == []


def test_the_walk_in_russian(browser, tmp_path, expect):
    said = {
        "start": {"#status": "Ход белых"},
        "lifted": {"#status": "Белые делают ход", "#inspect": "c3: белая простая, поднята"},
        "illegal": {"#status": "Недопустимый ход: верните позицию",
                    "#flags": "Недопустимый ходВерните шашку с a5 на a3",
                    "#log": "недопустимо: недопустимый ход a3-a5: шашка пошла не по правилам"},
        "capture": {"#status": "Чёрные делают ход"},
        "arbiter": {"#token-status": "принят"},
        "confirm": {"#confirm-title": "Объявить 0-1 (победа чёрных)?"},
        "result": {"#status": "Партия окончена: 0-1 (Ann)", "#result": "0-1 (Ann)"},
    }

    def check(page, play, state):
        for selector, text in said.get(state, {}).items():
            expect(page.locator(selector)).to_have_text(text)

    walk_the_game(browser, expect, tmp_path, "ru",
                  {"#connection": "на связи", "#moves-title": "Ходы"}, check)
    damaged(tmp_path / "damaged")
    with PlayProcess(tmp_path / "damaged") as play:
        page = open_in(browser, play, "ru")
        flag = page.locator("#flags .flag-error")
        expect(flag.locator("strong")).to_have_text("Журнал партии повреждён")
        expect(flag).to_contain_text("в начале целы 2 записи (до полухода 1)")
        expect(flag).to_contain_text("Судья продолжает с последней целой записи или начинает "
                                     "новую партию")
