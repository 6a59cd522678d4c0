"""Position text (FEN), move notation, the errors by cause, and the `moves` command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from draughtsboard.board.rules import errors, initial_position
from draughtsboard.board.rules.fen import format_fen, parse_fen
from draughtsboard.board.rules.notation import format_move, parse_move, split_move
from draughtsboard.board.rules.position import Move
from draughtsboard.board.rules.variants import get_variant

RUSSIAN = get_variant("russian")
INTERNATIONAL = get_variant("international")

# A Russian king on a7 that can reach d8 two ways, taking different pieces:
# a7 x c5 (land d4) x e5 (land f6) x e7 -> d8, or a7 x c5 (land e3) x f4 (land g5) x e7 -> d8.
TWO_WAYS_TO_D8 = "W:WK5:B7,14,15,19"


def russian(text):
    return parse_fen(RUSSIAN, text)


def international(text):
    return parse_fen(INTERNATIONAL, text)


# -- FEN reading -------------------------------------------------------------------------------

def test_ranges_read_as_every_square_of_the_run():
    assert russian("W:W21-32:B1-12") == initial_position(RUSSIAN)
    assert international("W:W31-50:B1-20") == initial_position(INTERNATIONAL)
    assert russian("W:W21-23,29:B1-2") == russian("W:W21,22,23,29:B1,2")


def test_k_marks_a_king():
    position = international("B:WK46,31:BK5,10")
    assert position.piece_at(46) == "W"
    assert position.piece_at(31) == "w"
    assert position.piece_at(5) == "B"
    assert position.piece_at(10) == "b"
    assert not position.white_to_move


def test_russian_squares_may_be_algebraic():
    assert russian("W:Wc3,Ke1,a1:Bd6,Kh8") == russian("W:W22,K31,29:B10,K4")
    assert russian("W:WC3:BD6") == russian("W:W22:B10")


def test_reading_is_tolerant_of_dots_spaces_quotes_and_case():
    expected = russian("W:W22,K31:B10")
    for text in ["W:W22,K31:B10.", "  W : W22 , K31 : B10  ", '"W:W22,K31:B10"',
                 "w:w22,k31:b10", "W:W 22,K 31:B10", "W:W22,K31:B10 ."]:
        assert russian(text) == expected, text


def test_sections_may_come_in_either_order():
    assert russian("B:B1,2:W31,K32") == russian("B:W31,K32:B1,2")


def test_lidraughts_move_counters_are_ignored():
    assert international("W:W31-50:B1-20:H0:F1") == initial_position(INTERNATIONAL)
    assert russian("B:W22:B10:H12:F30") == russian("B:W22:B10")


def test_an_empty_side_is_allowed():
    position = russian("B:W:B10")
    assert position.white == 0
    assert position.is_game_over() is False
    assert russian("W:W:B10").is_game_over()


# -- FEN writing -------------------------------------------------------------------------------

def test_writing_is_canonical_numbers_runs_and_kings_last():
    assert format_fen(initial_position(RUSSIAN)) == "W:W21-32:B1-12"
    assert format_fen(initial_position(INTERNATIONAL)) == "W:W31-50:B1-20"
    assert format_fen(russian(" b:Bd6,Kh8,b8:Wa1,c1,e1,K g3,a3.")) == "B:W21,29-31,K24:B1,10,K4"
    # Two in a row are listed, three or more become a range.
    assert format_fen(international("W:W33,34,K40:B1,2,3")) == "W:W33,34,K40:B1-3"


# -- move notation -----------------------------------------------------------------------------

def test_short_form_for_moves_and_captures():
    start = initial_position(RUSSIAN)
    assert format_move(start, parse_move(start, "c3-d4")) == "c3-d4"
    assert format_move(initial_position(INTERNATIONAL),
                       Move((32, 28))) == "32-28"
    capture = russian("W:Wa1:B25,18,11")  # a1 x b2 x d4 x f6 -> g7
    (move,) = capture.legal_moves()
    assert move.captures == (25, 18, 11)
    assert format_move(capture, move) == "a1:g7"
    assert format_move(international("W:W37:B32"), Move((37, 28), (32,))) == "37x28"


def test_long_form_only_when_two_captures_share_start_and_end():
    position = russian(TWO_WAYS_TO_D8)
    texts = {format_move(position, move): move for move in position.legal_moves()}
    assert sorted(texts) == ["a7:d4:f6:d8", "a7:e3:g5:d8"]
    assert set(texts["a7:d4:f6:d8"].captures) == {14, 15, 7}
    assert set(texts["a7:e3:g5:d8"].captures) == {14, 19, 7}
    assert parse_move(position, "a7:e3:g5:d8") == texts["a7:e3:g5:d8"]


def test_long_form_is_read_back_russian():
    # a7:d4:f6:d8 lands on d4 and f6; a7:e3:g5:d8 passes over d4 (a7-e3) and f6 (g5-d8).
    position = russian(TWO_WAYS_TO_D8)
    for move in position.legal_moves():
        assert parse_move(position, format_move(position, move)) == move


def test_long_form_is_read_back_international():
    # 49x32x19x35 is refused: 49x27x13x35 passes over 32 and 19 on its way.
    position = international("W:WK49:B18,23,30,34,43")
    for move in position.legal_moves():
        assert parse_move(position, format_move(position, move)) == move


def test_the_short_form_of_an_ambiguous_capture_is_refused_listing_the_candidates():
    position = russian(TWO_WAYS_TO_D8)
    with pytest.raises(errors.AmbiguousMoveError) as caught:
        parse_move(position, "a7:d8")
    error = caught.value
    assert sorted(error.candidates) == ["a7:d4:f6:d8", "a7:e3:g5:d8"]
    assert error.fen == format_fen(position)
    assert str(error) == ("ambiguous move 'a7:d8' in W:WK5:B7,14,15,19: "
                          f"could be {', '.join(error.candidates)}")


def test_a_landing_square_only_one_capture_passes_is_enough_to_choose():
    position = russian(TWO_WAYS_TO_D8)
    assert set(parse_move(position, "a7:g5:d8").captures) == {14, 19, 7}
    assert set(parse_move(position, "a7:e3:d8").captures) == {14, 19, 7}


def test_reading_accepts_x_colon_and_dash_with_spaces():
    king = international("W:WK46:B28")  # a1 x e5, landing anywhere up to j10 (5)
    expected = Move((46, 5), (28,))
    for text in ["46x5", "46x 5", "46 x 5", "46:5", "46X5", " 46x5 ", "46-5"]:
        assert parse_move(king, text) == expected, text
    assert split_move(INTERNATIONAL, "47x 9") == [47, 9]
    black = international("B:W50:B1")
    for text in ["1-7", "1- 7", "1 -7", "1 - 7"]:
        assert parse_move(black, text) == Move((1, 7)), text
    capture = russian("W:W22:B18")
    for text in ["c3:e5", "c3xe5", "c3 : e5", "C3:E5", "22x15", "22:15"]:
        assert parse_move(capture, text) == Move((22, 15), (18,)), text


def test_numbers_and_algebraic_names_read_alike_in_russian():
    start = initial_position(RUSSIAN)
    assert parse_move(start, "22-18") == parse_move(start, "c3-d4") == Move((22, 18))


# -- one test per error class ------------------------------------------------------------------

def test_invalid_syntax_of_a_move_or_a_fen():
    start = initial_position(INTERNATIONAL)
    move_cases = {
        "32-": "not a move: '32-'",
        "hello": "not a move: 'hello'",
        "99-98": "square '99' is not on the board (1-50)",
        "z9-a1": "'z9' is not a playable square",
    }
    fen_cases = {
        "": "empty FEN",
        "X:W21": "FEN 'X:W21': side to move must be W or B, got 'X'",
        "W:W33": "FEN 'W:W33': square '33' is not on the board (1-32)",
        "W:Wa2": "FEN 'W:Wa2': 'a2' is not a playable square",
        "W:W9-5": "FEN 'W:W9-5': range '9-5' runs backwards",
        "W:Q5": "FEN 'W:Q5': section 'Q5' must start with W or B",
        "W:W21:W22": "FEN 'W:W21:W22': two sections for W",
        "W:W2?": "FEN 'W:W2?': bad square '2?'",
    }
    for error, read, cases in [
        (errors.InvalidMoveSyntaxError, lambda text: parse_move(start, text), move_cases),
        (errors.InvalidFenError, russian, fen_cases),
    ]:
        for text, message in cases.items():
            with pytest.raises(error) as caught:
                read(text)
            assert str(caught.value) == message


def test_illegal_move_names_the_move_and_the_fen():
    start = initial_position(INTERNATIONAL)
    with pytest.raises(errors.IllegalMoveError) as caught:
        parse_move(start, "46-41")
    error = caught.value
    assert (error.move, error.fen) == ("46-41", "W:W31-50:B1-20")
    assert str(error) == "illegal move '46-41' in W:W31-50:B1-20: the piece on 46 cannot go there"
    reasons = {
        ("W:W22,24:B18", "g3-h4"): "a capture is required elsewhere",
        ("W:W22:B18", "a3-b4"): "no piece on a3",
        ("W:W22:B10", "d6-c5"): "the piece on d6 is not the side to move's",
    }
    for (fen, text), reason in reasons.items():
        with pytest.raises(errors.IllegalMoveError) as caught:
            parse_move(russian(fen), text)
        assert str(caught.value) == f"illegal move {text!r} in {fen}: {reason}"
    with pytest.raises(errors.IllegalMoveError, match="W:W31-50:B1-20"):
        start.play(Move((46, 41)))


def test_ambiguous_move_lists_the_candidates():
    error = errors.AmbiguousMoveError("a7:d8", "W:WK5:B7,14,15,19",
                                      ["a7:d4:f6:d8", "a7:e3:g5:d8"])
    assert str(error) == ("ambiguous move 'a7:d8' in W:WK5:B7,14,15,19: "
                          "could be a7:d4:f6:d8, a7:e3:g5:d8")


@pytest.mark.parametrize(("variant", "text", "message"), [
    (RUSSIAN, "W:W21-32:B1-12,13", "FEN 'W:W21-32:B1-12,13': Black has 13 pieces, at most 12"),
    (INTERNATIONAL, "W:W30-50:B1-20", "FEN 'W:W30-50:B1-20': White has 21 pieces, at most 20"),
    (RUSSIAN, "W:W1:B20", "FEN 'W:W1:B20': White man on its promotion row (b8)"),
    (INTERNATIONAL, "W:W10:B46", "FEN 'W:W10:B46': Black man on its promotion row (46)"),
    (RUSSIAN, "W:W22:B22", "FEN 'W:W22:B22': square c3 given twice"),
    (INTERNATIONAL, "W:W31-35,33:B1", "FEN 'W:W31-35,33:B1': square 33 given twice"),
], ids=["too-many-pieces", "too-many-pieces-10x10", "man-on-its-promotion-row",
        "man-on-its-promotion-row-10x10", "square-given-twice", "square-given-twice-10x10"])
def test_invalid_position(variant, text, message):
    with pytest.raises(errors.InvalidPositionError) as caught:
        parse_fen(variant, text)
    assert str(caught.value) == message


def test_kings_may_stand_on_their_own_promotion_row():
    assert russian("W:WK1:BK29").piece_at(1) == "W"


def test_unknown_variant_names_the_known_ones():
    with pytest.raises(errors.UnknownVariantError) as caught:
        get_variant("checkers")
    assert str(caught.value).startswith("unknown variant 'checkers' (known: ")
    assert "international" in str(caught.value) and "russian" in str(caught.value)


def test_errors_are_value_errors_split_by_cause():
    for error in (errors.InvalidMoveSyntaxError, errors.InvalidFenError):
        assert issubclass(error, errors.InvalidSyntaxError)
    for error in (errors.InvalidSyntaxError, errors.InvalidPositionError,
                  errors.IllegalMoveError, errors.AmbiguousMoveError, errors.UnknownVariantError):
        assert issubclass(error, errors.DraughtsError)
    assert issubclass(errors.DraughtsError, ValueError)


# -- the moves command -------------------------------------------------------------------------

def run_moves(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "draughtsboard", "moves", *args],
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_moves_json_lists_notation_path_and_captures():
    result = run_moves("--variant", "russian", "--fen", TWO_WAYS_TO_D8, "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout) == [
        {"notation": "a7:d4:f6:d8", "path": [5, 18, 11, 2], "captures": [14, 15, 7]},
        {"notation": "a7:e3:g5:d8", "path": [5, 23, 16, 2], "captures": [14, 19, 7]},
    ]


@pytest.mark.slow
def test_moves_plain_prints_one_move_a_line():
    result = run_moves("--variant", "international", "--fen", "W:W31-50:B1-20")
    assert result.returncode == 0
    assert sorted(result.stdout.split()) == sorted(
        ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"])


def test_moves_batch_reports_a_bad_line_and_goes_on():
    lines = ["W:W21-32:B1-12", "W:W99", "B:W22:B10"]
    result = run_moves("--variant", "russian", "--json", stdin="\n".join(lines) + "\n")
    assert result.returncode == 1
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 3
    assert len(out[0]) == 7
    assert out[1] == []
    assert [move["notation"] for move in out[2]] == ["d6-c5", "d6-e5"]
    errors = result.stderr.strip().splitlines()
    assert errors == ["draughtsboard moves: line 2: "
                      "FEN 'W:W99': square '99' is not on the board (1-32)"]


def test_moves_with_a_bad_fen_argument_fails_in_one_line():
    result = run_moves("--variant", "russian", "--fen", "W:W22:B22")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "draughtsboard moves: FEN 'W:W22:B22': square c3 given twice"]
