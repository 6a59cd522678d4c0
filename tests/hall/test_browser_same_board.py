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

from draughtsboard.hall.ingest import BoardLive
from draughtsboard.hall.views import variants_view, with_clock_now
from draughtsboard.hall_link.outbox import clock_status
from draughtsboard.hall_protocol.messages import GameRecord, StateMessage
from draughtsboard.words.routes import catalog_body

from ..browser import playwright_api
from ..web.helpers import move, view_of
from ..web.walks import chromium

pytestmark = pytest.mark.browser

ORIGIN = "http://draughtsboard.test"
PACKAGE = resources.files("draughtsboard")
SITES = {"board": (PACKAGE / "web" / "static", "index.html"),
         "hall": (PACKAGE / "hall" / "static", "hall.html"),
         "projector": (PACKAGE / "hall" / "static", "projector.html")}
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


def _open(browser, site: str, events: str, detail: dict | None = None,
          clock_at: float | None = None):
    """``site``'s page fed ``events``; with ``clock_at``, its clock stands at that wall
    time (seconds) until the test runs it (Playwright's clock: no sleeping)."""
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _serve(page, site, events, detail)
    if clock_at is not None:
        page.clock.install(time=clock_at - 1)
        page.clock.pause_at(clock_at)
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


# the moments (milliseconds after both pages received the game) at which the running
# clock's text is compared: within a second, across whole seconds, past a minute
# ... and as Black's time runs out (297.2 s: the flag falls, marked on every page)
MOMENTS = [0, 250, 400, 750, 1000, 1250, 2600, 61_000, 297_000, 297_250, 300_000]


def _running_summary(view: dict, since: float, received: float, now: float) -> dict:
    """The hall's summary of board 1 as the hall sends it at ``now`` (its own wall
    clock): the board published its clock at ``since`` (the board's clock), the hall
    received it at ``received``. Built by the code the hall runs, from the view."""
    status = clock_status(view["clocks"], since)
    record = StateMessage.from_json(StateMessage(
        GameRecord(view["game_id"], view["variant"], {}, (), 0), clock=status).to_json())
    live = BoardLive(clock=record.clock, clock_received=received,
                     clock_game=view["game_id"])
    return with_clock_now(_summary(view, 300, 300), live, now)


def test_a_running_clock_shows_the_same_text_on_the_board_page_and_in_the_hall(
        browser, game_view):
    """Black thinks; the board published its clock 2.5 s before the hall page loaded
    (the hall ages it by its own clock); both pages count Black down and show the same
    text at every moment the test runs their clocks to."""
    expect = playwright_api().expect
    clocks = game_view["clocks"]
    assert clocks["status"] == "running" and clocks["running"] == "black"
    since = 1_800_000_000.0  # the board's wall clock when Black's time began to go
    view = {**game_view, "clocks": {**clocks, "since": since, "black": 299.7}}
    page_at = 1_700_000_000.0  # the pages' own clocks: neither is the board's nor the hall's
    board = _open(browser, "board", _sse(("now", since + 2.5), (None, view)),
                  clock_at=page_at)
    summary = _running_summary(view, since, received=5_000.0, now=5_002.5)
    assert summary["clock"]["running"] == "black"
    hall = _open(browser, "hall", _hall_events(summary), clock_at=page_at)
    projector = _open(browser, "projector", _hall_events(summary), clock_at=page_at)
    try:
        expect(board.locator("#black-clock")).to_be_visible()
        card = hall.locator('.card[data-board="1"] .clocks')
        expect(card).not_to_be_empty()
        table = projector.locator('.table[data-board="1"] .player.black .time')
        expect(table).to_be_visible()
        seen = []
        elapsed = 0
        for moment in MOMENTS:
            for page in (board, hall, projector):
                page.clock.run_for(moment - elapsed)
            elapsed = moment
            shown = {side: board.locator(f"#{side}-clock").text_content()
                     for side in ("white", "black")}
            wanted = hall.evaluate("(times) => Words.text('hall.card.clocks', times)", shown)
            assert card.text_content() == wanted, (moment, shown)
            assert table.text_content() == shown["black"], (moment, shown)
            seen.append(shown["black"])
        # Black's clock ran: 299.7 - 2.5 s at the start, rounded up, then down
        assert seen[0] == "4:58" and seen[7] == "3:57", seen
        assert seen[-3:] == ["0:01", "⚑ 0:00", "⚑ 0:00"], seen
        assert board.errors == [] and hall.errors == [] and projector.errors == []
    finally:
        board.close()
        hall.close()
        projector.close()
