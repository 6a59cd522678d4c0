"""Issue 16, cases 5 and 6 for the PDN reader: bad input costs no more than good input.
Deep variations, long runs of digits, a 5,000-digit clock and a flood of marks are located
errors, read in time linear in the text and in memory a small multiple of it; a file cut
short after a game's tags reads that game without moves, with a warning."""

from __future__ import annotations

import tracemalloc

import pytest

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant first)
from draughtsboard.board.game import pdn_reader
from draughtsboard.board.game.pdn_reader import (
    MAX_PER_MOVE,
    MAX_VARIATION_DEPTH,
    iter_pdn,
    read_pdn,
)

HEAD = '[GameType "20"]\n'


def test_variations_nested_a_thousand_deep_are_a_located_error():
    text = HEAD + "1. 32-28 " + "(1. 33-29 " * 1000 + ")" * 1000 + " *\n"
    result = read_pdn(text)
    assert result.games == [] and len(result.errors) == 1
    error = result.errors[0]
    assert f"nested more than {MAX_VARIATION_DEPTH} deep" in str(error)
    assert error.line == 2 and error.column > 1


def test_variations_within_the_limit_still_read():
    text = HEAD + "1. 32-28 " + "(1. 33-29 " * 5 + ")" * 5 + " *\n"
    assert read_pdn(text).errors == []


def test_a_five_thousand_digit_clock_is_not_a_clock_and_not_a_crash():
    text = HEAD + "1. 32-28 {[%clock w" + "9" * 5000 + ":00:00 b0:00:00]} 17-22 *\n"
    result = read_pdn(text)
    assert result.errors == []
    first = result.games[0].game.moves[0]
    assert first.clock is None and "%clock" in first.comment


@pytest.mark.parametrize("item", ["$1 ", "{c} ", "(1. 33-29) "])
def test_more_than_the_limit_of_marks_on_one_move_is_a_located_error(item):
    text = HEAD + "1. 32-28 " + item * (MAX_PER_MOVE + 1) + "*\n"
    result = read_pdn(text)
    assert len(result.errors) == 1 and "on one move" in str(result.errors[0])
    assert read_pdn(HEAD + "1. 32-28 " + item * MAX_PER_MOVE + "*\n").errors == []


def test_a_move_number_has_at_most_nine_digits():
    # The pattern that made a long run of digits quadratic: each attempt scanned the run.
    assert [t.kind for t in pdn_reader.tokenize("1" * 9 + ".")] == ["number"]
    assert [t.kind for t in pdn_reader.tokenize("1" * 10 + ".")][0] == "bad"


def tokens_scanned(text: str) -> int:
    return sum(1 for _ in pdn_reader.tokenize(text))


def test_digits_are_scanned_a_bounded_number_of_times():
    # Linear work, counted rather than timed: tokens per character stay the same as the
    # run grows, and each token's match is bounded (above).
    small, large = tokens_scanned("1" * 10_000), tokens_scanned("1" * 40_000)
    assert large <= 4 * small + 1


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "1" * 200_000,
    "* " * 100_000,
    HEAD + "1. 32-28 " + "(" * 100_000,
    HEAD + "1. 32-28 " + "(1. 33-29) " * 20_000 + "*",
    HEAD + "1. 32-28 " + "$1 " * 60_000 + "*",
    "\n" * 200_000,
    "{" + "x" * 200_000,
    "[Event " * 30_000,
], ids=["digits", "stars", "open-parens", "variations", "nags", "newlines", "brace",
        "broken-tags"])
def test_memory_is_a_small_multiple_of_the_text(text):
    tracemalloc.start()
    try:
        for _ in iter_pdn(text):
            pass
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(text) + 200_000, peak


def test_a_file_cut_short_after_the_tags_reads_a_game_without_moves_with_a_warning():
    text = (HEAD + '[White "A"]\n1. 32-28 17-22 2-0\n\n' + HEAD + '[White "B"]\n'
            + '[Black "C"]\n')
    result = read_pdn(text)
    assert result.errors == []
    assert [g.game.tags["White"] for g in result.games] == ["A", "B"]
    assert result.games[1].game.ply == 0 and result.games[1].game.result is None
    assert len(result.warnings) == 1 and "cut short" in str(result.warnings[0])
    assert result.warnings[0].line == 7


def test_a_game_cut_short_after_some_moves_is_still_an_error():
    result = read_pdn(HEAD + "1. 32-28 17-22")
    assert result.games == [] and "truncated game" in str(result.errors[0])
