from __future__ import annotations

import pytest

from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import State
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.play import PlaySession
from draughtsboard.recording import Recorder

from .helpers import TOKEN, XSS, wait_until


@pytest.fixture
def session(tmp_path):
    """A live session on the simulated board (scan thread on the monotonic clock)."""
    variant = get_variant("russian")
    occupied = [n for n in variant.geometry.numbers
                if initial_position(variant).occupancy() >> (n - 1) & 1]
    board = open_simulated_board("russian", occupied=occupied, real_time=True)
    recorder = Recorder(tmp_path / "data")
    play = PlaySession("russian", board, board, recorder, hands=board.simulation,
                       token=TOKEN, tags={"White": XSS, "Black": "Bea"}, backend="sim")
    play.start()
    # the first scans must see the start position before a hand acts
    wait_until(lambda: play.tracker.state is State.READY, what="the board to be set up")
    try:
        yield play
    finally:
        play.stop()
        board.close()
        recorder.close()
