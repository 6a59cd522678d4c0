"""Perft from the initial positions equals the published tables (shallow depths here;
`benchmarks/perft.py` runs the deep ones)."""

import json
import pathlib
import subprocess
import sys

import pytest

from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.perft import perft
from draughtsboard.board.rules.variants import get_variant

TABLES = json.loads((pathlib.Path(__file__).parents[2] / "data" / "perft.json").read_text())
SHALLOW = {"russian": 6, "international": 5}


@pytest.mark.parametrize("variant_name", sorted(SHALLOW))
def test_perft_matches_published_table(variant_name):
    start = initial_position(get_variant(variant_name))
    for depth in range(1, SHALLOW[variant_name] + 1):
        assert perft(start, depth) == TABLES[variant_name][depth - 1], f"depth {depth}"


def test_perft_depth_zero_is_one_node():
    assert perft(initial_position(get_variant("russian")), 0) == 1


@pytest.mark.slow
def test_perft_command_prints_depth_nodes_seconds():
    result = subprocess.run(
        [sys.executable, "-m", "draughtsboard", "perft", "--variant", "international",
         "--depth", "3"], capture_output=True, text=True, check=True)
    lines = [line.split() for line in result.stdout.splitlines()]
    assert [(int(d), int(n)) for d, n, _ in lines] == [(1, 9), (2, 81), (3, 658)]
    assert all(float(seconds) >= 0 for _, _, seconds in lines)


@pytest.mark.slow
def test_perft_command_rejects_a_bad_fen_in_one_line():
    result = subprocess.run(
        [sys.executable, "-m", "draughtsboard", "perft", "--fen", "W:W99", "--depth", "1"],
        capture_output=True, text=True)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
