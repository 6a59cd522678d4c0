"""The match clock between two boards, in virtual time, where it is easy to get wrong:
a clock from the other board after a fallen flag, a board restarted with the other's
move to carry out, a move made in time just as the link drops, cuts while a move is
pending. Each board's clocks must stay those the rules give, and both journals the same;
no flag may fall for a move made in time. Helpers: tests/play/test_board_match.py."""

from __future__ import annotations

import random

from draughtsboard.opponents.match_state import believed_clocks

from .test_board_match import (
    beats,
    carry_out_theirs,
    exchange,
    forge_last_clock,
    play_own_move,
    restart,
    settle_both,
    two_boards,
)
from .virtual import VirtualPlay

FAST = {"Event": "Towns match", "Round": "1", "TimeControl": "10+2"}


def pass_time(white: VirtualPlay, black: VirtualPlay, seconds: int) -> None:
    for _ in range(seconds):
        beats(white, black)
        white.wait(1.0)
        black.wait(1.0)


def test_a_forged_clock_after_the_movers_flag_fell_gives_it_no_increment(tmp_path):
    """Once a side's flag has fallen its clock stays at zero after its moves
    (`ClockReading.after_move`): a forged record that gives it the increment back is
    refused, and 0 is recorded, as the board's own rules give."""
    wire, white, black = two_boards(tmp_path, tags=FAST)
    rng = random.Random(5)
    exchange(white, black, rng)
    pass_time(white, black, 15)  # White's 12 s run out on both boards
    for play in (white, black):
        assert "white" in play.view()["clocks"]["flagged"], play.view()["clocks"]
    beats(white, black)
    play_own_move(white, rng)  # play goes on until the arbiter rules
    own = white.recorder.game(white.game.game_id).moves[-1].clock
    assert own[0] == 0.0  # the white board's own rules: a fallen flag stays at zero
    wire.deliver("white", "record", forge_last_clock(white, (2.0, own[1])))
    settle_both(white, black)
    carry_out_theirs(black)
    recorded = black.recorder.game(black.game.game_id).moves[-1].clock
    assert recorded[0] == 0.0, f"black board recorded White's clock {recorded}"


def test_believed_clocks_with_a_fallen_flag_unit():
    """The pure rule: the mover had 0 (its flag fell) and sends the increment."""
    assert believed_clocks((0.0, 100.0), (2.0, 100.0), "white", 0.0, 2.0) is None


def test_a_board_restarted_with_the_others_move_to_carry_out_holds_the_movers_time(
        tmp_path):
    """Before the restart, the black board held White's time while its person carried
    White's move out (White has moved: its time stands). After the restart, shown the
    same move to carry out, it does the same: White's time held, not running."""
    wire, white, black = two_boards(tmp_path)
    rng = random.Random(2)
    for _ in range(2):
        exchange(white, black, rng)
    beats(white, black)
    play_own_move(white, rng)
    settle_both(white, black)
    before = black.view()["clocks"]
    assert before["held"] and before["running"] == "white", before
    black = restart(tmp_path, wire, black, "black", "Boris")
    settle_both(white, black)
    pass_time(white, black, 5)
    settle_both(white, black)
    assert black.view()["opponent"]["pending"] is not None
    after = black.view()["clocks"]
    assert after["held"] or after["running"] != "white", after


def test_a_board_restarted_with_the_others_move_to_carry_out_falls_no_flag_of_the_mover(
        tmp_path):
    """The consequence of the above: White has moved (its board stopped its time), and
    the restarted black board's person takes a while to carry the move out: no flag of
    White's falls there (White's time stands)."""
    wire, white, black = two_boards(tmp_path)
    rng = random.Random(2)
    exchange(white, black, rng)
    beats(white, black)
    play_own_move(white, rng)
    settle_both(white, black)
    black = restart(tmp_path, wire, black, "black", "Boris")
    settle_both(white, black)
    for _ in range(160):  # the black person is slow to carry White's move out
        beats(white, black)
        white.wait(2.0)
        black.wait(2.0)
    assert "white" not in black.view()["clocks"]["flagged"], black.view()["clocks"]


def test_two_cuts_while_the_others_move_is_pending_charge_nobody(tmp_path):
    """Black moved; the white board shows it (Black's time held there). Two cuts come
    and go before the white person carries it out: White's time starts only then, and
    Black's figure is Black's board's."""
    wire, white, black = two_boards(tmp_path)
    beats(white, black)
    white.move(22, 18)
    settle_both(white, black)
    carry_out_theirs(black)
    beats(white, black)
    black.move(11, 15)
    settle_both(white, black)
    for _ in range(2):
        wire.cut()
        for play in (white, black):
            play.wait(4.0)
        assert white.view()["clocks"]["suspended"]
        wire.mend()
        beats(white, black)
        for play in (white, black):
            play.wait(0.1)
        settle_both(white, black)
        assert not white.view()["clocks"]["suspended"]
        assert white.view()["clocks"]["held"]  # Black's move still to carry out
        pass_time(white, black, 5)
    carry_out_theirs(white)
    settle_both(white, black)
    w = white.recorder.game(white.game.game_id).moves
    b = black.recorder.game(black.game.game_id).moves
    assert w[-1].clock == b[-1].clock, (w[-1].clock, b[-1].clock)
    game = white.recorder.game(white.game.game_id)
    before = white.game.game_clock.left(game, "white")
    pass_time(white, black, 10)
    after = white.game.game_clock.left(white.recorder.game(white.game.game_id), "white")
    assert 9.0 <= before - after <= 11.0, (before, after)
    assert before >= w[-1].clock[0] - 0.5, (before, w[-1].clock)


def test_a_move_made_in_time_just_as_the_link_drops_falls_no_flag_on_the_other_board(
        tmp_path):
    """White moves with 2 s left just as the link drops. The black board notices the
    cut only after `lost_after` (3 s here, 3.5 s in service): White's time stands there
    from when White's board was last heard, and no flag falls for a side whose board was
    not heard after its time ran out. So no flag on either board, and once the link is
    back both journals hold the same clocks."""
    wire, white, black = two_boards(tmp_path, tags=FAST)
    beats(white, black)
    play_own_move_at(white, (22, 18))
    settle_both(white, black)
    carry_out_theirs(black)
    settle_both(white, black)
    beats(white, black)
    play_own_move_at(black, (11, 16))
    settle_both(white, black)
    carry_out_theirs(white)
    settle_both(white, black)
    pass_time(white, black, 10)  # White thinks: about 2 s left of its 12
    wire.cut()
    play_own_move_at(white, (23, 19))  # in time, on the white board
    settle_both(white, black)
    assert "white" not in white.view()["clocks"]["flagged"]
    for play in (white, black):
        play.wait(4.0)
    wire.mend()
    beats(white, black)
    settle_both(white, black)
    for play in (white, black):
        play.wait(0.1)
    settle_both(white, black)
    carry_out_theirs(black)
    settle_both(white, black)
    w = white.recorder.game(white.game.game_id).moves
    b = black.recorder.game(black.game.game_id).moves
    assert "white" not in black.view()["clocks"]["flagged"], (w[-1].clock, b[-1].clock)
    assert w[-1].clock == b[-1].clock, (w[-1].clock, b[-1].clock)


def play_own_move_at(play: VirtualPlay, squares: tuple[int, int]) -> None:
    ply = play.game.moves_recorded
    play.move(*squares)
    assert play.game.moves_recorded == ply + 1, play.view()["flags"]
