"""The shipped puzzle files (draughtsboard/play/puzzles/<variant>.pdn): at least 30 per
variant, each one proved again here by the material prover, as scripts/mine_shots.py
found it: the side to move has no capture (a shot begins quietly), the first move of the
solution wins material by force with four quiet plies of horizon, the solution is the
forced line (legal, a capture of two pieces or more by the solver in it), the comment
says how much it wins, and the tags say where it came from (never a file path)."""

import re
from pathlib import Path

import pytest

import draughtsboard
from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.rules import get_variant, variant_names
from draughtsboard.board.rules.engine.material import MaterialProver

PUZZLES = Path(draughtsboard.__file__).parent / "play" / "puzzles"
CHECK_HORIZON = 4
NODES = 2_000_000


def puzzles(name):
    variant = get_variant(name)
    read = read_pdn((PUZZLES / f"{name}.pdn").read_text(encoding="utf-8"), variant=variant)
    assert not read.errors
    return variant, [pdn_game.game for pdn_game in read.games]


@pytest.mark.slow
@pytest.mark.parametrize("name", variant_names())
def test_every_shipped_puzzle_is_proved(name):
    variant, games = puzzles(name)
    assert len(games) >= 30
    prover = MaterialProver(variant)
    for game in games:
        label = f"{name} puzzle {game.tags.get('Round')}"
        start = game.start
        assert not start.legal_moves()[0].captures, label
        solution = [played.move for played in game.moves]
        gain = prover.gain(start, solution[0], CHECK_HORIZON, NODES)
        assert gain is not None and gain >= 1, label
        solver_captures = [len(move.captures) for move in solution[0::2]]
        assert any(count >= 2 for count in solver_captures), label
        claimed = re.fullmatch(r"(White|Black) to play and win (\d+) pieces?", game.comment)
        assert claimed, label
        assert (claimed.group(1) == "White") == start.white_to_move, label
        assert int(claimed.group(2)) >= 1, label


@pytest.mark.parametrize("name", variant_names())
def test_puzzle_tags_name_their_source_not_a_path(name):
    _, games = puzzles(name)
    fens = set()
    for game in games:
        annotator, source = game.tags["Annotator"], game.tags["Source"]
        assert "/" not in annotator and not annotator.endswith(".pdn")
        assert source.startswith("seeded game 'puzzle-")
        fens.add(game.start.fen())
    assert len(fens) == len(games)  # no puzzle twice
