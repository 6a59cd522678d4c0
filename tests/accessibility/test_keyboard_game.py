"""A whole short game on the simulator and the arbiter's result, by keyboard alone: no
click, no mouse, only key presses (Tab, the arrow keys, Enter, Space, Escape, typing).
The skip link leads to the board; the arrow keys move between its dark squares, Enter
lifts and puts down; Tab reaches the arbiter's panel, its token, its result and the
confirmation dialog, which keeps the focus and gives it back. The game's record says
what was played."""

from __future__ import annotations

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn

from ..browser import REST_MS, playwright_api
from ..web.helpers import TOKEN, PlayProcess
from ..web.walks import GAME_ARGS, launch, open_in
from .keys import focused, go_to, press_on, tab_to

pytestmark = pytest.mark.browser


def test_a_game_and_its_result_by_keyboard_alone(tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data", *GAME_ARGS) as play, \
            playwright_api().sync_playwright() as p:
        browser = launch(p)
        page = open_in(browser, play, "en")
        moves = page.locator("#moves .move")
        page.keyboard.press("Tab")  # the skip link comes first
        expect(page.locator("#skip")).to_be_focused()
        page.keyboard.press("Enter")
        assert focused(page)["role"] == "gridcell"
        assert focused(page)["name"] == "b8: black man"
        # one tab stop into the board: the cell with the focus
        expect(page.locator('#board [tabindex="0"]')).to_have_count(1)

        press_on(page, 22, 18)  # c3-d4
        expect(moves).to_have_count(1)
        assert focused(page)["square"] == 18  # the focus stayed where the hand was
        page.keyboard.press("Home")
        assert focused(page)["name"] == "b4: empty"  # the row's first dark square
        page.keyboard.press("End")
        assert focused(page)["name"] == "h4: empty"
        page.keyboard.press("Control+Home")
        assert focused(page)["name"] == "b8: black man"
        page.keyboard.press("Control+End")
        assert focused(page)["name"] == "g1: white man"
        press_on(page, 11, 16)  # f6-g5
        expect(moves).to_have_count(2)
        go_to(page, 23)  # e3-f4, with Space this time
        page.keyboard.press(" ")
        go_to(page, 19)
        page.keyboard.press(" ")
        expect(moves).to_have_count(3)
        # g5 takes f4 and d4: down on e3, a rest there, on to c5, the taken pieces off
        press_on(page, 16, 23)
        page.wait_for_timeout(REST_MS)  # the hand's rest on the landing is the input
        press_on(page, 23, 14, 19, 18)
        expect(moves).to_have_count(4)
        press_on(page, 25, 22)  # b2-c3
        expect(moves).to_have_count(5)

        # the arbiter's panel, by Tab from the board
        tab_to(page, "#arbiter summary")
        page.keyboard.press("Enter")
        expect(page.locator("#arbiter")).to_have_attribute("open", "")
        tab_to(page, "#token")
        page.keyboard.type(TOKEN)
        page.keyboard.press("Enter")
        expect(page.locator("#token-status")).to_have_text("accepted")
        tab_to(page, "#result-value")
        for _ in range(8):
            if page.locator("#result-value").input_value() == "0-1":
                break
            page.keyboard.press("ArrowDown")
        expect(page.locator("#result-value")).to_have_value("0-1")
        tab_to(page, "#result-reason")
        page.keyboard.type("resigned")
        page.keyboard.press("Enter")  # the form: the dialog asks to confirm
        dialog = page.locator("#confirm")
        expect(dialog).to_be_visible()
        expect(page.locator("#confirm-ok")).to_be_focused()
        for _ in range(3):  # the dialog keeps the focus
            page.keyboard.press("Tab")
            assert focused(page)["inDialog"]
        page.keyboard.press("Escape")  # not yet: the focus goes back where it was
        expect(dialog).to_be_hidden()
        expect(page.locator("#result-reason")).to_be_focused()
        assert play.state()["result"] is None
        page.keyboard.press("Enter")
        expect(page.locator("#confirm-ok")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#result")).to_have_text("0-1 (resigned)")
        # the result form is gone with its result: the focus went to a control still shown
        page.wait_for_function("() => document.activeElement !== document.body")
        assert focused(page)["shown"]

        state = play.state()
        assert state["result"] == "0-1"
        assert state["moves"] == ["c3-d4", "f6-g5", "e3-f4", "g5:c5", "b2-c3"]
        read = read_pdn(play.get("/api/game.pdn").decode())
        assert not read.errors and len(read.games) == 1
        game = read.games[0].game
        assert [m.text for m in game.moves] == ["c3-d4", "f6-g5", "e3-f4", "g5:c5", "b2-c3"]
        assert game.result_text() == "0-1"
        assert page.errors == []
        browser.close()


def test_a_confirmation_opened_again_at_once_is_not_closed_by_the_first(tmp_path):
    # Escape, then Enter at once in the form: the first dialog's close event comes while
    # the second is open; the second must wait for its own answer
    with PlayProcess(tmp_path / "data") as play, playwright_api().sync_playwright() as p:
        browser = launch(p)
        page = open_in(browser, play, "en")
        answers = page.evaluate("""async () => {
            const { confirmAction } = await import("/static/app.js");  // the page's module
            const dialog = document.getElementById("confirm");
            const first = confirmAction("first", "", "OK");
            dialog.close("cancel");
            const second = confirmAction("second", "", "OK");
            // the first one's close event, come late, while the second is open
            await new Promise((resolve) => dialog.addEventListener("close", resolve,
                                                                   { once: true }));
            const one = await first;
            const open = dialog.open;
            document.getElementById("confirm-ok").click();
            return [one, open, await second];
        }""")
        assert answers == [False, True, True]
        browser.close()


def test_the_language_switch_waits_for_enter_when_chosen_by_the_keys(tmp_path):
    """Arrows on a closed <select> change its value at every press: the page must not
    reload into each language on the way, only into the one chosen with Enter; after the
    reload the focus is on the switch again."""
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data") as play, playwright_api().sync_playwright() as p:
        browser = launch(p)
        page = open_in(browser, play, "en")
        switch = page.locator("select[data-words-switch]").first
        switch.focus()
        page.evaluate("window.notReloaded = true")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        chosen = switch.input_value()
        assert chosen != "en"
        assert page.evaluate("window.notReloaded === true && document.documentElement.lang")\
            == "en"
        page.keyboard.press("Enter")
        expect(page.locator("html")).to_have_attribute("lang", chosen)
        assert page.evaluate("window.notReloaded") is None
        expect(page.locator("select[data-words-switch]").first).to_have_value(chosen)
        # the focus is back on the switch, not on the page's top
        expect(page.locator("select[data-words-switch]").first).to_be_focused()
        browser.close()
