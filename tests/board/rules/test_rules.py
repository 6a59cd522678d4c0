"""One test per rule of the rules page, each on a hand-made position.

Squares are algebraic from White's side; `summary` lists each legal move as
(start, end, captured squares).
"""

from draughtsboard.board.rules.notation import parse_move

from ..helpers import notations, position, summary

# -- shared by both games -------------------------------------------------------------------

def test_men_move_one_square_diagonally_forward_only():
    pos = position("russian", white=["c3"], black=["h8"])
    assert summary(pos) == [("c3", "b4", ()), ("c3", "d4", ())]
    black = position("russian", white=["a1"], black=["f6"], to_move="B")
    assert summary(black) == [("f6", "e5", ()), ("f6", "g5", ())]


def test_capturing_is_compulsory():
    pos = position("russian", white=["c3", "g3"], black=["d4"])
    assert summary(pos) == [("c3", "e5", ("d4",))]


def test_a_capture_goes_on_while_it_can():
    pos = position("russian", white=["a1"], black=["b2", "d4", "f6"])
    assert summary(pos) == [("a1", "g7", ("b2", "d4", "f6"))]


def test_men_capture_backwards_in_both_games():
    assert summary(position("russian", white=["e5"], black=["d4"])) == [("e5", "c3", ("d4",))]
    assert summary(position("international", white=["e5"], black=["d4"])) == [
        ("e5", "c3", ("d4",))]


def test_start_square_counts_as_empty_and_no_piece_is_jumped_twice():
    # Four men round d4: the man on d2 takes all four and comes back to d2; both ways round
    # are one move (same start, end and captured set), and c3 is not taken a second time.
    pos = position("russian", white=["d2"], black=["c3", "c5", "e5", "e3"])
    assert summary(pos) == [("d2", "d2", ("c3", "c5", "e3", "e5"))]


def test_a_jumped_piece_blocks_the_way():
    # The king takes c3 and then b6 from d4 (landing a7), or f4 from e5. On its way back
    # down the long diagonal the jumped c3 still stands: the king can never pass it, so
    # no capture takes c3 twice or runs through it back to a1 or b2.
    pos = position("russian", white_kings=["a1"], black=["c3", "f4", "b6"])
    assert summary(pos) == [("a1", "a7", ("b6", "c3")), ("a1", "g3", ("c3", "f4")),
                            ("a1", "h2", ("c3", "f4"))]


def test_flying_king_moves_any_distance_along_a_free_diagonal():
    pos = position("russian", white_kings=["a1"], black=["h8"])
    assert summary(pos) == [("a1", square, ()) for square in
                            ["b2", "c3", "d4", "e5", "f6", "g7"]]


def test_flying_king_captures_at_a_distance_and_lands_anywhere_beyond():
    pos = position("russian", white_kings=["a1"], black=["d4"])
    assert summary(pos) == [("a1", end, ("d4",)) for end in ["e5", "f6", "g7", "h8"]]


def test_king_must_land_where_it_can_continue():
    # After taking c3 the king could stop on d4 .. h8, but from e5 it can take f4: it must.
    pos = position("russian", white_kings=["a1"], black=["c3", "f4"])
    assert summary(pos) == [("a1", "g3", ("c3", "f4")), ("a1", "h2", ("c3", "f4"))]


def test_no_legal_move_loses():
    blocked = position("russian", white=["a1"], black=["b2", "c3"])
    assert blocked.legal_moves() == []
    assert blocked.is_game_over()
    assert position("russian", white=[], black=["b2"]).is_game_over()


# -- Russian ------------------------------------------------------------------------------

def test_russian_man_crowned_during_a_capture_continues_as_a_king():
    pos = position("russian", white=["b6"], black=["c7", "f6"])
    assert summary(pos) == [("b6", "g5", ("c7", "f6")), ("b6", "h4", ("c7", "f6"))]
    after = pos.play(parse_move(pos, "b6:g5"))
    assert after.piece_at(after.variant.geometry.number_of_name("g5")) == "W"


def test_russian_man_reaching_the_last_row_without_capture_is_crowned():
    pos = position("russian", white=["c7"], black=["h4"])
    after = pos.play(parse_move(pos, "c7-d8"))
    assert after.piece_at(after.variant.geometry.number_of_name("d8")) == "W"


def test_russian_free_choice_among_captures():
    # One piece or two: both are legal in Russian draughts (no majority rule).
    pos = position("russian", white=["a3", "g3"], black=["b4", "f4", "f6"])
    assert summary(pos) == [("a3", "c5", ("b4",)), ("g3", "g7", ("f4", "f6"))]


# -- International ------------------------------------------------------------------------

def test_international_man_passing_the_last_row_stays_a_man():
    # d8 x e9 lands on f10 (the last row) but must go on x g9 to h8: it stays a man.
    pos = position("international", white=["d8"], black=["e9", "g9"])
    assert summary(pos) == [("d8", "h8", ("e9", "g9"))]
    after = pos.play(pos.legal_moves()[0])
    assert after.piece_at(after.variant.geometry.number_of_name("h8")) == "w"


def test_international_man_ending_its_capture_on_the_last_row_is_crowned():
    pos = position("international", white=["d8"], black=["e9"])
    after = pos.play(pos.legal_moves()[0])
    assert after.piece_at(after.variant.geometry.number_of_name("f10")) == "W"


def test_international_majority_rule():
    pos = position("international", white=["a3", "g3"], black=["b4", "f4", "f6"])
    assert summary(pos) == [("g3", "g7", ("f4", "f6"))]


def test_international_majority_a_man_taking_two_beats_a_king_taking_one():
    pos = position("international", white=["g1", "d4"], white_kings=["a1"],
                   black=["h2", "h4"], black_kings=["b2"])
    assert summary(pos) == [("g1", "g5", ("h2", "h4"))]


def test_international_majority_equal_counts_leave_free_choice_man_or_king():
    pos = position("international", white=["g1", "d4"], white_kings=["a1"],
                   black=["h2"], black_kings=["b2"])
    assert summary(pos) == [("a1", "c3", ("b2",)), ("g1", "i3", ("h2",))]


def test_international_majority_a_king_taking_two_beats_a_man_taking_one():
    # Kings and men count the same: the king's two pieces (one of them a king) win.
    pos = position("international", white=["a3"], white_kings=["j2"], black=["b4"],
                   black_kings=["i3", "f6"])
    moves = summary(pos)
    assert {start for start, _, _ in moves} == {"j2"}
    assert {captured for _, _, captured in moves} == {("f6", "i3")}


def test_russian_notation_uses_colon_and_international_x():
    assert notations(position("russian", white=["c3"], black=["d4"])) == ["c3:e5"]
    assert notations(position("international", white=["c3"], black=["d4"])) == ["37x28"]
