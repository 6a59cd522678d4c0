"""The engine's levels 1-10: each defined, each stronger than the last in one lever and
weaker in none it shares, the same move for the same game seed, a glance that cannot see
a shot of several quiet moves, and full strength that plays it."""

from __future__ import annotations

import pytest

from draughtsboard.board.rules import initial_position, parse_fen
from draughtsboard.board.rules.engine import Engine
from draughtsboard.board.rules.engine import levels as levels_module
from draughtsboard.board.rules.engine.levels import (
    LEVEL_NUMBERS,
    LEVELS,
    VARIANT_LEVELS,
    LevelPlayer,
    UnknownLevelError,
    level,
)
from draughtsboard.board.rules.engine.material import MaterialProver
from draughtsboard.board.rules.notation import format_move
from draughtsboard.board.rules.variants import get_variant, variant_names

# Black to move: f6-g5 h4:f6, f8-e7 f6:d8, b6-a5 d8:b6, a7:g5 (the new king and two men
# more): two men ahead after three quiet moves of Black's. Found by a seeded random
# game ('mine two-move shots', random generator started at 2628, ply 15) with the
# material prover.
SHOT = "B:W17,19,20,25,26,28,29,31,32:B1,3-6,9-12"


def test_levels_1_to_10_and_no_other():
    assert list(LEVELS) == list(LEVEL_NUMBERS) == list(range(1, 11))
    for number in (0, 11, -1):
        with pytest.raises(UnknownLevelError, match="not 1-10"):
            level(number)


def reach(entry) -> float:
    """How far a level's searched moves look: never (0), a depth, or a node budget (full
    strength, beyond every depth cap)."""
    if entry.nodes is not None:
        return float("inf")
    return entry.depth or 0


def spread(entry) -> float:
    """How far below the best a level's glances may choose: a random mover's any move
    (infinite), a margin, or nothing for a level that never glances."""
    if entry.careless == 0:
        return 0
    return float("inf") if entry.margin is None else entry.margin


@pytest.mark.parametrize("variant_name", variant_names())
def test_each_level_is_stronger_than_the_last_in_one_lever_and_weaker_in_none(
        variant_name):
    # looks further; or as far and glances less often; or glances as often and gives
    # less away at a glance (in every game, with its own values where it has them)
    for lower, higher in zip(LEVEL_NUMBERS, LEVEL_NUMBERS[1:], strict=False):
        a, b = level(lower, variant_name), level(higher, variant_name)
        assert (reach(b), -b.careless, -spread(b)) > (reach(a), -a.careless, -spread(a))
        assert reach(b) >= reach(a) and b.careless <= a.careless
        assert spread(b) <= spread(a)
    assert level(1).careless == 1 and reach(level(1)) == 0  # every move at a glance
    assert level(1).margin is None  # a random mover
    assert level(10).careless == 0 and level(10).nodes == 20_000  # full strength


def test_a_random_mover_plays_any_legal_move_and_a_capture_when_it_must():
    variant = get_variant("russian")
    position = initial_position(variant)
    moves = {LevelPlayer(variant, 1, seed=f"game-{n}").choose(position).move
             for n in range(60)}
    assert moves == set(position.legal_moves())  # seven openings, each drawn
    capture = parse_fen(variant, "W:W21,22,27:B17,18,12")  # three captures, no other move
    chosen = {LevelPlayer(variant, 1, seed=f"g{n}").choose(capture).move for n in range(20)}
    assert len(chosen) >= 2 and all(move.captures for move in chosen)


def test_each_meaning_states_the_levels_budget():
    own = [entry for levels in VARIANT_LEVELS.values() for entry in levels.values()]
    for entry in [*LEVELS.values(), *own]:
        if entry.nodes is not None:
            assert f"{entry.nodes:,} nodes" in entry.meaning
        if entry.depth is not None:
            assert f"{entry.depth} plies ahead" in entry.meaning
    assert "random" in level(1).meaning and "glance" in level(2).meaning
    assert "full strength" in level(10).meaning


def test_a_level_that_never_glances_plays_the_engines_move_at_its_depth():
    variant = get_variant("international")
    position = initial_position(variant)
    for number in (6, 8, 9):
        entry = level(number)
        assert entry.careless == 0
        choice = LevelPlayer(variant, number, seed="a").choose(position)
        assert choice.move == Engine(variant).search(position, depth=entry.depth).move


def test_a_variant_where_full_strength_looks_deeper_has_a_deeper_level_9():
    # in Lasca 20,000 nodes reach 7-8 plies: level 9 looks 6 ahead there, 5 elsewhere
    assert level(9).depth == level(9, "russian").depth == 5
    lasca = level(9, "lasca")
    assert lasca.depth == 6 and "6 plies ahead" in lasca.meaning
    variant = get_variant("lasca")
    position = initial_position(variant)
    choice = LevelPlayer(variant, 9, seed="a").choose(position)
    six_plies = Engine(variant).search(position, depth=6)
    assert choice.move == six_plies.move
    assert choice.nodes == six_plies.nodes


def test_a_depth_level_stops_at_its_node_ceiling(monkeypatch):
    """A depth alone does not bound a search (a column game's capture chains once made
    level 4 think 39 s): past DEPTH_NODE_CEILING nodes a level plays what it has found."""
    variant = get_variant("international")
    position = initial_position(variant)
    unbounded = Engine(variant).search(position, depth=level(9).depth)
    ceiling = unbounded.nodes // 4
    monkeypatch.setattr(levels_module, "DEPTH_NODE_CEILING", ceiling)
    choice = LevelPlayer(variant, 9, seed="a").choose(position)
    assert choice.nodes <= ceiling + 256 < unbounded.nodes  # checked every 256 nodes
    assert choice.move in position.legal_moves()


# Black to move in column draughts, from a level game (benchmark salt confirmH, column 3-2,
# game 5): one move opens exchanges of columns that branch; played out to the end, level
# 3's glance here took 268,000 nodes (4.4 s).
BRANCHING_EXCHANGES = "B:h4=BWwwWw,e5=BWW,h6=Bw,a7=WbbBbbbBb,e7=BwwW"


def test_a_glance_stops_playing_out_captures_at_its_node_ceilings():
    variant = get_variant("column")
    position = parse_fen(variant, BRANCHING_EXCHANGES)
    moves = len(position.legal_moves())
    for number in (2, 3, 4):
        choice = LevelPlayer(variant, number, seed="a").choose(position)
        assert choice.move in position.legal_moves()
        # each move's captures at most GLANCE_MOVE_NODES (checked every 256 nodes)
        assert choice.nodes <= min(levels_module.DEPTH_NODE_CEILING,
                                   moves * levels_module.GLANCE_MOVE_NODES) + 256 * moves
        again = LevelPlayer(variant, number, seed="a").choose(position)
        assert again == choice  # still the same move for the same seed


@pytest.mark.parametrize("variant_name", variant_names())
def test_level_1_chooses_among_at_least_as_many_moves_as_level_2(variant_name):
    # the same glance with a wider margin: every move level 2 might play, level 1 might too
    variant = get_variant(variant_name)
    position = initial_position(variant)
    for _ in range(8):
        loose = LevelPlayer(variant, 1, seed="m").choose(position)
        tight = LevelPlayer(variant, 2, seed="m").choose(position)
        assert loose.candidates >= tight.candidates >= 1
        if not position.play(tight.move).legal_moves():
            break
        position = position.play(tight.move)


def test_full_strength_plays_the_engines_move_for_its_budget():
    variant = get_variant("russian")
    position = initial_position(variant).play(initial_position(variant).legal_moves()[2])
    choice = LevelPlayer(variant, 10, seed="a").choose(position)
    assert choice.move == Engine(variant).search(position, nodes=level(10).nodes).move


@pytest.mark.parametrize("variant_name", variant_names())
def test_a_game_seed_repeats_its_moves_and_another_seed_varies_them(variant_name):
    variant = get_variant(variant_name)
    position = initial_position(variant)
    again = [LevelPlayer(variant, 1, seed="game-7").choose(position).move for _ in range(3)]
    assert again[0] == again[1] == again[2]
    moves = {LevelPlayer(variant, 1, seed=f"game-{n}").choose(position).move
             for n in range(12)}
    assert len(moves) >= 2
    for move in moves:
        assert position.is_legal(move)


def test_a_glance_does_not_see_a_shot_of_three_quiet_moves_and_full_strength_plays_it():
    variant = get_variant("russian")
    position = parse_fen(variant, SHOT)
    shot = next(m for m in position.legal_moves() if format_move(position, m) == "f6-g5")
    prover = MaterialProver(variant)
    assert prover.gain(position, shot, horizon=1) <= 0  # at first sight: nothing won
    assert prover.gain(position, shot, horizon=3) == 2
    engine = Engine(variant)
    glance = {move: -engine.capture_score(position.play(move))
              for move in position.legal_moves()}
    others = max(score for move, score in glance.items() if move != shot)
    assert glance[shot] < min(others, 50)  # judged no better than a quiet move
    assert LevelPlayer(variant, 10, seed="a").choose(position).move == shot


def test_a_level_plays_the_same_game_on_a_slow_machine():
    # node budgets, not time: a clock that runs a hundred times slower changes nothing
    variant = get_variant("russian")
    ticks = iter(range(10**9))
    fast = LevelPlayer(variant, 6, seed="g")
    slow = LevelPlayer(variant, 6, seed="g", clock=lambda: next(ticks) * 100.0)
    position = initial_position(variant)
    for _ in range(12):
        move = fast.choose(position).move
        assert slow.choose(position).move == move
        position = position.play(move)


def test_a_level_with_a_single_legal_move_plays_it_at_once():
    variant = get_variant("russian")
    position = parse_fen(variant, "W:W22:B18")  # c3 must take d4
    choice = LevelPlayer(variant, 1, seed="s").choose(position)
    assert choice.nodes == 0 and len(choice.move.captures) == 1


def test_a_careless_level_glances_at_about_its_share_of_moves():
    variant = get_variant("international")
    position = initial_position(variant)
    careless = next(entry for entry in LEVELS.values() if 0.2 <= entry.careless < 1)
    glances = sum(
        LevelPlayer(variant, careless.number, seed=f"game-{n}").choose(position).candidates > 1
        for n in range(100))
    # a glance chooses among every move within its margin (several in the opening), a
    # search plays its one best move
    assert abs(glances - 100 * careless.careless) < 4 * (100 * 0.25) ** 0.5
