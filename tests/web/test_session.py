"""The play session without the web: what it records, what it shows, what it imports."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from draughtsboard.board.game.tags import InvalidTagError, parse_tag_options
from draughtsboard.board.tracker import Mode
from draughtsboard.play import ArbiterError

from .helpers import TOKEN, wait_until


def view(session) -> dict:
    return json.loads(session.view()[1])


def hands_until(session, actions, predicate, what=""):
    session.hand(actions)
    return wait_until(lambda: (v := view(session)) and predicate(v) and v, what=what)


def test_a_game_lost_by_the_rules_gets_its_result(session):
    session.new_game({"Event": "Endgame"}, fen="W:W22:B18")
    hands_until(session, [("setup", None)], lambda v: v["state"] == "ready")
    # c3 takes d4: lift, put down on e5, take the black piece off
    v = hands_until(session, [("lift", 22), ("place", 15), ("lift", 18)],
                    lambda v: v["result"] is not None, "the result")
    assert v["moves"] == ["c3:e5"] and v["result"] == "1-0"
    assert "no legal move" in v["result_reason"]
    assert session.recorder.unfinished_game() is None
    assert "[FEN " in session.export_pdn()


def test_training_takeback_is_recorded(session):
    session.mode = session.tracker.mode = Mode.TRAINING
    hands_until(session, [("lift", 22), ("place", 18)], lambda v: v["moves"] == ["c3-d4"])
    v = hands_until(session, [("lift", 18), ("place", 22)], lambda v: v["moves"] == [])
    assert v["white_to_move"] is True
    assert any(e["kind"] == "takeback" for e in v["log"])
    game = session.recorder.load(session.game_id)
    assert [e.kind for e in game.events] == ["takeback"]


def test_clocks_show_when_the_game_has_a_time_control(session):
    session.set_tags({"TimeControl": "300+5"})
    clocks = wait_until(lambda: view(session)["clocks"])
    assert clocks["white"] == 300 and clocks["running"] is None  # waits for the first move
    assert clocks["status"] == "waiting" and clocks["control"] == "300+5"


def test_arbiter_mistakes_are_refused_with_a_reason(session):
    with pytest.raises(ArbiterError, match="not a result"):
        session.declare_result("3-0")
    with pytest.raises(ArbiterError, match="derived"):
        session.set_tags({"Result": "1-0"})
    with pytest.raises(ArbiterError):
        session.new_game({}, fen="W:Wnonsense")
    with pytest.raises(InvalidTagError, match="KEY=VALUE"):
        parse_tag_options(["White"])
    assert parse_tag_options(["White=Ann Smith", "Round=2"]) == {"White": "Ann Smith",
                                                                  "Round": "2"}
    assert session.check_token(TOKEN) and not session.check_token("") \
        and not session.check_token(None)


def test_the_page_hands_are_refused_on_a_real_board(session):
    session.hands = None
    with pytest.raises(PermissionError):
        session.hand([("lift", 22)])


def test_play_and_web_import_no_backend():
    code = ("import sys, draughtsboard.play, draughtsboard.web.app, draughtsboard.web.server;"
            "bad = [m for m in sys.modules if m.startswith(('draughtsboard.hardware',"
            "'draughtsboard.firmware_bridge', 'gpiozero', 'serial'))]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


class _BrokenSource:
    """A sensor source that fails on the first read, as a dead serial link might."""

    square_count = 32

    def read(self, timeout=None):
        raise OSError("the board is gone")

    def latest(self):
        return None

    def close(self):
        pass


class _Leds:
    square_count = 32

    def show(self, frame):
        pass

    def close(self):
        pass


def test_a_dead_controller_is_shown_and_stops_the_server(tmp_path):
    import threading

    from draughtsboard.play import PlaySession
    from draughtsboard.recording import Recorder

    failed = threading.Event()
    with Recorder(tmp_path) as recorder:
        session = PlaySession("russian", _BrokenSource(), _Leds(), recorder)
        session.on_failure = failed.set
        session.start()
        assert failed.wait(5)
        session.stop()
        assert "the board is gone" in view(session)["error"]
        with pytest.raises(RuntimeError):
            session.acknowledge()


def test_arbiter_tags_stay_on_the_page_and_in_the_pdn_after_the_result(session, monkeypatch):
    import draughtsboard.recording.recorder as recorder_module

    session.set_tags({"Event": "Club final"})
    session.declare_result("1-0")
    reads = []
    real = recorder_module.load_journal
    monkeypatch.setattr(recorder_module, "load_journal",
                        lambda path: reads.append(path) or real(path))
    # page updates after the result: a hand on the board changes the view each time
    v = hands_until(session, [("lift", 22)], lambda v: 22 not in v["occupied"])
    v = hands_until(session, [("place", 22)], lambda v: 22 in v["occupied"])
    assert v["tags"]["Event"] == "Club final" and v["result"] == "1-0"
    assert '[Event "Club final"]' in session.export_pdn()
    assert reads == []


def test_the_view_is_built_without_a_thread_or_a_board():
    from draughtsboard.board.game.record import Game
    from draughtsboard.board.ports import LedFrame, Snapshot
    from draughtsboard.board.rules import get_variant, parse_fen
    from draughtsboard.board.tracker import Tracker
    from draughtsboard.play import build_view

    variant = get_variant("russian")
    game = Game.from_fen(variant, "W:W22:B18", tags={"TimeControl": "60"})
    tracker = Tracker(parse_fen(variant, "W:W22:B18"), Mode.TRAINING, check_start=False)
    tracker.feed(Snapshot(tracker.position.occupancy(), 0.0))
    view = build_view(tracker=tracker, game=game.read_only_copy(), game_id="00001-x",
                      mode="training", backend="gpio", frame=LedFrame.blank(32),
                      occupied=tracker.position.occupancy(), switches=None, log=[],
                      unacknowledged=0, error=None)
    assert view["hands"] is False and view["state"] == "ready"
    assert view["intents"] == {"must_capture": [22]} and view["flags"] == ["must capture"]
    assert view["status"] == "White to move"
    assert view["guidance"] == [{"kind": "must-capture", "title": "White must capture",
                                 "steps": ["Capture with the piece on c3"]}]
    assert view["clocks"] is None and view["last_move"] is None
    assert view["fen"] == "W:W22:B18" and view["moves"] == []


def test_a_call_answers_only_after_the_view_it_caused_is_published(session):
    """Publish, then answer: whoever waits on `call` reads the view the action made. (The
    answer's callback runs on the controller thread when the future is answered; the
    action waits until that callback is in place.)"""
    import threading

    in_place = threading.Event()

    def action() -> None:
        in_place.wait(5)
        session.arbiter_log.note("note", "a change")

    future = session.submit(action)
    seen_when_answered = []
    future.add_done_callback(lambda _: seen_when_answered.append(view(session)["log"]))
    in_place.set()
    future.result(5)
    assert [entry["text"] for entry in seen_when_answered[0]][-1:] == ["a change"]
