"""The engine's search: legal answers in every variant, the same answer for the same node
budget, budgets and bad requests, and small constructed shots it must see."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from draughtsboard.board.rules import initial_position, parse_fen
from draughtsboard.board.rules.engine import MATE_BOUND, Engine, SearchLimitError
from draughtsboard.board.rules.position import Position
from draughtsboard.board.rules.variants import get_variant, variant_names

from ..walks import random_game

VARIANTS = variant_names()
WALKS = settings(max_examples=12, derandomize=True, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow])


def random_position(variant_name: str, seed: int, plies: int) -> Position:
    """The position after ``plies`` plies of a seeded random game (`walks`), or the last
    one before the game ended."""
    for position in random_game(variant_name, seed, plies):
        if position.is_game_over():
            break
        last = position
    return last


@pytest.mark.parametrize("variant_name", VARIANTS)
@WALKS
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_the_engine_plays_only_legal_moves(variant_name, seed, plies):
    position = random_position(variant_name, seed, plies)
    result = Engine(position.variant, table_bits=10).search(position, nodes=400)
    assert result.move in position.legal_moves()
    current = position
    for move in result.pv:  # the principal line is a line of legal moves
        assert current.is_legal(move)
        current = current.play(move)
    assert result.nodes >= 1


@pytest.mark.slow
@pytest.mark.parametrize("variant_name", VARIANTS)
def test_the_same_node_budget_gives_the_same_answer(variant_name):
    position = random_position(variant_name, 7, 30)
    first = Engine(position.variant).search(position, nodes=3000)
    engine = Engine(position.variant)
    engine.search(initial_position(position.variant), nodes=500)  # tables used before
    second = engine.search(position, nodes=3000)
    assert (first.move, first.score, first.depth, first.pv, first.nodes) == \
        (second.move, second.score, second.depth, second.pv, second.nodes)


def test_a_node_budget_is_kept_to_within_a_check_interval():
    position = initial_position(get_variant("international"))
    result = Engine(position.variant).search(position, nodes=5000)
    assert 5000 <= result.nodes < 5000 + 300
    assert result.depth >= 3


def test_a_depth_limit_and_a_stop_request():
    position = initial_position(get_variant("russian"))
    engine = Engine(position.variant)
    assert engine.search(position, depth=3).depth == 3
    stopped = engine.search(position, depth=30, stop=lambda: True)
    assert stopped.move in position.legal_moves() and stopped.depth < 30


def test_a_time_budget_reads_the_injected_clock():
    now = [0.0]

    def clock():
        now[0] += 0.001  # a millisecond per look
        return now[0]

    position = initial_position(get_variant("russian"))
    result = Engine(position.variant, clock=clock).search(position, seconds=0.01)
    assert result.move in position.legal_moves()
    assert result.seconds <= 0.02


def test_bad_requests_are_refused_with_a_reason():
    russian = get_variant("russian")
    engine = Engine(russian)
    with pytest.raises(SearchLimitError, match="depth, a node budget or a time"):
        engine.search(initial_position(russian))
    with pytest.raises(SearchLimitError, match="nodes must be positive"):
        engine.search(initial_position(russian), nodes=0)
    with pytest.raises(SearchLimitError, match="seconds must be positive"):
        engine.search(initial_position(russian), seconds=float("nan"))
    with pytest.raises(SearchLimitError, match="seconds must be at most"):
        engine.search(initial_position(russian), seconds=float("inf"))
    with pytest.raises(SearchLimitError, match="plays russian, not lasca"):
        engine.search(initial_position(get_variant("lasca")), depth=1)
    with pytest.raises(SearchLimitError, match="table_bits"):
        Engine(russian, table_bits=40)


def test_a_side_without_moves_has_lost():
    position = parse_fen(get_variant("russian"), "W:W:B1")  # White has no piece
    result = Engine(position.variant).search(position, depth=3)
    assert result.move is None and result.score < -MATE_BOUND


def test_a_forced_win_is_reported_in_plies():
    # White c3 takes d4 and the game: Black has nothing left
    position = parse_fen(get_variant("russian"), "W:W22:B18")
    result = Engine(position.variant).search(position, depth=4)
    assert str(result.move) == "22x15" and result.mate_in == 1


# A shot: f4-g5 gives a man (a5 must take b4 to c3), then g5 takes three (f6, d6, b6).
# Found by a random search over sparse positions with the material prover; not part of
# the tactics suite.
SHOT = "W:W17,19,20:B9-11,13"


def test_the_engine_sees_a_three_piece_shot():
    position = parse_fen(get_variant("russian"), SHOT)
    result = Engine(position.variant).search(position, nodes=20_000)
    assert str(result.move) == "19-16"
    assert [str(m) for m in result.pv[:3]] == ["19-16", "13x22", "16x7x14x5"]
    assert result.score > 100  # more than a man up


def test_a_capture_of_two_is_preferred_when_it_wins_more():
    # c3 may take d4 alone (to e5, then stopped) or d4 and f6 (c3:e5:g7)
    position = parse_fen(get_variant("russian"), "W:W22,23:B18,11,9")
    result = Engine(position.variant).search(position, depth=2)
    assert len(result.move.captures) == 2


def test_a_capture_score_plays_out_the_captures_and_nothing_else():
    russian = get_variant("russian")
    engine = Engine(russian)
    quiet = initial_position(russian)
    assert engine.capture_score(quiet) == engine.evaluate(quiet)  # no capture: as it stands
    # White c3 must take d4, and then Black has nothing left: a won position
    assert engine.capture_score(parse_fen(russian, "W:W22:B18")) > MATE_BOUND
    # the shot above (a man given, three taken) is a quiet move: not seen, White is a man down
    assert engine.capture_score(parse_fen(russian, SHOT)) < 0


def test_a_capture_score_past_its_nodes_judges_the_position_as_it_stands():
    # column draughts, from a level game: after one of Black's moves here the exchanges of
    # columns branch (a level-3 glance once spent 268,000 nodes on this position's moves)
    column = get_variant("column")
    before = parse_fen(column, "B:h4=BWwwWw,e5=BWW,h6=Bw,a7=WbbBbbbBb,e7=BwwW")
    engine = Engine(column)

    def cost(move) -> int:
        engine.capture_score(before.play(move))
        return engine.nodes

    after = before.play(max(before.legal_moves(), key=cost))
    engine.capture_score(after)
    assert engine.nodes > 5_000  # played out to the end: a long way
    cut = engine.capture_score(after, nodes=1_000)
    assert engine.nodes <= 1_000 + 256 and cut == engine.evaluate(after)
    russian = Engine(get_variant("russian"))
    quiet = initial_position(russian.variant)
    assert russian.capture_score(quiet, nodes=1) == russian.evaluate(quiet)


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_a_capture_score_in_every_variant_is_the_same_twice(variant_name):
    position = random_position(variant_name, seed=5, plies=30)
    engine = Engine(position.variant)
    assert engine.capture_score(position) == Engine(position.variant).capture_score(position)
