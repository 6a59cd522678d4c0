"""`draughtsboard play` as systemd runs it: SIGTERM (or Ctrl-C) stops it cleanly, with
the journal intact, and the next start resumes the same game."""

from __future__ import annotations

import signal
import threading
import urllib.request

import pytest

from draughtsboard.recording import Recorder

from .helpers import PlayProcess, wait_until


def _ready(play: PlayProcess) -> dict:
    return wait_until(lambda: (s := play.state())["state"] == "ready" and s,
                      what="the start position")


def _move(play: PlayProcess, *actions) -> dict:
    plies = len(play.state()["moves"])
    play.hands(*actions)
    return wait_until(lambda: len((s := play.state())["moves"]) > plies and s,
                      what="the move")


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_play_cleanly_and_the_game_resumes(tmp_path, sig):
    data = tmp_path / "data"
    with PlayProcess(data, "--tag", "Event=Shutdown test") as play:
        _ready(play)
        _move(play, ("lift", 22), ("place", 18))
        _move(play, ("lift", 11), ("place", 16))
        # a live stream is open while the signal comes: it must not hold the exit up
        stream = urllib.request.urlopen(play.url + "/api/events", timeout=10)
        first = stream.readline()
        assert first.startswith(b"id: ")
        ended = threading.Event()

        def drain() -> None:
            try:
                while stream.readline():
                    pass
            finally:
                ended.set()

        threading.Thread(target=drain, daemon=True).start()
        assert play.stop(sig) == 0, play.stderr
        assert ended.wait(5)
    assert "Traceback" not in play.stderr, play.stderr

    recorder = Recorder(data)
    unfinished = recorder.unfinished_game()
    assert unfinished is not None
    game_id, game = unfinished
    assert [m.text for m in game.moves] == ["c3-d4", "f6-g5"]
    recorder.close()

    with PlayProcess(data) as again:
        state = _ready(again)  # the simulator starts in the recorded position
        assert state["game_id"] == game_id
        assert state["moves"] == ["c3-d4", "f6-g5"] and state["white_to_move"] is True
        assert state["tags"]["Event"] == "Shutdown test"
        _move(again, ("lift", 23), ("place", 19))
        assert again.stop() == 0
    recorder = Recorder(data)
    game = recorder.load(game_id)
    assert [m.text for m in game.moves] == ["c3-d4", "f6-g5", "e3-f4"]
    assert [e.kind for e in game.events] == ["resume"]
