"""benchmarks/magnet_model.py's tactile board (``--tactile``): its geometry, its sums
checked against closed forms, the worst column against trying every way up, and its
command line (figures as the last line of JSON, bad input in one line)."""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import magnet_model as mm

ROOT = Path(__file__).resolve().parents[1]

def axis_potential(diameter: float, height: float, br: float, below: float) -> float:
    """The exact potential on a disc magnet's axis, ``below`` under its lower face: its
    two faces are discs of magnetic charge +-M, each giving M/2 (sqrt(a^2 + d^2) - d)."""
    m, a = br / mm.MU0, diameter / 2
    return m / 2 * ((math.hypot(a, below + height) - (below + height))
                    - (math.hypot(a, below) - below))


@pytest.mark.parametrize("size", [(2, 1), (2, 2), (3, 1), (3, 3), (6, 2)])
@pytest.mark.parametrize("below_mm", [2, 3, 5])
def test_the_dipole_sum_agrees_with_the_closed_forms_close_to_the_magnet(size, below_mm):
    magnet = mm.disc(*size, 1.2)
    below, d, h = below_mm / 1000, size[0] / 1000, size[1] / 1000
    assert mm.potential(magnet, 0, 0, -below) == pytest.approx(
        axis_potential(d, h, 1.2, below), rel=0.015)
    assert mm.field(magnet, 0, 0, -below)[2] == pytest.approx(
        mm.axis_field_exact(d, h, 1.2, below), rel=0.015)


def test_where_each_magnet_sits():
    board = mm.Tactile(raised=3, peg=5, top=5, cover=1)
    assert board.depth("base") == pytest.approx(0.009)  # 5 + 3 + 1: the squares lift it
    assert board.depth("tip") == pytest.approx(0.003)  # 5 + 3 - 5: the peg sinks it
    flat = mm.Tactile(raised=0, peg=0, cover=0)
    assert flat.depth("base") == flat.depth("tip")


def test_only_magnets_that_fit_the_peg_go_in_its_tip():
    assert {m[0] for m in mm.Tactile(peg_diameter=4, peg=5).magnets("tip")} == {
        "3 x 3 mm", "3 x 2 mm", "3 x 1 mm", "2 x 2 mm", "2 x 1 mm"}
    assert {m[0] for m in mm.Tactile(peg_diameter=3, peg=1.5).magnets("tip")} == {"2 x 1 mm"}
    assert mm.Tactile(peg_diameter=2).magnets("tip") == ()
    assert mm.Tactile(peg_diameter=2).magnets("base") == mm.BASE_MAGNETS


@pytest.mark.parametrize("board, words", [
    (mm.Tactile(peg=8), "--peg 8 reaches the reed"),
    (mm.Tactile(raised=-1), "--raised -1"),
    (mm.Tactile(top=float("nan")), "--top nan"),
    (mm.Tactile(piece=0), "--piece 0"),
    (mm.Tactile(piece=3.9), "--piece 3.9: give 4 to 100 mm"),
    (mm.Tactile(peg_diameter=0), "--peg-diameter 0"),
    (mm.Tactile(column=25), "--column 25"),
])
def test_a_board_that_cannot_be_built_says_why_in_one_line(board, words):
    problem = board.problem()
    assert problem is not None and words in problem and "\n" not in problem


def test_a_board_that_can_be_built_has_no_problem():
    assert mm.Tactile().problem() is None
    assert mm.Tactile(peg=7).problem() is None  # its tip 1 mm above the reed's axis


def test_the_worst_column_is_the_least_of_every_way_up():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(2, 7)
        levels = sorted((rng.uniform(0.1, 40) for _ in range(n)), reverse=True)
        brute = min(abs(levels[0] + sum(s * d for s, d in zip(signs, levels[1:], strict=True)))
                    for signs in itertools.product((1, -1), repeat=n - 1))
        assert mm.worst_column(levels) == pytest.approx(brute)


def test_a_column_whose_upper_pieces_outweigh_the_bottom_one_can_cancel():
    assert mm.worst_column([10.0, 6.0, 4.0]) == pytest.approx(0.0)
    assert mm.worst_column([10.0, 7.0, 4.0]) == pytest.approx(1.0)  # 10 - 7 - 4
    assert mm.worst_column([10.0] + [1.0] * 11) == 0.0  # too many to try: the safe answer


def test_what_the_figures_say_follows_from_the_field():
    board = mm.Tactile()
    base = mm.figures(board, "base", "6 x 2 mm", 6, 2, 1.2)
    tip = mm.figures(board, "tip", "6 x 2 mm", 6, 2, 1.2)
    # a king adds the upper piece's drive, one piece higher up
    upper = mm.signed_drive(mm.disc(6, 2, 1.2), board.depth("base") + board.piece / 1000,
                            mm.REED_LENGTH / 2)
    assert base.king == pytest.approx(base.seated + abs(upper))
    assert base.column < base.seated < base.king
    assert base.next_king < base.next_column < base.seated / 10
    assert base.lifted < base.seated
    assert tip.seated > base.seated  # the same magnet, 6 mm nearer the reed
    higher = mm.figures(mm.Tactile(raised=4), "base", "6 x 2 mm", 6, 2, 1.2)
    assert higher.seated < base.seated  # raising the squares lifts a base magnet away
    assert base.push == pytest.approx(26.2, abs=0.1)  # docs/building.md's 26 g-force at 8 mm


def test_works_asks_every_reed_of_the_range_to_close_and_the_neighbour_to_stay_quiet():
    row = mm.Figures("x", "tip", seated=30, king=32, column=24, next_king=0.5,
                     next_column=1.5, lifted=5, push=0.5)
    assert row.works("draughts") and not row.works("columns")
    assert not mm.Figures("x", "tip", 24.9, 30, 30, 0, 0, 0, 0).works("draughts")
    assert not mm.Figures("x", "tip", 30, 30, 30, 1.0, 0, 0, 0).works("draughts")
    assert mm.choose([row, mm.Figures("y", "tip", 40, 40, 40, 0, 0, 0, 0)], "columns").name == "y"
    assert mm.choose([row], "columns") is None


def test_the_command_prints_its_figures_and_ends_with_json(capsys):
    assert mm.main(["--tactile"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    out = json.loads(lines[-1])
    assert out["board"]["raised_mm"] == 3.0 and out["board"]["column"] == 12
    assert out["base_draughts"] == "6x2mm" and out["base_columns"] is None
    assert out["tip_draughts"] == "2x2mm" and out["tip_columns"] == "2x2mm"
    assert out["tip"]["3x1mm"]["seated_AT"] == pytest.approx(38.6, abs=0.1)
    assert "4x4mm" not in out["tip"]  # it does not fit a 4 mm peg
    assert any("smallest that works for columns: 2 x 2 mm" in line for line in lines)


def test_without_tactile_the_command_prints_what_it_always_did(capsys):
    assert mm.main([]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["drive_end_AT_8mm"] == pytest.approx(41.0, abs=0.1)
    assert "board" not in out


@pytest.mark.parametrize("argv, words", [
    (["--raised", "3"], "--raised describes a tactile board: give --tactile too"),
    (["--tactile", "--peg", "9"], "--peg 9 reaches the reed"),
    (["--tactile", "--column", "0"], "--column 0: give 1 to 24 pieces"),
    (["--tactile", "--raised", "x"], "invalid float value: 'x'"),
    (["--br", "0"], "--br 0: give a remanence above 0, up to 2 T"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    with pytest.raises(SystemExit) as stop:
        mm.main(argv)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def test_any_board_it_accepts_gives_figures(capsys):
    """A seeded walk over the boards ``problem`` lets through: each one runs to its JSON."""
    rng = random.Random(11)
    ran = 0
    for _ in range(40):
        board = mm.Tactile(raised=rng.choice([0, 0.5, 3, 10, 50]), peg=rng.choice([0, 1, 5, 12]),
                           top=rng.choice([0, 1, 5, 20]), cover=rng.choice([0, 1, 50]),
                           piece=rng.choice([4, 4.5, 8, 100]),
                           peg_diameter=rng.choice([0.5, 2, 4, 100]),
                           column=rng.choice([1, 2, 17, 24]), square=rng.choice([1, 40, 100]))
        if board.problem() is not None:
            continue
        tactile = ["--tactile"] + [f"--{key.replace('_', '-')}={value}"
                                   for key, value in vars(board).items()]
        assert mm.main(tactile) == 0
        assert "board" in json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        ran += 1
    assert ran >= 10


def test_bad_input_from_the_shell_has_no_traceback():
    run = subprocess.run([sys.executable, "-m", "benchmarks.magnet_model", "--tactile",
                          "--peg", "20"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_the_figures_in_docs_accessibility_are_the_commands(capsys):
    text = (ROOT / "docs" / "accessibility.md").read_text()
    section = text[text.index("## A tactile board"):text.index("## Getting the sound out")]
    assert "-m benchmarks.magnet_model --tactile\n" in section
    mm.main(["--tactile"])
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    rows = re.findall(r"^\| (\d x \d mm), in the (base|peg's tip) \| ([\d.]+) AT \| ([\d.]+) AT "
                      r"\| ([\d.]+) AT \| ([\d.]+) / ([\d.]+) AT \| ([\d.]+) AT \| ([\d.]+) g \|$",
                      section, re.M)
    assert len(rows) == 4
    for name, place, piece, king, column, next_king, next_column, lifted, push in rows:
        got = out["base" if place == "base" else "tip"][name.replace(" ", "")]
        assert (float(piece), float(king), float(column), float(lifted)) == (
            got["seated_AT"], got["king_AT"], got["column_AT"], got["lifted_AT"])
        assert float(next_king) == pytest.approx(got["next_king_AT"], abs=0.006)
        assert float(next_column) == pytest.approx(got["next_column_AT"], rel=0.02)
        assert float(push) == pytest.approx(got["push_g"], rel=0.1)
    assert "**2 x 2 mm** is the smallest" in section and out["tip_columns"] == "2x2mm"
