"""The hall page in a real browser (Playwright on Debian's chromium): eight boards
playing through a real mosquitto to ``draughtsboard hall``; the page shows each move, an
illegal move marks the board as needing the arbiter, the arbiter declares a result with
the token and is refused without it, and the round's feed downloads."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from benchmarks.harness.processes import ServedProcess
from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.tracker import State

from ..browser import ARTIFACTS, playwright_api
from ..web.helpers import wait_until
from ..web.walks import chromium

pytestmark = pytest.mark.browser

HALL_TOKEN = "hall-arbiter-token"
# the hall page's start-up line, in the venue's language (--language): its address
_URL = re.compile(r"INFO draughtsboard\.hall: .*(http://[0-9.]+:\d+)/$")


class HallProcess(ServedProcess):
    """``draughtsboard hall`` on ``broker_url``, as the benchmarks start a server: its
    ``url`` once it said where it listens, every line it wrote in ``lines``."""

    def __init__(self, broker_url: str, data: Path, *options: str) -> None:
        env = dict(os.environ, DRAUGHTSBOARD_HALL_TOKEN=HALL_TOKEN, PYTHONUNBUFFERED="1")
        super().__init__(
            [sys.executable, "-m", "draughtsboard", "hall", "--broker", broker_url,
             "--listen", "127.0.0.1:0", "--data", str(data), *options],
            _URL, env=env, timeout=30, what="the hall")


def new_page(browser, width: int = 1300, height: int = 900, timeout: int = 15_000):
    """A new page of ``browser`` the size of a screen, its waits ``timeout`` ms."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(timeout)
    return page


def test_the_hall_page(boards, broker, tmp_path):
    expect = playwright_api().expect
    hall = HallProcess(broker.venue.hall_url(), tmp_path / "hall")
    try:
        linked = [boards(n, tags={"White": f"Player {n}", "Black": f"Rival {n}"})
                  for n in range(1, 9)]
        with chromium() as browser:
            page = new_page(browser)
            page.goto(hall.url + "/")
            expect(page.locator("#connection")).to_have_text("live")
            expect(page.locator("#boards .card")).to_have_count(8)
            card = {n: page.locator(f'#boards .card[data-board="{n}"]') for n in range(1, 9)}
            expect(card[4].locator(".name.white")).to_have_text("Player 4")
            expect(card[4].locator(".name.black")).to_have_text("Rival 4")

            # every board plays: each move shows on its card
            for board in linked:
                board.play(next(m for m in board.legal() if m.path == (22, 18)))
            for n in range(1, 9):
                expect(card[n].locator(".move")).to_have_text("1. c3-d4 · Black to move")
            linked[2].play(next(m for m in linked[2].legal() if m.path == (11, 16)))
            expect(card[3].locator(".move")).to_have_text("1… f6-g5 · White to move")

            # an illegal move on board 5 (a piece of Black's put on a wrong square)
            linked[4].session.hand([("lift", 9), ("place", 17)])
            wait_until(lambda: linked[4].session.game.tracker.state is State.ILLEGAL,
                       what="the illegal move on board 5")
            expect(card[5]).to_have_class(re.compile(r"\bneeds\b"))
            expect(card[5].locator(".needs-text")).to_contain_text("illegal")
            expect(page.locator("#needs-count")).to_contain_text("5")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "hall-illegal.png"), full_page=True)

            # the arbiter: refused without the token, then a result with it
            refused = page.request.post(hall.url + "/api/arbiter/result",
                                        data={"board": 2, "result": "1-0"})
            assert refused.status == 401
            card[2].click()
            expect(page.locator("#detail-title")).to_have_text("Board 2")
            expect(page.locator("#detail-games li")).to_have_count(1)  # its games
            expect(page.locator("#detail-games li").first).to_contain_text("round")
            expect(page.locator("#declare-result")).to_be_hidden()
            page.locator("#token").fill("wrong-token")
            page.locator("#use-token").click()
            expect(page.locator("#arbiter-message")).to_contain_text("refused")
            expect(page.locator("#declare-result")).to_be_hidden()
            page.locator("#token").fill(HALL_TOKEN)
            page.locator("#use-token").click()
            expect(page.locator("#arbiter-message")).to_contain_text("token accepted")
            page.locator("#declare-result").click()  # nothing chosen: nothing declared
            expect(page.locator("#arbiter-message")).to_have_text("choose the result first")
            page.locator("#result-choice").select_option("1-0")
            page.once("dialog", lambda dialog: dialog.accept())  # the confirmation
            page.locator("#declare-result").click()
            expect(page.locator("#arbiter-message")).to_contain_text(
                "board 2: 1-0 recorded in the hall")
            expect(page.locator("#arbiter-message")).to_contain_text("done")
            expect(card[2].locator(".result")).to_have_text("1-0")
            assert linked[1].session.published()[1].result == "1-0"

            # a resignation declared on board 6 itself: the board's claim, confirmed
            linked[5].session.arbiter.declare_result("0-1", "White resigned")
            expect(card[6].locator(".needs-text")).to_contain_text("result to confirm")
            expect(card[6].locator(".result")).to_have_text("")
            card[6].click()
            expect(page.locator("#detail-title")).to_have_text("Board 6")
            claim = page.locator("#detail-claims li")
            expect(claim).to_contain_text("the board claims 0-1 (White resigned)")
            page.once("dialog", lambda dialog: dialog.accept())
            claim.locator("button", has_text="Confirm").click()
            expect(page.locator("#arbiter-message")).to_contain_text("confirmed")
            expect(card[6].locator(".result")).to_have_text("0-1")
            expect(card[6]).not_to_have_class(re.compile(r"\bneeds\b"))

            # board 5's piece put back, its flag acknowledged: the badge goes
            linked[4].session.hand([("lift", 17), ("place", 9)])
            wait_until(lambda: linked[4].session.game.tracker.state is State.READY,
                       what="board 5 ready again")
            card[5].click()
            expect(page.locator("#detail-title")).to_have_text("Board 5")
            page.locator("#acknowledge").click()
            expect(page.locator("#arbiter-message")).to_contain_text(
                "flags acknowledged on board 5")
            expect(card[5]).not_to_have_class(re.compile(r"\bneeds\b"))
            expect(page.locator("#needs-count")).to_have_text("all boards fine")

            # on a phone: the board filter finds a board by a player's name
            page.set_viewport_size({"width": 390, "height": 844})
            page.locator("#filter").fill("rival 4")
            expect(page.locator("#boards .card")).to_have_count(1)
            expect(page.locator("#boards .card")).to_have_attribute("data-board", "4")
            page.screenshot(path=str(ARTIFACTS / "hall-phone.png"))
            page.locator("#filter").fill("")
            expect(page.locator("#boards .card")).to_have_count(8)
            page.set_viewport_size({"width": 1300, "height": 900})

            # the round's feed
            with page.expect_download() as info:
                page.locator("#feeds a", has_text="round 1 PDN").click()
            text = Path(info.value.path()).read_text(encoding="utf-8")
            read = read_pdn(text)
            assert read.errors == [] and len(read.games) == 8
            assert [g.game.result_text() for g in read.games][1] == "1-0"
            assert [g.game.result_text() for g in read.games][5] == "0-1"
            assert [m.text for m in read.games[2].game.moves] == ["c3-d4", "f6-g5"]
            page.screenshot(path=str(ARTIFACTS / "hall.png"), full_page=True)
    finally:
        assert hall.stop() == 0, "".join(hall.lines)
