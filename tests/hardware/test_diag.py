"""The diag command as scripts use it: one map with --once, one line per error."""

from __future__ import annotations

import argparse

from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.hardware import diag
from draughtsboard.hardware.backends import open_simulated_board


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="draughtsboard diag")
    diag.add_arguments(parser)
    return diag.run(parser.parse_args(argv))


def test_once_prints_one_map_of_the_simulated_board(capsys):
    assert run(["--backend", "sim", "--once", "--occupied", "1,2,32"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "8x8 board (sim), 3 of 32 switches closed"
    assert out[1].startswith(" 8   #   #   .   .")
    assert out[8].startswith(" 1 .   .   .   #")
    assert out[9].startswith("   a b c d e f g h")


def test_once_on_another_board(capsys):
    assert run(["--backend", "sim", "--board", "7x7", "--once", "--occupied", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "7x7 board (sim), 1 of 25 switches closed"
    assert out[7].startswith(" 1 #   .   .   .")


def test_a_config_file_with_problems_gives_one_line_each(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('[board]\nsize = 8\n[matrix]\nrows = [1, 1]\n')
    assert run(["--config", str(path), "--backend", "sim", "--once"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines[0] == (f"draughtsboard diag: {path}: matrix.rows: 2 pins given, "
                        "the 8x8 board needs 8")
    assert f"{path}: matrix.rows[1]: pin 1 is already used by matrix.rows[0]" in lines[1]
    assert "Traceback" not in captured.err


def test_a_bad_square_is_one_line(capsys):
    assert run(["--backend", "sim", "--once", "--occupied", "33"]) == 2
    assert capsys.readouterr().err == (
        "draughtsboard diag: cannot open the sim board: --occupied: '33' is not a square "
        "1-32\n")


def test_the_report_names_stuck_and_chattering_switches():
    with open_simulated_board(board_geometry(8), occupied=[1]) as board:
        sim = board.simulation
        sim.place(5, at=0.1)
        sim.lift(5, at=0.3)
        for k in range(4):
            sim.brush(9, at=0.5 + 0.1 * k, duration=0.005)
        t = 0.0
        while t < 1.0:
            board.step(t)
            t += 0.005
        text = diag.report(board, 32)
    lines = text.splitlines()
    assert lines[0] == "never changed, always closed (stuck or never lifted): [1]"
    assert lines[1].startswith("never changed, always open (stuck or never placed): [2, 3, 4, 6")
    assert lines[2] == "chattering (loose reed or ghost): 9 (4 bounces)"


def test_a_live_session_ends_with_the_report(capsys):
    assert run(["--backend", "sim", "--seconds", "0", "--no-walk", "--occupied", "1"]) == 0
    out = capsys.readouterr().out
    assert "never changed, always open (stuck or never placed): [" in out
