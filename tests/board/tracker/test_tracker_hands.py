"""What real hands do between moves, and what the board must make of it: training hints
that follow the piece through a capture, captures taken back in either order, and a move
released and touched again much later."""

from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import Mode, State, Tracker
from draughtsboard.board.tracker.policy import FMJD, RESTORE

from ..hand import TrackerHand

# Black to move: c5 must take d4 and f4, landing on e3 and then g5.
DOUBLE = "B:W18,19,30:B14,1"
# White to move: h4 takes g5, landing on f6.
SINGLE = "W:W20,30:B16,1"


def russian(fen, mode=Mode.TRAINING, policy=RESTORE):
    position = parse_fen(get_variant("russian"), fen)
    return TrackerHand(Tracker(position, mode, check_start=False, policy=policy))


def test_training_hints_follow_the_piece_through_every_landing():
    hand = russian(DOUBLE)
    hand.lift("c5")
    assert hand.intent("path") == ["e3"]
    hand.place("e3").wait(0.2)
    assert hand.intent("path") == ["g5"]
    hand.lift("e3")  # in the hand again, between e3 and g5
    assert hand.intent("path") == ["g5"]
    hand.place("g5").wait(0.2)
    assert hand.intent("path") == []  # the capture's path is done: take the pieces off
    hand.lift("d4", "f4")
    assert hand.moves() == ["c5:g5"]


def test_training_hints_clear_when_the_piece_goes_straight_to_the_end():
    hand = russian(DOUBLE)
    hand.lift("c5")
    hand.place("g5").wait(0.2)
    assert hand.intent("path") == []
    hand.lift("d4", "f4")
    assert hand.moves() == ["c5:g5"]


def test_a_capture_is_taken_back_captured_piece_first():
    hand = russian(SINGLE)
    hand.move("h4", "f6").lift("g5")
    assert hand.moves() == ["h4:f6"]
    hand.place("g5").lift("f6").place("h4")
    assert [e.kind for e in hand.events if e.kind in ("move", "takeback")] == \
        ["move", "takeback"]
    assert hand.flags() == [] and hand.tracker.state is State.READY
    assert hand.tracker.position == parse_fen(get_variant("russian"), SINGLE)


def test_a_capture_is_taken_back_capturing_piece_first():
    hand = russian(SINGLE)
    hand.move("h4", "f6").lift("g5")
    hand.lift("f6").place("h4").place("g5")
    assert [e.kind for e in hand.events if e.kind in ("move", "takeback")] == \
        ["move", "takeback"]
    assert hand.flags() == [] and hand.tracker.state is State.READY


def test_a_capture_taken_back_in_tournament_play_is_named_for_what_it_is():
    hand = russian(SINGLE, Mode.TOURNAMENT)
    hand.move("h4", "f6").lift("g5")
    hand.place("g5").lift("f6").place("h4")
    (flag,) = hand.flags()
    assert flag.description == "h4:f6 taken back: takebacks are not allowed in tournament play"
    assert hand.moves() == ["h4:f6"]


def test_a_quiet_move_while_a_capture_is_required_names_the_capture_rule():
    hand = russian(SINGLE, Mode.TOURNAMENT)
    hand.move("c1", "d2")
    (flag,) = hand.flags()
    assert flag.description == "illegal move c1-d2: a capture is required"


def test_a_released_move_cannot_be_rewritten_much_later():
    hand = russian("W:W22:B1", Mode.TOURNAMENT, FMJD)  # white man c3
    hand.move("c3", "b4")
    hand.wait(30.0)  # released long ago
    hand.lift("b4").place("d4")  # the same man, now to d4: not an amendment
    assert hand.moves() == ["c3-b4"]
    assert [e.replaces for e in hand.events if e.kind == "move"] == [None]
    (flag,) = hand.flags("illegal")
    assert flag.irregularity == "not_on_turn" and "b4-d4" in flag.description


def test_a_quiet_move_is_not_amended_to_another_line_even_at_once():
    hand = russian("W:W22:B1", Mode.TOURNAMENT)
    hand.move("c3", "b4")
    hand.lift("b4").place("d4")  # b4 is not on the way from c3 to d4
    assert hand.moves() == ["c3-b4"]
    assert hand.tracker.state is State.ILLEGAL


def test_a_king_slid_on_within_the_window_is_amended():
    hand = russian("W:WK29:B4", Mode.TOURNAMENT)
    hand.move("a1", "b2").wait(1.0)
    hand.lift("b2").place("c3")
    assert hand.tracker.moves[-1].notation == "a1-c3"
    hand.wait(3.0)
    hand.lift("c3").place("d4")  # too late: a second move of the same side
    assert hand.tracker.moves[-1].notation == "a1-c3"
    assert hand.tracker.state is State.ILLEGAL
