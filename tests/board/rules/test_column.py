"""Column draughts with Russian mechanics (`column` 8x8, `column-7x7`): one test per rule
on a hand-made position, perft from the initial positions, and a property test over random
play for every column game.
"""

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draughtsboard.board.rules import Position, initial_position
from draughtsboard.board.rules.fen import format_fen, parse_fen
from draughtsboard.board.rules.notation import format_move, parse_move
from draughtsboard.board.rules.perft import perft
from draughtsboard.board.rules.variants import VARIANTS, get_variant

from .stacks import TABLES, column, moves, play

COLUMN = get_variant("column")
COLUMN_7X7 = get_variant("column-7x7")
SHALLOW = {"column": 5, "column-7x7": 10}


def pos(text, variant=COLUMN):
    return parse_fen(variant, text)


# -- the games as data -----------------------------------------------------------------------

def test_numbering_column_as_russian_and_column_7x7_as_lasca():
    assert [COLUMN.geometry.name(n) for n in (1, 4, 29, 32)] == ["b8", "h8", "a1", "g1"]
    assert [COLUMN_7X7.geometry.name(n) for n in (1, 2, 25)] == ["a1", "c1", "g7"]


def test_initial_positions():
    start = initial_position(COLUMN)
    assert [start.column_at(n) for n in range(1, 33)] == ["b"] * 12 + [""] * 8 + ["w"] * 12
    start = initial_position(COLUMN_7X7)
    assert [start.column_at(n) for n in range(1, 26)] == ["w"] * 11 + [""] * 3 + ["b"] * 11


def test_every_variant_has_its_own_pdn_gametype_and_variant_tag():
    keys = [(v.pdn_gametype, v.pdn_variant_tag) for v in VARIANTS.values()]
    assert len(set(keys)) == len(keys)
    for variant in (COLUMN, COLUMN_7X7):
        _, colour, width, height, notation, invert = variant.pdn_gametype.split(",")
        size = str(variant.geometry.size)
        assert (colour, width, height, notation, invert) == ("W", size, size, "A0", "0")
        assert variant.pdn_variant_tag


@pytest.mark.parametrize("name", sorted(SHALLOW))
def test_perft_from_the_initial_position_matches_the_table(name):
    start = initial_position(get_variant(name))
    depths = range(1, SHALLOW[name] + 1)
    assert [perft(start, depth) for depth in depths] == TABLES[name][:len(depths)]


# -- movement ----------------------------------------------------------------------------------

def test_a_column_moves_as_its_top_piece_man_forward_king_flying():
    assert moves(pos("W:c3=wB,h8=b")) == ["c3-b4", "c3-d4"]
    assert moves(pos("W:a1=Wbb,h8=b")) == [f"a1-{s}" for s in ("b2", "c3", "d4", "e5", "f6",
                                                                 "g7")]
    after = play(pos("W:a1=Wbb,h8=b"), "a1-f6")
    assert column(after, "f6") == "Wbb"


# -- captures ----------------------------------------------------------------------------------

def test_men_capture_forward_and_backward():
    assert moves(pos("W:e5=w,d4=b")) == ["e5xc3"]
    assert moves(pos("W:e5=w,d4=b", COLUMN_7X7)) == ["e5xc3"]


def test_capturing_is_compulsory_with_free_choice_and_carried_to_the_end():
    assert moves(pos("W:a3=w,g3=w,b4=b,f4=b,f6=b")) == ["a3xc5", "g3xe5xg7"]


def test_kings_capture_at_a_distance_landing_on_any_free_square_beyond():
    assert moves(pos("W:a1=W,d4=bw")) == ["a1xe5", "a1xf6", "a1xg7", "a1xh8"]
    after = play(pos("W:a1=W,d4=bw"), "a1xg7")
    assert (column(after, "g7"), column(after, "d4")) == ("Wb", "w")


def test_a_king_must_land_where_it_can_go_on_capturing():
    # After c3 the king could stop anywhere from d4 to h8, but from e5 it can take f4.
    assert moves(pos("W:a1=W,c3=b,f4=b")) == ["a1xe5xg3", "a1xe5xh2"]


def test_only_the_top_piece_is_taken_and_the_rest_changes_owner():
    after = play(pos("W:c3=w,d4=bW,h8=b"), "c3xe5")
    assert column(after, "e5") == "wb"
    assert column(after, "d4") == "W"
    assert after.piece_at(COLUMN.geometry.number_of_name("d4")) == "W"


def test_prisoners_go_under_the_capturing_column_in_the_order_taken():
    # c3 takes d4 (a black king) then f6 (a black man): the king lies directly under the
    # original column, the man under the king. f6's white man is uncovered and now White's.
    position = pos("W:c3=wb,d4=B,f6=bw")
    assert moves(position) == ["c3xe5xg7"]
    after = play(position, "c3xe5xg7")
    assert column(after, "g7") == "wbBb"
    assert (column(after, "d4"), column(after, "f6")) == ("", "w")
    assert after.white & (1 << COLUMN.geometry.bit_of_name["f6"])


def test_a_man_crowned_during_a_capture_goes_on_as_a_king():
    position = pos("W:b6=w,c7=b,f6=b")
    assert moves(position) == ["b6xd8xg5", "b6xd8xh4"]
    after = play(position, "b6xd8xh4")
    assert column(after, "h4") == "Wbb"
    # On 7x7 too, where Lasca's own rules (variant lasca) would stop on the last row.
    seven = pos("W:c5=w,d6=b,f6=b", COLUMN_7X7)
    assert moves(seven) == ["c5xe7xg5"]
    assert column(play(seven, "c5xe7xg5"), "g5") == "Wbb"


def test_a_mans_capture_may_loop_back_over_its_own_start_square():
    # The start square counts as empty: round e5-g5-g3-e3 and back to d4, then on over c3.
    # Both ways round are different moves (different columns), and so is d4xb2 alone.
    position = pos("W:d4=w,e5=b,g5=b,g3=B,e3=b,c3=b")
    assert moves(position) == ["d4xb2", "d4xf2xh4xf6xd4xb2", "d4xf6xh4xf2xd4xb2"]
    assert column(play(position, "d4xf6xh4xf2xd4xb2"), "b2") == "wbbBbb"
    assert column(play(position, "d4xf2xh4xf6xd4xb2"), "b2") == "wbBbbb"


def test_a_jumped_column_blocks_a_kings_later_path_and_is_not_jumped_twice():
    # The king takes c3 (a column of two black men) first. On the e1-a5 diagonal c3 still
    # stands after it is jumped, black on top: from e1 the king can neither jump it again
    # nor pass it to reach b4.
    position = pos("W:b2=W,c3=bb,f4=b,f2=b,b4=b,h8=b")
    assert moves(position) == ["b2xd4xg1", "b2xe5xg3xe1"]
    after = play(position, "b2xe5xg3xe1")
    assert (column(after, "e1"), column(after, "c3"), column(after, "b4")) == ("Wbbb", "b",
                                                                              "b")


def test_no_legal_move_or_no_column_on_top_loses():
    assert pos("W:a1=w,b2=b,c3=b").is_game_over()
    assert pos("B:c3=wb,e3=wB,a1=w").is_game_over()
    assert pos("B:c3=wb,e3=wB,a1=w", COLUMN_7X7).is_game_over()


def test_position_text_round_trips_with_numbers_on_input():
    text = "W:a1=w,c3=wbB,d8=Bw"
    assert format_fen(pos(text)) == text
    assert format_fen(pos("W:29=w,22=wbB,2=Bw")) == text


# -- the commands ------------------------------------------------------------------------------

def _run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "draughtsboard", *args], input=stdin,
                          capture_output=True, text=True)


@pytest.mark.slow
def test_moves_json_uses_the_variant_square_numbers_and_batch_mode_reads_lines():
    result = _run("moves", "--variant", "column-7x7", "--json",
                  stdin="W:a1=w,b2=b\nW:b1=w\nW:d2=W,c3=b,c5=bww,g7=b\n")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0] == [{"notation": "a1xc3", "path": [1, 9], "captures": [5]}]
    assert lines[1] == []
    # A flying king: after c3 and c5 it may stop on d6 or e7; squares are numbers 1-25.
    assert lines[2] == [{"notation": "d2xb4xd6", "path": [6, 12, 20], "captures": [9, 16]},
                        {"notation": "d2xb4xe7", "path": [6, 12, 24], "captures": [9, 16]}]
    assert "'b1' is not a playable square" in result.stderr
    assert result.returncode == 1


@pytest.mark.slow
@pytest.mark.parametrize(("name", "counts"), [("lasca", [6, 6, 18]), ("column", [7, 49, 302]),
                                              ("column-7x7", [6, 6, 18])])
def test_perft_command_takes_the_column_variants(name, counts):
    result = _run("perft", "--variant", name, "--depth", "3")
    assert result.returncode == 0, result.stderr
    assert [int(line.split()[1]) for line in result.stdout.splitlines()] == counts


# -- property: random play keeps the columns consistent -----------------------------------------

def _check_consistent(position):
    variant = position.variant
    columns = position.columns
    total = sum(len(c) for c in columns)
    for bit, content in enumerate(columns):
        assert set(content) <= set("wbWB")
        if content:
            assert variant.geometry.board_mask >> bit & 1
    rebuilt = Position.from_columns(variant, columns, position.white_to_move)
    assert (position.white, position.black, position.kings) == (
        rebuilt.white, rebuilt.black, rebuilt.kings)
    assert parse_fen(variant, format_fen(position)) == position
    return total


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["lasca", "column", "column-7x7"]),
       choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=120))
def test_random_play_conserves_pieces_and_keeps_tops_consistent(name, choices):
    variant = get_variant(name)
    position = initial_position(variant)
    pieces = _check_consistent(position)
    white_pieces = sum(c.count("w") + c.count("W") for c in position.columns)
    for choice in choices:
        legal = position.legal_moves()
        if not legal:
            assert position.is_game_over()
            break
        move = legal[choice % len(legal)]
        # Every move is read back from its own notation.
        assert parse_move(position, format_move(position, move, legal)) == move
        position = position.play(move)
        assert _check_consistent(position) == pieces
        assert sum(c.count("w") + c.count("W") for c in position.columns) == white_pieces
        assert position.occupancy().bit_count() == sum(1 for c in position.columns if c)


def _perft_by_play(position, depth):
    if depth == 0:
        return 1
    return sum(_perft_by_play(position.play(move), depth - 1) for move in position.legal_moves())


@pytest.mark.parametrize(("name", "text"), [
    ("lasca", "W:b2=wB,c3=bWw,d4=w,e5=bbW,c5=Bw,f6=b,g7=bw,a7=B"),
    ("lasca", "B:a1=W,c3=bw,d4=wB,e5=Wb,d6=bww,f6=wb,e7=B"),
    ("column", "W:a1=W,c3=bWw,e5=bb,d6=wB,f4=Bw,b6=b,h6=bw,g7=b,c7=Bbw"),
    ("column-7x7", "B:b2=wB,d2=Wb,c3=bWw,e5=bbW,c5=Bw,f6=b,g7=bw"),
])
def test_fast_perft_on_columns_agrees_with_playing_every_move(name, text):
    # Perft keeps one mutable list of columns and reads them only on the last two plies;
    # playing each move into a new Position is the slow reference.
    position = parse_fen(get_variant(name), text)
    for depth in range(1, 5):
        assert perft(position, depth) == _perft_by_play(position, depth), f"depth {depth}"
