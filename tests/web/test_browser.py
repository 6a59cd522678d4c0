"""The page in a real browser: headless Chromium (Debian's package) driven by Playwright.

A person plays a few moves by clicking and dragging, makes an illegal move and sees the
squares flagged, puts it right, and downloads the PDN. A screenshot is kept in
test-artifacts/. Where Chromium is missing this test fails as root (scripts/test.sh
installs it there) and is skipped otherwise.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn

from .helpers import TOKEN, XSS, PlayProcess

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--no-first-run"]


def _browser_or_skip():
    if not os.path.exists(CHROMIUM) and not shutil.which("chromium"):
        if os.geteuid() == 0:
            pytest.fail("chromium is missing; scripts/test.sh installs it (apt-get install "
                        "chromium) when run as root")
        pytest.skip("chromium is not installed and cannot be installed without root")
    return pytest.importorskip("playwright.sync_api")


@pytest.fixture
def page(tmp_path):
    api = _browser_or_skip()
    with PlayProcess(tmp_path / "data", "--tag", f"White={XSS}", "--tag", "Black=Bea") as play:
        with api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                context = browser.new_context(accept_downloads=True,
                                              viewport={"width": 1100, "height": 800})
                page = context.new_page()
                page.set_default_timeout(10_000)
                page.dialogs = []
                page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message),
                                                  dialog.dismiss()))
                page.goto(play.url + "/")
                page.play = play
                yield page
            finally:
                browser.close()
        assert play.stop() == 0


def square(page, number: int):
    return page.locator(f'#board [data-square="{number}"]')


def click_move(page, start: int, *rest: int) -> None:
    square(page, start).click()
    for number in rest:
        square(page, number).click()


def test_play_in_the_browser(page):
    expect = pytest.importorskip("playwright.sync_api").expect
    expect(page.locator("#connection")).to_have_text("live")
    expect(page.locator("#turn")).to_contain_text("White to move · ready")
    # a player named <script>alert(1)</script> is shown as text, and nothing runs
    expect(page.locator("#white-name")).to_have_text(XSS)
    expect(page.locator("#tags")).to_contain_text(XSS)
    assert page.dialogs == []
    assert page.locator("#board .piece.white").count() == 12

    click_move(page, 22, 18)  # c3-d4: lift, then put down
    expect(page.locator("#moves")).to_contain_text("c3-d4")
    expect(page.locator("#turn")).to_contain_text("Black to move")
    click_move(page, 11, 16)  # f6-g5
    expect(page.locator("#moves li")).to_have_text(["c3-d4f6-g5"])

    # an illegal move: a3 to a5; the squares are flagged until the piece goes back
    click_move(page, 21, 13)
    expect(page.locator("#flags")).to_contain_text("illegal")
    expect(square(page, 13)).to_have_class(re.compile(r"intent-illegal"))
    expect(square(page, 21)).to_have_class(re.compile(r"intent-restore"))
    expect(square(page, 13).locator(".led")).to_have_class(
        re.compile(r"fast_blink red"))
    expect(page.locator("#log")).to_contain_text("illegal move a3-a5")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "play-web-illegal.png"), full_page=True)
    click_move(page, 13, 21)  # put it back
    expect(page.locator("#flags")).to_be_empty()
    expect(page.locator("#turn")).to_contain_text("White to move · ready")

    square(page, 23).drag_to(square(page, 19))  # e3-f4, by dragging
    expect(page.locator("#moves")).to_contain_text("e3-f4")
    # Black must capture twice: g5 takes f4 to e3, then d4 to c5, shown landing by
    # landing; the taken pieces come off last, in the order taken
    click_move(page, 16, 23, 23, 14, 19, 18)
    expect(page.locator("#moves")).to_contain_text("g5:c5")
    page.screenshot(path=str(ARTIFACTS / "play-web.png"), full_page=True)

    with page.expect_download() as info:
        page.locator("#download").click()
    pdn = Path(info.value.path()).read_text(encoding="utf-8")
    read = read_pdn(pdn)
    assert not read.errors and len(read.games) == 1
    game = read.games[0].game
    assert [m.text for m in game.moves] == ["c3-d4", "f6-g5", "e3-f4", "g5:c5"]
    assert game.tags["White"] == XSS
    assert '[Black "Bea"]' in pdn
    assert "illegal move a3-a5" in pdn  # kept for the arbiter, not as a move
    assert page.dialogs == []


def test_the_arbiter_panel_needs_the_token(page):
    expect = pytest.importorskip("playwright.sync_api").expect
    expect(page.locator("#connection")).to_have_text("live")
    page.locator("#arbiter summary").click()
    page.locator("#result-value").select_option("0-1")
    page.locator("#result-reason").fill("resigned")
    page.locator("#result-form button").click()
    expect(page.locator("#message")).to_have_text("arbiter token required")
    assert page.play.state()["result"] is None

    page.locator("#token").fill("not-the-token")
    page.locator("#token-form button").click()
    expect(page.locator("#token-status")).to_have_text("refused")
    page.locator("#token").fill(TOKEN)
    page.locator("#token-form button").click()
    expect(page.locator("#token-status")).to_have_text("accepted")
    page.locator("#tag-key").fill("Round")
    page.locator("#tag-value").fill("<b>7</b>")
    page.locator("#tags-form button").click()
    expect(page.locator("#tags")).to_contain_text("<b>7</b>")
    page.locator("#result-form button").click()
    expect(page.locator("#turn")).to_contain_text("Game over: 0-1 (resigned)")
    assert page.dialogs == []
