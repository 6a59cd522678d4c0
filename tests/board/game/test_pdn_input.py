"""The PDN reader on awkward and bad input: every PDN 3.0 feature read, every bad game a
one-line error that names file, game, line and column, and the good games of the same
file still read. Ends with a bounded fuzz run on mutated PDN."""

import argparse
import pathlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant first)
from draughtsboard.board.game.pdn_reader import PdnError, decode_pdn, read_pdn, tokenize
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.commands import pdn as pdn_command

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"
INTERNATIONAL = get_variant("international")


def read(name, variant=None):
    text = decode_pdn((DATA / name).read_bytes())
    return read_pdn(text, variant=variant, source=name)


def test_every_pdn_feature_reads():
    result = read("pdn-features.pdn", variant=INTERNATIONAL)
    assert result.errors == []
    games = [entry.game for entry in result.games]
    assert len(games) == 5
    first = games[0]
    assert first.comment == "A comment before the first move"
    assert first.moves[0].annotation == "!" and first.moves[1].annotation == "?!"
    assert first.moves[2].annotation == "$1"
    assert first.moves[3].variations == ("2... 11x22 3. 37-32 (3. 33-28 22x33 4. 38x29) 3... 7-11",)
    assert first.moves[7].text == "1-7"  # written "1- 7"
    assert first.moves[8].clock == (3540, 3510)
    assert first.moves[11].text == "23x34"  # written "23x 34"
    assert first.result == "2-0"
    set_up = games[1]
    assert not set_up.start.white_to_move and set_up.ply == 4 and set_up.result is None
    russian = games[2]
    assert russian.variant.name == "russian" and russian.moves[5].text == "b6:b2"
    assert russian.moves[5].comment == "long form"
    assert [g.result for g in games[3:]] == ["2-0", "0-2"]


def test_features_survive_writing_and_reading_again():
    games = [e.game for e in read("pdn-features.pdn", variant=INTERNATIONAL).games]
    again = read_pdn("".join(write_game(g) for g in games), variant=INTERNATIONAL)
    assert again.errors == []
    for before, after in zip(games, (e.game for e in again.games), strict=True):
        assert [m.move for m in after.moves] == [m.move for m in before.moves]
        assert [m.variations for m in after.moves] == [m.variations for m in before.moves]
        assert [m.clock for m in after.moves] == [m.clock for m in before.moves]
        assert after.start == before.start and after.result == before.result


EXPECTED_BAD = {
    2: (7, 10, "unbalanced brace: '{' is never closed"),
    3: (11, 15, "unbalanced brace: '}' without '{'"),
    4: (13, 1, "unbalanced bracket: '[' is never closed"),
    5: (19, 10, "unbalanced parenthesis: '(' is never closed"),
    6: (23, 19, "unknown token: 'hello'"),
    7: (27, 19, "illegal move '33-29'"),
    8: (32, 1, "White has 30 pieces, at most 20"),
    9: (35, 1, "unsupported GameType '21'"),
    11: (45, 19, "incomplete move: '28x'"),  # the file ends in the middle of a move
}


def test_bad_games_are_located_and_the_good_ones_still_read():
    result = read("bad-mixed.pdn")
    assert [entry.number for entry in result.games] == [1, 10]
    assert [entry.game.tags["Event"] for entry in result.games] == ["Good 1", "Good 2"]
    assert {error.game for error in result.errors} == set(EXPECTED_BAD)
    for error in result.errors:
        line, column, text = EXPECTED_BAD[error.game]
        assert (error.line, error.column) == (line, column), str(error)
        assert text in str(error)
        assert "\n" not in str(error)
        assert str(error).startswith(f"bad-mixed.pdn: game {error.game}, line {line}, ")


def test_binary_garbage_is_one_clear_error():
    result = read("bad-binary.pdn")
    assert result.games == []
    assert len(result.errors) >= 1
    assert all(isinstance(e, PdnError) and "\n" not in str(e) for e in result.errors)


def test_truncated_after_a_complete_move_says_so():
    result = read_pdn('[GameType "20"]\n1. 32-28 17-22')
    assert "truncated game: no result" in str(result.errors[0])


def test_result_tag_is_used_when_the_movetext_ends_with_a_star():
    result = read_pdn('[GameType "20"]\n[Result "1-0"]\n1. 32-28 17-22 *')
    assert result.games[0].game.result == "2-0"


# -- the command line -------------------------------------------------------------------


def parser():
    top = argparse.ArgumentParser()
    pdn_command.add_parsers(top.add_subparsers(dest="command", required=True))
    return top


def run(argv, capsys):
    args = parser().parse_args(argv)
    status = args.handler(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_pdn_check_prints_one_line_per_game_and_fails_on_a_bad_one(capsys):
    status, out, err = run(["pdn", "check", str(DATA / "bad-mixed.pdn")], capsys)
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == 11
    assert [line.split(": ")[1].split(",")[0] for line in lines] == [
        f"game {n}" for n in range(1, 12)]
    assert "Traceback" not in out + err


@pytest.mark.slow
def test_pdn_check_accepts_the_shared_games(capsys):
    status, out, _ = run(["pdn", "check", str(DATA / "international-wk2003.pdn"),
                          str(DATA / "international-candidate95.pdn")], capsys)
    assert status == 0 and len(out.splitlines()) == 31
    status, out, _ = run(["pdn", "check", "--variant", "russian",
                          str(DATA / "russian-ussr-championship-part1.pdn")], capsys)
    assert status == 0 and len(out.splitlines()) == 100


def test_pdn_check_on_a_missing_file_is_one_line(capsys, tmp_path):
    status, out, err = run(["pdn", "check", str(tmp_path / "nope.pdn")], capsys)
    assert status == 2 and err.count("\n") == 1 and "No such file" in err


def test_pdn_convert_writes_the_good_games_and_reports_the_bad(capsys, tmp_path):
    target = tmp_path / "out.pdn"
    status, _, err = run(["pdn", "convert", str(DATA / "bad-mixed.pdn"), "--out", str(target)],
                         capsys)
    assert status == 1
    assert len(err.splitlines()) == len(EXPECTED_BAD)
    again = read_pdn(target.read_text("utf-8"))
    assert again.errors == [] and len(again.games) == 2


# -- fuzz -------------------------------------------------------------------------------

SEED_TEXT = (DATA / "pdn-features.pdn").read_text("utf-8") + (
    DATA / "international-wk2003.pdn").read_text("utf-8")[:1200]


@st.composite
def mutated_pdn(draw):
    text = SEED_TEXT
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["delete", "insert", "replace", "cut"]))
        if action == "cut":
            text = text[:at]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)):]
        else:
            piece = draw(st.text(alphabet=st.sampled_from(list('[]{}()"%;$!?x:-.*0123456789 \n'
                                                               'abcdefgh/\r\x00é')),
                                 min_size=1, max_size=6))
            skip = 1 if action == "replace" else 0
            text = text[:at] + piece + text[at + skip:]
    return text


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(mutated_pdn())
def test_fuzz_reader_never_raises(text):
    result = read_pdn(text, variant=INTERNATIONAL, source="fuzz")
    for error in result.errors:
        assert isinstance(error, PdnError) and "\n" not in str(error)
    for entry in result.games:
        write_game(entry.game)  # whatever reads must write


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.binary(max_size=300))
def test_fuzz_bytes_never_raise(data):
    result = read_pdn(decode_pdn(data), source="bytes")
    assert all("\n" not in str(error) for error in result.errors)
    list(tokenize(decode_pdn(data)))


@pytest.mark.parametrize("text", ["", "\n\n", "{only a comment}", "%escape only\n"])
def test_empty_inputs_have_no_games_and_no_errors(text):
    result = read_pdn(text)
    assert result.count == 0
