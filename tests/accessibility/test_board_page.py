"""The board's page without sight and without a mouse, in real Chromium.

- axe-core finds no serious or critical violation in any state of the walks through the
  page (tests/web/walks.py: a game from its start to the arbiter's result, a damaged
  journal, training with a hint and a warning, a puzzle, the opponent's move), in English
  and in Russian.
- What axe cannot judge is asserted directly: the board is a grid of its dark squares,
  each named by its square (as the game writes it), what stands on it, its LED and its
  marks in words; the live regions receive each new move, flag and the opponent's move
  once; the focus stays on the square it was on while the board redraws.

The keyboard-only game is in test_keyboard_game.py, the page's own speech in
test_page_speech.py."""

from __future__ import annotations

import re

import pytest

from ..web.helpers import PlayProcess
from ..web.walks import (
    GAME_ARGS,
    OPPONENT_ARGS,
    TRAINING_ARGS,
    damaged,
    damaged_walk,
    open_in,
    opponent_walk,
    puzzle_walk,
    puzzles_file,
    square,
    training_walk,
    walk,
)
from .axe import serious_violations

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("language", ["en", "ru"])
def test_axe_finds_nothing_serious_in_any_state_of_the_walk(browser, expect, tmp_path,
                                                            language):
    found: dict[str, list[str]] = {}

    def checker(page):
        def check(state):
            found[state] = serious_violations(page)
        return check

    damaged(tmp_path / "damaged")
    puzzles = puzzles_file(tmp_path)
    walks = [(walk, GAME_ARGS, "game"), (damaged_walk, (), "damaged"),
             (training_walk, TRAINING_ARGS, "training"),
             (puzzle_walk, ("--mode", "puzzle", "--puzzles", str(puzzles)), "puzzle"),
             (opponent_walk, OPPONENT_ARGS, "opponent")]
    for steps, args, folder in walks:
        with PlayProcess(tmp_path / folder, *args) as play:
            page = open_in(browser, play, language)
            steps(page, expect, checker(page))
            assert page.errors == []
            page.context.close()
    assert set(found) >= {"start", "lifted", "illegal", "capture", "arbiter", "confirm",
                          "result", "damaged", "damaged arbiter", "hint move", "warning",
                          "puzzle", "opponent"}
    assert {state: lines for state, lines in found.items() if lines} == {}


def said(page) -> list[str]:
    """The sentences of the polite live region (the log), oldest first."""
    return page.locator("#said p").all_text_contents()


def test_the_grid_names_its_squares_and_keeps_the_focus(browser, expect, tmp_path):
    with PlayProcess(tmp_path / "data", *GAME_ARGS) as play:
        page = open_in(browser, play, "en")
        grid = page.get_by_role("grid", name="board")
        expect(grid.get_by_role("row")).to_have_count(8)
        # the dark squares only: the light ones are drawn, hidden from screen readers
        expect(grid.get_by_role("gridcell")).to_have_count(32)
        expect(page.locator('#board .sq.light:not([aria-hidden="true"])')).to_have_count(0)
        expect(page.locator("#board .row").first.get_by_role("gridcell")).to_have_count(4)
        expect(grid.get_by_role("gridcell", name="c3: white man", exact=True)).to_have_count(1)
        expect(grid.get_by_role("gridcell", name="d4: empty", exact=True)).to_have_count(1)
        expect(grid).to_have_accessible_description(re.compile("^Arrow keys move between"))
        expect(page.locator('#board [tabindex="0"]')).to_have_count(1)  # one tab stop

        # Enter lifts, an arrow key moves on, Enter puts down; the board redraws each time
        # and the cell with the focus stays the same element, its name changed in place
        c3 = square(page, 22)
        c3.focus()
        page.evaluate("document.activeElement.kept = 'c3'")
        page.keyboard.press("Enter")
        expect(c3).to_have_attribute("aria-label", "c3: white man, lifted")
        assert page.evaluate("document.activeElement.kept") == "c3"
        page.keyboard.press("ArrowUp")
        expect(square(page, 18)).to_be_focused()
        page.evaluate("document.activeElement.kept = 'd4'")
        page.keyboard.press("Enter")
        expect(square(page, 18)).to_have_attribute("aria-label", "d4: white man")
        expect(c3).to_have_attribute("aria-label", "c3: empty")
        assert page.evaluate("document.activeElement.kept") == "d4"
        expect(page.locator('#board [tabindex="0"]')).to_have_count(1)

        # the marks in words as well as in colour and sign
        play.hands(("lift", 11), ("place", 16))  # f6-g5
        expect(page.locator("#moves .move")).to_have_count(2)
        play.hands(("lift", 21), ("place", 13))  # a3-a5: illegal
        expect(square(page, 13)).to_have_attribute(
            "aria-label", "a5: white man put down here; LED red blinking fast; illegal: a "
            "piece that must go back; a square that must be put right")
        expect(square(page, 21)).to_have_attribute(
            "aria-label", "a3: white man, lifted; LED orange lit; a square that must be put "
            "right")
        sign = square(page, 13).evaluate(
            "cell => getComputedStyle(cell, '::before').content")
        assert sign == '"✕"'
        assert page.evaluate("document.activeElement.kept") == "d4"  # not moved by others
        assert page.errors == []


def test_the_live_regions_say_each_thing_once(browser, expect, tmp_path):
    with PlayProcess(tmp_path / "data", *GAME_ARGS) as play:
        page = open_in(browser, play, "en")
        expect(page.locator("#said")).to_have_attribute("aria-live", "polite")
        expect(page.locator("#said-alert")).to_have_attribute("role", "alert")
        assert said(page) == []  # what stood when the page came is not news
        play.hands(("lift", 22), ("place", 18))
        expect(page.locator("#said p")).to_have_count(1)
        play.hands(("lift", 11), ("place", 16))
        expect(page.locator("#said p")).to_have_count(2)
        assert said(page) == ["c3 to d4.", "f6 to g5."]
        play.hands(("lift", 21), ("place", 13))  # illegal: it interrupts
        alert = page.locator("#said-alert")
        expect(alert).to_have_text("Illegal move. Put right squares a5 and a3.")
        play.hands(("lift", 13), ("place", 21))  # put right: the alert is not left behind
        expect(alert).to_have_text("")
        play.hands(("lift", 23), ("place", 19))  # e3-f4
        expect(page.locator("#said p")).to_have_count(3)
        play.hands(("lift", 10))  # d6 lifted: g5 must capture
        expect(page.locator("#said p")).to_have_count(4)
        expect(square(page, 16)).to_have_attribute("aria-label", re.compile(
            "^g5: black man; LED yellow blinking slowly; a piece that must capture$"))
        play.hands(("place", 10))
        # many redraws on the way, each thing said once
        assert said(page) == ["c3 to d4.", "f6 to g5.", "e3 to f4.",
                              "Capture is required: g5."]
        version = page.locator("body").get_attribute("data-version")
        play.hands(("lift", 31), ("place", 31))  # a redraw with nothing new to say
        expect(page.locator("body")).not_to_have_attribute("data-version", version)
        assert len(said(page)) == 4 and alert.text_content() == ""
        # read whole, the log keeps its sentences apart
        assert " ".join(page.locator("#said").text_content().split()) == \
            "c3 to d4. f6 to g5. e3 to f4. Capture is required: g5."
        play.hands(("place", 17))  # a piece put down where none stands: it interrupts too
        expect(alert).to_have_text("Put right square b4.")
        play.hands(("lift", 17))  # put right: cleared
        expect(alert).to_have_text("")
        assert len(said(page)) == 4
        assert page.errors == []


def test_the_opponents_move_interrupts_once(browser, expect, tmp_path):
    with PlayProcess(tmp_path / "data", *OPPONENT_ARGS) as play:
        page = open_in(browser, play, "en")
        play.hands(("lift", 22), ("place", 18))
        alert = page.locator("#said-alert")
        expect(alert).to_contain_text("Opponent's move")
        start, end = play.state()["opponent"]["pending"]["notation"].split("-")
        expect(alert).to_have_text(f"Opponent's move: {start} to {end}. Carry it out on the "
                                   "board.")
        names = {cell["square"]: cell["name"] for cell in page.evaluate(
            "[...document.querySelectorAll('#board .sq.dark')].map(c => "
            "({square: c.dataset.square, name: c.getAttribute('aria-label')}))")}
        assert any(name.startswith(start + ":") and "the opponent's move to carry out"
                   in name for name in names.values())
        number = {v[3]: v[0] for v in play.state()["squares"]}
        play.hands(("lift", number[start]), ("place", number[end]))  # carried out
        expect(alert).to_have_text("")
        expect(page.locator("#said p").nth(1)).to_have_text(f"{start} to {end}.")
        # (training shows a capture the reply allows: the engine's choice, said after it)
        assert said(page)[:2] == ["c3 to d4.", f"{start} to {end}."]
        assert all(s.startswith("Capture is required: ") for s in said(page)[2:]), said(page)
        assert page.errors == []
