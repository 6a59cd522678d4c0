"""The play session, the controller thread around the game in play: publish then
answer, its desk on the thread, a thread that dies, the hands of a real board, what it
imports. (What the game in play records and shows: tests/play, in virtual time.)"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from draughtsboard.play import ArbiterError

from ..web.helpers import TOKEN


def view(session) -> dict:
    return json.loads(session.view()[1])


def test_the_arbiter_token_is_checked(session):
    assert session.check_token(TOKEN) and not session.check_token("") \
        and not session.check_token(None) and not session.check_token(TOKEN + "x")


def test_the_arbiter_desk_runs_on_the_controller_thread(session):
    """The desk's actions run on the controller thread and answer with the change done."""
    with pytest.raises(ArbiterError, match="not a result"):
        session.arbiter.declare_result("3-0")  # refused on the caller's thread
    assert session.arbiter.set_tags({"Event": "Club"})["Event"] == "Club"
    assert view(session)["tags"]["Event"] == "Club"
    assert session.arbiter.game_id == session.game.game_id


def test_the_page_hands_are_refused_on_a_real_board(session):
    session.hands = None
    with pytest.raises(PermissionError):
        session.hand([("lift", 22)])


@pytest.mark.slow
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
            session.arbiter.acknowledge()


def test_a_call_answers_only_after_the_view_it_caused_is_published(session):
    """Publish, then answer: whoever waits on `call` reads the view the action made. (The
    answer's callback runs on the controller thread when the future is answered; the
    action waits until that callback is in place.)"""
    import threading

    in_place = threading.Event()

    def action() -> None:
        in_place.wait(5)
        session.game.arbiter_log.note("note", "a change")

    future = session.submit(action)
    seen_when_answered = []
    future.add_done_callback(lambda _: seen_when_answered.append(view(session)["log"]))
    in_place.set()
    future.result(5)
    assert [entry["text"] for entry in seen_when_answered[0]][-1:] == ["a change"]
