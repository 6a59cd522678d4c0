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
from dataclasses import replace

import pytest

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant first)
from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import number_prefix, write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.notation import format_move
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
    assert number_prefix(False, 7, "variation") == ""


def test_the_movetext_of_a_clocked_game_reads_as_the_standards_example():
    game = Game(get_variant("international"))
    game.play("32-28", 1.0, clock=(890.0, 900.0))
    game.play("19-23", 2.0, clock=(890.0, 880.0))
    assert write_game(game).split("\n\n")[1].startswith(
        "1. 32-28 {[%clock w0:14:50 B0:15:00]} 19-23 {[%clock W0:14:50 b0:14:40]} *")


def test_pydraughts_reads_a_game_with_a_variation_past_move_ten():
    """A variation on White's 7th move: with ``7...`` written again after it, pydraughts
    deleted every later ``7.``, and moves 17 and 27 with it (56 of 60 plies read)."""
    game = clocked_game("international")
    at = 12  # White's 7th move
    board = Game(game.variant)
    for played in game.moves[:at]:
        board.play(played.move)
    alternative = sorted(board.position.legal_moves(), key=str)
    other = next(m for m in alternative if m != game.moves[at].move)
    reply = sorted(board.position.play(other).legal_moves(), key=str)[0]
    variation = f"7. {format_move(board.position, other)} " \
        f"{format_move(board.position.play(other), reply)}"
    game.moves[at] = replace(game.moves[at], variations=(variation,))
    text = write_game(game)
    assert f"({variation})" in text
    assert pydraughts_moves(text) == ("standard", [played.text for played in game.moves])
    again = read_pdn(text)
    assert again.errors == [] and again.games[0].game.moves[at].variations == (variation,)


def test_a_game_black_begins_reads_as_pydraughts_reads_its_own():
    """pydraughts 0.6.7 reads the first move of a game Black begins twice, its own
    writer's text too (docs/pdn.md): the board's text reads no worse than that."""
    from draughts.PDN import PDNWriter

    fen = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    game = Game.from_fen(get_variant("russian"), fen)
    for text in ("h6-g5", "c3-b4", "b6-c5", "b4-a5"):
        game.play(text, clock=(800.0, 800.0))
    moves = [played.text for played in game.moves]
    theirs = PDNWriter(None, variant="russian", starting_fen=fen, moves=moves,
                       tags={"GameType": "25", "FEN": fen}, replay_moves_from_board=False)
    assert pydraughts_moves(write_game(game)) == pydraughts_moves(theirs.pdn_text)
    assert pydraughts_moves(write_game(game))[1] == moves[:1] + moves  # pydraughts' reading
