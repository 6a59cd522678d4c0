"""Lasca (Lasker's rules, docs/columns.md): one test per rule on a hand-made position, the
position text, the move notation and perft from the initial position.

Positions are written in the column text, ``W:c3=wbB,...`` (columns top first).
"""

import re

import pytest

from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.errors import InvalidFenError, InvalidPositionError
from draughtsboard.board.rules.fen import format_fen, parse_fen
from draughtsboard.board.rules.notation import parse_move
from draughtsboard.board.rules.perft import perft
from draughtsboard.board.rules.variants import get_variant

from .stacks import TABLES, column, moves, play

LASCA = get_variant("lasca")


def pos(text, variant=LASCA):
    return parse_fen(variant, text)


# -- the game as data ------------------------------------------------------------------------

def test_lasca_is_a_registered_variant_on_7x7_numbered_from_a1():
    geometry = LASCA.geometry
    assert (geometry.size, geometry.square_count) == (7, 25)
    assert [geometry.name(n) for n in (1, 2, 4, 5, 8, 25)] == ["a1", "c1", "g1", "b2", "a3",
                                                               "g7"]
    assert LASCA.holds_columns and LASCA.pieces_per_side == 11


def test_initial_position_white_on_1_to_11_black_on_15_to_25_white_first():
    start = initial_position(LASCA)
    assert start.white_to_move
    assert [start.column_at(n) for n in range(1, 26)] == ["w"] * 11 + [""] * 3 + ["b"] * 11


def test_pdn_gametype_is_a_full_spec_for_7x7_algebraic_from_a1_with_a_variant_tag():
    assert re.fullmatch(r"[0-9]+(,[WB],[0-9]+,[0-9]+,[ANS][0123](,[01])?)?",
                        LASCA.pdn_gametype)
    _, colour, width, height, notation, invert = LASCA.pdn_gametype.split(",")
    assert (colour, width, height, notation, invert) == ("W", "7", "7", "A0", "0")
    assert LASCA.pdn_variant_tag == "Lasca"


# -- perft -------------------------------------------------------------------------------------

def test_perft_from_the_initial_position_matches_the_table():
    start = initial_position(LASCA)
    table = TABLES["lasca"]
    assert [perft(start, depth) for depth in range(1, 11)] == table[:10]


# -- movement --------------------------------------------------------------------------------

def test_men_move_one_square_diagonally_forward_only():
    assert moves(pos("W:c3=w,g7=b")) == ["c3-b4", "c3-d4"]
    assert moves(pos("B:d4=b,a1=w")) == ["d4-c3", "d4-e3"]


def test_a_column_moves_as_its_top_piece_and_takes_what_is_under_it_along():
    after = play(pos("W:c3=wbB,g7=b"), "c3-d4")
    assert column(after, "d4") == "wbB" and column(after, "c3") == ""


def test_officers_move_one_square_in_any_direction_and_do_not_fly():
    assert moves(pos("W:d4=W,g7=b")) == ["d4-c3", "d4-c5", "d4-e3", "d4-e5"]
    # The enemy on d4 is two squares away from the officer on b2: no capture at a distance.
    assert moves(pos("W:b2=W,d4=b")) == ["b2-a1", "b2-a3", "b2-c1", "b2-c3"]


# -- captures ----------------------------------------------------------------------------------

def test_men_capture_forward_only():
    assert moves(pos("W:d4=w,c3=b,a1=b")) == ["d4-c5", "d4-e5"]
    assert moves(pos("W:d4=w,c5=b")) == ["d4xb6"]


def test_capturing_is_compulsory_with_free_choice():
    # One piece or two: every capture is legal (no majority rule), the quiet moves are not.
    assert moves(pos("W:a3=w,e3=w,b4=b,f4=b,f6=b,g7=b")) == ["a3xc5", "e3xg5xe7"]
    assert moves(pos("W:c3=w,e3=w,b4=b,d4=b,d6=b,g7=b")) == ["c3xa5", "c3xe5xc7", "e3xc5xe7"]


def test_only_the_top_piece_of_a_jumped_column_is_taken_and_goes_under_the_capturer():
    after = play(pos("W:b2=wW,c3=bbw,g7=b"), "b2xd4")
    assert column(after, "d4") == "wWb"
    assert column(after, "c3") == "bw"
    assert after.piece_at(LASCA.geometry.number_of_name("c3")) == "b"


def test_the_rest_of_a_jumped_column_stays_and_changes_owner():
    after = play(pos("W:b2=w,c3=bw,g7=b"), "b2xd4")
    assert column(after, "c3") == "w"
    assert after.piece_at(LASCA.geometry.number_of_name("c3")) == "w"
    # Now White's: it moves for White.
    assert "c3-b4" in moves(pos(format_fen(after).replace("B:", "W:", 1)))


def test_a_buried_officer_is_still_an_officer_when_uncovered():
    after = play(pos("B:d4=b,c3=wBw,a1=w"), "d4xb2")
    assert column(after, "c3") == "Bw"
    assert after.piece_at(LASCA.geometry.number_of_name("c3")) == "B"
    # Black to move again: the uncovered officer moves backwards, which a man cannot.
    again = pos("B:" + format_fen(after).split(":", 1)[1])
    assert {"c3-d4", "c3-b4"} <= set(moves(again))


def test_a_multiple_capture_must_go_on():
    assert moves(pos("W:b2=w,c3=b,e5=b,a7=b")) == ["b2xd4xf6"]


def test_a_man_reaching_the_far_row_in_a_capture_is_promoted_and_the_move_ends():
    # As an officer on e7 it could go on over f6 to g5, but the move stops at promotion.
    position = pos("W:c5=w,d6=b,f6=b")
    assert moves(position) == ["c5xe7"]
    after = play(position, "c5xe7")
    assert column(after, "e7") == "Wb"
    assert column(after, "f6") == "b"


def test_a_man_reaching_the_far_row_with_a_quiet_move_is_promoted():
    after = play(pos("W:d6=wb,a1=b"), "d6-e7")
    assert column(after, "e7") == "Wb"


def test_a_column_may_not_be_jumped_twice_in_one_move():
    # After d4xb6 the column on c5 still has a black top and d4 is empty again, but c5 has
    # been jumped once already: the capture ends on b6.
    position = pos("W:d4=W,c5=bb")
    assert moves(position) == ["d4xb6"]
    after = play(position, "d4xb6")
    assert (column(after, "b6"), column(after, "c5")) == ("Wb", "b")


def test_different_capture_orders_are_different_moves_building_different_columns():
    # The officer goes round d4 either way and comes back to d2 (its start square counts as
    # empty): same start, end and captured set, two moves.
    position = pos("W:d2=W,c3=b,c5=B,e5=b,e3=B")
    assert moves(position) == ["d2xb4xd6xf4xd2", "d2xf4xd6xb4xd2"]
    assert column(play(position, "d2xb4xd6xf4xd2"), "d2") == "WbBbB"
    assert column(play(position, "d2xf4xd6xb4xd2"), "d2") == "WBbBb"


# -- end of the game ---------------------------------------------------------------------------

def test_no_legal_move_loses():
    blocked = pos("W:a1=w,b2=b,c3=b")
    assert blocked.legal_moves() == [] and blocked.is_game_over()


def test_a_side_whose_columns_are_all_covered_loses():
    covered = pos("B:c3=wb,e3=wB,a1=w")
    assert covered.black == 0
    assert covered.is_game_over()
    assert not pos("W:c3=wb,e3=wB,a1=w").is_game_over()


# -- position text -----------------------------------------------------------------------------

def test_position_text_round_trips_and_accepts_numbers_and_spaces():
    text = "W:a1=w,c3=wbB,d4=B,g7=bW"
    assert format_fen(pos(text)) == text
    assert format_fen(pos("W: 1=w, 9 = wbB, 13=B, 25=bW.")) == text
    assert format_fen(pos("B:")) == "B:"
    assert format_fen(pos('"W:d4:WbbB, a1=w."')) == "W:a1=w,d4=WbbB"  # the rule text's d4:WbbB


def test_position_text_sets_the_top_bitboards():
    position = pos("B:c3=wbB,d4=Bw")
    c3, d4 = (1 << LASCA.geometry.bit_of_name[name] for name in ("c3", "d4"))
    assert (position.white, position.black, position.kings) == (c3, d4, d4)
    assert not position.white_to_move


@pytest.mark.parametrize(("text", "error", "named"), [
    ("W:d4=", InvalidFenError, "'d4='"),
    ("W:d4=wx", InvalidFenError, "'x'"),
    ("W:d4=w k", InvalidFenError, "' '"),
    ("W:b1=w", InvalidFenError, "'b1'"),
    ("W:h8=w", InvalidFenError, "'h8'"),
    ("W:26=w", InvalidFenError, "'26'"),
    ("W:0=w", InvalidFenError, "'0'"),
    ("W:a1=w,1=b", InvalidPositionError, "a1 given twice"),
    ("W:a1", InvalidFenError, "'a1'"),
    ("X:a1=w", InvalidFenError, "'X'"),
    ("", InvalidFenError, "empty"),
    ("W:a1=wwwwwwwwwwww", InvalidPositionError, "White has 12 pieces"),
])
def test_each_bad_token_is_an_error_that_names_it(text, error, named):
    with pytest.raises(error) as caught:
        pos(text)
    assert named in str(caught.value)


# -- notation ----------------------------------------------------------------------------------

def test_moves_are_written_by_landing_squares():
    position = pos("W:d2=W,c3=b,c5=bww,g7=b")
    assert moves(position) == ["d2xb4xd6"]
    assert parse_move(position, "d2xb4xd6") == parse_move(position, "d2 x b4 x d6")
    assert str(parse_move(position, "6x12x20")) == "6x12x20"
