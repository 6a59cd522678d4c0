"""The projector with few boards, as a newcomer's first round shows it: two boards on a
1920x1080 screen make each table nearly square, and the board's diagram once took all
but a sliver of its width ("Boa" for "Board 1", "1…" for the last move). Every word of a
table must fit in it, uncut, in English and in Russian; and the side's mark beside each
player is a piece of that side's colour (a light disc beside Black read as White's)."""

from __future__ import annotations

import pytest

from ..browser import ARGS, ARTIFACTS, CHROMIUM, playwright_api
from .test_browser import HallProcess

pytestmark = pytest.mark.browser

PLAYERS = {1: ("Anna Ivanova", "Boris Smit"), 2: ("Celine Durand", "Dmitri Orlov")}

# the words of each table that do not fit: cut by their box, or out of the table
CUT = """() => {
  const out = [];
  for (const table of document.querySelectorAll('#wall .table')) {
    const box = table.getBoundingClientRect();
    for (const node of table.querySelectorAll('*')) {
      if (node.closest('.sr-only, .mini') || node.children.length || !node.textContent.trim()) continue;
      const r = node.getBoundingClientRect();
      if (r.right > box.right + 1 || r.left < box.left - 1 || node.scrollWidth > node.clientWidth + 1
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
