"""One game, one board, one time: the board's page and the hall show the same clock text
for the same remaining time, and their grids answer the keys the same way.

Both pages are loaded as they are shipped (their HTML, scripts, style sheets and the
catalog) in Debian's chromium, each fed one game through its own live stream: the board's
page a view taken from a live simulated session, the hall a board whose summary carries
the same clocks. Nothing runs but the pages, so the time is an input: the clocks are
stopped (paused) at chosen remaining times, the same on both pages. Requests are answered
by Playwright's routes (no server, no port): the test sees what each page draws of the
same data.
"""

from __future__ import annotations

import json
from importlib import resources
from urllib.parse import urlparse

import pytest

from draughtsboard.hall.views import variants_view
from draughtsboard.words.routes import catalog_body

from ..browser import playwright_api
from ..web.helpers import move, view_of
from ..web.walks import chromium

pytestmark = pytest.mark.browser

ORIGIN = "http://draughtsboard.test"
PACKAGE = resources.files("draughtsboard")
SITES = {"board": (PACKAGE / "web" / "static", "index.html"),
         "hall": (PACKAGE / "hall" / "static", "hall.html")}
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
# remaining seconds, White's and Black's, one pair a page load: under a second, the half
# seconds a rounding to the nearest would take down, whole seconds, float noise, hours
CLOCKS = [(0.3, 59.4), (0.5, 59.5), (299.999, 300.0), (3599.2, 5400.0000001)]
KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End",
        "Control+Home", "Control+End"]
# every dark square, every key: where the focus goes (the key sent as the grid hears it)
WALK = """(cells) => {
  const out = {};
  for (const start of document.querySelectorAll(cells)) {
    for (const key of KEYS) {
      start.focus();
      const [ctrl, name] = key.startsWith("Control+") ? [true, key.slice(8)] : [false, key];
      start.dispatchEvent(new KeyboardEvent("keydown", { key: name, ctrlKey: ctrl,
        bubbles: true, cancelable: true }));
      out[start.dataset.square + " " + key] = document.activeElement.dataset.square || null;
    }
  }
  return out;
}""".replace("KEYS", json.dumps(KEYS))


def _sse(*events: tuple[str | None, object]) -> str:
    """A live stream's body: no reconnection for an hour, then each (name, data)."""
    out = "retry: 3600000\n\n"
    for name, data in events:
        out += (f"event: {name}\n" if name else "") + f"data: {json.dumps(data)}\n\n"
    return out


def _serve(page, site: str, events: str, detail: dict | None = None) -> None:
    """Answer ``page``'s requests as its server would: the site's files, the kit, the
    catalog (English), the live stream ``events`` and the board's ``detail``."""
    static, index = SITES[site]

    def handle(route):
        path = urlparse(route.request.url).path
        if path == "/api/events":
            return route.fulfill(status=200, content_type="text/event-stream", body=events)
        if path == "/api/board/1" and detail is not None:
            return route.fulfill(status=200, content_type="application/json",
                                 body=json.dumps(detail))
        if path == "/words/catalog.json":
            return route.fulfill(status=200, content_type="application/json",
                                 body=catalog_body("en"))
        if path == "/":
            file = static / index
        elif path.startswith("/static/"):
            file = static / path.removeprefix("/static/")
        elif path.startswith("/kit/"):
            file = PACKAGE / "webkit" / "static" / path.removeprefix("/kit/")
        elif path == "/words/words.js":
            file = PACKAGE / "words" / "static" / "words.js"
        else:
            return route.fulfill(status=404, body="")
        if not file.is_file():
            return route.fulfill(status=404, body="")
        kind = TYPES.get("." + file.name.rsplit(".", 1)[-1], "application/octet-stream")
        return route.fulfill(status=200, content_type=kind, body=file.read_bytes())

    page.route(ORIGIN + "/**", handle)


def _summary(view: dict, white: float, black: float) -> dict:
    """The hall's summary of board 1 playing the view's game, with these clocks."""
    pieces = {str(n): column for n, column in view["columns"].items()}
    return {"board": 1, "online": True, "seen": True, "room_cut": False, "flags": [],
            "needs": [], "claims": [], "pairing": None, "refused": [], "unanswered": [],
            "game": view["game_id"], "variant": view["variant"], "finished": False,
            "white": "Ann", "black": "Bea", "round": "1", "event": "",
            "ply": len(view["moves"]), "move_number": 1, "last_move": view["moves"][-1],
            "white_to_move": view["white_to_move"], "pieces": pieces,
            "clocks": [white, black], "result": None, "result_reason": None,
            "result_source": None}


def _detail(summary: dict) -> dict:
    return {**summary, "asked_again": [], "software": "", "uptime": 0, "health": None,
            "health_notes": [], "unacknowledged": 0, "events": [], "problems": [],
            "games": [], "moves": [], "numbered_moves": [], "tags": {}, "results": []}


def _hall_events(summary: dict) -> str:
    return _sse(("hall", {"variants": variants_view(),
                          "hall": {"rounds": ["1"], "pairings": {}},
                          "boards": [summary]}))


def _paused(view: dict, white: float, black: float) -> dict:
    clocks = {**view["clocks"], "white": white, "black": black, "status": "paused",
              "running": None, "since": None, "flagged": []}
    return {**view, "clocks": clocks}


@pytest.fixture(scope="module")
def browser():
    with chromium() as running:
        yield running


@pytest.fixture
def game_view(start_session):
    """A view of a game in play with a time control, after c3-d4 (from a live session)."""
    session = start_session(tags={"White": "Ann", "Black": "Bea", "TimeControl": "300+5"})
    move(session, 22, 18)
    view = view_of(session)
    assert view["clocks"] is not None
    return view


def _open(browser, site: str, events: str, detail: dict | None = None):
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _serve(page, site, events, detail)
    page.goto(ORIGIN + "/")
    page.errors = errors
    return page


def test_the_board_page_and_the_hall_show_the_same_clock_text(browser, game_view):
    expect = playwright_api().expect
    for white, black in CLOCKS:
        board = _open(browser, "board", _sse((None, _paused(game_view, white, black))))
        hall = _open(browser, "hall", _hall_events(_summary(game_view, white, black)))
        try:
            expect(board.locator("#white-clock")).to_be_visible()
            shown = {side: board.locator(f"#{side}-clock").text_content()
                     for side in ("white", "black")}
            clocks = hall.locator('.card[data-board="1"] .clocks')
            expect(clocks).not_to_be_empty()
            wanted = hall.evaluate("(times) => Words.text('hall.card.clocks', times)", shown)
            assert clocks.text_content() == wanted, (white, black, shown)
            assert board.errors == [] and hall.errors == []
        finally:
            board.close()
            hall.close()
    # the rule itself: the time left rounded up (0:00 only when none is left)
    board = _open(browser, "board", _sse((None, _paused(game_view, 0.3, 0.0))))
    try:
        expect(board.locator("#white-clock")).to_have_text("0:01")
        expect(board.locator("#black-clock")).to_have_text("0:00")
    finally:
        board.close()


def test_the_board_page_and_the_halls_board_answer_the_keys_alike(browser, game_view):
    expect = playwright_api().expect
    summary = _summary(game_view, 300, 300)
    board = _open(browser, "board", _sse((None, game_view)))
    hall = _open(browser, "hall", _hall_events(summary), _detail(summary))
    try:
        expect(board.locator("#board .sq.dark")).to_have_count(32)
        hall.locator('.card[data-board="1"] button.open').click()
        expect(hall.locator("#detail-board td[data-square]")).to_have_count(32)
        on_board = board.evaluate(WALK, "#board [data-square]")
        in_hall = hall.evaluate(WALK, "#detail-board [data-square]")
        assert len(on_board) == 32 * len(KEYS)
        differ = {step: (on_board[step], in_hall.get(step)) for step in on_board
                  if on_board[step] != in_hall.get(step)}
        assert differ == {}, "the key leads elsewhere (board page, hall)"
        # the rule: along the row, the focus stops at its end (a1 is the row's first)
        a1 = board.locator('#board [data-name="a1"]').get_attribute("data-square")
        assert on_board[f"{a1} ArrowLeft"] == a1
        # and real key presses agree with the walk, on both pages
        for page, cells in ((board, "#board"), (hall, "#detail-board")):
            page.locator(f'{cells} [data-name="c3"]').focus()
            for key, name in (("ArrowLeft", "a3"), ("ArrowLeft", "a3"), ("ArrowUp", "b4"),
                              ("End", "h4"), ("ArrowRight", "h4"), ("Control+Home", "b8")):
                page.keyboard.press(key)
                expect(page.locator(f'{cells} [data-name="{name}"]')).to_be_focused()
        assert board.errors == [] and hall.errors == []
    finally:
        board.close()
        hall.close()
