"""``diag --variant GAME``, as scripts and docs wrote it before a board config named its
board: the game names the board it is played on, as ``play --variant`` does; an unknown
game, or a game of another board than ``--board`` or the config's, is one line."""

from __future__ import annotations

from pathlib import Path

import pytest

import draughtsboard.hardware
from draughtsboard.board.rules import board_name, get_variant, variant_names
from draughtsboard.cli import main

CONFIGS = Path(draughtsboard.hardware.__file__).parent / "configs"
BOARDS = ["7x7", "8x8", "10x10"]


def diag(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["diag", "--backend", "sim", "--once", *argv])
    printed = capsys.readouterr()
    return status, printed.out, printed.err


@pytest.mark.parametrize("game", variant_names())
def test_every_game_names_the_board_it_is_played_on(capsys, game):
    board = board_name(get_variant(game).geometry)
    status, out, err = diag(capsys, "--variant", game)
    assert (status, err) == (0, "")
    assert out.startswith(f"{board} board (sim), ")
    assert diag(capsys, "--board", board)[1] == out  # the same map as --board gives
    assert diag(capsys, "--variant", game, "--board", board)[1] == out  # they agree


def test_an_unknown_game_is_one_line_with_the_status_of_other_bad_settings(capsys):
    status, out, err = diag(capsys, "--variant", "shogi")
    assert out == ""
    assert err.splitlines() == ["draughtsboard diag: --variant: unknown variant 'shogi' "
                                "(known: column, column-7x7, international, lasca, russian)"]
    assert status == diag(capsys, "--occupied", "99")[0] == 2


@pytest.mark.parametrize("game", variant_names())
def test_a_game_of_another_board_than_board_is_one_line(capsys, game):
    played_on = board_name(get_variant(game).geometry)
    for other in (b for b in BOARDS if b != played_on):
        status, out, err = diag(capsys, "--variant", game, "--board", other)
        assert (status, out) == (2, "")
        assert err.splitlines() == [f"draughtsboard diag: --variant {game} is played on "
                                    f"{played_on}, not on --board {other}: give one of them"]


def test_a_game_or_a_board_the_config_is_not_is_one_line(capsys):
    config = str(CONFIGS / "8x8.toml")
    assert diag(capsys, "--config", config, "--variant", "column")[0] == 0
    status, out, err = diag(capsys, "--config", config, "--variant", "international")
    assert (status, out) == (2, "")
    assert err.splitlines() == [
        f"draughtsboard diag: {config}: the board config's board is 8x8; --variant "
        "international is played on 10x10 (give the config of that board, or another "
        "--variant)"]
    status, out, err = diag(capsys, "--config", config, "--board", "7x7")
    assert (status, out) == (2, "")
    assert err.splitlines() == [
        f"draughtsboard diag: {config}: the board config's board is 8x8, not --board 7x7 "
        "(give the config of that board, or leave --board out)"]
