"""Irregular moves that stood and arbiter corrections survive PDN: what the writer writes,
our reader reads back to the same moves and positions (and ``pdn check`` passes), while
an illegal move without the position its comment should carry is still a located error."""

import argparse

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.position import Move
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker.irregular import Irregularity, moved, without
from draughtsboard.commands import pdn as pdn_command

RUSSIAN = get_variant("russian")
LASCA = get_variant("lasca")


def square(variant, name):
    return variant.geometry.number_of_name(name)


def irregular(game, start, end, kind, removed=(), separator="-"):
    """Play the irregular action ``start``-``end`` (pieces ``removed`` taken off) as the
    recorder does when the opponent lets it stand."""
    variant = game.variant
    a, b = square(variant, start), square(variant, end)
    gone = tuple(square(variant, s) for s in removed)
    game.play_irregular(Move((a, b), gone), moved(game.position, a, b, gone),
                        f"{start}{separator}{end}", kind.name.lower(), kind.comment,
                        t_wall=1_700_000_000.0)


def off(position, name):
    """``position`` with the piece on ``name`` taken off (an arbiter's correction)."""
    return without(position, 1 << (square(position.variant, name) - 1))


def russian_game():
    """Every way a recorded game leaves the rules: irregular moves of several kinds (one
    on the squares of a legal capture, its prisoner left on; one taking a piece off),
    corrections before the first move and later, and a correction a take-back took
    back."""
    game = Game(RUSSIAN, tags={"Event": "irregular", "Irregularities": "fmjd"})
    game.correct(parse_fen(RUSSIAN, "W:W21-32:B1-12"), "position accepted by the arbiter",
                 t_wall=1_700_000_000.0)  # (the same position: its counters start again)
    game.play("c3-d4")
    irregular(game, "f6", "h4", Irregularity.IRREGULAR_MOVE)  # two squares at once
    game.play("d4-c5")
    irregular(game, "a3", "b4", Irregularity.NOT_ON_TURN)  # White again, on Black's turn
    game.play("b6:d4")  # Black plays on
    irregular(game, "e3", "c5", Irregularity.NOT_REMOVED, separator=":")  # d4 left on
    game.play(game.position.legal_moves()[0])
    irregular(game, "g3", "f4", Irregularity.WITHOUT_REASON, removed=("h4",))
    game.correct(off(game.position, "a7"), "a piece taken off by the arbiter")
    game.play(game.position.legal_moves()[0])
    game.correct(off(game.position, "h8"), "to be taken back")
    game.undo()  # the take-back to the ply before takes the correction back with it
    game.play(game.position.legal_moves()[-1])
    return game


def assert_same_game(again, game):
    """``again`` (a game read back) has the moves, positions, irregular moves and
    corrections of `russian_game`."""
    assert [m.text for m in again.moves] == [m.text for m in game.moves]
    assert [m.move for m in again.moves] == [m.move for m in game.moves]
    assert again.positions == game.positions
    assert [m.after for m in again.moves] == [m.after for m in game.moves]
    assert [bool(m.irregularity) for m in again.moves] == \
        [bool(m.irregularity) for m in game.moves]
    corrections = [(e.ply, e.text) for e in again.events if e.kind == "correction"]
    assert corrections == [(0, "position accepted by the arbiter"),
                           (8, "a piece taken off by the arbiter")]


def test_irregular_moves_and_corrections_read_back_the_same():
    game = russian_game()
    text = write_game(game)
    assert "[%fen " in text and "[%setup " in text
    result = read_pdn(text, source="written")
    assert result.errors == []
    (entry,) = result.games
    again = entry.game
    assert_same_game(again, game)
    assert again.moves[1].comment == Irregularity.IRREGULAR_MOVE.comment
    written_again = write_game(again)  # (the times of day are not read back)
    assert write_game(read_pdn(written_again).games[0].game) == written_again


def test_the_broadcast_form_without_events_still_carries_the_positions():
    game = russian_game()
    text = write_game(game, events=False)
    assert "arbiter correction" not in text and "[%setup " in text
    again = read_pdn(text).games[0].game
    assert again.positions == game.positions


def test_pdn_check_passes_a_game_with_irregular_moves_and_corrections(tmp_path, capsys):
    path = tmp_path / "irregular.pdn"
    path.write_text(write_game(russian_game()) + write_game(lasca_game()))
    args = argparse.Namespace(files=[str(path)], variant=None, draw_preset=None)
    assert pdn_command.run_check(args) == 0
    assert capsys.readouterr().err == ""


def lasca_game():
    game = Game(LASCA)
    game.play(game.position.legal_moves()[0])
    irregular(game, "e3", "d4", Irregularity.NOT_ON_TURN)  # a column moved out of turn
    game.play(game.position.legal_moves()[0])
    return game


def test_a_column_games_irregular_move_reads_back():
    game = lasca_game()
    again = read_pdn(write_game(game)).games[0].game
    assert again.positions == game.positions
    assert [m.move for m in again.moves] == [m.move for m in game.moves]


def test_an_illegal_move_without_its_position_is_still_an_error():
    text = write_game(russian_game())
    bare = text.replace("[%fen ", "[%nofen ")
    (error,) = read_pdn(bare, source="bare").errors
    assert "f6-h4" in str(error) and "line" in str(error)


def test_a_legal_move_with_the_position_it_makes_is_just_the_move():
    game = Game(RUSSIAN)
    after = game.play("c3-b4") and game.position
    text = f'[GameType "25"]\n\n1. c3-b4 {{[%fen {after.fen()}]}} *\n'
    again = read_pdn(text).games[0].game
    assert again.moves[0].after is None and again.moves[0].comment == ""


def test_a_bad_position_in_a_command_is_a_located_error():
    text = '[GameType "25"]\n\n1. c3-e5 {[%fen W:W99:B1]} *\n'
    (error,) = read_pdn(text, source="bad").errors
    assert "[%fen]" in str(error) and "line 3" in str(error)
    text = '[GameType "25"]\n\n1. c3-d4 {arbiter correction: [%setup nonsense]} *\n'
    (error,) = read_pdn(text, source="bad").errors
    assert "[%setup]" in str(error)
    text = '[GameType "25"]\n\n1. c3-d4 (1. c3-b4 {[%setup W:W21-32:B1-12]}) *\n'
    (error,) = read_pdn(text, source="bad").errors
    assert "inside a variation" in str(error)
