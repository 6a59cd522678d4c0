"""The page speaks on the phone beside the board: a switch (off unless turned on, kept by
the browser) has the browser's speech (speechSynthesis) say the sentences the board says
(draughtsboard/speech/spoken.py's messages, sent by the board's stream) in the page's
language. Chromium's speech is replaced by a recorder before the page loads, so the test
hears exactly what would be said."""

from __future__ import annotations

import pytest

from ..browser import playwright_api
from ..web.helpers import TOKEN, PlayProcess
from ..web.walks import GAME_ARGS, launch, open_in

pytestmark = pytest.mark.browser

# A speechSynthesis that writes down what it is asked to say, and in which language
RECORDER = """
window.spoken = [];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speak: (utterance) => window.spoken.push([utterance.text, utterance.lang]),
  cancel: () => {}, getVoices: () => [] } });
"""


def record(page) -> None:
    page.add_init_script(RECORDER)


def spoken(page) -> list[list[str]]:
    return page.evaluate("window.spoken")


def test_the_page_speaks_the_boards_sentences_once_the_switch_is_on(tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data", *GAME_ARGS) as play, \
            playwright_api().sync_playwright() as p:
        browser = launch(p)
        page = open_in(browser, play, "en", prepare=record)
        switch = page.locator("#speak")
        expect(switch).not_to_be_checked()  # off unless turned on
        expect(switch).to_be_enabled()
        play.hands(("lift", 22), ("place", 18))  # c3-d4: shown, not spoken
        expect(page.locator("#said p")).to_have_count(1)
        assert spoken(page) == []
        switch.focus()
        page.keyboard.press("Space")  # on, by keyboard
        expect(switch).to_be_checked()
        assert page.evaluate("localStorage.getItem('speech')") == "on"
        play.hands(("lift", 11), ("place", 16))  # f6-g5
        expect(page.locator("#said p")).to_have_count(2)
        play.hands(("lift", 21), ("place", 13))  # a3-a5: illegal
        expect(page.locator("#said-alert")).not_to_be_empty()
        assert spoken(page) == [["f6 to g5.", "en"],
                                ["Illegal move. Put right squares a5 and a3.", "en"]]
        play.hands(("lift", 13), ("place", 21))

        # remembered by the browser, in the page's language; nothing old said again
        page.goto(play.url + "/?lang=ru")
        expect(page.locator("#speak")).to_be_checked()
        expect(page.locator("#moves-title")).to_have_text("Ходы")
        play.hands(("lift", 23), ("place", 19))  # e3-f4
        expect(page.locator("#said p")).to_have_count(1)
        play.post("/api/arbiter/result", {"result": "0-1", "reason": ""}, TOKEN)
        expect(page.locator("#said p")).to_have_count(2)
        assert spoken(page) == [["е 3 — эф 4.", "ru"], ["Победа чёрных.", "ru"]]

        page.locator("#speak").focus()
        page.keyboard.press("Space")  # off again: silent
        assert page.evaluate("localStorage.getItem('speech')") == "off"
        play.post("/api/arbiter/withdraw-result", {}, TOKEN)
        play.hands(("lift", 10), ("place", 15))  # d6-e5, not g5's capture: illegal
        expect(page.locator("#said-alert")).not_to_be_empty()
        assert len(spoken(page)) == 2
        assert page.errors == []
        browser.close()


def test_a_browser_without_speech_says_so_and_keeps_the_switch_off(tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data") as play, playwright_api().sync_playwright() as p:
        browser = launch(p)
        page = open_in(browser, play, "en", prepare=lambda page: page.add_init_script(
            "delete window.speechSynthesis; delete window.SpeechSynthesisUtterance;"
            "Object.defineProperty(window, 'speechSynthesis', {value: undefined});"))
        expect(page.locator("#speak")).to_be_disabled()
        expect(page.locator("#speech-none")).to_be_visible()
        expect(page.locator("#speech-none")).to_have_text("(this browser cannot speak)")
        browser.close()
