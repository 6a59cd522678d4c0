"""What a newcomer trying the board's page found, each in a real browser: the game's
Irregularities tag read "fmjd" (a code of the board's) on every page, in every language;
the arbiter's confirmation of a draw offered "Declare 1/2-1/2" where the rest of the page
says ½-½; and in training the coach's panel was headed at the browser's own h2 size,
larger than every other panel's heading."""

from __future__ import annotations

import pytest

from ..browser import ARGS, CHROMIUM, playwright_api
from .helpers import TOKEN, PlayProcess

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    api = playwright_api()
    with api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


def _page(browser, url: str):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.set_default_timeout(10_000)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(url)
    return page


def test_the_irregularity_policy_and_a_draw_in_the_reader_s_words(browser, tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data") as play:
        for lang, policy in (("ru", "по правилам ФМЖД (решает соперник)"),
                             ("en", "FMJD (the opponent decides)")):
            page = _page(browser, f"{play.url}/?lang={lang}")
            row = page.locator("#tags tr", has=page.locator("th", has_text=(
                "Нарушения" if lang == "ru" else "Irregular moves")))
            expect(row.locator("td")).to_have_text(policy)
            page.close()

        page = _page(browser, play.url + "/")
        page.locator("#arbiter summary").click()
        page.locator("#token").fill(TOKEN)
        page.locator("#token-form button").click()
        expect(page.locator("#token-status")).to_have_text("accepted")
        page.select_option("#result-value", "1/2-1/2")
        page.locator("#result-form button[type=submit]").click()
        expect(page.locator("#confirm")).to_be_visible()
        expect(page.locator("#confirm-ok")).to_have_text("Declare ½-½")
        page.locator("#confirm-cancel").click()
        assert page.errors == []
        page.close()


def test_the_coach_s_panel_is_headed_as_the_other_panels(browser, tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data", "--mode", "training") as play:
        page = _page(browser, play.url + "/")
        expect(page.locator("#coach-panel")).to_be_visible()
        size = page.evaluate("(sel) => getComputedStyle(document.querySelector(sel)).fontSize",
                             "#coach-panel h2")
        other = page.evaluate("(sel) => getComputedStyle(document.querySelector(sel)).fontSize",
                              "#game-panel h2")
        assert size == other
        assert page.errors == []
        page.close()
