"""A board at rest costs little: the controller thread waits long for a snapshot when
nothing can happen in time, and a command wakes it at once."""

from __future__ import annotations

import threading
import time as real_time

import pytest

from draughtsboard.board.ports import Snapshot
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import State
from draughtsboard.play import PlaySession
from draughtsboard.play.session import REST_AFTER, REST_POLL
from draughtsboard.recording import Recorder
from tests.web.helpers import wait_until


class ShiftedTime:
    """The session's clocks as test inputs: the real ones plus an offset the test moves
    on (``advance``), so that the rest comes at once."""

    def __init__(self) -> None:
        self.offset = 0.0

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def clock(self) -> float:
        return real_time.monotonic() + self.offset

    def wall(self) -> float:
        return real_time.time() + self.offset


class RecordingSource:
    """The start position once, then nothing; every read's timeout and every wake kept."""

    square_count = 32

    def __init__(self, occupied: int, clock) -> None:
        self.occupied = occupied
        self.clock = clock
        self.timeouts: list[float | None] = []
        self.wakes = 0
        self.first = True
        self.woken = threading.Event()

    def read(self, timeout=None):
        self.timeouts.append(timeout)
        if self.first:
            self.first = False
            return Snapshot(self.occupied, self.clock())
        self.woken.wait(0.002)  # a short real wait: the loop does not spin
        self.woken.clear()
        return None

    def wake(self) -> None:
        self.wakes += 1
        self.woken.set()

    def latest(self):
        return None

    def close(self):
        pass


class Leds:
    square_count = 32

    def show(self, frame):
        pass

    def close(self):
        pass


@pytest.mark.parametrize("state", [State.READY, State.SETUP])
def test_a_board_at_rest_waits_long_and_a_command_wakes_it(tmp_path, state):
    """Set up (READY) or waiting to be (SETUP: an empty board)."""
    time = ShiftedTime()
    start = initial_position(get_variant("russian")).occupancy()
    source = RecordingSource(start if state is State.READY else 0, time.clock)
    with Recorder(tmp_path) as recorder:
        session = PlaySession("russian", source, Leds(), recorder, clock=time.clock,
                              wall=time.wall, token="t")
        session.start()
        try:
            wait_until(lambda: len(source.timeouts) > 1
                       and session.game.tracker.state is state, what=f"the board {state.value}")
            assert source.timeouts[-1] == session.poll  # something just happened
            time.advance(REST_AFTER + 1)
            wait_until(lambda: source.timeouts[-1] == REST_POLL, what="the board at rest")
            wakes = source.wakes
            assert session.call(lambda: "done") == "done"
            assert source.wakes > wakes  # the command did not wait for the long read
            wait_until(lambda: source.timeouts[-1] == session.poll,
                       what="the short wait after a command")
        finally:
            session.stop()


def test_a_game_is_at_rest_only_when_time_cannot_change_anything(start_play, tmp_path):
    """Set up with no clock: at rest. A piece in the air (a move under way) or a running
    clock: not, since time alone may change what the board shows or records."""
    play = start_play()
    assert play.game.tracker.state is State.READY and play.game.at_rest()
    play.set_switch(22, False)  # c3 lifted: the tracker waits for it to land
    assert not play.game.at_rest()
    play.set_switch(18, True)
    play.wait(1.0)
    assert play.game.at_rest()

    timed = start_play(data=tmp_path / "timed", tags={"TimeControl": "60+2"})
    assert timed.game.at_rest()  # the clock waits for the first move
    timed.move(22, 18)
    assert not timed.game.at_rest()  # Black's time runs
