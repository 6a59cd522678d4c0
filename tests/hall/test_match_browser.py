"""A match between towns in a real browser (headless Chromium): the white board's page
while the bridging town's broker is down says the match is paused, in its headline and a
flag, both clocks standing still; once the broker is back it says so no more."""

from __future__ import annotations

import pytest

from ..browser import ARTIFACTS, browser_page, playwright_api
from ..web.helpers import wait_until
from .test_match import board, towns  # noqa: F401 - the fixture

pytestmark = [pytest.mark.broker, pytest.mark.browser, pytest.mark.slow]


def test_the_page_says_the_match_is_paused_while_the_link_is_cut(tmp_path, towns):  # noqa: F811
    expect = pytest.importorskip("playwright.sync_api").expect
    playwright_api()
    white_town, black_town, (_, black_broker) = towns
    with board(tmp_path, white_town, "Anna") as white, \
            board(tmp_path, black_town, "Boris") as black:
        wait_until(lambda: white.state()["tags"].get("Black") == "Boris", timeout=30,
                   what="the white board to know its opponent")
        with browser_page(white.url + "/") as page:
            expect(page.locator("#connection")).to_have_text("live")
            black_broker.kill()
            expect(page.locator("#status")).to_have_text("Match paused: no link to Boris",
                                                         timeout=20_000)
            flag = page.locator("#flags .flag-paused")
            expect(flag).to_contain_text("The link to Boris's board is cut")
            expect(flag).to_contain_text("Both clocks stand still on both boards")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "match-paused.png"))
            black_broker.start()
            expect(page.locator("#flags .flag-paused")).to_have_count(0, timeout=30_000)
        wait_until(lambda: black.state()["opponent"]["reachable"], timeout=30,
                   what="the black board to hear the white one again")
