"""The coach, the puzzles and the opponent in the pseudo-language (``?lang=qps``, every
message wrapped in ⟦…⟧) in a real browser: training with a hint and a blunder warning, a
puzzle, and the opponent's move (the walks of tests/web/walks.py). No word of those parts
shows outside ⟦…⟧ but notation, numbers and names (tests/web/page_words.py, the board
page's own check, over the whole page in each state); the check is shown to catch a word
of English put in."""

from __future__ import annotations

import pytest

from ..browser import browser_page, playwright_api
from .helpers import PlayProcess
from .page_words import stray_in, stray_words
from .walks import (
    OPPONENT_ARGS,
    PAGE_VIEW,
    TRAINING_ARGS,
    opponent_walk,
    puzzle_walk,
    puzzles_file,
    training_walk,
)

pytestmark = pytest.mark.browser


def assert_words_from_catalog(page, play) -> None:
    """Nothing on the whole page outside the catalog but notation, numbers, names and the
    game's PDN tags (names and values stay as PDN writes them)."""
    tags = play.state()["tags"]
    assert stray_words(page, set(tags) | set(tags.values())) == []


def checker(page, play, said: dict[str, dict[str, str]]):
    """``check(state)`` for a walk: the state's texts as ``said`` expects them (a
    selector's text contains it), then no word outside the catalog."""
    expect = playwright_api().expect

    def check(state: str) -> None:
        for selector, text in said.get(state, {}).items():
            expect(page.locator(selector)).to_contain_text(text)
        assert_words_from_catalog(page, play)

    return check


def test_a_hint_and_a_blunder_warning_speak_only_catalog_words(tmp_path):
    expect = playwright_api().expect
    said = {"training": {"#hint-button": "⟦"},
            "hint piece": {"#coach-note": "⟦Hint: ⟦move the piece on "},
            "hint move": {"#coach-note": "⟦play "},
            "warning": {"#coach-warning": "⟦⟦d6-c5 loses a piece by force: b4:d6, "}}
    with PlayProcess(tmp_path / "data", *TRAINING_ARGS) as play:
        with browser_page(play.url + "/?lang=qps") as page:
            training_walk(page, expect, checker(page, play, said))
            expect(page.locator("#eval-curve polyline")).to_have_count(1)
            # a test that cannot fail is worthless: one word of English put in is found
            page.evaluate("document.querySelector('#coach-warning span').append(' Blunder')")
            tags = play.state()["tags"]
            assert stray_words(page, set(tags) | set(tags.values())) == ["Blunder"]
        assert play.stop() == 0


def test_a_puzzle_speaks_only_catalog_words(tmp_path):
    expect = playwright_api().expect
    title = "#puzzle .puzzle-title"
    state = "#puzzle .puzzle-state"
    said = {"puzzle": {title: "⟦Puzzle 1 of 2: ⟦White to play and win 2 pieces⟧⟧"},
            "puzzle reply": {state: "⟦Black replies a5:c3: play it on the board.⟧"},
            "puzzle solution": {state: "⟦Solution: 1. "},
            "puzzle next": {title: "⟦Puzzle 2 of 2: ⟦White to play and win⟧⟧"}}
    with PlayProcess(tmp_path / "data", "--mode", "puzzle",
                     "--puzzles", str(puzzles_file(tmp_path))) as play:
        with browser_page(play.url + "/?lang=qps") as page:
            puzzle_walk(page, expect, checker(page, play, said))
            expect(page.locator(title)).to_have_text(said["puzzle next"][title])
        assert play.stop() == 0


def test_the_opponents_move_and_failure_speak_only_catalog_words(tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data", *OPPONENT_ARGS) as play:
        with browser_page(play.url + "/?lang=qps") as page:
            opponent_walk(page, expect, checker(page, play, {}))
            label, status = page.evaluate(
                f"{PAGE_VIEW}.then((view) => [Words.render(view.opponent.label),"
                " Words.render(view.opponent.status)])")
            notation = play.state()["opponent"]["pending"]["notation"]
            assert status == (f"⟦⟦draughtsboard engine, level 1⟧ plays {notation}: carry "
                              "out its move on the board.⟧")
            assert stray_in([label, status]) == []
        assert play.stop() == 0
    with PlayProcess(tmp_path / "data2", "--mode", "training", "--opponent",
                     "hub:/nonexistent/engine", "--opponent-side", "white") as play:
        with browser_page(play.url + "/?lang=qps") as page:
            expect(page.locator("#opponent-box")).to_be_visible()
            page.wait_for_function("() => typeof Words !== 'undefined'")
            texts = page.evaluate(f"Words.ready.then(() => {PAGE_VIEW})"
                                  ".then((view) => [Words.render(view.opponent.error),"
                                  " Words.render(view.opponent.status)])")
            detail = play.state()["opponent"]["error_text"]  # the engine's line, as it is
            assert texts[0] == f"⟦The opponent could not be started: {detail}⟧"
            # (the detail stands inside the message's ⟦…⟧: a parameter, shown as it is)
            assert stray_in(texts, {detail}) == []
        assert play.stop() == 0
