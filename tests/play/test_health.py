"""The health report's stuck-switch suspects: named after a long disagreement, forgotten
as soon as the switch agrees again."""

from __future__ import annotations

from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.play.health import SwitchWatch


def bits(*squares: int) -> int:
    return sum(1 << (s - 1) for s in squares)


def test_a_switch_that_disagrees_at_every_look_is_named_after_the_wait():
    watch = SwitchWatch(stuck_after=90)
    expected = bits(1, 2, 3)
    for now in (0, 30, 60):
        watch.look(now, bits(1, 2, 3, 17), expected)  # 17 closed, no piece should be there
        assert watch.suspects(now) == []
    watch.look(90, bits(1, 2, 3, 17), expected)
    assert watch.suspects(90) == [{"square": 17, "closed": True, "seconds": 90}]


def test_an_open_switch_under_a_piece_is_named_open():
    watch = SwitchWatch(stuck_after=60)
    watch.look(0, bits(1, 3), bits(1, 2, 3))
    watch.look(61, bits(1, 3), bits(1, 2, 3))
    assert watch.suspects(61) == [{"square": 2, "closed": False, "seconds": 61}]


def test_a_square_that_agrees_again_starts_from_nothing():
    watch = SwitchWatch(stuck_after=60)
    watch.look(0, bits(5), 0)
    watch.look(30, 0, 0)  # the piece was taken off: the switch was right
    watch.look(50, bits(5), 0)
    watch.look(100, bits(5), 0)
    assert watch.suspects(100) == []  # 50 s, not 100
    watch.look(110, bits(5), 0)
    assert [s["square"] for s in watch.suspects(110)] == [5]


def test_squares_beyond_the_first_word_and_many_at_once():
    watch = SwitchWatch(stuck_after=1)
    watch.look(0, bits(50, 49), bits(1))
    watch.look(2, bits(50, 49), bits(1))
    assert [(s["square"], s["closed"]) for s in watch.suspects(2)] == \
        [(1, False), (49, True), (50, True)]


def test_the_health_report_of_a_board_in_play_names_a_stuck_switch(tmp_path):
    from draughtsboard.board.tracker import State
    from draughtsboard.cli import health_probe
    from draughtsboard.hardware.backends import open_simulated_board
    from draughtsboard.play import PlaySession
    from draughtsboard.recording import Recorder

    from ..web.helpers import TOKEN, wait_until

    occupied = [*range(1, 13), *range(21, 33)]
    board = open_simulated_board(board_geometry(8), occupied=occupied, real_time=True)
    recorder = Recorder(tmp_path / "data", sync=False)
    session = PlaySession("russian", board, board, recorder, hands=board.simulation,
                          token=TOKEN, backend="sim")
    session.start()
    try:
        wait_until(lambda: session.game.tracker.state is State.READY, what="the board set up")
        now = [0.0]
        health = health_probe(board, session, clock=lambda: now[0])
        assert health()["stuck"] == []
        board.simulation.set_switch(15, True)  # no piece on 15: a switch stuck closed
        wait_until(lambda: board.latest().occupied >> 14 & 1, what="switch 15 seen closed")
        assert health()["stuck"] == []
        now[0] = 100.0
        assert health()["stuck"] == [{"square": 15, "closed": True, "seconds": 100}]
    finally:
        session.stop()
        board.close()
        recorder.close()
