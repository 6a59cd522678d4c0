"""Snapshots lost on a serial line: the board jumps over in-between states, and two moves
may be seen at once. What the switches still show must be read as the moves played, never
as an irregularity nobody made (a false alarm stalls the board until the arbiter acts)."""

from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import FMJD, RESTORE, State, Tracker

from ..hand import TrackerHand

# White to move (a Russian championship game, ply 15): b4-c5, and Black's d6 takes c5,
# landing on b4, the square White's piece has just left.
REPLY_LANDS_ON_THE_START = "W:W17,19,21,23-25,27,28,30-32:B1-5,8-12,15"


def russian(fen, policy):
    position = parse_fen(get_variant("russian"), fen)
    return TrackerHand(Tracker(position, check_start=False, policy=policy))


def test_a_reply_landing_on_the_start_of_a_move_not_seen_done_is_the_two_moves():
    for policy in (FMJD, RESTORE):
        hand = russian(REPLY_LANDS_ON_THE_START, policy)
        hand.lift("b4")
        # c5 put down, d6 lifted and put down on b4: one snapshot
        hand.change(lift=["d6"], place=["c5", "b4"])
        assert hand.flags() == [], policy.name
        hand.lift("c5")
        assert hand.moves() == ["b4-c5", "d6:b4"] and hand.flags() == []
        hand.move("a3", "c5").lift("b4")
        assert hand.moves() == ["b4-c5", "d6:b4", "a3:c5"] and hand.flags() == []
        assert hand.tracker.state is State.READY


def test_the_same_board_without_the_start_seen_empty_is_still_flagged():
    # White's b4 never left: a Black piece moved on White's turn (and another put on c5)
    hand = russian(REPLY_LANDS_ON_THE_START, FMJD)
    hand.change(lift=["d6"], place=["c5"])
    assert [flag.kind for flag in hand.flags()] == ["illegal"]
    assert hand.moves() == []


# A Russian championship game (74th of the file) over a line that damages 20% of its
# bytes: after 1. c3-b4 d6-e5 2. b4-a5, Black's f6-g5, White's g3-h4 and Black's g5-f4
# were played while every snapshot that showed g5 occupied was lost. The board read as one
# action of Black's, f6 to h4 with g3 taken off (flagged), and then f4 filled *before*
# e3 emptied (Black's g5-f4, then White lifting e3 to take it) read as White playing on
# with e3-f4: an irregular move and a move nobody made, recorded.
def test_a_reply_put_down_before_its_piece_left_is_not_a_reply():
    from draughtsboard.board.ports import Snapshot
    from draughtsboard.board.rules import initial_position

    tracker = Tracker(initial_position(get_variant("russian")), check_start=True,
                      policy=FMJD)
    events = []
    for at, empty in [(5.906, (13, 14, 15, 16, 17, 18, 19, 20)),
                      (6.239, (13, 14, 15, 16, 17, 18, 19, 20, 22)),
                      (7.127, (10, 13, 14, 16, 18, 19, 20, 22)),
                      (8.111, (10, 11, 14, 16, 17, 18, 19, 20, 22)),
                      (9.325, (10, 11, 14, 16, 17, 18, 19, 22, 24)),  # the flag
                      (9.743, (10, 11, 14, 16, 17, 18, 22, 24)),  # f4 filled
                      (10.033, (10, 11, 14, 16, 17, 18, 22, 23, 24))]:  # e3 emptied
        occupied = (1 << 32) - 1
        for square in empty:
            occupied &= ~(1 << (square - 1))
        events += tracker.feed(Snapshot(occupied, at))
    recorded = [e.notation for e in events if e.kind in ("move", "irregular_move")]
    assert recorded == ["c3-b4", "d6-e5", "b4-a5"]  # and nothing it did not see


# An international game (the 21st of international-wk2003.pdn, replayed with noise 71 over
# a line that damages 20% of its bytes), Black to move after 1. 31-27 17-21 2. 33-28 21-26
# 3. 39-33 11-17 4. 44-39: 17-22 28x17 12x21 were played, and 33 lifted for 33-28, while
# every snapshot in between was lost. The one board seen (17, 12, 28 and 33 empty, 21
# full) read as Black's 17-21 with three pieces lifted after it (12, 28, 33): 17-21 was
# recorded, a move nobody made. Lifts prove nothing when other plies (here 17-22 28x17
# 12x21) leave the same board: the tracker must wait, or flag, not record.
AFTER_44_39 = "B:W27,28,32-43,45-50:B1-10,12-20,26"


def test_a_move_seen_done_with_lifts_after_it_is_not_taken_when_other_plies_explain_the_board():
    from draughtsboard.board.ports import Snapshot

    for policy in (FMJD, RESTORE):
        tracker = Tracker(parse_fen(get_variant("international"), AFTER_44_39),
                          check_start=False, policy=policy)
        occupied = tracker.position.occupancy()
        for square in (12, 17, 28, 33):
            occupied &= ~(1 << (square - 1))
        occupied |= 1 << (21 - 1)
        events = tracker.feed(Snapshot(occupied, 8.229))
        # 33-28 put down: the board after the four plies (Black's turn again)
        events += tracker.feed(Snapshot(occupied | 1 << (28 - 1), 8.6))
        events += tracker.tick(12.0)
        recorded = [e.notation for e in events if e.kind in ("move", "irregular_move")]
        assert recorded == [], policy.name
