"""Puzzle mode in a real browser (headless Chromium) on the simulator, as a trainee
meets it: the header says puzzle, the first puzzle solved by clicking the board, the
"Solved" moment (every piece lit white), then the next puzzle, its solution shown,
skipped, all done. Screenshots in test-artifacts/."""

from __future__ import annotations

import pytest

from draughtsboard.board.rules import get_variant, parse_fen
from draughtsboard.board.rules.notation import format_move

from ..browser import ARTIFACTS, browser_page, carry_out, playwright_api
from ..play.test_puzzles import PUZZLES
from .helpers import PlayProcess, wait_until

pytestmark = pytest.mark.browser

RUSSIAN = get_variant("russian")


def play_move(page, text: str) -> None:
    """The move written ``text`` in the page's position, carried out by clicks, and
    waited for until recorded."""
    view = page.play.state()
    position = parse_fen(RUSSIAN, view["fen"])
    move = next(m for m in position.legal_moves() if format_move(position, m) == text)
    carry_out(page, move.path, move.captures)
    wait_until(lambda: len(page.play.state()["moves"]) > len(view["moves"]),
               what=f"{text} to be recorded")


def test_a_puzzle_solved_its_moment_then_a_solution_shown_and_skipped(tmp_path):
    expect = playwright_api().expect
    puzzles = tmp_path / "puzzles.pdn"
    puzzles.write_text(PUZZLES, encoding="utf-8")
    with PlayProcess(tmp_path / "data", "--mode", "puzzle", "--puzzles", str(puzzles)) as play:
        with browser_page(play.url + "/") as page:
            page.play = play
            expect(page.locator("#connection")).to_have_text("live")
            expect(page.locator("#summary")).to_contain_text("puzzle")
            panel = page.locator("#coach-panel")
            expect(panel.locator(".puzzle-title")).to_have_text(
                "Puzzle 1 of 2: White to play and win 2 pieces")
            expect(page.locator("#puzzle-solution")).to_be_enabled()
            for text in ("f4-g5", "a5:c3", "g5:a7"):
                play_move(page, text)
            # the Solved moment (3 s): said on the page, every piece lit white on the board
            expect(panel.locator(".puzzle-state")).to_contain_text("✔ Solved: puzzle 1")
            pieces = len(play.state()["occupied"])
            expect(page.locator("#board .led.white")).to_have_count(pieces)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "puzzle-solved.png"), full_page=True)
            # then the next puzzle by itself (Next at once is tests/play/test_puzzles.py)
            expect(panel.locator(".puzzle-title")).to_contain_text("Puzzle 2 of 2")
            expect(page.locator("#puzzle-next")).to_have_text("Skip")
            page.locator("#puzzle-solution").click()
            expect(panel.locator(".puzzle-state")).to_have_text("Solution: 1. c3:e5.")
            page.locator("#puzzle-next").click()  # skipped
            expect(panel.locator(".puzzle-state")).to_have_text(
                "All 2 puzzles done (1 solved).")
            expect(page.locator("#puzzle-next")).to_be_disabled()
            expect(page.locator("#puzzle-retry")).to_be_disabled()
        assert play.stop() == 0
    assert "puzzle 2 of 2" in play.stderr  # the log says puzzle too
