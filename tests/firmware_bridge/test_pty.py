"""The serial backend over a real pseudo-terminal, as people would try it.

``draughtsboard emulate --pty`` puts the device (the reference firmware, or the whole
firmware under MicroPython) behind a pseudo-terminal and takes moves on its standard input;
``draughtsboard play --backend serial --port PATH`` opens that path with pyserial as it
opens /dev/ttyACM0 and plays the game on its page, over a line that damages 2% of its
bytes. The cable is pulled and put back in the middle of the game: the page says why the
board is silent meanwhile, and every move, before and after, is recorded. `diag` reads
the same board.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from devtools.pico_sim.device import runtime_problem
from draughtsboard.board.rules.notation import format_move
from tests.web.helpers import PlayProcess, wait_until

from .test_replay import recorded_game

# Upper bounds of the waits (a passing run waits far less). The MicroPython emulator runs
# the firmware in an interpreter on the real clock: on a machine shared by many processes
# it boots and scans several times slower, so its waits are longer.
WAIT = 30.0
MICROPYTHON_WAIT = 120.0


class Emulator:
    """``draughtsboard emulate --pty --link LINK ...``: its first line, its answers."""

    def __init__(self, link, *args: str, wait: float = WAIT) -> None:
        self.wait = wait
        self.process = subprocess.Popen(
            [sys.executable, "-m", "draughtsboard", "emulate", "--pty", "--link", str(link),
             *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.answers: list[str] = []
        self.errors: list[str] = []
        self._first = threading.Event()
        threading.Thread(target=self._read, args=(self.process.stdout, self.answers, True),
                         daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self.errors, False),
                         daemon=True).start()
        if not self._first.wait(wait) or not self.answers:
            self.process.kill()  # never left running behind a failed test
            self.process.wait(5)
            raise AssertionError("emulate printed no path:\n" + "".join(self.errors))
        self.path = self.answers.pop(0).strip()

    def _read(self, stream, lines, first) -> None:
        for line in stream:
            lines.append(line)
            if first:
                self._first.set()
        if first:
            self._first.set()

    def say(self, command: str) -> str:
        """Send one command; its answer line."""
        count = len(self.answers)
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        wait_until(lambda: len(self.answers) > count, self.wait,
                   what=f"an answer to {command!r}")
        return self.answers[count].strip()

    def close(self) -> int:
        if self.process.poll() is None:
            try:
                self.process.stdin.write("quit\n")
                self.process.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass
            try:
                return self.process.wait(self.wait)
            except subprocess.TimeoutExpired:
                self.process.kill()  # and its MicroPython child ends with its pipe
        return self.process.wait(5)


def opening(plies: int) -> list[str]:
    """The first plies of a championship game, written as the emulator's hand reads them."""
    start, moves = recorded_game("russian-ussr-championship-part1.pdn", "russian", 15)
    texts, position = [], start
    for move in moves[:plies]:
        texts.append(format_move(position, move))
        position = position.play(move)
    return texts


def play_moves(emulator, play, texts) -> None:
    for text in texts:
        before = len(play.state()["moves"])
        assert emulator.say(text).startswith("ok ")
        wait_until(lambda before=before: len(play.state()["moves"]) > before, emulator.wait,
                   what=f"{text} to be recorded")


@pytest.mark.slow
def test_a_game_over_a_pseudo_terminal_survives_the_cable_pulled_and_put_back(tmp_path):
    texts = opening(8)
    emulator = Emulator(tmp_path / "board", "--seed", "5", "--fault-rate", "0.02")
    try:
        assert emulator.path == str(tmp_path / "board")
        assert os.path.realpath(emulator.path).startswith("/dev/pts/")
        with PlayProcess(tmp_path / "data", "--backend", "serial", "--port",
                         emulator.path) as play:
            wait_until(lambda: play.state()["link_problem"] is None
                       and play.state()["state"] == "ready", 20, what="the board ready")
            play_moves(emulator, play, texts[:4])

            assert emulator.say("unplug") == "ok unplug"
            problem = wait_until(lambda: play.state()["link_problem"], 15,
                                 what="the page to say the board is gone")
            assert "unplugged" in problem and emulator.path in problem
            assert emulator.say("plug") == f"ok plug {emulator.path}"
            wait_until(lambda: play.state()["link_problem"] is None, 20,
                       what="the board back on the page")

            play_moves(emulator, play, texts[4:])
            state = play.state()
            assert state["moves"] == texts and state["flags"] == []
            pdn = play.get("/api/game.pdn").decode()
            assert all(text in pdn.split() for text in texts)
            assert play.stop() == 0
        assert "device reset" in "".join(play.lines)  # the replugged board is a new boot
    finally:
        assert emulator.close() == 0


def diag(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "draughtsboard", "diag", "--backend",
                           "serial", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_diag_over_a_pseudo_terminal_maps_the_switches_and_sees_a_move(tmp_path):
    emulator = Emulator(tmp_path / "board", "--variant", "international")
    try:
        once = diag("--port", emulator.path, "--board", "10x10", "--once")
        assert once.returncode == 0, once.stderr
        heading, *board = once.stdout.splitlines()
        assert "firmware 1.3.0" in heading and "40 of 50 switches closed" in heading
        assert len(board) == 11 and board[0].startswith("10")
        by_game = diag("--port", emulator.path, "--variant", "international", "--once")
        assert by_game.returncode == 0, by_game.stderr  # a game names its board, 10x10
        assert by_game.stdout.splitlines()[1:] == board

        live = subprocess.Popen(
            [sys.executable, "-m", "draughtsboard", "diag", "--backend", "serial", "--port",
             emulator.path, "--board", "10x10", "--no-walk", "--seconds", "3"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines: list[str] = []

        def read() -> None:
            for line in live.stdout:
                lines.append(line)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        wait_until(lambda: any("snapshots" in line for line in lines), 30,
                   what="diag's live map")
        assert emulator.say("32-28").startswith("ok 32-28")
        assert live.wait(60) == 0, live.stderr.read()
        reader.join(5)
        out = "".join(lines)
        never = next(line for line in out.splitlines() if line.startswith("never changed"))
        assert "28" not in never.split("[")[1] and "32" not in never.split("[")[1]
        assert "0 damaged" in out.splitlines()[-1]
    finally:
        assert emulator.close() == 0
    gone = diag("--port", str(tmp_path / "board"), "--once")
    assert gone.returncode == 2
    assert gone.stderr.splitlines() == [f"draughtsboard diag: cannot open {tmp_path / 'board'}: "
                                        "no such device (the board unplugged, or another port?)"]


@pytest.mark.slow
@pytest.mark.skipif(runtime_problem() is not None, reason=str(runtime_problem()))
def test_the_micropython_firmware_plays_over_a_pseudo_terminal(tmp_path):
    texts = opening(3)
    emulator = Emulator(tmp_path / "pico", "--micropython", "--seed", "2",
                        wait=MICROPYTHON_WAIT)
    try:
        with PlayProcess(tmp_path / "data", "--backend", "serial", "--port",
                         emulator.path, timeout=MICROPYTHON_WAIT) as play:
            wait_until(lambda: play.state()["link_problem"] is None
                       and play.state()["state"] == "ready", MICROPYTHON_WAIT,
                       what="the board ready")
            play_moves(emulator, play, texts)
            assert play.state()["moves"] == texts
            assert play.stop(timeout=MICROPYTHON_WAIT) == 0
    finally:
        assert emulator.close() == 0
