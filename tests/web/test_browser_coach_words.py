"""The coach, the puzzles and the opponent in the pseudo-language (``?lang=qps``, every
message wrapped in ⟦…⟧) in a real browser: training with a hint and a blunder warning, a
puzzle, and the opponent's move. No word of those parts shows outside ⟦…⟧ but notation,
numbers and names (tests/web/page_words.py, the board page's own check, over the whole
page in each state); the check is shown to catch a word of English put in."""

from __future__ import annotations

import pytest

from ..browser import browser_page, click, playwright_api
from ..play.test_puzzles import PUZZLES
from .helpers import PlayProcess
from .page_words import stray_in, stray_words

pytestmark = pytest.mark.browser

BLUNDER_FEN = "B:W17,31:B10,4"  # Black to move: d6-c5 loses a piece by force


def assert_words_from_catalog(page, play) -> None:
    """Nothing on the whole page outside the catalog but notation, numbers, names and the
    game's PDN tags (names and values stay as PDN writes them)."""
    tags = play.state()["tags"]
    assert stray_words(page, set(tags) | set(tags.values())) == []


def test_a_hint_and_a_blunder_warning_speak_only_catalog_words(tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data", "--mode", "training", "--fen", BLUNDER_FEN) as play:
        with browser_page(play.url + "/?lang=qps") as page:
            expect(page.locator("#coach-panel")).to_be_visible()
            button = page.locator("#hint-button")
            expect(button).to_contain_text("⟦")
            assert_words_from_catalog(page, play)
            button.click()  # the piece
            expect(page.locator("#coach-note")).to_contain_text(
                "⟦Hint: ⟦move the piece on ")
            assert_words_from_catalog(page, play)
            button.click()  # the move
            expect(page.locator("#coach-note")).to_contain_text("⟦play ")
            assert_words_from_catalog(page, play)
            click(page, 10)  # d6-c5: the blunder
            click(page, 14)
            warning = page.locator("#coach-warning")
            expect(warning).to_be_visible()
            expect(warning).to_contain_text("⟦⟦d6-c5 loses a piece by force: b4:d6, ")
            expect(page.locator("#eval-curve polyline")).to_have_count(1)
            assert_words_from_catalog(page, play)
            # a test that cannot fail is worthless: one word of English put in is found
            page.evaluate("document.querySelector('#coach-warning span').append(' Blunder')")
            tags = play.state()["tags"]
            assert stray_words(page, set(tags) | set(tags.values())) == ["Blunder"]
        assert play.stop() == 0


def test_a_puzzle_speaks_only_catalog_words(tmp_path):
    expect = playwright_api().expect
    puzzles = tmp_path / "puzzles.pdn"
    puzzles.write_text(PUZZLES, encoding="utf-8")
    with PlayProcess(tmp_path / "data", "--mode", "puzzle", "--puzzles", str(puzzles)) as play:
        with browser_page(play.url + "/?lang=qps") as page:
            title = page.locator("#puzzle .puzzle-title")
            expect(title).to_have_text(
                "⟦Puzzle 1 of 2: ⟦White to play and win 2 pieces⟧⟧")
            assert_words_from_catalog(page, play)
            click(page, 19)  # f4-g5, the solution's first move: Black's reply is shown
            click(page, 16)
            expect(page.locator("#puzzle .puzzle-state")).to_have_text(
                "⟦Black replies a5:c3: play it on the board.⟧")
            assert_words_from_catalog(page, play)
            page.locator("#puzzle-solution").click()
            expect(page.locator("#puzzle .puzzle-state")).to_contain_text("⟦Solution: 1. ")
            assert_words_from_catalog(page, play)
            page.locator("#puzzle-next").click()  # puzzle 2: its file gives no title
            expect(title).to_have_text("⟦Puzzle 2 of 2: ⟦White to play and win⟧⟧")
            assert_words_from_catalog(page, play)
        assert play.stop() == 0


def test_the_opponents_move_and_failure_speak_only_catalog_words(tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data", "--mode", "training", "--opponent", "engine:1",
                     "--tag", "White=Trainee") as play:
        with browser_page(play.url + "/?lang=qps") as page:
            expect(page.locator("#coach-panel")).to_be_visible()
            click(page, 22)  # c3-d4: the engine's turn
            click(page, 18)
            page.wait_for_function("() => view && view.opponent && view.opponent.pending")
            assert_words_from_catalog(page, play)
            label, status = page.evaluate(
                "[Words.render(view.opponent.label), Words.render(view.opponent.status)]")
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
            texts = page.evaluate("Words.ready.then(() => [Words.render(view.opponent.error),"
                                  " Words.render(view.opponent.status)])")
            detail = play.state()["opponent"]["error_text"]  # the engine's line, as it is
            assert texts[0] == f"⟦The opponent could not be started: {detail}⟧"
            # (the detail stands inside the message's ⟦…⟧: a parameter, shown as it is)
            assert stray_in(texts, {detail}) == []
        assert play.stop() == 0
