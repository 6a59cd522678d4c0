"""Issue 46, item 3: pydraughts 0.6.7 reads the board's PDN of a long game with a clock
comment after every move.

After a comment the board wrote Black's move number again (``7. 32-28 {...} 7... 6x17``);
pydraughts removes repeated numbers by text, and from move 10 on ``1.`` is found inside
``11.`` (``ValueError: substring not found``, or moves silently lost). PDN 3.0 makes
move numbers optional, and its own clock example writes Black's move after a comment
without one: so does the board now (`pdn_writer.number_prefix`, docs/pdn.md).
"""

from __future__ import annotations

import random

import pytest

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant first)
from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import number_prefix, write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant

PLIES = 40


def clocked_game(variant_name: str, seed: int = 46) -> Game:
    """``PLIES`` legal moves chosen by a seeded hand, each with both clocks, and an
    arbiter's event half-way: a comment after every move."""
    rng = random.Random(seed)
    game = Game(get_variant(variant_name), tags={"White": "Board", "Black": "Scan 2.0"})
    white, black = 900.0, 900.0
    for ply in range(PLIES):
        moves = game.position.legal_moves()
        assert moves and game.result is None, f"the seeded game ended at ply {ply}"
        if ply % 2 == 0:
            white -= rng.randint(1, 30)
        else:
            black -= rng.randint(1, 30)
        game.play(rng.choice(sorted(moves, key=str)), t_monotonic=float(ply),
                  clock=(white, black))
        if ply == 21:
            game.add_event("illegal", "illegal attempt: 32-27", float(ply) + 0.5)
    return game


def pydraughts_moves(text: str) -> tuple[str, list[str]]:
    from draughts.PDN import PDNReader

    (game,) = PDNReader(pdn_text=text).games
    return game.variant, game.moves


@pytest.mark.parametrize(("variant", "theirs"), [("international", "standard"),
                                                 ("russian", "russian")])
def test_pydraughts_reads_a_forty_ply_game_with_a_clock_after_every_move(variant, theirs):
    game = clocked_game(variant)
    text = write_game(game)
    assert text.count("[%clock") == PLIES
    assert pydraughts_moves(text) == (theirs, [played.text for played in game.moves])
    again = read_pdn(text).games[0].game  # and ours still reads it
    assert [p.move for p in again.moves] == [p.move for p in game.moves]
    assert [p.clock for p in again.moves] == [p.clock for p in game.moves]


def test_blacks_move_number_only_where_a_reader_needs_it():
    assert number_prefix(True, 7, "comment") == "7. "
    assert number_prefix(False, 7, "comment") == ""
    assert number_prefix(False, 7, "move") == ""
    assert number_prefix(False, 1, "start") == "1... "  # a game Black begins
    assert number_prefix(False, 7, "variation") == "7... "


def test_the_movetext_of_a_clocked_game_reads_as_the_standards_example():
    game = Game(get_variant("international"))
    game.play("32-28", 1.0, clock=(890.0, 900.0))
    game.play("19-23", 2.0, clock=(890.0, 880.0))
    assert write_game(game).split("\n\n")[1].startswith(
        "1. 32-28 {[%clock w0:14:50 B0:15:00]} 19-23 {[%clock W0:14:50 b0:14:40]} *")
