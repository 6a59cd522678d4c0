"""The hall's pages without sight, in a real browser (Playwright on Debian's chromium),
with boards playing through a real mosquitto to ``draughtsboard hall``.

axe-core finds no serious or critical violation on the hall page, the arbiter's console
with a claim and an alert pending, a board's detail and the projector, in English and in
Russian. What axe cannot judge is asserted here: the boards' table and its headers, each
diagram's squares named by square and contents, the moves table's headers, the live
regions (news said once, politely; what needs the arbiter at once; the projector quiet
but for results), and an arbiter who uses only the keyboard: the focus survives a redraw,
the grid is walked with the arrow keys, a result is declared and confirmed, the detail
closes back to where it was opened."""

from __future__ import annotations

import re

import pytest

from draughtsboard.board.tracker import State

from ..accessibility.axe import serious_violations
from ..browser import ARTIFACTS, playwright_api
from ..web.helpers import wait_until
from ..web.walks import chromium
from .test_browser import HALL_TOKEN, HallProcess, new_page

pytestmark = pytest.mark.browser

PLAYERS = {1: ("Anna Ivanova", "Boris Smit"), 2: ("Celine Durand", "Dmitri Orlov"),
           3: ("Eva Jansen", "Fedor Petrov")}
C3_D4 = (22, 18)
F6_G5 = (11, 16)

# what a screen reader is told: the live regions and every element it hears as one
LIVE = """() => [...document.querySelectorAll(
    '[aria-live], [role=alert], [role=status], [role=log], [role=marquee], [role=timer]')]
  .map((node) => node.id || node.tagName)"""
ACTIVE = """() => {
  const node = document.activeElement;
  return node ? (node.id || node.textContent.trim()) : null;
}"""


def _linked(boards):
    return {n: boards(n, tags={"White": white, "Black": black})
            for n, (white, black) in PLAYERS.items()}


def _move(board, path):
    board.play(next(m for m in board.legal() if m.path == path))


def _axe_clean(page, where: str) -> None:
    found = serious_violations(page)
    assert found == [], f"{where}:\n" + "\n".join(found)


def test_the_hall_pages_pass_axe_and_say_what_axe_cannot_judge(boards, broker, tmp_path):
    expect = playwright_api().expect
    hall = HallProcess(broker.venue.hall_url(), tmp_path / "hall")
    try:
        linked = _linked(boards)
        _move(linked[1], C3_D4)
        # an alert (an illegal move on board 2) and a claim (board 3's result) pending
        linked[2].session.hand([("lift", 9), ("place", 17)])
        wait_until(lambda: linked[2].session.game.tracker.state is State.ILLEGAL,
                   what="the illegal move on board 2")
        linked[3].session.arbiter.declare_result("0-1", "White resigned")
        with chromium() as browser:
            for lang, board_word, live in (("ru", "Доска", "на связи"),
                                           ("en", "Board", "live")):
                page = new_page(browser)
                page.goto(f"{hall.url}/?lang={lang}")
                expect(page.locator("#connection")).to_have_text(live)
                card = {n: page.locator(f'#boards .card[data-board="{n}"]') for n in PLAYERS}
                expect(card[2]).to_have_class(re.compile(r"\bneeds\b"))
                expect(card[3].locator(".needs-text")).not_to_be_empty()
                _axe_clean(page, f"the hall page ({lang})")

                # the console, the arbiter in: pairings, the log
                page.locator("#token").fill(HALL_TOKEN)
                page.locator("#use-token").click()
                expect(page.locator("#import-pairings")).to_be_visible()
                page.locator("#show-log").click()
                _axe_clean(page, f"the console ({lang})")

                # a board's detail with its claim pending, and one with the alert
                card[3].locator("button.open").click()
                expect(page.locator("#detail-claims li")).to_have_count(1)
                expect(page.locator("#detail-title")).to_be_focused()
                _axe_clean(page, f"board 3's detail ({lang})")
                card[2].locator("button.open").click()
                expect(page.locator("#detail-title")).to_have_text(f"{board_word} 2")
                _axe_clean(page, f"board 2's detail ({lang})")
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"hall-a11y-{lang}.png"), full_page=True)

                projector = new_page(browser, 1920, 1080)
                projector.goto(f"{hall.url}/projector?lang={lang}&round=1")
                expect(projector.locator("#wall .table")).to_have_count(3)
                _axe_clean(projector, f"the projector ({lang})")
                projector.screenshot(path=str(ARTIFACTS / f"projector-a11y-{lang}.png"))
                projector.close()

            # what axe cannot judge, in English: the boards as a table with headers
            table = page.get_by_role("table", name="Boards")
            headers = table.get_by_role("columnheader")
            expect(headers).to_have_text(["Board", "White", "Black", "Game", "Position",
                                          "Needs the arbiter"])
            expect(table.get_by_role("row")).to_have_count(1 + len(PLAYERS))
            row = table.get_by_role("row").nth(1)
            expect(row.get_by_role("rowheader")).to_contain_text("Board 1")
            expect(row.get_by_role("cell")).to_have_count(5)
            expect(row.get_by_role("cell").nth(0)).to_have_text("Anna Ivanova")
            # each card's diagram: its pieces by square and contents, nothing unnamed
            mini = card[1].get_by_role("list", name="Position on board 1")
            items = mini.get_by_role("listitem")
            expect(items).to_have_count(24)
            assert "d4, white man" in items.all_inner_texts()
            assert "c3, white man" not in items.all_inner_texts()
            # the detail's diagram: a grid of the 32 dark squares, empty ones said so
            card[1].locator("button.open").click()
            grid = page.get_by_role("grid", name="Position on board 1")
            expect(grid.get_by_role("gridcell")).to_have_count(32)
            for name in ("d4, white man", "c3, empty", "a7, black man"):
                expect(grid.get_by_role("gridcell", name=name, exact=True)).to_have_count(1)
            stops = "(g) => g.querySelectorAll('[tabindex=\"0\"]').length"
            assert grid.evaluate(stops) == 1  # one tab stop into the grid
            # the moves, a table with its headers
            moves = page.get_by_role("table", name="Moves")
            expect(moves.get_by_role("columnheader")).to_have_text(["Move", "White", "Black"])
            expect(moves.get_by_role("rowheader")).to_have_text(["1."])
            # the live regions: news polite, alerts assertive, nothing else live but
            # the badges that say the connection and the arbiter's answers
            expect(page.locator("#hall-news")).to_have_attribute("aria-live", "polite")
            expect(page.locator("#hall-news")).to_have_attribute("role", "log")
            expect(page.locator("#hall-alerts")).to_have_attribute("role", "alert")
            assert sorted(page.evaluate(LIVE)) == sorted(
                ["connection", "hall-news", "hall-alerts", "filter-count", "arbiter-message"])
            # landmarks and headings: one h1, the boards and console named regions
            expect(page.locator("h1")).to_have_count(1)
            expect(page.get_by_role("main")).to_have_count(1)
            expect(page.get_by_role("region", name="Arbiter console")).to_have_count(1)
            expect(page.get_by_role("region", name="Board 1")).to_have_count(1)
            # states told in words as well as colour: the illegal move, the claim
            expect(card[2].locator(".needs-text")).to_contain_text("illegal move")
            expect(card[3].locator(".needs-text")).to_contain_text("result to confirm")

            # the projector: a wall screen, quiet but for one polite line of results
            projector = new_page(browser, 1920, 1080)
            projector.goto(f"{hall.url}/projector?round=1")
            expect(projector.locator("#wall .table")).to_have_count(3)
            assert projector.evaluate(LIVE) == ["wall-news"]
            expect(projector.locator("#wall-news")).to_have_attribute("role", "status")
            expect(projector.locator("#wall h2")).to_have_count(3)
            white = projector.locator('#wall .table[data-board="1"] .player.white')
            expect(white).to_contain_text("White: Anna Ivanova")
            black = projector.locator('#wall .table[data-board="1"] .player.black')
            expect(black).to_contain_text("Black: Boris Smit")
            expect(black.locator(".sr-only").last).to_have_text(" to move")
            expect(white.locator(".sr-only")).to_have_count(1)  # not White's move
            linked[1].session.arbiter.declare_result("1-0", "")
            page.locator("#detail-claims button", has_text="Confirm").wait_for()
            page.once("dialog", lambda dialog: dialog.accept())
            page.locator("#detail-claims button", has_text="Confirm").click()
            expect(projector.locator("#wall-news")).to_have_text("Board 1: result 1-0")
    finally:
        assert hall.stop() == 0, "".join(hall.lines)


def _tab_to(page, wanted: str, *, back: bool = False, limit: int = 80) -> None:
    """Tab (Shift+Tab with ``back``) until the element matching ``wanted`` has the focus."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement.matches(s)", wanted):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"{wanted} never took the focus; it stopped on "
                         f"{page.evaluate(ACTIVE)!r}")


def _news(page) -> list[str]:
    return page.locator("#hall-news p").all_inner_texts()


def test_an_arbiter_with_the_keyboard_alone_and_a_screen_readers_news(boards, broker,
                                                                     tmp_path):
    expect = playwright_api().expect
    hall = HallProcess(broker.venue.hall_url(), tmp_path / "hall")
    try:
        linked = _linked(boards)
        with chromium() as browser:
            page = new_page(browser)
            page.goto(hall.url + "/")
            expect(page.locator("#connection")).to_have_text("live")
            expect(page.locator("#boards .card")).to_have_count(3)
            assert _news(page) == []  # what stood before the page opened is not news

            # the skip link, the token typed, used with Enter
            page.keyboard.press("Tab")
            expect(page.locator("a.skip")).to_be_focused()
            page.keyboard.press("Enter")
            _tab_to(page, "#token")
            page.keyboard.type(HALL_TOKEN)
            page.keyboard.press("Tab")
            expect(page.locator("#use-token")).to_be_focused()
            page.keyboard.press("Enter")
            expect(page.locator("#arbiter-message")).to_contain_text("token accepted")

            # back to board 1's row: the focus stays on it while the board plays
            _tab_to(page, '.card[data-board="1"] button.open', back=True)
            opener = page.locator('.card[data-board="1"] button.open')
            ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
            assert ring == "solid", "the focus ring is visible"
            page.evaluate("() => { document.activeElement.dataset.held = 'yes'; }")
            _move(linked[1], C3_D4)
            expect(page.locator('.card[data-board="1"] .move')).to_contain_text("c3-d4")
            _move(linked[2], C3_D4)
            expect(page.locator('.card[data-board="2"] .move')).to_contain_text("c3-d4")
            _move(linked[1], F6_G5)
            expect(page.locator('.card[data-board="1"] .move')).to_contain_text("f6-g5")
            assert page.evaluate("() => document.activeElement.dataset.held") == "yes"
            # each move said once, politely, whatever redraws came between: the
            # page drawn again, board 1 sending itself again (a piece lifted and put
            # back: no move), board 2's next move
            page.evaluate("import('/static/hall.js').then((hall) => { hall.render();"
                          " hall.render(); })")
            linked[1].session.hand([("lift", 21), ("place", 21)])
            _move(linked[2], F6_G5)
            expect(page.locator('.card[data-board="2"] .move')).to_contain_text("f6-g5")
            assert _news(page) == ["Board 1: 1. c3-d4", "Board 2: 1. c3-d4",
                                   "Board 1: 1… f6-g5", "Board 2: 1… f6-g5"]

            # what needs the arbiter is said at once; a claim politely
            linked[2].session.hand([("lift", 9), ("place", 17)])
            expect(page.locator("#hall-alerts")).to_contain_text(
                "Board 2 needs the arbiter: illegal move")
            linked[3].session.arbiter.declare_result("0-1", "White resigned")
            expect(page.locator("#hall-news p", has_text="Board 3")).to_have_text(
                ["Board 3: result to confirm"])
            expect(page.locator("#hall-alerts")).to_contain_text(
                "Board 2 needs the arbiter: illegal move")
            assert not page.locator("#hall-alerts", has_text="Board 3").count()

            # board 1 opened with Enter: the focus goes to its heading
            expect(opener).to_be_focused()
            page.keyboard.press("Enter")
            expect(page.locator("#detail-title")).to_be_focused()
            expect(page.locator("#detail-title")).to_have_text("Board 1")
            # its diagram, one tab stop, walked with the arrow keys
            _tab_to(page, "#detail-board td")
            expect(page.locator("#detail-board td:focus")).to_have_text("b8, black man")
            page.keyboard.press("ArrowRight")
            expect(page.locator("#detail-board td:focus")).to_have_text("d8, black man")
            page.keyboard.press("ArrowDown")
            expect(page.locator("#detail-board td:focus")).to_have_text("c7, black man")
            page.keyboard.press("End")
            expect(page.locator("#detail-board td:focus")).to_have_text("g7, black man")
            page.keyboard.press("Tab")  # out of the grid: one tab stop
            assert page.evaluate(
                "() => !document.activeElement.closest('#detail-board')")

            # the result chosen, a reason typed, declared with Space, confirmed
            _tab_to(page, "#result-choice")
            page.keyboard.press("ArrowDown")
            assert page.locator("#result-choice").input_value() == "1-0"
            page.keyboard.press("Tab")
            expect(page.locator("#result-reason")).to_be_focused()
            page.keyboard.type("time")
            page.keyboard.press("Tab")
            expect(page.locator("#declare-result")).to_be_focused()
            asked = []
            page.once("dialog", lambda dialog: (asked.append(dialog.message),
                                                dialog.accept()))
            page.keyboard.press("Space")
            expect(page.locator("#arbiter-message")).to_contain_text(
                "board 1: 1-0 recorded in the hall")
            assert "1-0" in asked[0] and "time" in asked[0]
            expect(page.locator("#detail-title")).to_have_text(re.compile("1-0"))
            expect(page.locator("#declare-result")).to_be_focused()  # not lost on redraw
            expect(page.locator("#hall-news p", has_text="Board 1: result")).to_have_text(
                ["Board 1: result 1-0"])
            wait_until(lambda: linked[1].session.published()[1].result == "1-0",
                       what="board 1's result")

            # Escape closes the detail; the focus goes back to board 1's row
            page.keyboard.press("Escape")
            expect(page.locator("#detail")).to_be_hidden()
            expect(opener).to_be_focused()
            # the filter, typed: how many boards are shown is said
            _tab_to(page, "#filter", back=True)
            page.keyboard.type("celine")
            expect(page.locator("#boards .card")).to_have_count(1)
            expect(page.locator("#filter-count")).to_have_text("1 board shown")
    finally:
        assert hall.stop() == 0, "".join(hall.lines)
