"""Puzzle mode from the command line: ``play --mode puzzle`` serves the first puzzle of
the file, and a file that cannot be used stops it in one line. (The puzzles themselves:
tests/play/test_puzzles.py, in virtual time.)"""

from __future__ import annotations

from draughtsboard.cli import EXIT_DATA

from ..play.test_puzzles import PUZZLES
from .helpers import wait_until


def test_play_in_puzzle_mode_from_the_command_line(tmp_path):
    puzzles_file = tmp_path / "puzzles.pdn"
    puzzles_file.write_text(PUZZLES, encoding="utf-8")
    import subprocess
    import sys

    from .helpers import PlayProcess

    with PlayProcess(tmp_path / "data", "--mode", "puzzle", "--puzzles",
                     str(puzzles_file)) as play:
        state = wait_until(lambda: (s := play.state()) and s["coach"]["puzzle"] and s)
        assert state["coach"]["puzzle"]["number"] == 1
        assert state["coach"]["puzzle"]["count"] == 2
        assert state["fen"] == "W:W17,19,20:B9-11,13" and state["mode"] == "puzzle"
        assert state["tags"]["Event"] == "Puzzle" and state["tags"]["Round"] == "1"
        assert play.stop() == 0
    bad = tmp_path / "bad.pdn"
    bad.write_text("", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "draughtsboard", "play", "--backend", "sim", "--mode",
         "puzzle", "--puzzles", str(bad), "--data", str(tmp_path / "data"), "--listen",
         "127.0.0.1:0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == EXIT_DATA
    assert done.stderr.strip().splitlines()[-1] == \
        f"draughtsboard play: {bad}: no puzzle in the file"

