"""The coach on a live simulated board: hints in two stages, hints switched off, blunder
warnings and their takeback, the evaluation curve, tournament mode, the hint button and
the coach's HTTP requests. Searches run on the analyst thread with node budgets, so each
answer is the same on every run; the tests wait for it to reach the page's view."""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.rules import initial_position, parse_fen
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import State
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.hardware.config import builtin_config, config_from_dict
from draughtsboard.play import PlaySession
from draughtsboard.play.coach import Coach
from draughtsboard.play.errors import CoachError
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
    board = open_simulated_board(config or "russian", occupied=occupied, real_time=True)
    recorder = Recorder(tmp_path / "data", sync=False)
    session = PlaySession("russian", board, board, recorder, hands=board.simulation,
                          token=TOKEN, backend="sim", mode=mode, start_fen=fen)
    coach = Coach(session, hint_depth=4, hint_nodes=20_000, blunder_nodes=50_000,
                  **coach_options)
    session.attach_coach(coach)
    session.start()
    wait_until(lambda: session.tracker.state is State.READY, what="the board set up")
    return session, board, recorder


@pytest.fixture
def training(tmp_path):
    session, board, recorder = open_session(tmp_path)
    try:
        yield session
    finally:
        session.stop()
        board.close()
        recorder.close()


def test_a_hint_comes_in_two_stages_and_is_noted_in_the_pdn(training):
    coach = training.coach
    training.call(coach.request_hint)
    first = wait_until(lambda: (h := coach_view(training)["hint"]) and h["stage"] == 1 and h,
                       what="the first stage")
    (piece,) = first["squares"]
    assert first["text"].startswith("move the piece on ")
    assert view(training)["leds"][str(piece)] == ["on", "cyan"]

    second = training.call(coach.request_hint)
    assert second["stage"] == 2 and second["squares"][0] == piece
    assert len(second["squares"]) >= 2 and second["text"].startswith("play ")
    leds = wait_until(lambda: (v := view(training)) and str(second["squares"][1]) in v["leds"]
                      and v["leds"])
    assert leds[str(second["squares"][-1])] == ["slow_blink", "cyan"]
    assert training.call(coach.request_hint) == second  # nothing more to tell

    # the hinted move played: the hint goes, the journal and the PDN keep it
    start, end = second["squares"][0], second["squares"][-1]
    hands_until(training, [("lift", start), ("place", end)], lambda v: len(v["moves"]) == 1)
    assert wait_until(lambda: coach_view(training)["hint"] is None)
    pdn = training.export_pdn()
    assert "hint 1 (the piece)" in pdn and "hint 2 (the move)" in pdn
    game = read_pdn(pdn).games[0].game
    assert len(game.moves) == 1
    kinds = [e.kind for e in training.recorder.load(training.game_id).events]
    assert kinds == ["hint", "hint"]


def test_hints_switched_off_stay_off_when_the_game_resumes(tmp_path):
    session, board, recorder = open_session(tmp_path)
    try:
        assert session.call(lambda: session.coach.set_options(hints=False)) == \
            {"hints": False, "warnings": True}
        with pytest.raises(CoachError, match="switched off"):
            session.call(session.coach.request_hint)
        assert coach_view(session)["hints"] is False
        game_id = session.game_id
    finally:
        session.stop()
        board.close()
        recorder.close()
    session, board, recorder = open_session(tmp_path)  # resumes the same game
    try:
        assert session.game_id == game_id
        assert coach_view(session)["hints"] is False
        with pytest.raises(CoachError):
            session.call(session.coach.request_hint)
    finally:
        session.stop()
        board.close()
        recorder.close()


def test_a_blunder_is_warned_and_taken_back(tmp_path):
    session, board, recorder = open_session(tmp_path, fen=BLUNDER_FEN)
    try:
        hands_until(session, [("lift", 10), ("place", 14)], lambda v: v["moves"] == ["d6-c5"])
        warning = wait_until(lambda: coach_view(session)["warning"], what="the warning")
        assert warning["move"] == "d6-c5" and warning["lost"] == 1
        assert warning["better"] in ("d6-e5", "h8-g7") and "did not" in warning["text"]
        assert warning["line"][0] == "b4:d6"
        assert "put c5 back on d6" in warning["takeback"]
        leds = view(session)["leds"]
        assert leds["10"] == ["slow_blink", "red"] and leds["14"] == ["slow_blink", "red"]
        assert "blunder warning: d6-c5 loses 1 piece" in session.export_pdn()
        # training's takeback: the piece goes back, the warning goes with the move
        v = hands_until(session, [("lift", 14), ("place", 10)], lambda v: v["moves"] == [])
        assert v["coach"]["warning"] is None and "10" not in v["leds"]
        # the safe move: no warning (the check runs before the search of the position
        # after the move, so once that position is on the curve the check is done)
        hands_until(session, [("lift", 10), ("place", 15)], lambda v: v["moves"] == ["d6-e5"])
        wait_until(lambda: any(ply == 1 for ply, _ in coach_view(session)["curve"]))
        assert coach_view(session)["warning"] is None
    finally:
        session.stop()
        board.close()
        recorder.close()


def test_the_evaluation_curve_follows_the_game(training):
    wait_until(lambda: [p for p, _ in coach_view(training)["curve"]] == [0])
    hands_until(training, [("lift", 22), ("place", 18)], lambda v: len(v["moves"]) == 1)
    hands_until(training, [("lift", 11), ("place", 16)], lambda v: len(v["moves"]) == 2)
    curve = wait_until(lambda: (c := coach_view(training)["curve"]) and len(c) == 3 and c)
    assert [ply for ply, _ in curve] == [0, 1, 2]
    assert all(isinstance(score, int) and abs(score) < 300 for _, score in curve)


def test_tournament_mode_has_no_coach_until_the_result(tmp_path):
    session, board, recorder = open_session(tmp_path, mode="tournament")
    try:
        with pytest.raises(CoachError, match="tournament"):
            session.call(session.coach.request_hint)
        with pytest.raises(CoachError, match="tournament"):
            session.call(lambda: session.coach.set_options(hints=False))
        hands_until(session, [("lift", 22), ("place", 18)], lambda v: len(v["moves"]) == 1)
        assert coach_view(session)["curve"] == [] and coach_view(session)["available"] is False
        session.declare_result("1-0", "Black resigned")
        curve = wait_until(lambda: (c := coach_view(session)["curve"]) and len(c) == 2 and c,
                           what="the curve of the finished game")
        assert [ply for ply, _ in curve] == [0, 1]
    finally:
        session.stop()
        board.close()
        recorder.close()


def test_an_accepted_draw_and_a_withdrawn_result_reach_the_coach(tmp_path):
    from .helpers import move

    # the kings shuttle until the position has stood three times: the rules declare a draw
    session, board, recorder = open_session(tmp_path, mode="tournament",
                                            fen="W:WK29,31,32:BK12,1,2")
    try:
        for start, end in [(29, 25), (12, 16), (25, 29), (16, 12)] * 2:
            move(session, start, end)
        assert coach_view(session)["curve"] == []  # tournament: nothing during the game
        assert session.accept_draw() == "1/2-1/2"
        curve = wait_until(lambda: (c := coach_view(session)["curve"]) and len(c) == 9 and c,
                           what="the curve once the draw is accepted")
        assert [ply for ply, _ in curve] == list(range(9))
        session.withdraw_result()  # play goes on: the coach is quiet again in a tournament
        assert session.call(lambda: session.coach.game().result) is None
    finally:
        session.stop()
        board.close()
        recorder.close()


class QueuedAnalyst:
    """Holds the coach's jobs until the test runs them: a search still under way."""

    busy = False

    def __init__(self) -> None:
        self.jobs = []

    def submit(self, job) -> None:
        self.jobs.append(job)

    def run(self) -> None:
        jobs, self.jobs = self.jobs, []
        for job in jobs:
            if not job.stale():
                job.done(job.work(lambda: False))

    def close(self, timeout: float = 5.0) -> None:
        pass


def test_a_blunder_check_still_running_when_the_result_comes_warns_of_nothing():
    from types import SimpleNamespace

    from draughtsboard.board.game.record import Game
    from draughtsboard.board.tracker import Mode

    game = Game.from_fen(get_variant("russian"), BLUNDER_FEN)
    journal = []
    recorder = SimpleNamespace(
        record_coach_note=lambda game_id, text, *times: journal.append(text),
        record_hint=lambda game_id, text, *times: journal.append(text))
    class Tracker:  # the board shows the recorded game
        position = property(lambda _: game.position)

    session = SimpleNamespace(game_id="g", recorder=recorder, clock=lambda: 0.0,
                              wall=lambda: 0.0, refresh_leds=lambda: None,
                              mode=Mode.TRAINING, recorded_game=lambda: game,
                              tracker=Tracker())
    analyst = QueuedAnalyst()
    coach = Coach(session, analyst=analyst, post=lambda action: action(), hint_depth=4,
                  hint_nodes=20_000)
    coach.game_started()
    analyst.run()
    game.play("d6-c5")  # the blunder: its check waits on the analyst
    coach.after_event(SimpleNamespace(kind="move"))
    game.set_result("1-0", "Black resigned")  # the arbiter's result comes first
    coach.game_finished()
    analyst.run()
    assert coach.warning is None and journal == []


def test_the_hint_button_named_in_the_board_config(tmp_path):
    import tomllib
    from importlib import resources

    text = resources.files("draughtsboard.hardware").joinpath("configs/russian.toml").read_text()
    data = tomllib.loads(text)
    data["buttons"] = {"hint": 4}
    config = config_from_dict(data, "test config with a hint button")
    assert builtin_config("russian").buttons != config.buttons
    session, board, recorder = open_session(tmp_path, config=config)
    try:
        import logging

        from draughtsboard.cli import _wire_hint_button

        _wire_hint_button(board, session, session.coach, logging.getLogger("test"))
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
    with TestClient(create_app(training)) as client:
        response = client.post("/api/coach/hint", json={})
        assert response.status_code == 200, response.text
        wait_until(lambda: coach_view(training)["hint"]["stage"] == 1)
        assert client.post("/api/coach/options", json={"hints": "no"}).status_code == 400
        assert client.post("/api/coach/options", content=b"x" * 5000,
                           headers={"content-type": "application/json"}).status_code == 400
        assert client.post("/api/coach/options", content=b"[1]",
                           headers={"content-type": "application/json"}).status_code == 400
        off = client.post("/api/coach/options", json={"warnings": False})
        assert off.json() == {"ok": True, "result": {"hints": True, "warnings": False}}
        client.post("/api/coach/options", json={"hints": False})
        refused = client.post("/api/coach/hint", json={})
        assert refused.status_code == 409
        assert refused.json()["error"] == "hints are switched off for this game"
        page = client.get("/")
        assert '<script src="/static/coach.js"' in page.text
        assert client.get("/static/coach.js").status_code == 200
