"""The coach on a live simulated board, where threads are the point: the hint button of
the board config (a gpiozero pin, the session's queue, the analyst thread) and the
coach's HTTP requests. Searches have node budgets, so each answer is the same on every
run; the tests wait for it to reach the page's view. (The coach's rules: tests/play, in
virtual time.)"""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from draughtsboard.board.rules import initial_position, parse_fen
from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import State
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.hardware.config import builtin_config, config_from_dict
from draughtsboard.play import PlaySession
from draughtsboard.play.coach import Coach
from draughtsboard.recording import Recorder
from draughtsboard.web.app import create_app

from .helpers import TOKEN, wait_until

# Black to move: d6-c5 walks into b4 takes c5 (a piece lost); d6-e5 loses nothing.
BLUNDER_FEN = "B:W17,31:B10,4"


def view(session) -> dict:
    return json.loads(session.view()[1])


def coach_view(session) -> dict:
    return view(session)["coach"]


def hands_until(session, actions, predicate, what=""):
    session.hand(actions)
    return wait_until(lambda: (v := view(session)) and predicate(v) and v, what=what)


def open_session(tmp_path, mode="training", fen=None, config=None, **coach_options):
    variant = get_variant("russian")
    position = parse_fen(variant, fen) if fen else initial_position(variant)
    occupied = [n for n in variant.geometry.numbers if position.occupancy() >> (n - 1) & 1]
    board = open_simulated_board(config or variant.geometry, occupied=occupied,
                                 real_time=True)
    recorder = Recorder(tmp_path / "data", sync=False)
    session = PlaySession("russian", board, board, recorder, hands=board.simulation,
                          token=TOKEN, backend="sim", mode=mode, start_fen=fen)
    coach = Coach(session.game, post=session.submit, hint_depth=4, hint_nodes=20_000,
                  blunder_nodes=50_000, **coach_options)
    session.game.attach(coach)
    session.start()
    wait_until(lambda: session.game.tracker.state is State.READY, what="the board set up")
    return session, board, recorder, coach


@pytest.fixture
def training(tmp_path):
    session, board, recorder, coach = open_session(tmp_path)
    try:
        yield session, coach
    finally:
        session.stop()
        board.close()
        recorder.close()


def test_the_hint_button_named_in_the_board_config(tmp_path):
    import tomllib
    from importlib import resources

    text = resources.files("draughtsboard.hardware").joinpath("configs/8x8.toml").read_text()
    data = tomllib.loads(text)
    data["buttons"] = {"hint": 4}
    config = config_from_dict(data, "test config with a hint button")
    assert builtin_config(board_geometry(8)).buttons != config.buttons
    session, board, recorder, coach = open_session(tmp_path, config=config)
    try:
        import logging

        from draughtsboard.cli import wire_hint_button

        wire_hint_button(board, session, coach, logging.getLogger("test"))
        pin = board.buttons["hint"].pin
        pin.drive_low()  # pressed (pull-up: active low)
        pin.drive_high()
        hint = wait_until(lambda: (h := coach_view(session)["hint"]) and h["stage"] == 1 and h)
        assert len(hint["squares"]) == 1
    finally:
        session.stop()
        board.close()
        recorder.close()


def test_the_coach_requests_over_http(training):
    training, coach = training
    with TestClient(create_app(training, coach=coach)) as client:
        response = client.post("/api/coach/hint", json={})
        assert response.status_code == 200, response.text
        wait_until(lambda: coach_view(training)["hint"]["stage"] == 1)
        bad = client.post("/api/coach/options", json={"hints": "no"})
        assert bad.status_code == 400 and bad.json() == {
            "error": "hints: expected true or false.",
            "message": {"id": "coach.refused.bad_option", "params": {"key": "hints"}}}
        assert client.post("/api/coach/options", content=b"x" * 5000,
                           headers={"content-type": "application/json"}).status_code == 400
        assert client.post("/api/coach/options", content=b"[1]",
                           headers={"content-type": "application/json"}).status_code == 400
        off = client.post("/api/coach/options", json={"warnings": False})
        assert off.json() == {"ok": True, "result": {"hints": True, "warnings": False}}
        client.post("/api/coach/options", json={"hints": False})
        refused = client.post("/api/coach/hint", json={})
        assert refused.status_code == 409
        # the English line, and the message the page shows in its reader's language
        assert refused.json() == {"error": "Hints are switched off for this game.",
                                  "message": {"id": "coach.refused.hints_off"}}
        puzzle = client.post("/api/coach/puzzle", json={"action": "jump"})
        assert puzzle.status_code == 400
        assert puzzle.json()["message"] == {"id": "puzzle.refused.bad_action",
                                            "params": {"action": "'jump'"}}
        page = client.get("/")
        assert '<script src="/static/coach.js"' in page.text
        assert client.get("/static/coach.js").status_code == 200
