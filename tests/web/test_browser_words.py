"""The board's page speaks only the catalog's words: a walk through a game in the
pseudo-language (every message wrapped in ⟦…⟧) finds no word outside the brackets but
notation, numbers and the names the test set; the same walk in Russian reads as the
Russian catalog says. Headless Chromium, as in test_browser."""

from __future__ import annotations

import re

import pytest

from draughtsboard.recording import Recorder

from ..browser import ARGS, CHROMIUM, playwright_api
from .helpers import TOKEN, PlayProcess
from .page_words import stray_words

pytestmark = pytest.mark.browser

# the names the walk sets (the game's PDN tags, names and values, are read from its view)
NAMES = {"Ann", "Bea"}


def tags_of(play: PlayProcess) -> set[str]:
    """The game's tags as the page lists them: PDN names and values stay as they are."""
    tags = play.state()["tags"]
    return set(tags) | set(tags.values())
# Russian squares: c3=22, d4=18, f6=11, g5=16, a3=21, a5=13, e3=23, f4=19, c5=14


@pytest.fixture(scope="module")
def browser():
    api = playwright_api()
    with api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def expect():
    return playwright_api().expect


def open_in(browser, play: PlayProcess, language: str):
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.set_default_timeout(10_000)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"{play.url}/?lang={language}")
    playwright_api().expect(page.locator("body")).to_have_attribute("data-version",
                                                                   re.compile("."))
    return page


def square(page, number: int):
    return page.locator(f'#board [data-square="{number}"]')


def click_move(page, *squares: int) -> None:
    for number in squares:
        square(page, number).click()


def walk(page, expect, check) -> None:
    """The states of a game a page must say in words: ``check(state)`` at each."""
    expect(page.locator("#status")).not_to_be_empty()
    check("start")
    square(page, 22).click()  # c3 lifted
    expect(square(page, 22)).to_have_class(re.compile("is-lifted"))
    square(page, 22).hover()
    check("lifted")
    square(page, 18).click()  # c3-d4
    expect(page.locator("#moves li")).to_have_count(1)
    click_move(page, 11, 16)  # f6-g5
    expect(page.locator("#moves .move")).to_have_count(2)
    click_move(page, 21, 13)  # a3-a5: illegal
    expect(page.locator("#flags .flag-illegal")).to_have_count(1)
    expect(page.locator("#log li")).to_have_count(1)
    check("illegal")
    click_move(page, 13, 21)  # put back
    expect(page.locator("#flags li")).to_have_count(0)
    click_move(page, 23, 19)  # e3-f4
    expect(page.locator("#moves .move")).to_have_count(3)
    click_move(page, 16, 23)  # g5 takes f4, down on e3 on its way on
    expect(square(page, 23).locator(".piece")).to_have_class(
        re.compile("carried"))
    check("capture")
    page.locator("#legend summary").click()
    check("legend")
    page.locator("#arbiter summary").click()
    page.locator("#token").fill(TOKEN)
    page.locator("#token-form button").click()
    expect(page.locator("#token-status")).not_to_be_empty()
    check("arbiter")
    page.locator("#result-value").select_option("0-1")
    page.locator("#result-reason").fill("Ann")
    page.locator("#result-form button[type=submit]").click()
    expect(page.locator("#confirm")).to_be_visible()
    check("confirm")
    page.locator("#confirm-ok").click()
    expect(page.locator("#result")).not_to_be_empty()
    check("result")


def damaged(data) -> None:
    """A journal with a flipped byte in its third record (as test_browser makes one)."""
    with Recorder(data) as recorder:
        game_id = recorder.start_game("russian", {"White": "Ann"})
        for text in ("c3-d4", "f6-g5", "g3-f4"):
            recorder.record_move(game_id, text, None, None)
    path = recorder.path_of(game_id)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b"f6-g5", b"f6-g7")
    path.write_bytes(b"".join(lines))


def test_every_word_of_the_board_page_comes_from_the_catalog(browser, tmp_path, expect):
    def check(state):
        assert stray_words(page, NAMES | tags_of(play)) == [], state

    with PlayProcess(tmp_path / "walk", "--tag", "White=Ann", "--tag", "Black=Bea",
                     "--irregular", "restore") as play:
        page = open_in(browser, play, "qps")
        expect(page.locator("#connection")).to_have_text("⟦live⟧")
        walk(page, expect, check)
        assert page.errors == []
    damaged(tmp_path / "damaged")
    with PlayProcess(tmp_path / "damaged") as play:
        page = open_in(browser, play, "qps")
        expect(page.locator("#flags .flag-error")).to_have_count(1)
        game_id = play.state()["game_id"]
        names = NAMES | tags_of(play) | {game_id, f"{game_id}.jsonl"}
        # the reader's technical account of the damage is shown as it is, in the message
        assert stray_words(page, names | {"record", "fails", "its", "check", "later",
                                          "line(s)", "left", "unread"}) == []
        page.locator("#arbiter summary").click()
        page.locator("#token").fill(TOKEN)
        page.locator("#token-form button").click()
        expect(page.locator("#repair-box")).to_be_visible()
        assert stray_words(page, names | {"record", "fails", "its", "check", "later",
                                          "line(s)", "left", "unread"}) == []


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


def test_the_walk_in_russian(browser, tmp_path, expect):
    said = {
        "start": {"#status": "Ход белых"},
        "lifted": {"#status": "Белые делают ход", "#inspect": "c3: белая простая, поднята"},
        "illegal": {"#status": "Недопустимый ход: верните позицию",
                    "#flags": "Недопустимый ходВерните шашку с a5 на a3",
                    "#log": "нарушение: недопустимый ход a3-a5: шашка сходила не по правилам"},
        "capture": {"#status": "Чёрные делают ход"},
        "arbiter": {"#token-status": "принят"},
        "confirm": {"#confirm-title": "Объявить 0-1 (победа чёрных)?"},
        "result": {"#status": "Партия окончена: 0-1 (Ann)", "#result": "0-1 (Ann)"},
    }

    def check(state):
        for selector, text in said.get(state, {}).items():
            expect(page.locator(selector)).to_have_text(text)

    with PlayProcess(tmp_path / "walk", "--tag", "White=Ann", "--tag", "Black=Bea",
                     "--irregular", "restore") as play:
        page = open_in(browser, play, "ru")
        expect(page.locator("#connection")).to_have_text("на связи")
        expect(page.locator("#moves-title")).to_have_text("Ходы")
        walk(page, expect, check)
        assert page.errors == []
    damaged(tmp_path / "damaged")
    with PlayProcess(tmp_path / "damaged") as play:
        page = open_in(browser, play, "ru")
        flag = page.locator("#flags .flag-error")
        expect(flag.locator("strong")).to_have_text("Журнал партии повреждён")
        expect(flag).to_contain_text("первые 2 записи целы (полуход 1)")
        expect(flag).to_contain_text("Судья продолжает с последней целой записи или начинает "
                                     "новую партию")
