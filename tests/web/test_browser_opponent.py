"""A whole game against the built-in engine in a real browser (headless Chromium) on the
simulator: the person's moves and the engine's, each carried out by clicking the page's
board as the lights and the steps say; one of the engine's moves is carried out wrongly
once, flagged with what to put right, put right and then carried out as shown.
Screenshots in test-artifacts/."""

from __future__ import annotations

import pytest

from draughtsboard.board.rules import get_variant, parse_fen
from draughtsboard.board.rules.engine import Engine

from ..browser import ARTIFACTS, browser_page, carry_out, click, playwright_api
from .helpers import PlayProcess, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RUSSIAN = get_variant("russian")
MAX_PLIES = 200


@pytest.fixture
def page(tmp_path):
    playwright_api()  # (chromium there, or the test fails or is skipped, before play)
    with PlayProcess(tmp_path / "data", "--mode", "training", "--opponent", "engine:1",
                     "--tag", "White=Trainee") as play:
        with browser_page(play.url + "/") as page:
            page.play = play
            yield page
        assert play.stop() == 0


def recorded(page, plies: int) -> dict:
    return wait_until(lambda: (v := page.play.state()) and (
        len(v["moves"]) > plies or v["result"]) and v, timeout=15,
        what=f"move {plies + 1} to be recorded")


def test_a_whole_game_against_the_engine_with_a_move_carried_out_wrongly_once(page):
    expect = pytest.importorskip("playwright.sync_api").expect
    expect(page.locator("#connection")).to_have_text("live")
    expect(page.locator("#black-name")).to_have_text("draughtsboard engine, level 1")
    engine = Engine(RUSSIAN)
    wrong_once = False
    view = page.play.state()
    while view["result"] is None and len(view["moves"]) < MAX_PLIES:
        plies = len(view["moves"])
        if view["white_to_move"]:  # the trainee's move, found by a deeper search
            position = parse_fen(RUSSIAN, view["fen"])
            move = engine.search(position, depth=4).move
            carry_out(page, move.path, move.captures)
            view = recorded(page, plies)
            continue
        # the engine's move: as the page shows it (its steps, its violet lights)
        flag = page.locator("#flags .flag-opponent")
        expect(flag).to_be_visible()
        pending = page.play.state()["opponent"]["pending"]
        expect(flag).to_contain_text("Move the piece on")
        start = pending["path"][0]
        expect(page.locator(f'#board [data-square="{start}"] .led.on.violet')).to_have_count(1)
        if not wrong_once and not pending["captures"]:
            wrong_once = True
            wrong = next(m for m in parse_fen(RUSSIAN, page.play.state()["fen"]).legal_moves()
                         if m.path != tuple(pending["path"]))
            carry_out(page, wrong.path, wrong.captures)
            illegal = page.locator("#flags .flag-illegal")
            expect(illegal).to_contain_text("Not draughtsboard engine, level 1's move")
            expect(illegal).to_contain_text("back on")
            expect(page.locator("#status")).to_contain_text("put the position back")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "opponent-wrong-move.png"), full_page=True)
            assert len(page.play.state()["moves"]) == plies  # nothing recorded
            # put right: the move back where it came from, the pieces it took back
            click(page, wrong.end)
            click(page, wrong.start)
            for square in wrong.captures:
                click(page, square)
            expect(page.locator("#flags .flag-opponent")).to_be_visible()
            expect(page.locator("#flags .flag-illegal")).to_have_count(0)
        carry_out(page, pending["path"], pending["captures"])
        view = recorded(page, plies)
        assert view["moves"][plies] == pending["notation"]
    assert wrong_once
    expect(page.locator("#result")).not_to_be_empty()
    page.screenshot(path=str(ARTIFACTS / "opponent-game-over.png"), full_page=True)
    view = page.play.state()
    assert view["result"] is not None and len(view["moves"]) > 10
    pdn = page.play.get("/api/game.pdn").decode()
    assert '[Black "draughtsboard engine, level 1"]' in pdn and "illegal attempt" in pdn


def test_an_engine_that_does_not_start_is_one_line_and_the_builtin_plays_on(tmp_path):
    expect = playwright_api().expect
    with PlayProcess(tmp_path / "data", "--mode", "training", "--opponent",
                     "hub:/nonexistent/engine", "--opponent-side", "white") as play:
        with browser_page(play.url + "/") as page:
            page.play = play
            expect(page.locator("#connection")).to_have_text("live")
            box = page.locator("#opponent-box")
            expect(box).to_be_visible()
            # why, by its cause, in the page's words; the engine's own line as it is
            expect(page.locator("#opponent-error")).to_have_text(
                "The opponent could not be started: cannot start the Hub engine "
                "'/nonexistent/engine': No such file or directory")
            expect(page.locator("#status")).to_have_text(
                "White (Hub engine /nonexistent/engine) failed: the built-in engine can "
                "play on")
            # the long line wraps under the board: the board's frame keeps its width
            board = page.locator("#board").bounding_box()
            assert box.bounding_box()["width"] <= board["width"] + 40
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "opponent-failed.png"), full_page=True)
            page.locator("#opponent-continue-level").select_option("3")  # 10 unless chosen
            page.locator("#opponent-continue").click()
            expect(box).to_be_hidden()
            expect(page.locator("#white-name")).to_have_text("draughtsboard engine, level 3")
            # the built-in engine moves first, as White; the person carries it out
            expect(page.locator("#flags .flag-opponent")).to_be_visible()
            pending = play.state()["opponent"]["pending"]
            carry_out(page, pending["path"], pending["captures"])
            assert recorded(page, 0)["moves"] == [pending["notation"]]
        assert play.stop() == 0
    failures = [line for line in play.lines if "cannot start the Hub engine" in line]
    assert len(failures) == 1, play.stderr  # one line in the log
