"""Every word of the hall comes from the catalogs: the hall page, a board's detail, the
arbiter's console and log, and the projector, walked in the pseudo-language (``?lang=qps``
wraps each message in ⟦…⟧) show nothing outside the brackets but notation, numbers,
punctuation, the players' names and the tags the test set. The projector speaks the
venue's language (``hall --language ru``) though the browser asks for English."""

from __future__ import annotations

import re

import pytest

from ..browser import ARTIFACTS, playwright_api
from ..web.helpers import wait_until
from ..web.walks import chromium
from .test_browser import HALL_TOKEN, HallProcess, new_page
from .words_check import stray_words

pytestmark = pytest.mark.browser

PLAYERS = {1: ("Anna Ivanova", "Boris Smit"), 2: ("Celine Durand", "Dmitri Orlov"),
           3: ("Eva Jansen", "Fedor Petrov")}
PAIRINGS = "round,board,white,black\n2,4,Gerda Visser,Hugo Lambert\n2,5,Ilse Maas,Jan Bos\n"
NAMES = [name for pair in PLAYERS.values() for name in pair] + [
    "Gerda Visser", "Hugo Lambert", "Ilse Maas", "Jan Bos"]
BRACKETS = re.compile(r"⟦")


def _allowed(page, url: str, board: int) -> list[str]:
    """What the board's detail may show verbatim: its game's tag values (the tags' names
    are labelled from the catalogs)."""
    detail = page.request.get(f"{url}/api/board/{board}").json()
    tags = detail.get("tags") or {}
    return [*NAMES, *tags.values()]


def _clean(page, allowed, where: str) -> None:
    stray = stray_words(page, allowed)
    assert not stray, f"{where}: words from no catalog: {sorted(set(stray))}"


def test_the_hall_in_the_pseudo_language_has_no_word_outside_the_catalogs(boards, broker,
                                                                           tmp_path):
    expect = playwright_api().expect
    hall = HallProcess(broker.venue.hall_url(), tmp_path / "hall")
    try:
        linked = {n: boards(n, tags={"White": white, "Black": black})
                  for n, (white, black) in PLAYERS.items()}
        linked[1].play(next(m for m in linked[1].legal() if m.path == (22, 18)))
        with chromium() as browser:
            page = new_page(browser)
            page.goto(hall.url + "/?lang=qps")
            expect(page.locator("#connection")).to_have_text(BRACKETS)
            expect(page.locator("#boards .card")).to_have_count(3)
            card = {n: page.locator(f'#boards .card[data-board="{n}"]') for n in range(1, 6)}
            expect(card[1].locator(".move")).to_contain_text("1. c3-d4")

            # a board that needs the arbiter (an illegal move), a board's claim
            linked[2].session.hand([("lift", 9), ("place", 17)])
            expect(card[2]).to_have_class(re.compile(r"\bneeds\b"))
            linked[3].session.arbiter.declare_result("0-1", "resigned")
            expect(card[3].locator(".needs-text")).to_have_text(BRACKETS)
            _clean(page, NAMES, "the hall page")

            # the console, after the token: pairings imported, a round started
            page.locator("#token").fill(HALL_TOKEN)
            page.locator("#use-token").click()
            expect(page.locator("#import-pairings")).to_be_visible()
            page.locator("#pairings").fill(PAIRINGS)
            page.locator("#import-pairings").click()
            expect(page.locator("#arbiter-message")).to_contain_text("2")
            expect(page.locator("#boards .card")).to_have_count(5)
            page.locator("#round").select_option("2")
            page.locator("#start-round").click()
            expect(page.locator("#pairings-table tbody tr")).to_have_count(2)
            expect(card[4].locator(".pairing")).to_have_text(BRACKETS)
            page.locator("#pairings").fill("")  # what the arbiter typed is theirs
            _clean(page, NAMES, "the console")

            # a board in full: its claim, its moves, the arbiter's actions
            card[3].click()
            expect(page.locator("#detail-claims li")).to_have_count(1)
            expect(page.locator("#detail-games li")).to_have_count(1)
            _clean(page, _allowed(page, hall.url, 3), "board 3's detail")
            card[2].click()
            expect(page.locator("#detail-title")).to_contain_text("2")
            expect(page.locator("#detail-events li").first).to_have_text(BRACKETS)
            _clean(page, _allowed(page, hall.url, 2), "board 2's detail")
            card[1].click()
            expect(page.locator("#takeback-choice option")).to_have_count(2)
            page.locator("#result-choice").select_option("1-0")
            page.once("dialog", lambda dialog: dialog.accept())
            page.locator("#declare-result").click()
            expect(page.locator("#arbiter-message")).to_contain_text("1-0")
            wait_until(lambda: linked[1].session.published()[1].result == "1-0",
                       what="board 1's result")
            page.locator("#show-log").click()
            expect(page.locator("#arbiter-log li")).not_to_have_count(0)
            _clean(page, _allowed(page, hall.url, 1), "board 1's detail and the log")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "hall-qps.png"), full_page=True)

            # the projector: the latest round (boards waiting), then round 1
            projector = new_page(browser, 1920, 1080)
            projector.goto(hall.url + "/projector?lang=qps")
            expect(projector.locator("#wall .table")).to_have_count(2)
            expect(projector.locator("#wall .waiting").first).to_have_text(BRACKETS)
            _clean(projector, NAMES, "the projector, round 2")
            projector.goto(hall.url + "/projector?lang=qps&round=1")
            expect(projector.locator("#wall .table")).to_have_count(3)
            expect(projector.locator("#wall .last").first).to_contain_text("c3-d4")
            _clean(projector, NAMES, "the projector, round 1")
            projector.screenshot(path=str(ARTIFACTS / "projector-qps.png"))

            # the check can fail: one English word left on the page is found
            projector.evaluate("document.getElementById('page').textContent = 'boards'")
            assert stray_words(projector, NAMES) == ["boards"]
            # and one a style sheet writes (CSS content): found too
            projector.evaluate("""() => {
              // (CSSOM: the page's CSP forbids a <style> element of its own)
              document.styleSheets[0].insertRule('#title::after { content: " · live"; }');
            }""")
            assert stray_words(projector, NAMES) == ["boards", "live"]
    finally:
        assert hall.stop() == 0, "".join(hall.lines)


def test_the_projector_speaks_the_venues_language(boards, broker, tmp_path):
    expect = playwright_api().expect
    hall = HallProcess(broker.venue.hall_url(), tmp_path / "hall", "--language", "ru")
    try:
        boards(1)
        with chromium() as browser:
            context = browser.new_context(locale="en-US",
                                          extra_http_headers={"Accept-Language": "en"})
            projector = context.new_page()
            projector.set_default_timeout(15_000)
            projector.goto(hall.url + "/projector")
            expect(projector.locator("#title")).to_have_text("Тур 1")
            expect(projector.locator("#wall .number")).to_have_text("Доска 1")
            expect(projector.locator("#connection")).to_have_text("на связи")
            assert projector.evaluate("document.documentElement.lang") == "ru"
            page = context.new_page()  # a person's page: the browser's language
            page.goto(hall.url + "/")
            expect(page.locator("h1")).to_have_text("Tournament hall")
            # chosen on the projector's screen: that language, remembered there
            projector.locator("select[data-words-switch]").select_option("nl")
            expect(projector.locator("#title")).to_have_text("Ronde 1")
            projector.reload()
            expect(projector.locator("#title")).to_have_text("Ronde 1")
    finally:
        assert hall.stop() == 0, "".join(hall.lines)
