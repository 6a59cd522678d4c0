"""The coach in a real browser (headless Chromium, as in test_browser): a trainee asks
for a hint, sees the piece light up, asks again, sees the move's path, plays it, and the
evaluation curve grows. Screenshots in test-artifacts/."""

from __future__ import annotations

import re

import pytest

from draughtsboard.board.message import Message
from draughtsboard.words import english

from ..browser import ARTIFACTS, browser_page, click, playwright_api
from .helpers import TOKEN, PlayProcess, wait_until

pytestmark = pytest.mark.browser


@pytest.fixture
def page(tmp_path):
    playwright_api()  # (chromium there, or the test fails or is skipped, before play)
    with PlayProcess(tmp_path / "data", "--mode", "training") as play:
        with browser_page(play.url + "/") as page:
            page.play = play
            yield page
        assert play.stop() == 0


def test_a_hint_in_two_stages_in_the_browser(page):
    expect = pytest.importorskip("playwright.sync_api").expect
    expect(page.locator("#connection")).to_have_text("live")
    expect(page.locator("#coach-panel")).to_be_visible()
    button = page.locator("#hint-button")
    expect(button).to_have_text("Hint: which piece?")

    button.click()  # stage 1: the piece
    expect(button).to_have_text("Hint: which move?")
    piece = page.locator("#board .led.on.cyan")
    expect(piece).to_have_count(1)
    expect(page.locator("#board .led.slow_blink.cyan")).to_have_count(0)
    expect(page.locator("#coach-note")).to_contain_text("move the piece on")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "coach-hint-piece.png"), full_page=True)

    button.click()  # stage 2: the path
    expect(button).to_have_text("Hint given")
    expect(page.locator("#board .led.slow_blink.cyan")).to_have_count(1)
    expect(page.locator("#coach-note")).to_contain_text(re.compile(r"play [a-h]\d-[a-h]\d"))
    page.screenshot(path=str(ARTIFACTS / "coach-hint-move.png"), full_page=True)

    # the trainee plays the move shown; the hint goes, the curve gets its points
    squares = page.play.state()["coach"]["hint"]["squares"]
    page.locator(f'#board [data-square="{squares[0]}"]').click()
    page.locator(f'#board [data-square="{squares[-1]}"]').click()
    expect(page.locator("#moves li")).to_have_count(1)
    expect(button).to_have_text("Hint: which piece?")
    wait_until(lambda: len(page.play.state()["coach"]["curve"]) == 2, timeout=15)
    expect(page.locator("#eval-curve polyline")).to_have_count(1)
    pdn = page.play.get("/api/game.pdn").decode()
    assert "hint 1 (the piece)" in pdn and "hint 2 (the move)" in pdn

    # hints switched off for this game: the button is disabled
    page.locator("#hints-on").uncheck()
    expect(button).to_be_disabled()


def test_the_coach_panel_shows_though_its_script_came_after_the_first_view(tmp_path):
    """app.js connects before coach.js runs; on a slow line the first view comes in
    between, and a board at rest sends no other. coach.js is held here until the page
    has drawn that view: the panel must still show (it stayed hidden, seen once under
    load in the hint test above)."""
    expect = playwright_api().expect
    held = []
    with PlayProcess(tmp_path / "data", "--mode", "training") as play:
        with browser_page(play.url + "/", prepare=lambda page: page.route(
                "**/static/coach.js", lambda route: held.append(route)),
                          wait_until="commit") as page:
            expect(page.locator("body[data-version]")).to_have_count(1)  # the view drawn
            assert len(held) == 1
            held[0].continue_()
            expect(page.locator("#coach-panel")).to_be_visible()
        assert play.stop() == 0


BLUNDER_FEN = "B:W17,31:B10,4"  # Black to move: d6-c5 loses a piece by force
PHONE = {"width": 390, "height": 844}


def test_on_a_phone_the_blunder_warning_sits_under_the_board_and_reads_in_order(tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data", "--mode", "training", "--fen", BLUNDER_FEN) as play:
        with browser_page(play.url + "/", **PHONE) as page:
            expect(page.locator("#connection")).to_have_text("live")
            click(page, 10)  # d6-c5
            click(page, 14)
            warning = page.locator("#coach-warning")
            expect(warning).to_be_visible()
            text = english(Message.from_json(play.state()["coach"]["warning"]["text"]))
            assert text.startswith("d6-c5 loses a piece by force: b4:d6, ")
            assert text.endswith(" keeps the balance. "
                                 "Put the piece on c5 back on d6 to take it back.")
            expect(warning).to_have_text(f"Blunder {text}")
            board = page.locator("#board").bounding_box()
            box = warning.bounding_box()
            # right under the board (the white player's line between), on the first screen
            assert 0 <= box["y"] - (board["y"] + board["height"]) < 120, (board, box)
            assert box["y"] < PHONE["height"]
            assert box["x"] + box["width"] <= PHONE["width"]  # no sideways scrolling
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "coach-blunder-phone.png"))
            # the advice followed: the piece back, the warning gone with the move
            click(page, 14)
            click(page, 10)
            expect(warning).to_be_hidden()
            expect(page.locator("#moves li")).to_have_count(0)
        assert play.stop() == 0


def test_a_tournament_game_shows_no_coach_until_its_result(tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data") as play:  # tournament mode, the default
        with browser_page(play.url + "/") as page:
            expect(page.locator("#connection")).to_have_text("live")
            click(page, 22)  # c3-d4
            click(page, 18)
            expect(page.locator("#moves li")).to_have_count(1)
            expect(page.locator("#coach-panel")).to_be_hidden()
            expect(page.locator("#hint-button")).to_be_hidden()
            expect(page.locator("#coach-warning")).to_be_hidden()
            play.post("/api/arbiter/result", {"result": "1-0", "reason": "Black resigned"},
                      token=TOKEN)
            # the game is over: its evaluation may be read, still no coach to ask
            panel = page.locator("#coach-panel")
            expect(panel).to_be_visible()
            expect(panel.locator("h2")).to_have_text("Evaluation")
            expect(page.locator("#hint-button")).to_be_hidden()
            # headed once: the curve's own heading would say "Evaluation" again («Оценка»
            # twice on the Russian page)
            expect(panel.get_by_role("heading", name="Evaluation")).to_have_count(1)
            expect(panel.locator("#eval-curve")).to_be_visible()
        assert play.stop() == 0
