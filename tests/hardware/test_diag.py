"""The diag command as scripts use it: one map with --once, one line per error."""

from __future__ import annotations

import argparse

import pytest

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
        text = diag.report(board)
    lines = text.splitlines()
    assert lines[0] == ("square 1 (row 0 (BCM 5), column 0 (BCM 22)): never changed, "
                        "always closed (stuck or never lifted)")
    assert lines[1].startswith("never changed, always open (stuck or never placed): [2, 3, 4, 6")
    assert lines[2] == "chattering (loose reed or ghost): 9 (4 bounces)"


def test_a_live_session_ends_with_the_report(capsys):
    assert run(["--backend", "sim", "--seconds", "0", "--no-walk", "--occupied", "1"]) == 0
    out = capsys.readouterr().out
    assert "never changed, always open (stuck or never placed): [" in out


@pytest.mark.parametrize("fault,line", [
    ("row:2:open", "row 2, BCM 12 (header pin 32): all open, never closed (squares 9, 10, "
                   "11, 12): a broken row wire, if pieces were put there"),
    ("column:1:open", "column 1, BCM 23 (header pin 16): all open, never closed (squares 2, "
                      "6, 10, 14, 18, 22, 26, 30): a broken column wire, if pieces were put "
                      "there"),
    ("short:column:1,2", "columns 1, 2 shorted? column 1 on BCM 23 (header pin 16) and column "
                         "2 on BCM 24 (header pin 18): squares 2 and 3, 6 and 7, 10 and 11, "
                         "14 and 15, 18 and 19, 22 and 23, 26 and 27, 30 and 31 always change "
                         "together"),
    ("stuck:17", "square 17 (row 4 (BCM 16), column 0 (BCM 22)): never changed, always closed "
                 "(stuck or never lifted)"),
])
def test_a_sweep_names_the_broken_wire_with_its_pins(fault, line, capsys):
    assert run(["--backend", "sim", "--sweep", "--sim-fault", fault]) == 0
    assert capsys.readouterr().out.splitlines() == [line]


def test_a_sweep_of_a_sound_board_finds_nothing(capsys):
    for board in ("8x8", "10x10", "7x7"):
        assert run(["--backend", "sim", "--board", board, "--sweep"]) == 0
        assert capsys.readouterr().out == "every switch changed and none chattered\n"


def test_the_empty_board_self_test(capsys):
    assert run(["--backend", "sim", "--empty"]) == 0
    assert capsys.readouterr().out == "empty board: all 32 switches open and steady\n"
    assert run(["--backend", "sim", "--empty", "--sim-fault", "stuck:17"]) == 1
    assert capsys.readouterr().out == (
        "square 17 (row 4 (BCM 16), column 0 (BCM 22)): closed on an empty board: a stuck "
        "reed, a magnet nearby, or a short to its column\n")


def test_a_fault_needs_the_simulator_and_a_known_form(capsys):
    assert run(["--sim-fault", "row:1:open", "--once"]) == 2
    assert run(["--backend", "sim", "--sim-fault", "row:12:open", "--sweep"]) == 2
    assert run(["--backend", "sim", "--sim-fault", "bogus", "--sweep"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "draughtsboard diag: cannot open the gpio board: --sim-fault and --sweep need "
        "--backend sim",
        "draughtsboard diag: cannot open the sim board: --sim-fault: row-open 12: not on this "
        "board (8 rows, 4 columns, squares 1-32)",
        "draughtsboard diag: cannot open the sim board: --sim-fault 'bogus': expected one of "
        "row:R:open, column:C:open, short:column:A,B, stuck:N or stuck:N:open",
    ]
