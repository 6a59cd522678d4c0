"""The opponent's turn as a constraint of the tracker: the board takes only the move the
opponent chose (none while it thinks), anything else is flagged with what to put right,
and the LEDs show the move to carry out, step by step."""

import pytest

from draughtsboard.board.rules import DraughtsError, initial_position
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.notation import parse_move
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import FMJD, Mode, State, Tracker, render

from ..hand import TrackerHand

RUSSIAN = get_variant("russian")
# White: c3 e3; Black: d4 h8 (White to move: c3:e5 or e3:c5 must capture d4)
SHOT = "W:Wc3,e3:Bd4,h8"


def against_black(mode=Mode.TRAINING, fen=None, **options) -> TrackerHand:
    """A tracker whose Black is an opponent (the person plays White)."""
    position = initial_position(RUSSIAN) if fen is None else parse_fen(RUSSIAN, fen)
    tracker = Tracker(position, mode, check_start=False, **options)
    tracker.set_opponent(False)
    return TrackerHand(tracker)


def expect(hand: TrackerHand, text: str) -> None:
    position = hand.tracker.position
    hand.events.extend(hand.tracker.expect(position, parse_move(position, text), hand.now))


def test_the_persons_moves_are_taken_as_ever_and_nothing_on_the_opponents_turn_before_it_chose():
    hand = against_black()
    hand.move("c3", "d4")
    assert hand.moves() == ["c3-d4"]
    assert hand.tracker.is_opponents_turn and hand.tracker.expected_move is None
    hand.move("f6", "e5")  # the person plays for the opponent before it chose
    assert hand.moves() == ["c3-d4"]
    assert hand.tracker.state is State.ILLEGAL
    flag = hand.flags("illegal")[-1]
    assert flag.description == "f6-e5 played for the opponent before it chose its move"
    assert flag.irregularity == ""
    assert hand.intent("illegal") == ["e5"]
    hand.lift("e5").place("f6")
    assert hand.tracker.state is State.READY


def test_only_the_opponents_move_is_taken_and_another_legal_move_is_flagged():
    hand = against_black()
    hand.move("c3", "d4")
    expect(hand, "d6-c5")
    assert hand.intent("opponent_from") == ["d6"]
    assert hand.intent("opponent_path") == ["c5"]
    hand.move("f6", "e5")  # legal for Black, not the move chosen
    assert hand.moves() == ["c3-d4"]
    assert hand.flags("illegal")[-1].description == \
        "f6-e5 is not the opponent's move: it plays d6-c5"
    assert hand.intent("restore") == ["e5", "f6"]
    assert not hand.tracker.intents.get("opponent_from")  # what to put right comes first
    hand.lift("e5").place("f6")  # put right: the move to carry out is shown again
    assert hand.tracker.state is State.READY
    assert hand.intent("opponent_from") == ["d6"]
    hand.move("d6", "c5")
    assert hand.moves() == ["c3-d4", "d6-c5"]
    assert not hand.tracker.is_opponents_turn
    assert "opponent_from" not in hand.tracker.intents


def test_the_opponents_capture_step_by_step_on_the_leds():
    # Black is the opponent, to move: d4 may take c3 or e3
    hand = against_black(fen="B:Wc3,e3:Bd4,f6,h8")
    expect(hand, "d4:b2")
    assert hand.intent("opponent_from") == ["d4"]
    assert hand.intent("opponent_path") == ["b2"]
    assert hand.intent("opponent_take") == ["c3"]
    hand.lift("d4")  # the piece in the hand: where it goes, what it takes
    assert hand.intent("opponent_from") == []
    assert hand.intent("opponent_path") == ["b2"]
    hand.place("b2")  # down: only the piece to take off is left
    assert hand.intent("opponent_path") == []
    assert hand.intent("opponent_take") == ["c3"]
    hand.lift("c3")
    assert hand.moves() == ["d4:b2"]


def test_a_multiple_capture_of_the_opponent_shows_the_landings_still_to_come():
    hand = against_black(fen="B:Wc3,e5,g5:Bf6,b8,h8")
    position = hand.tracker.position
    move = parse_move(position, "f6:d4:b2")
    hand.tracker.expect(position, move, hand.now)
    assert hand.intent("opponent_path") == ["b2", "d4"]
    assert hand.intent("opponent_take") == ["c3", "e5"]
    hand.lift("f6").place("d4")
    hand.wait(0.2)
    hand.lift("d4")
    assert hand.intent("opponent_path") == ["b2"]
    hand.place("b2").lift("e5")
    assert hand.intent("opponent_take") == ["c3"]
    hand.lift("c3")
    assert hand.moves() == ["f6:b2"]


def test_the_opponents_move_as_led_patterns_apart_from_an_illegal_move():
    frame = render({"opponent_from": (1,), "opponent_path": (2,), "opponent_take": (3,),
                    "illegal": (4,)}, 32)
    patterns = [frame.patterns[i].name for i in range(4)]
    assert patterns == ["ON", "SLOW_BLINK", "FAST_BLINK", "FAST_BLINK"]
    assert frame.colours[2] != frame.colours[3]  # a piece to take off is not a red alarm


def test_a_takeback_in_training_is_taken_on_the_opponents_turn():
    hand = against_black()
    hand.move("c3", "d4")
    expect(hand, "d6-c5")
    hand.lift("d4").place("c3")  # the person takes his move back
    assert [e.kind for e in hand.events if e.kind in ("move", "takeback")] == \
        ["move", "takeback"]
    assert not hand.tracker.is_opponents_turn


def test_in_tournament_mode_a_takeback_on_the_opponents_turn_is_flagged():
    hand = against_black(mode=Mode.TOURNAMENT)
    hand.move("c3", "d4")
    hand.lift("d4").place("c3")
    assert hand.tracker.state is State.ILLEGAL
    assert "takebacks are not allowed" in hand.flags("illegal")[-1].description


def test_in_free_mode_a_wrong_move_on_the_opponents_turn_is_flagged_too():
    hand = against_black(mode=Mode.FREE)
    hand.move("c3", "d4")
    expect(hand, "d6-c5")
    hand.move("f6", "e5")
    assert hand.tracker.state is State.ILLEGAL
    assert hand.moves() == ["c3-d4"]


def test_an_irregular_move_never_stands_against_an_opponent():
    hand = against_black(mode=Mode.TOURNAMENT, policy=FMJD)
    hand.move("c3", "b4").move("b4", "a5")  # White moves twice
    assert hand.tracker.state is State.ILLEGAL
    assert hand.tracker.pending_irregularity is None


def test_a_wrong_execution_with_the_moving_piece_is_flagged_at_once():
    hand = against_black()
    hand.move("c3", "d4")
    expect(hand, "d6-c5")
    hand.move("d6", "e5")  # the right piece to the wrong square
    assert hand.tracker.state is State.ILLEGAL
    assert hand.flags("illegal")[-1].description == \
        "d6-e5 is not the opponent's move: it plays d6-c5"


def test_the_game_is_over_only_when_the_opponent_has_no_legal_move():
    hand = against_black(fen="W:Wc3:Bd4")
    hand.move("c3", "e5").lift("d4")  # White takes Black's last piece
    assert hand.tracker.state is State.GAME_OVER
    hand = against_black(fen="W:Wc3,e3:Bh8")
    hand.move("c3", "d4")  # Black to move, thinking: not a game over
    assert hand.tracker.state is State.READY
    assert "game_over" not in hand.tracker.intents


def test_expect_refuses_a_move_that_is_not_legal_or_not_the_opponents_turn():
    tracker = Tracker(initial_position(RUSSIAN), Mode.TRAINING, check_start=False)
    tracker.set_opponent(False)
    position = tracker.position
    with pytest.raises(DraughtsError, match="not the opponent's turn"):
        tracker.expect(position, parse_move(position, "c3-d4"))
    black = position.play(parse_move(position, "c3-d4"))
    with pytest.raises(DraughtsError, match="not legal"):
        tracker.expect(black, parse_move(position, "c3-d4"))


def test_after_the_own_capture_lands_only_the_pieces_to_take_off_are_said():
    hand = TrackerHand(Tracker(parse_fen(RUSSIAN, SHOT), Mode.TRAINING, check_start=False))
    assert hand.intent("must_capture") == ["c3", "e3"]
    hand.lift("c3")
    hand.place("e5")
    hand.wait(0.2)
    assert hand.intent("take_off") == ["d4"]
    assert hand.intent("must_capture") == []
    assert hand.intent("path") == []
    hand.lift("d4")
    assert hand.moves() == ["c3:e5"]


def test_in_tournament_mode_the_board_does_not_say_what_to_take_off():
    hand = TrackerHand(Tracker(parse_fen(RUSSIAN, SHOT), Mode.TOURNAMENT, check_start=False))
    hand.lift("c3").place("e5")
    assert hand.intent("take_off") == []


def test_taking_the_opponents_move_back_takes_back_the_persons_move_before_it_too():
    hand = against_black()
    hand.move("c3", "d4")
    expect(hand, "d6-c5")
    hand.move("d6", "c5")
    assert hand.moves() == ["c3-d4", "d6-c5"]
    hand.lift("c5").place("d6")  # the person takes the opponent's move back
    assert [e.kind for e in hand.events if e.kind == "takeback"] == ["takeback"]
    owed = hand.tracker.takeback_owed
    assert owed == initial_position(RUSSIAN)
    assert hand.intent("restore") == ["c3", "d4"]  # his own move, to take back too
    assert hand.tracker.expected_move is None
    expect(hand, "d6-c5")  # an answer for that position comes too late: not taken
    assert hand.tracker.expected_move is None
    hand.move("d6", "c5")
    assert hand.tracker.state is State.ILLEGAL
    hand.lift("c5").place("d6")
    hand.lift("d4").place("c3")
    assert [e.kind for e in hand.events if e.kind == "takeback"] == ["takeback", "takeback"]
    assert hand.tracker.takeback_owed is None
    assert not hand.tracker.is_opponents_turn
    assert hand.intent("restore") == []
