"""A king slid along its line in a match between boards. The tracker records the king
where it first stops and amends the move as it slides on
(tests/board/tracker/test_tracker.py); the first recording is published at once, so the
other board may show the move before the amendment arrives. It then shows the amended
move instead (within one tick of the record's arrival), and the match goes on."""

from __future__ import annotations

from .test_board_match import Wire, beats, board, settle_both
from .virtual import STEP, VirtualPlay

FEN = "W:WK29,31:B4,8"  # a white king on a1, White to move


def king_board(tmp_path, wire: Wire, seat: str, name: str) -> VirtualPlay:
    return board(tmp_path, wire, seat, name, fen=FEN)


def test_a_king_slid_on_in_a_match_is_the_slid_move_on_both_boards(tmp_path):
    wire = Wire()
    white = king_board(tmp_path, wire, "white", "Anna")
    black = king_board(tmp_path, wire, "black", "Boris")
    settle_both(white, black)
    beats(white, black)
    white.hand(("lift", 29), ("place", 25))  # a1-b2: recorded, published
    settle_both(white, black)
    shown = black.view()["opponent"]["pending"]
    white.hand(("lift", 25), ("place", 22))  # slid on to c3: the move amended
    settle_both(white, black)
    assert white.view()["moves"] == ["a1-c3"], white.view()["moves"]
    for _ in range(3):
        beats(white, black)
        white.wait(0.5)
        black.wait(0.5)
    settle_both(white, black)
    pending = black.view()["opponent"]["pending"]
    assert pending is not None, black.view()["opponent"]
    # the black board now shows the move as slid (a1-c3), not the first stop
    assert pending["path"][-1] == 22, (shown, pending)
    black.carry_out_pending()
    settle_both(white, black)
    for play in (white, black):
        assert play.view()["opponent"]["error"] is None, play.view()["opponent"]["error"]


def test_a_king_slid_on_in_a_match_does_not_stop_the_match(tmp_path):
    """The same slide, the black person carrying out what its board shows (the LEDs,
    redrawn at the next tick): the match goes on, one game on both boards."""
    wire = Wire()
    white = king_board(tmp_path, wire, "white", "Anna")
    black = king_board(tmp_path, wire, "black", "Boris")
    settle_both(white, black)
    beats(white, black)
    white.hand(("lift", 29), ("place", 25))
    settle_both(white, black)
    white.hand(("lift", 25), ("place", 22))
    settle_both(white, black)
    beats(white, black)
    black.wait(STEP)  # one scan: the LEDs show what the board now expects
    black.carry_out_pending()
    settle_both(white, black)
    beats(white, black)
    settle_both(white, black)
    errors = [play.view()["opponent"]["error"] for play in (white, black)]
    assert errors == [None, None], errors
    assert [m.text for m in white.recorder.game(white.game.game_id).moves] == \
        [m.text for m in black.recorder.game(black.game.game_id).moves] == ["a1-c3"]
