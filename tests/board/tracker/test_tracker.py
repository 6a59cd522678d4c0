"""Scenario tests of the move tracker, one per behaviour of the board's specification,
written as a hand's actions with the moves and LED intents expected."""

from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import Mode, State, Tracker, format_transition_table

from ..hand import TrackerHand

OPENING = "1. c3-d4 d6-e5 2. b2-c3 e7-d6 3. e3-f4 b6-a5 4. f2-e3 c7-b6 5. c1-b2 b6-c5"


def russian(mode=Mode.TOURNAMENT, fen=None, check_start=False, missing=()):
    variant = get_variant("russian")
    position = initial_position(variant) if fen is None else parse_fen(variant, fen)
    return TrackerHand(Tracker(position, mode, check_start=check_start), missing=missing)


def play_text(hand, text):
    for token in text.split():
        if token.endswith("."):
            continue
        separator = ":" if ":" in token else "-"
        squares = token.split(separator)
        if separator == ":":
            hand.move(squares[0], *squares[1:])
            captured = [hand.geometry.name(s) for s in hand.tracker.table.by_occupancy
                        and _captures_of(hand, squares)]
            hand.lift(*captured)
        else:
            hand.move(squares[0], squares[-1])


def _captures_of(hand, squares):
    position = hand.tracker.position
    from draughtsboard.board.rules.notation import parse_move

    return parse_move(position, ":".join(squares)).captures


def test_start_position_is_checked_before_play():
    hand = russian(check_start=True, missing=["c3"])
    assert hand.tracker.state is State.SETUP
    assert hand.intent("restore") == ["c3"]
    hand.place("c3")
    assert hand.tracker.state is State.READY
    assert hand.intent("restore") == []


def test_simple_moves_complete_when_the_piece_is_put_down():
    hand = russian()
    hand.move("c3", "d4")
    assert hand.moves() == ["c3-d4"]
    assert hand.intent("last_move") == ["c3", "d4"]
    hand.move("d6", "e5")
    assert hand.moves() == ["c3-d4", "d6-e5"]
    assert hand.flags() == []


def test_a_piece_lifted_and_put_back_is_not_a_move():
    hand = russian()
    hand.lift("c3").place("c3")
    assert hand.moves() == [] and hand.flags() == []
    assert hand.tracker.state is State.READY


def test_capture_shown_square_by_square_completes_when_the_last_captured_piece_is_off():
    hand = russian()
    play_text(hand, OPENING)
    hand.move("d4", "b6")
    assert hand.moves()[-1] == "b6-c5"  # not yet: c5 is still on the board
    hand.lift("c5")
    assert hand.moves()[-1] == "d4:b6"
    last = [e for e in hand.events if e.kind == "move"][-1]
    assert last.notes == ()


def test_captured_pieces_removed_before_the_capturing_piece_lands_is_noted():
    hand = russian()
    play_text(hand, OPENING)
    hand.lift("d4", "c5").place("b6").wait(0.2)  # the piece comes to rest on b6
    last = [e for e in hand.events if e.kind == "move"][-1]
    assert last.notation == "d4:b6"
    assert "captured pieces removed before the capturing piece was put down" in last.notes
    assert hand.flags() == []


def test_illegal_move_flags_the_square_and_lights_the_restore_until_put_back():
    hand = russian()
    hand.move("c3", "e5")  # two squares: not a legal move
    assert hand.tracker.state is State.ILLEGAL
    assert hand.intent("illegal") == ["e5"]
    assert hand.intent("restore") == ["c3", "e5"]
    flag = hand.flags("illegal")[0]
    assert flag.description == "illegal move c3-e5: a piece moved irregularly"
    hand.lift("e5").place("c3")
    assert hand.tracker.state is State.READY
    assert hand.tracker.intents == {}
    hand.move("c3", "d4")
    assert hand.moves() == ["c3-d4"]


def test_quiet_move_while_a_capture_is_required_is_illegal_in_tournament():
    hand = russian()
    play_text(hand, OPENING)
    hand.lift("g3")
    assert hand.intent("must_capture") == ["d4"]
    hand.place("h4")
    assert hand.tracker.state is State.ILLEGAL
    assert "capture is required" in hand.flags("illegal")[0].description
    hand.lift("h4").place("g3")
    assert hand.tracker.state is State.READY


def test_training_shows_required_captures_at_once_and_the_landing_squares():
    hand = russian(Mode.TRAINING)
    play_text(hand, OPENING)
    assert hand.intent("must_capture") == ["d4"]
    hand.lift("d4")
    assert hand.intent("path") == ["b6"]
    hand2 = russian(Mode.TRAINING)
    hand2.lift("c3")
    assert hand2.intent("destination") == ["b4", "d4"]


def test_takeback_in_training_restores_the_previous_position():
    hand = russian(Mode.TRAINING)
    hand.move("c3", "d4")
    hand.move("d4", "c3")
    kinds = [e.kind for e in hand.events if e.kind in ("move", "takeback")]
    assert kinds == ["move", "takeback"]
    assert hand.tracker.position == initial_position(get_variant("russian"))


def test_takeback_is_illegal_in_tournament():
    hand = russian()
    hand.move("c3", "d4")
    hand.move("d4", "c3")
    assert hand.tracker.state is State.ILLEGAL
    assert hand.moves() == ["c3-d4"]


def test_a_knocked_piece_is_shown_as_a_restore():
    hand = russian()
    hand.move("c3", "d4")
    hand.lift("h8").wait(5.0)  # a piece knocked off the board, nobody moving
    assert hand.tracker.state is State.DISTURBED
    assert hand.intent("restore") == ["h8"]
    hand.place("h8")
    assert hand.tracker.state is State.READY
    hand.move("d6", "e5")
    assert hand.moves() == ["c3-d4", "d6-e5"]


def test_a_king_slid_along_its_line_is_recorded_where_it_stops():
    hand = russian(fen="W:WK29:B4")
    hand.lift("a1").place("b2").lift("b2").place("c3").lift("c3").place("d4")
    assert [e.replaces for e in hand.events if e.kind == "move"] == [None, "a1-b2", "a1-c3"]
    assert hand.tracker.position.piece_at(hand.geometry.number_of_name("d4")) == "W"
    assert hand.tracker.moves[-1].notation == "a1-d4"
    assert len(hand.tracker.moves) == 1


def test_transition_table_prints():
    table = format_transition_table()
    assert "illegal" in table and "ambiguous" in table


def test_captured_pieces_removed_out_of_order_count_and_are_noted():
    hand = russian(fen="W:W29:B4,18,25")  # a1 takes b2 then d4
    hand.move("a1", "c3", "e5").lift("d4", "b2")
    last = [e for e in hand.events if e.kind == "move"][-1]
    assert last.notation == "a1:e5"
    assert last.captures == (25, 18)
    assert "captured pieces removed out of the order taken" in last.notes
    assert hand.flags() == []


def test_international_capture_of_fewer_pieces_than_the_majority_is_illegal():
    variant = get_variant("international")
    geometry = variant.geometry
    squares = {name: geometry.number_of_name(name) for name in ("a3", "g3", "b4", "f4", "f6")}
    fen = f"W:W{squares['a3']},{squares['g3']}:B{squares['b4']},{squares['f4']},{squares['f6']}"
    hand = TrackerHand(Tracker(parse_fen(variant, fen), Mode.TOURNAMENT, check_start=False))
    hand.move("a3", "c5")
    assert hand.tracker.state is State.ILLEGAL
    assert hand.intent("illegal") == ["c5"]
    hand.lift("c5").place("a3")
    assert hand.tracker.state is State.READY
    hand.move("g3", "e5", "g7").lift("f4", "f6")
    assert hand.moves() == ["39x19"]  # g3 x f4, f6 to g7


def lasca(fen=None, mode=Mode.TOURNAMENT):
    variant = get_variant("lasca")
    position = initial_position(variant) if fen is None else parse_fen(variant, fen)
    return TrackerHand(Tracker(position, mode, check_start=False))


def test_lasca_illegal_move_and_its_restore():
    hand = lasca()
    hand.move("a3", "f4")
    assert hand.tracker.state is State.ILLEGAL
    assert hand.intent("illegal") == ["f4"]
    assert hand.intent("restore") == ["a3", "f4"]
    hand.lift("f4").place("a3")
    assert hand.tracker.state is State.READY
    hand.move("a3", "b4")
    assert hand.moves() == ["a3-b4"]


# An officer on d2 takes the four columns round d4 and comes back to d2, either way round;
# c3 is a black officer, so the two orders build different columns under the capturer.
LOOP = "W:d2=W,c3=B,e3=b,c5=b,e5=b,g7=b"


def test_lasca_capture_shown_square_by_square_is_told_apart_by_its_landings():
    hand = lasca(LOOP)
    hand.move("d2", "f4", "d6", "b4", "d2").lift("e3", "e5", "c5", "c3")
    assert hand.moves() == ["d2xf4xd6xb4xd2"]
    assert hand.tracker.position.column_at(hand.geometry.number_of_name("d2")) == "WbbbB"


def test_ambiguous_lasca_capture_is_never_guessed_and_a_touch_resolves_it():
    hand = lasca(LOOP)
    hand.lift("d2").place("d2")  # lifted and put straight back: no landing shown
    hand.lift("c3", "c5", "e5", "e3")
    assert hand.moves() == []
    assert hand.tracker.state is State.AMBIGUOUS
    assert hand.intent("ambiguous") == ["b4", "f4"]
    hand.lift("d2").place("b4").wait(0.2)  # touch: the column shown on b4, the first landing
    assert hand.moves() == []
    hand.lift("b4").place("d2")
    assert hand.moves() == ["d2xb4xd6xf4xd2"]
    move = [e for e in hand.events if e.kind == "move"][-1]
    assert "ambiguous capture resolved by touch" in move.notes
    assert hand.flags() == []


def test_promotion_by_stacking_a_second_piece():
    hand = russian(fen="W:W6:B20")  # white man c7, black man h4
    hand.move("c7", "d8")
    assert hand.moves() == ["c7-d8"]
    hand.lift("d8").place("d8")  # a second piece put on: the man is lifted and set back
    assert hand.flags() == []
    assert hand.tracker.position.piece_at(hand.geometry.number_of_name("d8")) == "W"
    hand.move("h4", "g3")
    assert hand.moves() == ["c7-d8", "h4-g3"]


def test_quiet_move_while_a_capture_is_required_is_illegal_in_training_too():
    hand = russian(Mode.TRAINING)
    play_text(hand, OPENING)
    assert hand.intent("must_capture") == ["d4"]
    hand.move("g3", "h4")
    assert hand.tracker.state is State.ILLEGAL
    assert hand.intent("illegal") == ["h4"]
    hand.lift("h4").place("g3")
    assert hand.tracker.state is State.READY
    assert hand.intent("must_capture") == ["d4"]


# Every column the officer on d6 jumps keeps a piece: the capture leaves the occupancy as it
# was, and only the landings, shown one by one, say that it was played.
INVISIBLE_LOOP = "W:c1=Bww,f2=bw,c3=bw,e3=bw,d4=bbw,a5=b,c5=bw,e5=bw,d6=WbB,f6=ww"


def test_a_loop_capture_that_empties_no_square_is_seen_by_its_landings():
    hand = lasca(INVISIBLE_LOOP)
    hand.move("d6", "b4", "d2", "f4", "d6").wait(0.2)
    assert hand.moves() == ["d6xb4xd2xf4xd6"]
    assert hand.flags() == []
    hand.lift("d6").place("d6")  # lifted and put straight back: not a move
    assert hand.moves() == ["d6xb4xd2xf4xd6"]


# Column draughts, White to move: the man on b6 could take four columns round d6 and come
# back to b6, emptying only f6. Lifting the black man on f6 makes the board look like that
# capture done; but the man on b6 never left its square.
LOOP_BY_A_LIFT = "W:a1=w,b2=w,f2=bwww,h2=bww,f4=Bwww,c5=bw,b6=wbbb,f6=b,h6=B,c7=bb,b8=b"


def test_a_capture_back_to_its_start_is_not_made_by_lifting_another_piece():
    variant = get_variant("column")
    hand = TrackerHand(Tracker(parse_fen(variant, LOOP_BY_A_LIFT), check_start=False))
    hand.lift("f6").wait(0.5).place("f6")
    assert hand.moves() == [] and hand.flags() == []
    assert hand.tracker.state is State.READY


def test_a_brush_on_a_blinking_square_is_not_a_touch():
    hand = lasca(LOOP)
    hand.lift("d2").place("d2")
    hand.lift("c3", "c5", "e5", "e3")
    assert hand.tracker.state is State.AMBIGUOUS
    hand.place("f4").lift("f4")  # closed 0.05 s: a hand passing over it
    hand.lift("d2").place("d2")
    assert hand.moves() == [] and hand.tracker.state is State.AMBIGUOUS
    hand.place("f4").wait(0.2).lift("f4")  # a deliberate touch on f4
    assert hand.moves() == ["d2xf4xd6xb4xd2"]


def test_a_piece_slid_across_a_landing_square_has_not_landed_there():
    hand = lasca(LOOP)
    # slid over b4 on its way (0 s there), then shown on f4, d6, b4 and home
    hand.lift("d2").place("b4").lift("b4")
    hand.place("f4").wait(0.15).lift("f4").place("d6").wait(0.15).lift("d6")
    hand.place("b4").wait(0.15).lift("b4").place("d2")
    hand.lift("e3", "e5", "c5", "c3")
    assert hand.moves() == ["d2xf4xd6xb4xd2"] and hand.flags() == []


# Column draughts, White to move: f6 may take g5 and land on h4, or go round by d4, b6 and
# d8 and come to h4 as well; every column jumped keeps a piece, so both leave one board.
STRAIGHT_OR_ROUND = "W:d2=bww,c5=bw,e5=Bbbbww,g5=bwwww,f6=ww,c7=bbbw,g7=b,b8=b"


def column(fen):
    variant = get_variant("column")
    return TrackerHand(Tracker(parse_fen(variant, fen), check_start=False))


def test_a_capture_straight_to_its_end_is_told_by_a_touch_on_its_start():
    hand = column(STRAIGHT_OR_ROUND)
    hand.lift("f6").place("h4").wait(0.3)  # straight there: no landing shown
    assert hand.tracker.state is State.AMBIGUOUS
    assert hand.intent("ambiguous") == ["d4", "f6"]  # the round way's landing, the start
    hand.lift("h4").place("f6").wait(0.3).lift("f6").place("h4")  # a touch on f6
    assert hand.moves() == ["f6xh4"]


def test_the_piece_left_back_on_its_start_is_no_move():
    hand = column(STRAIGHT_OR_ROUND)
    hand.lift("f6").place("h4").wait(0.3)
    hand.lift("h4").place("f6").wait(1.5)  # put back and left there
    assert hand.tracker.state is State.READY and hand.moves() == []
    hand.lift("f6").place("h4").wait(0.3).lift("h4").place("d4").wait(0.3).lift("d4")
    hand.place("h4")  # ... the round way, its first landing touched
    assert hand.moves() == ["f6xd4xb6xd8xh4"]


# Column draughts, White to move: b2 takes on d4, and may stop there, or go on round by b6,
# d8 and f6 and come back to d4, one way or the other; every column keeps a piece.
ROUND_THROUGH_THE_END = ("W:a1=w,b2=w,h2=w,c3=bww,e3=w,b4=b,h4=wb,c5=bww,e5=bw,h6=wb,a7=b,"
                         "c7=bb,e7=bbb,g7=w")


def test_a_landing_that_is_also_an_end_does_not_stop_a_capture_shown_on():
    hand = column(ROUND_THROUGH_THE_END)
    hand.move("b2", "d4", "b6", "d8", "f6", "d4", rest=0.3)
    assert hand.flags() == [] and hand.tracker.state is not State.AMBIGUOUS
    hand.wait(1.5)
    assert hand.moves() == ["b2xd4xb6xd8xf6xd4"]



# Column draughts, Black to move: the king on e1 may go round by c3, f6 and d8 to a5, or
# the other way round to c3; both leave one board when it is on c3 (every column keeps a
# piece). Put down on c3 first, it is going round, not stopping.
KING_EITHER_WAY = "B:a1=Wbbbbbbb,e1=Bw,d2=wwwb,d4=Www,b6=wwwBb,e7=Wb"


def test_a_first_landing_that_ends_another_way_is_not_taken_for_its_end():
    hand = column(KING_EITHER_WAY)
    hand.move("e1", "c3", "f6", "d8", "a5", rest=0.3)
    hand.wait(1.5)
    assert hand.moves() == ["e1xc3xf6xd8xa5"] and hand.flags() == []


# Column draughts on 7x7, Black to move: e5 goes round by g3, e1 and c3, comes back over
# its own start square e5 and ends on c7 (taking f4, f2, d2, d4 and d6). Back on e5 with
# every prisoner still on the board, the board looks untouched; the way on from there to
# c7 is also the short capture e5xc7 (d6 keeps pieces, so it leaves the same board).
THROUGH_ITS_START = ("B:c1=w,g1=w,d2=w,f2=w,b4=w,d4=w,f4=w,a5=b,c5=b,e5=b,g5=bw,d6=Wbbbbb,"
                     "f6=bww,a7=b")


def test_a_capture_that_passes_its_own_start_is_not_cut_there():
    variant = get_variant("column-7x7")
    hand = TrackerHand(Tracker(parse_fen(variant, THROUGH_ITS_START), check_start=False))
    hand.move("e5", "g3", "e1", "c3", "e5", "c7", rest=0.2)
    hand.wait(1.5)
    assert hand.moves() == []  # the prisoners are still on the board
    hand.lift("f4", "f2", "d2", "d4")
    hand.wait(0.5)
    assert hand.moves() == ["e5xg3xe1xc3xe5xc7"] and hand.flags() == []
