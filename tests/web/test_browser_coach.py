"""The coach in a real browser (headless Chromium, as in test_browser): a trainee asks
for a hint, sees the piece light up, asks again, sees the move's path, plays it, and the
evaluation curve grows. Screenshots in test-artifacts/."""

from __future__ import annotations

import re

import pytest

from ..browser import ARGS, ARTIFACTS, CHROMIUM, playwright_api
from .helpers import PlayProcess, wait_until

pytestmark = pytest.mark.browser


@pytest.fixture
def page(tmp_path):
    api = playwright_api()
    with PlayProcess(tmp_path / "data", "--mode", "training") as play:
        with api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                page = browser.new_page(viewport={"width": 1100, "height": 900})
                page.set_default_timeout(15_000)
                page.goto(play.url + "/")
                page.play = play
                yield page
            finally:
                browser.close()
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
