"""The page in a real browser: headless Chromium (Debian's package) driven by Playwright.

Each test is a person at the page: a player on a laptop and on a phone, a spectator
reading a Lasca column, the clock running out, the arbiter declaring and withdrawing a
result, a board that restarts under an open page. Screenshots are kept in
test-artifacts/ (the user guide's pictures are copies of three of them). Where Chromium
is missing these tests fail as root (scripts/test.sh installs it there) and are skipped
otherwise.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn

from ..browser import ARTIFACTS, playwright_api
from .helpers import TOKEN, XSS, PlayProcess, free_port, wait_until
from .walks import damaged

DESKTOP = {"width": 1100, "height": 800}
PHONE = {"width": 390, "height": 844}
# Kings shuttling (Russian): White king a1 and men e1, g1; Black king h6 and men b8, d8
KINGS = "W:WK29,31,32:BK12,1,2"
SHUTTLE = [(29, 25), (12, 16), (25, 29), (16, 12)]

pytestmark = pytest.mark.browser


def open_page(browser, play: PlayProcess, viewport=DESKTOP):
    """A fresh tab on the board's page, live; window dialogs are recorded (and none is
    expected: the page confirms with its own dialog)."""
    context = browser.new_context(accept_downloads=True, viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.dialogs = []
    page.errors = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(play.url + "/")
    page.play = play
    playwright_api().expect(page.locator("#connection")).to_have_text("live")
    return page


def shot(page, name: str, *, guide: bool = False) -> None:
    """A full-page screenshot in test-artifacts/; with ``guide`` also a light JPEG of
    the page, the picture docs/user-guide.md uses (copied there by hand)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    if guide:
        page.screenshot(path=str(ARTIFACTS / f"guide-{name}.jpg"), type="jpeg", quality=65,
                        full_page=True)


# WCAG 2 contrast of every visible text against the colour behind it (text on a
# gradient, such as a king's crown on its piece, is left out); disabled controls are
# exempt, as WCAG has them.
CONTRAST = """() => {
  const parse = (c) => {
    const m = c && c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const blend = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]))
    .concat([1]);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const behind = (node) => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const style = getComputedStyle(n);
      if (style.backgroundImage !== "none") return null;
      const colour = parse(style.backgroundColor);
      if (colour && colour[3] > 0) { layers.push(colour); if (colour[3] === 1) break; }
    }
    return layers.reverse().reduce((under, top) => blend(top, under), [255, 255, 255, 1]);
  };
  const out = [];
  for (const node of document.querySelectorAll("body *")) {
    const text = [...node.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim())
      .map((n) => n.textContent.trim()).join(" ");
    if (!text || !node.getClientRects().length || node.disabled) continue;
    const style = getComputedStyle(node);
    if (style.visibility === "hidden") continue;
    const back = behind(node);
    if (!back) continue;
    const fore = blend(parse(style.color), back);
    const [a, b] = [lum(fore), lum(back)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (parseInt(style.fontWeight, 10) >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) {
      out.push(node.tagName + "#" + node.id + "." + node.className + " '" + text.slice(0, 30)
        + "': " + ratio.toFixed(2));
    }
  }
  return out;
}"""


def assert_contrast(page) -> None:
    assert page.evaluate(CONTRAST) == []


def square(page, number: int):
    return page.locator(f'#board [data-square="{number}"]')


def click_move(page, start: int, *rest: int) -> None:
    square(page, start).click()
    for number in rest:
        square(page, number).click()


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def hands_move(play: PlayProcess, *actions, plies: int) -> None:
    play.hands(*actions)
    wait_until(lambda: len(play.state()["moves"]) >= plies, what=f"ply {plies}")


def test_play_in_the_browser(browser, tmp_path, expect):
    # (the restore policy: an illegal move waits to be put back; the fmjd policy, the
    # Russian default, is the next test)
    with PlayProcess(tmp_path / "data", "--tag", f"White={XSS}", "--tag", "Black=Bea",
                     "--irregular", "restore") as play:
        page = open_page(browser, play)
        expect(page.locator("#status")).to_have_text("White to move")
        # a player named <script>alert(1)</script> is shown as text, and nothing runs
        expect(page.locator("#white-name")).to_have_text(XSS)
        expect(page.locator("#tags")).to_contain_text(XSS)
        assert page.locator("#board .piece.white").count() == 12
        # coordinates on the edges; each square says what it holds to a screen reader
        expect(page.locator("#files")).to_have_text("abcdefgh")
        expect(page.locator("#ranks")).to_have_text("87654321")
        expect(square(page, 22)).to_have_attribute("aria-label", "c3: white man")

        square(page, 22).click()  # c3 lifted: its square says so
        expect(square(page, 22)).to_have_class(re.compile(r"is-lifted"))
        expect(page.locator("#status")).to_have_text("White is moving")
        square(page, 18).click()
        expect(page.locator("#moves")).to_contain_text("c3-d4")
        expect(square(page, 18)).to_have_class(re.compile(r"\blm\b"))  # the last move
        expect(square(page, 22)).to_have_class(re.compile(r"\blm\b"))
        click_move(page, 11, 16)  # f6-g5
        expect(page.locator("#moves li")).to_have_text(["c3-d4f6-g5"])

        # an illegal move: a3 to a5. The square is drawn illegal (not restore, although
        # it is both), the piece keeps its colour, one sentence says what to do
        click_move(page, 21, 13)
        expect(page.locator("#flags")).to_contain_text("Illegal move")
        expect(page.locator("#flags")).to_contain_text("Put the piece on a5 back on a3")
        expect(square(page, 13)).to_have_class(re.compile(r"intent-illegal"))
        expect(square(page, 13)).to_have_class(re.compile(r"intent-restore"))
        fill = square(page, 13).evaluate("cell => getComputedStyle(cell).backgroundColor")
        assert fill == "rgb(198, 40, 40)"  # the illegal red, not the restore orange
        expect(square(page, 13).locator(".piece")).to_have_class(re.compile(r"white"))
        led = square(page, 13).locator(".led")
        expect(led).to_have_class(re.compile(r"fast_blink red"))
        assert led.bounding_box()["width"] >= 14  # an LED one can see
        expect(page.locator("#log")).to_contain_text("illegal move a3-a5")
        shot(page, "play-web-illegal", guide=True)
        page.locator("#labels").select_option("both")  # numbers on the coloured squares too
        page.locator("#legend summary").click()
        assert_contrast(page)
        # an open legend wraps under the board: nothing leaves the screen sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
        page.locator("#labels").select_option("coords")
        click_move(page, 13, 21)  # put it back
        expect(page.locator("#flags")).to_be_empty()
        expect(page.locator("#status")).to_have_text("White to move")

        square(page, 23).drag_to(square(page, 19))  # e3-f4, by dragging
        expect(page.locator("#moves")).to_contain_text("e3-f4")
        # Black must capture twice: g5 takes f4 to e3, then d4 to c5, shown landing by
        # landing; half-way the capturing piece keeps its colour on the page
        click_move(page, 16, 23)
        expect(square(page, 23).locator(".piece")).to_have_class(re.compile(r"black carried"))
        shot(page, "play-web-capture")
        click_move(page, 23, 14, 19, 18)
        expect(page.locator("#moves")).to_contain_text("g5:c5")
        for number in (16, 14):
            expect(square(page, number)).to_have_class(re.compile(r"\blm\b"))
        for number in (19, 18):
            expect(square(page, number)).to_have_class(re.compile(r"lm-taken"))

        # the keyboard: g3 to h4 with the arrow keys and Enter
        square(page, 24).focus()
        page.keyboard.press("Enter")
        expect(square(page, 24)).to_have_class(re.compile(r"is-lifted"))
        page.keyboard.press("ArrowUp")
        expect(square(page, 20)).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#moves")).to_contain_text("g3-h4")
        shot(page, "play-web")

        with page.expect_download() as info:
            page.locator("#download").click()
        pdn = Path(info.value.path()).read_text(encoding="utf-8")
        read = read_pdn(pdn)
        assert not read.errors and len(read.games) == 1
        game = read.games[0].game
        assert [m.text for m in game.moves] == ["c3-d4", "f6-g5", "e3-f4", "g5:c5", "g3-h4"]
        assert game.tags["White"] == XSS and '[Black "Bea"]' in pdn
        assert "illegal move a3-a5" in pdn  # kept for the arbiter, not as a move
        assert page.dialogs == [] and page.errors == []
        assert play.stop() == 0


def test_an_irregular_move_the_opponent_lets_stand(browser, tmp_path, expect):
    with PlayProcess(tmp_path / "data") as play:  # Russian: the fmjd policy
        page = open_page(browser, play)
        click_move(page, 22, 18)  # c3-d4
        click_move(page, 11, 16)  # f6-g5
        click_move(page, 21, 13)  # a3-a5: no man moves so
        expect(page.locator("#status")).to_have_text("Irregular move: the opponent decides")
        flags = page.locator("#flags")
        expect(flags).to_contain_text("play on and it stands, or have it put back")
        expect(flags).to_contain_text("Put the piece on a5 back on a3")
        shot(page, "irregular-move")
        click_move(page, 10, 15)  # Black plays on from it: d6-e5
        expect(page.locator("#moves")).to_contain_text("(irregular)")
        expect(flags).to_be_empty()
        assert page.errors == []


def test_the_page_on_a_phone(browser, tmp_path, expect):
    with PlayProcess(tmp_path / "data", "--tag", "White=Anna Karenina-Oblonskaya",
                     "--tag", "Black=Bea", "--tag", "TimeControl=900+10") as play:
        page = open_page(browser, play, PHONE)
        header = box(page, "#top")
        assert header["height"] <= 48  # one line, whatever the game id
        cell = box(page, '#board [data-square="1"]')
        assert cell["width"] >= 44 and cell["height"] >= 44  # a finger's target
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # the move list comes before the arbiter's section, right under the board
        assert box(page, "#moves-panel")["y"] < box(page, "#arbiter-panel")["y"]
        assert box(page, "#moves-panel")["y"] < PHONE["height"]
        click_move(page, 22, 18)
        expect(page.locator("#moves")).to_contain_text("c3-d4")
        click_move(page, 11, 16)
        expect(page.locator("#moves")).to_contain_text("f6-g5")
        square(page, 23).click()  # White lifts e3 ...
        square(page, 14).click()  # ... and puts it on c5: illegal
        expect(page.locator("#flags")).to_contain_text("Put the piece on c5 back on e3")
        shot(page, "phone", guide=True)
        assert_contrast(page)
        click_move(page, 14, 23)
        expect(page.locator("#flags")).to_be_empty()
        page.set_viewport_size({"width": 360, "height": 740})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert box(page, '#board [data-square="1"]')["width"] >= 40
        assert page.errors == []


def test_international_numbers_and_a_projector(browser, tmp_path, expect):
    with PlayProcess(tmp_path / "data", "--variant", "international") as play:
        page = open_page(browser, play, {"width": 1920, "height": 1080})
        # 10x10 is written with numbers: they are on the squares, switchable to a-j/1-10
        expect(page.locator("#labels")).to_have_value("numbers")
        expect(square(page, 32).locator(".num")).to_be_visible()
        expect(square(page, 32)).to_have_attribute("aria-label", "32: white man")
        assert box(page, '#board [data-square="1"]')["width"] >= 80  # the board fills the hall
        page.locator("#labels").select_option("coords")
        expect(square(page, 32).locator(".num")).to_be_hidden()
        expect(page.locator("#files")).to_have_text("abcdefghij")
        page.locator("#labels").select_option("both")
        expect(square(page, 32).locator(".num")).to_be_visible()
        click_move(page, 32, 28)
        expect(page.locator("#moves")).to_contain_text("32-28")
        shot(page, "international-projector")
        page.reload()  # the choice is remembered
        expect(page.locator("#labels")).to_have_value("both")


def test_a_lasca_column_can_be_read(browser, tmp_path, expect):
    with PlayProcess(tmp_path / "data", "--variant", "lasca") as play:
        hands_move(play, ["lift", 9], ["place", 13], plies=1)  # c3-d4
        hands_move(play, ["lift", 17], ["place", 9], ["lift", 13], plies=2)  # e5xc3
        hands_move(play, ["lift", 5], ["place", 13], ["lift", 9], ["place", 9],
                   plies=3)  # b2xd4: d4 holds white on black, c3 white under
        page = open_page(browser, play)
        d4 = square(page, 13)
        expect(d4.locator(".height")).to_have_text("2")
        expect(d4.locator(".piece.rim.black")).to_have_count(1)  # the black one under it
        d4.hover()
        column = "d4: a column of 2 (top first: white and black)"
        expect(page.locator("#inspect")).to_have_text(column)
        expect(d4).to_have_attribute("aria-label", column)
        expect(d4).to_have_attribute("title", column)
        # on the simulator a press held half a second reads a square without touching it
        c3 = square(page, 9)
        c3.dispatch_event("pointerdown")
        page.wait_for_timeout(600)  # the hold is the input here, not a synchronisation
        c3.dispatch_event("pointerup")
        expect(page.locator("#inspect")).to_have_text("c3: white man")
        assert play.state()["moves"] == ["c3-d4", "e5xc3", "b2xd4"]
        assert 9 in play.state()["occupied"]
        shot(page, "lasca-columns")


def test_an_officer_under_a_man_is_drawn_apart_and_called_an_officer(browser, tmp_path,
                                                                       expect):
    # c3: a white man on a black man on a black officer; e5: a white officer alone
    with PlayProcess(tmp_path / "data", "--variant", "lasca",
                     "--fen", "W:a1=w,c3=wbB,e5=W,g7=b") as play:
        page = open_page(browser, play)
        c3 = square(page, 9)
        expect(c3.locator(".height")).to_have_text("3")
        officer = c3.locator(".piece.rim.king")
        man = c3.locator(".piece.rim:not(.king)")
        expect(officer).to_have_count(1)
        expect(man).to_have_count(1)
        rim = "e => [getComputedStyle(e).borderTopColor, getComputedStyle(e).borderTopWidth]"
        assert officer.evaluate(rim) != man.evaluate(rim)  # a gold, thicker rim
        c3.hover()
        expect(page.locator("#inspect")).to_have_text(
            "c3: a column of 3 (top first: white, black, and black officer)")
        square(page, 17).hover()
        expect(page.locator("#inspect")).to_have_text("e5: white officer")
        shot(page, "lasca-officer")


def test_the_clock_runs_for_the_side_to_move_and_a_flag_falls(browser, tmp_path, expect):
    with PlayProcess(tmp_path / "data", "--tag", "TimeControl=3") as play:
        page = open_page(browser, play)
        expect(page.locator("#white-clock")).to_have_text("0:03")
        expect(page.locator("#white-player")).to_have_class(re.compile(r"clock-waiting"))
        page.wait_for_timeout(500)  # set-up time: nobody's clock goes
        expect(page.locator("#white-clock")).to_have_text("0:03")
        click_move(page, 22, 18)
        expect(page.locator("#black-player")).to_have_class(re.compile(r"(^|\s)running(\s|$)"))
        expect(page.locator("#white-player")).not_to_have_class(re.compile(r"(^|\s)running(\s|$)"))
        # Black thinks for three seconds: the flag falls, and is recorded
        expect(page.locator("#black-player")).to_have_class(re.compile(r"flagged"))
        expect(page.locator("#flags")).to_contain_text("Black's flag fell")
        expect(page.locator("#log")).to_contain_text("Black's flag fell")
        expect(page.locator("#black-clock")).to_have_text("⚑ 0:00")
        shot(page, "clock-flag")
        assert_contrast(page)
        assert play.state()["result"] is None  # the arbiter rules, not the board
        assert "flag fall" in play.get("/api/game.pdn").decode()


def test_the_arbiter_declares_confirms_and_withdraws(browser, tmp_path, expect):
    with PlayProcess(tmp_path / "data", "--fen", KINGS, "--tag", "White=Ann",
                     "--tag", "Black=Bob", "--tag", "Event=Club") as play:
        page = open_page(browser, play)
        dialog = page.locator("#confirm")
        # no token: the page says so before asking anything
        page.locator("#arbiter summary").click()
        page.locator("#new-game").click()
        expect(page.locator("#message")).to_contain_text("Enter the arbiter token first")
        expect(dialog).to_be_hidden()
        # no result chosen: nothing is declared, the page says why
        page.locator("#result-form button").click()
        expect(page.locator("#message")).to_have_text("Choose the result first.")
        page.locator("#token").fill("not-the-token")
        page.locator("#token-form button").click()
        expect(page.locator("#token-status")).to_have_text("refused: enter the current token")
        page.locator("#token").fill(TOKEN)
        page.locator("#token-form button").click()
        expect(page.locator("#token-status")).to_have_text("accepted")

        # a threefold repetition: offered to the arbiter, not written as the result
        for plies, (start, end) in enumerate(SHUTTLE * 2, 1):
            hands_move(play, ["lift", start], ["place", end], plies=plies)
        expect(page.locator("#flags")).to_contain_text("Draw by the rules")
        expect(page.locator("#draw-offer")).to_be_visible()
        assert play.state()["result"] is None
        assert '[Result "*"]' in play.get("/api/game.pdn").decode()
        shot(page, "arbiter-draw", guide=True)
        assert_contrast(page)
        page.locator("#accept-draw").click()
        expect(dialog).to_be_visible()
        expect(page.locator("#confirm-title")).to_have_text("Declare the draw 1/2-1/2?")
        page.locator("#confirm-ok").click()
        expect(page.locator("#status")).to_contain_text("Game over: 1/2-1/2")

        # withdrawn: cancelled once, then confirmed
        page.locator("#withdraw").click()
        page.locator("#confirm button[value=cancel]").click()
        expect(page.locator("#result")).to_contain_text("1/2-1/2")
        page.locator("#withdraw").click()
        page.locator("#confirm-ok").click()
        expect(page.locator("#result")).to_be_empty()
        expect(page.locator("#withdraw-box")).to_be_hidden()

        # a declared result: no default, a confirmation that names it
        page.locator("#result-value").select_option("0-1")
        page.locator("#result-reason").fill("resigned")
        page.locator("#result-form button").click()
        expect(page.locator("#confirm-title")).to_have_text("Declare 0-1 (Black wins)?")
        shot(page, "arbiter-confirm")
        page.locator("#confirm-ok").click()
        expect(page.locator("#status")).to_have_text("Game over: 0-1 (resigned)")

        # a new game: its players are asked for, the old ones are not carried over
        old = play.state()["game_id"]
        page.locator("#new-game").click()
        page.locator("#new-white").fill("Dan")
        page.locator("#new-white").press("Enter")  # Enter in a field means OK
        expect(page.locator("#white-name")).to_have_text("Dan")
        expect(page.locator("#black-name")).to_have_text("Black")
        state = play.state()
        assert state["game_id"] != old and state["tags"]["Event"] == "Club"
        assert "Black" not in state["tags"]
        assert page.dialogs == [] and page.errors == []


def test_a_restarted_board_clears_stale_errors_and_says_what_it_refused(browser, tmp_path,
                                                                       expect):
    data = tmp_path / "data"
    port = free_port()
    first = PlayProcess(data, "--tag", "White=Ann", port=port, token_file=True)
    with first:
        token = (data / "arbiter-token").read_text().strip()
        page = open_page(browser, first)
        page.locator("#arbiter summary").click()
        page.locator("#token").fill(token)
        page.locator("#token-form button").click()
        expect(page.locator("#token-status")).to_have_text("accepted")
        hands_move(first, ["lift", 22], ["place", 18], plies=1)
        assert first.stop(signal.SIGTERM) == 0
    expect(page.locator("#connection")).to_have_text("reconnecting…")
    click_move(page, 11, 16)  # nobody answers
    expect(page.locator("#message")).to_contain_text("the board did not answer")
    with PlayProcess(data, "--mode", "training", "--tag", "White=Carl", port=port,
                     token_file=True) as second:
        expect(page.locator("#connection")).to_have_text("live", timeout=20_000)
        expect(page.locator("#message")).to_be_empty()  # the stale error is gone
        notices = page.locator("#notices")
        expect(notices).to_be_visible()
        expect(notices).to_contain_text("--mode training not applied")
        expect(notices).to_contain_text("--tag White=Carl not applied")
        expect(page.locator("#token-status")).to_have_text("accepted")  # same token
        expect(page.locator("#moves")).to_contain_text("c3-d4")
        shot(page, "resume-notice")
        notices.locator("button").click()
        expect(notices).to_be_hidden()
        # the token rotated while the page is open: the page no longer claims it works
        subprocess.run([sys.executable, "-m", "draughtsboard", "token", "--rotate",
                        "--data", str(data)], check=True, capture_output=True)
        page.locator("#acknowledge").click()
        expect(page.locator("#token-status")).to_have_text("refused: enter the current token")
        old_game = second.state()["game_id"]
        assert second.stop() == 0
    # --new: a new game, and the unfinished one is closed with a note, not left behind
    with PlayProcess(data, "--new", port=port, token_file=True) as third:
        expect(page.locator("#game-id")).to_have_text("game 2", timeout=20_000)
        expect(page.locator("#moves")).to_be_empty()
        expect(page.locator("#notices")).to_be_hidden()
        assert third.stop() == 0
    listing = subprocess.run([sys.executable, "-m", "draughtsboard", "games", "--data",
                              str(data)], check=True, capture_output=True, text=True).stdout
    assert re.search(rf"{old_game}\s+russian\s+finished", listing), listing
    exported = subprocess.run([sys.executable, "-m", "draughtsboard", "export", "--data",
                               str(data), "--game", old_game],
                              check=True, capture_output=True, text=True).stdout
    assert "unfinished: a new game was started with --new" in exported


def test_a_damaged_journal_is_shown_and_the_arbiter_resumes_it(browser, tmp_path, expect):
    data = tmp_path / "data"
    damaged(data)
    with PlayProcess(data) as play:
        page = open_page(browser, play)
        flags = page.locator("#flags")
        expect(flags).to_contain_text("The game's journal is damaged")
        expect(flags).to_contain_text("record 3")
        page.locator("#arbiter summary").click()
        page.locator("#token").fill(TOKEN)
        page.locator("#token-form button").click()
        expect(page.locator("#repair-box")).to_be_visible()
        shot(page, "damaged-journal")
        page.locator("#repair").click()
        page.locator("#confirm-ok").click()
        expect(flags).not_to_contain_text("damaged")
        expect(page.locator("#moves")).to_contain_text("c3-d4")
        expect(page.locator("#moves")).not_to_contain_text("f6-g5")
        assert list(data.glob("games/*.damaged-*")), "a copy of the damaged file is kept"
