"""The hands of ``draughtsboard emulate``: every line of its standard input gets one
answer, a bad line an ``error:`` answer and no switch change."""

from __future__ import annotations

import subprocess
import sys

import pytest

from draughtsboard.board.rules import get_variant, initial_position
from draughtsboard.commands.emulate import Hands, TimedSwitches


class Switches:
    """Scheduled changes, kept in order and applied when time comes."""

    def __init__(self, occupied: int) -> None:
        self.occupied = occupied
        self.pending: list[tuple[float, int, bool]] = []

    def schedule(self, at: float, square: int, closed: bool) -> None:
        self.pending.append((at, square, closed))

    def advance(self, now: float) -> None:
        due = sorted(c for c in self.pending if c[0] <= now)
        self.pending = [c for c in self.pending if c[0] > now]
        for _, square, closed in due:
            bit = 1 << (square - 1)
            self.occupied = self.occupied | bit if closed else self.occupied & ~bit


def hands(now: list[float]) -> tuple[Hands, TimedSwitches, Switches]:
    start = initial_position(get_variant("russian"))
    board = Switches(start.occupancy())
    switches = TimedSwitches(board, lambda: now[0])
    return Hands(start, switches), switches, board


def test_a_move_is_made_by_a_hand_and_the_position_moves_on():
    now = [0.0]
    made, switches, board = hands(now)
    before = switches.occupied
    answer, cable = made.command("22-17\n", now[0])
    assert answer.startswith("ok c3-b4 (done in ") and cable is None  # written as Russian is
    now[0] = 10.0
    after = switches.occupied
    assert after == before & ~(1 << 21) | 1 << 16  # 22 lifted, 17 placed
    assert made.command("position", now[0])[0].startswith("ok B:")  # black to move


def test_a_second_move_waits_for_the_first():
    now = [0.0]
    made, _, board = hands(now)
    made.command("22-17", 0.0)
    first_done = made.busy_until
    made.command("11-15", 0.0)
    assert min(at for at, square, _ in board.pending if square == 11) >= first_done


def test_bad_lines_are_answered_and_change_nothing():
    now = [0.0]
    made, switches, board = hands(now)
    answers = [made.command(line, 0.0) for line in
               ("22-19", "lift 33", "place x", "lift", "jump 22 17", "zz", "22-17 now")]
    assert all(answer.startswith("error: ") and cable is None for answer, cable in answers)
    assert "no square '33' (1-32)" in answers[1][0]
    assert board.pending == []
    assert made.command("   ", 0.0) == ("", None)  # an empty line: no answer


def test_switches_and_the_cable():
    made, switches, board = hands([0.0])
    assert made.command("lift 22", 0.0) == ("ok lift 22", None)
    assert made.command("place 17", 0.0) == ("ok place 17", None)
    assert board.pending == [(0.0, 22, False), (0.0, 17, True)]
    for word in ("unplug", "plug", "reset", "quit"):
        assert made.command(word.upper(), 0.0) == (f"ok {word}", word)


def emulate(*args: str, stdin: str = "quit\n") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "draughtsboard", "emulate", "--pty", *args],
                          input=stdin, capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_the_first_line_is_the_terminal_and_a_wrong_fault_rate_is_one_line():
    done = emulate(stdin="position\nquit\n")
    assert done.returncode == 0, done.stderr
    path, answer = done.stdout.splitlines()
    assert path.startswith("/dev/pts/") and answer.startswith("ok W:")
    wrong = emulate("--fault-rate", "2")
    assert wrong.returncode != 0 and wrong.stdout == ""
    assert wrong.stderr.strip().splitlines() == [
        "draughtsboard emulate: --fault-rate 2.0 is not between 0 and 1"]
