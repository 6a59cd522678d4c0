"""benchmarks/opponent_latency.py refuses a column game in one line: its hands lift a
taken piece off the board, which a column game's capture does not (it moves the piece
under the captor), so a run there would wait for a move that never completes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_column_game_is_refused_in_one_line():
    run = subprocess.run([sys.executable, "-m", "benchmarks.opponent_latency",
                          "--variant", "lasca"], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "lasca is a column game" in lines[0]
    assert "Traceback" not in run.stderr
