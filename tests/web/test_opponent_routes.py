"""An opponent on a live simulated board, where threads are the point: the session's
controller thread, the opponent's worker thread, its answer through the session's queue,
the page's requests and the view a script reads (`GET /api/state`). (The opponent's rules
in the game in play: tests/play, in virtual time.)"""

from __future__ import annotations

import json
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import State
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.opponents import BuiltinOpponent, Clocks, OpponentGoneError, OpponentSpec
from draughtsboard.play import PlaySession
from draughtsboard.play.opponent_seat import OpponentSeat
from draughtsboard.recording import Recorder
from draughtsboard.web.app import create_app

from .helpers import TOKEN, wait_until

RUSSIAN = get_variant("russian")


class DiesAtOnce(BuiltinOpponent):
    """An engine that dies when first asked for a move."""

    @property
    def name(self) -> str:
        return "Dying Engine 1.0"

    def move(self, clocks: Clocks, stop=None):
        raise OpponentGoneError("the Hub engine 'Dying Engine 1.0' stopped (exit status 9) "
                                "while thinking")


def open_session(tmp_path, opponent):
    position = initial_position(RUSSIAN)
    occupied = [n for n in RUSSIAN.geometry.numbers if position.occupancy() >> (n - 1) & 1]
    board = open_simulated_board(RUSSIAN.geometry, occupied=occupied, real_time=True)
    recorder = Recorder(tmp_path / "data", sync=False)
    session = PlaySession("russian", board, board, recorder, hands=board.simulation,
                          token=TOKEN, backend="sim", mode="training")
    seat = OpponentSeat(opponent, OpponentSpec("engine", level=1), False,
                        post=session.submit, clock=session.game.clock)
    session.game.attach_opponent(seat)
    session.start()
    # the first scans must see the start position before a hand acts
    wait_until(lambda: session.game.tracker.state is State.READY, what="the board set up")
    return session, board, recorder


def state(client) -> dict:
    return json.loads(client.get("/api/state").text)


def test_a_script_plays_the_engine_through_the_api(tmp_path):
    session, board, recorder = open_session(tmp_path, BuiltinOpponent(RUSSIAN, 1, "api"))
    try:
        with TestClient(create_app(session), client=("127.0.0.1", 50000)) as client:
            assert client.post("/api/opponent/continue", json={}).status_code == 409
            client.post("/api/hands", json={"actions": [["lift", 22], ["place", 18]]})
            view = wait_until(lambda: (v := state(client))["opponent"]["pending"] and v,
                              what="the engine's move")
            pending = view["opponent"]["pending"]
            assert view["moves"] == ["c3-d4"]
            actions = [["lift", pending["path"][0]], ["place", pending["path"][-1]],
                       *[["lift", square] for square in pending["captures"]]]
            client.post("/api/hands", json={"actions": actions})
            view = wait_until(lambda: len((v := state(client))["moves"]) == 2 and v,
                              what="the engine's move to be recorded")
            assert view["moves"][1] == pending["notation"]
            assert view["opponent"]["pending"] is None
    finally:
        session.stop()
        board.close()
        recorder.close()


def test_after_a_failure_the_page_goes_on_with_the_builtin_engine(tmp_path):
    session, board, recorder = open_session(tmp_path, DiesAtOnce(RUSSIAN, 1, "dies"))
    try:
        with TestClient(create_app(session), client=("127.0.0.1", 50000)) as client:
            client.post("/api/hands", json={"actions": [["lift", 22], ["place", 18]]})
            view = wait_until(lambda: (v := state(client))["opponent"]["error"] and v,
                              what="the failure")
            detail = "the Hub engine 'Dying Engine 1.0' stopped (exit status 9) while thinking"
            assert view["opponent"]["error_text"] == detail
            assert view["opponent"]["error"] == {
                "id": "opponent.error.gone",
                "params": {"detail": detail, "name": "Dying Engine 1.0"}}
            assert view["opponent"]["can_continue"] and view["moves"] == ["c3-d4"]
            for bad in ({"level": 11}, {"level": "3"}, {"level": True}, {"level": 2.0}):
                refused = client.post("/api/opponent/continue", json=bad)
                assert refused.status_code == 400, bad
                assert "Level: expected a whole number 1-10" in refused.json()["error"]
                assert refused.json()["message"]["id"] == "opponent.refused.level"
            assert state(client)["opponent"]["error"]  # nothing replaced yet
            answer = client.post("/api/opponent/continue", json={"level": 4})
            assert answer.status_code == 200
            assert answer.json()["result"].startswith("Dying Engine 1.0 failed: draughtsboard "
                                                      "engine, level 4 plays on")
            view = wait_until(lambda: (v := state(client))["opponent"]["pending"] and v,
                              what="the built-in engine's move")
            assert view["opponent"]["error"] is None
            assert view["tags"]["Black"] == "draughtsboard engine, level 4"
            assert view["opponent"]["level"] == 4
            assert client.post("/api/opponent/continue", json={}).status_code == 409
    finally:
        session.stop()
        board.close()
        recorder.close()
