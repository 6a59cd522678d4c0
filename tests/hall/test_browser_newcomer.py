"""The hall as a newcomer found it, in a real browser.

The projector with few boards: two boards on a 1920x1080 screen make each table nearly
square, and the board's diagram once took all but a sliver of its width ("Boa" for
"Board 1", "1…" for the last move). Every word of a table must fit in it, uncut, in
English and in Russian; and the side's mark beside each player is a piece of that
side's colour (a light disc beside Black read as White's).

A board's detail and the console in Russian: what the board reported in Russian (the
clock's start read "clock-start: clock started with the first move"), the irregularity
policy in words (it read "fmjd"), the results named as the board's page names them
(the console offered bare codes, 1/2-1/2), and Enter in the token's field gives it."""

from __future__ import annotations

import pytest

from ..browser import ARGS, ARTIFACTS, CHROMIUM, playwright_api
from .test_browser import HALL_TOKEN, HallProcess

pytestmark = pytest.mark.browser

PLAYERS = {1: ("Anna Ivanova", "Boris Smit"), 2: ("Celine Durand", "Dmitri Orlov")}

# the words of each table that do not fit: cut by their box, or out of the table
CUT = """() => {
  const out = [];
  for (const table of document.querySelectorAll('#wall .table')) {
    const box = table.getBoundingClientRect();
    for (const node of table.querySelectorAll('*')) {
      if (node.closest('.sr-only, .mini') || node.children.length
          || !node.textContent.trim()) continue;
      const r = node.getBoundingClientRect();
      if (r.right > box.right + 1 || r.left < box.left - 1
          || node.scrollWidth > node.clientWidth + 1
          || node.scrollHeight > node.clientHeight + 1)
        out.push(table.dataset.board + ': ' + node.className + ' ' + node.textContent.trim());
    }
  }
  return out;
}"""
MARKS = """() => [...document.querySelectorAll('#wall .table[data-board="1"] .player')].map(
  (line) => [line.classList.contains('white') ? 'white' : 'black',
             getComputedStyle(line.querySelector('.piece')).color])"""


def test_two_boards_on_the_projector_show_every_word_whole(boards, broker, tmp_path):
    api = playwright_api()
    expect = api.expect
    hall = HallProcess(broker.venue.hall_url(), tmp_path / "hall")
    try:
        linked = {n: boards(n, tags={"White": white, "Black": black})
                  for n, (white, black) in PLAYERS.items()}
        linked[1].play(next(m for m in linked[1].legal() if m.path == (22, 18)))
        with api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                for lang, board_word in (("en", "Board"), ("ru", "Доска")):
                    page = browser.new_page(viewport={"width": 1920, "height": 1080})
                    page.set_default_timeout(15_000)
                    page.goto(f"{hall.url}/projector?lang={lang}&round=1")
                    expect(page.locator("#wall .table")).to_have_count(2)
                    first = page.locator('#wall .table[data-board="1"]')
                    expect(first.locator(".number")).to_have_text(f"{board_word} 1")
                    expect(first.locator(".last")).to_contain_text("c3-d4")
                    ARTIFACTS.mkdir(exist_ok=True)
                    page.screenshot(path=str(ARTIFACTS / f"projector-two-{lang}.png"))
                    assert page.evaluate(CUT) == [], lang
                    assert dict(page.evaluate(MARKS)) == {"white": "rgb(255, 255, 255)",
                                                          "black": "rgb(0, 0, 0)"}
                    page.close()
            finally:
                browser.close()
    finally:
        hall.stop()


def test_a_board_s_detail_and_the_console_in_russian(boards, broker, tmp_path):
    api = playwright_api()
    expect = api.expect
    hall = HallProcess(broker.venue.hall_url(), tmp_path / "hall")
    try:
        board = boards(1, tags={"White": "Anna Ivanova", "Black": "Boris Smit",
                                "TimeControl": "1800+10"})
        board.play(next(m for m in board.legal() if m.path == (22, 18)))
        with api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                page = browser.new_page(viewport={"width": 1300, "height": 900})
                page.set_default_timeout(15_000)
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto(f"{hall.url}/?lang=ru")
                page.locator("#token").fill(HALL_TOKEN)
                page.locator("#token").press("Enter")
                expect(page.locator("#arbiter-message")).to_have_text("судья: ключ принят")
                page.locator('#boards .card[data-board="1"] button.open').click()
                events = page.locator("#detail-events")
                expect(events).to_contain_text("часы: часы пошли с первым ходом")
                expect(events).not_to_contain_text("clock")
                tags = page.locator("#detail-tags")
                expect(tags).to_contain_text("по правилам ФМЖД (решает соперник)")
                expect(tags).not_to_contain_text("fmjd")
                labels = page.locator("#result-choice option").all_inner_texts()
                assert labels[1:] == ["1-0 (победа белых)", "½-½ (ничья)", "0-1 (победа чёрных)",
                                      "0-0 (поражение обоим)"]
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "hall-newcomer-ru.png"), full_page=True)
                assert errors == []
            finally:
                browser.close()
    finally:
        hall.stop()
