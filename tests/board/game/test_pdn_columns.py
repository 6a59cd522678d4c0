"""PDN for the column games: the Variant tag and full-spec GameType are written and read
back, with every move (their moves are written with every landing square)."""

import random

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.replay import random_game
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.variants import get_variant


@pytest.mark.parametrize("name", ["lasca", "column", "column-7x7"])
def test_column_game_round_trips_through_pdn(name):
    variant = get_variant(name)
    start = initial_position(variant)
    moves = random_game(start, random.Random(5), max_plies=80)
    game = Game(variant, tags={"White": "W", "Black": "B", "Event": "test"})
    for ply, move in enumerate(moves):
        game.play(move, float(ply), 1_000_000.0 + ply)
    text = write_game(game)
    assert f'[GameType "{variant.pdn_gametype}"]' in text
    assert f'[Variant "{variant.pdn_variant_tag}"]' in text
    result = read_pdn(text, source="round-trip")
    assert result.errors == []
    (read,) = result.games
    assert read.game.variant is variant
    assert [played.move for played in read.game.moves] == moves
    assert read.game.tags["White"] == "W"
