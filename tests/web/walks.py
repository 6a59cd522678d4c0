"""Walks through the board's page, shared by the tests that check each state of it: the
words (every word from the catalog, in the pseudo-language and in Russian) and the
accessibility checks (axe, the grid, the live regions). Each walk reaches the states of a
game a page must say in words and calls ``check(state)`` at each; a test says what to
check. The states: a game (start, a lifted piece, an illegal move flagged, a capture
under way, the legend, the arbiter's panel, its confirmation, a result), a damaged
journal, training with a hint and a warning, a puzzle and the opponent's move."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from ..browser import ARGS, CHROMIUM, click, playwright_api
from ..play.test_puzzles import PUZZLES
from ..recording.journals import change_record, recorded_journal
from .helpers import TOKEN, PlayProcess

# Russian squares: c3=22, d4=18, f6=11, g5=16, a3=21, a5=13, e3=23, f4=19, c5=14
GAME_ARGS = ("--tag", "White=Ann", "--tag", "Black=Bea", "--irregular", "restore")
BLUNDER_FEN = "B:W17,31:B10,4"  # Black to move: d6-c5 loses a piece by force
TRAINING_ARGS = ("--mode", "training", "--fen", BLUNDER_FEN)
OPPONENT_ARGS = ("--mode", "training", "--opponent", "engine:1", "--tag", "White=Trainee")


def launch(p):
    """Debian's chromium, headless, as every browser test starts it."""
    return p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


@contextlib.contextmanager
def chromium():
    """A `launch`ed chromium, closed afterwards."""
    with playwright_api().sync_playwright() as p:
        browser = launch(p)
        try:
            yield browser
        finally:
            browser.close()


def open_in(browser, play: PlayProcess, language: str, prepare=None):
    """A new page of ``browser`` on ``play``'s board page in ``language``, once its first
    view is drawn; ``prepare(page)`` runs before it loads (an init script)."""
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.set_default_timeout(10_000)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    if prepare is not None:
        prepare(page)
    page.goto(f"{play.url}/?lang={language}")
    playwright_api().expect(page.locator("body")).to_have_attribute("data-version",
                                                                   re.compile("."))
    return page


# The page's latest view, as the page drew it: app.js is a module (its names are its
# own), and a module imported again is the same one, so its currentView() is the page's
PAGE_VIEW = "import('/static/app.js').then((page) => page.currentView())"


def square(page, number: int):
    return page.locator(f'#board [data-square="{number}"]')


def click_move(page, *squares: int) -> None:
    for number in squares:
        square(page, number).click()


def arbiter_signs_in(page, expect) -> None:
    """The arbiter's panel opened and the token given."""
    page.locator("#arbiter summary").click()
    page.locator("#token").fill(TOKEN)
    page.locator("#token-form button").click()
    expect(page.locator("#token-status")).not_to_be_empty()


def walk(page, expect, check) -> None:
    """A game (`GAME_ARGS`) from its start to the arbiter's result."""
    expect(page.locator("#status")).not_to_be_empty()
    check("start")
    square(page, 22).click()  # c3 lifted
    expect(square(page, 22)).to_have_class(re.compile("is-lifted"))
    square(page, 22).hover()
    check("lifted")
    square(page, 18).click()  # c3-d4
    expect(page.locator("#moves li")).to_have_count(1)
    click_move(page, 11, 16)  # f6-g5
    expect(page.locator("#moves .move")).to_have_count(2)
    click_move(page, 21, 13)  # a3-a5: illegal
    expect(page.locator("#flags .flag-illegal")).to_have_count(1)
    expect(page.locator("#log li")).to_have_count(1)
    check("illegal")
    click_move(page, 13, 21)  # put back
    expect(page.locator("#flags li")).to_have_count(0)
    click_move(page, 23, 19)  # e3-f4
    expect(page.locator("#moves .move")).to_have_count(3)
    click_move(page, 16, 23)  # g5 takes f4, down on e3 on its way on
    expect(square(page, 23).locator(".piece")).to_have_class(
        re.compile("carried"))
    check("capture")
    page.locator("#legend summary").click()
    check("legend")
    arbiter_signs_in(page, expect)
    check("arbiter")
    page.locator("#result-value").select_option("0-1")
    page.locator("#result-reason").fill("Ann")
    page.locator("#result-form button[type=submit]").click()
    expect(page.locator("#confirm")).to_be_visible()
    check("confirm")
    page.locator("#confirm-ok").click()
    expect(page.locator("#result")).not_to_be_empty()
    check("result")


def damaged(data) -> None:
    """A journal with a flipped byte in its third record, in the middle of the game."""
    _, path = recorded_journal(data, ("c3-d4", "f6-g5", "g3-f4"), {"White": "Ann"})
    change_record(path, 2, b"f6-g5", b"f6-g7")


def damaged_walk(page, expect, check) -> None:
    """A board started on a `damaged` journal: the flag, then the arbiter's repair."""
    expect(page.locator("#flags .flag-error")).to_have_count(1)
    check("damaged")
    arbiter_signs_in(page, expect)
    expect(page.locator("#repair-box")).to_be_visible()
    check("damaged arbiter")


def training_walk(page, expect, check) -> None:
    """Training (`TRAINING_ARGS`): the hint's two stages, then a blunder and its warning."""
    expect(page.locator("#coach-panel")).to_be_visible()
    check("training")
    button = page.locator("#hint-button")
    button.click()  # the piece
    expect(button).to_have_attribute("data-stage", "1")
    check("hint piece")
    button.click()  # the move
    expect(button).to_have_attribute("data-stage", "2")
    check("hint move")
    click(page, 10)  # d6-c5: the blunder
    click(page, 14)
    expect(page.locator("#coach-warning")).to_be_visible()
    check("warning")


def puzzles_file(folder: Path) -> Path:
    """The two puzzles of tests/play/test_puzzles in a file, for ``--puzzles``."""
    path = folder / "puzzles.pdn"
    path.write_text(PUZZLES, encoding="utf-8")
    return path


def puzzle_walk(page, expect, check) -> None:
    """Puzzles (``--mode puzzle --puzzles`` `puzzles_file`): the first one, its first
    move and the reply, its solution, then the second one."""
    title = page.locator("#puzzle .puzzle-title")
    expect(title).not_to_be_empty()
    check("puzzle")
    state = page.locator("#puzzle .puzzle-state")
    before = state.text_content()
    click(page, 19)  # f4-g5, the solution's first move: Black's reply is shown
    click(page, 16)
    expect(state).not_to_have_text(before)
    check("puzzle reply")
    replied = state.text_content()
    page.locator("#puzzle-solution").click()
    expect(state).not_to_have_text(replied)
    check("puzzle solution")
    first = title.text_content()
    page.locator("#puzzle-next").click()
    expect(title).not_to_have_text(first)
    check("puzzle next")


def opponent_walk(page, expect, check) -> None:
    """Training against the engine (`OPPONENT_ARGS`): a move, then the engine's move to
    carry out on the board."""
    expect(page.locator("#coach-panel")).to_be_visible()
    click(page, 22)  # c3-d4: the engine's turn
    click(page, 18)
    page.wait_for_function(f"() => {PAGE_VIEW}.then((view) => "
                           "Boolean(view && view.opponent && view.opponent.pending))")
    check("opponent")
