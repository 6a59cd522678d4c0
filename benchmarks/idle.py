"""An idle board: what `draughtsboard play` costs while nobody touches it.

Run: .venv/bin/python -m benchmarks.idle [--seconds 60] [--backends sim,gpio,serial]
                                         [--pages 5] [--no-firmware]
Figures first, one JSON line last.

For each backend, ``python -m draughtsboard play`` is started with a fresh data
directory; after it is up and has settled (``--settle`` seconds: past the 10 s after
which the session counts a board nobody touched as at rest) its CPU time (user +
system, from /proc/PID/stat) is read over ``--seconds`` with no page open, then again with
``--pages`` pages open (each a live event stream, as a browser holds it), and its resident
memory (VmRSS) at the end of each. The share is of one core of this machine.

* sim: the simulated board (the reed-matrix driver scanning mock pins, in real time; its
  hands nudge the scan, so at rest it scans once a second, docs/hardware.md).
* gpio: the GPIO backend on gpiozero's mock pins (GPIOZERO_PIN_FACTORY=mock, the shipped
  board config): the real drivers, mock pins under them.
* serial: the serial backend on a pseudo-terminal, the reference firmware on its far end
  (``draughtsboard emulate --pty``, another process, not counted).

Unless ``--no-firmware``, the firmware's own figures come along: its live heap at most and
its compute a pass under MicroPython (benchmarks/firmware_micropython.py's measure, on the
first 12 plies of one recorded game).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from benchmarks.harness.processes import ServedProcess, cpu_seconds, rss_mb

ROOT = Path(__file__).resolve().parents[1]

URL = re.compile(r"the board's page: (http://[0-9.]+:\d+)/")


class Play(ServedProcess):
    """``play`` in a subprocess; ``url`` once its page is served."""

    def __init__(self, data: str, args: list[str], env: dict[str, str]) -> None:
        super().__init__(
            [sys.executable, "-m", "draughtsboard", "play", "--listen", "127.0.0.1:0",
             "--data", data, *args], URL,
            env=dict(os.environ, PYTHONUNBUFFERED="1",
                     DRAUGHTSBOARD_ARBITER_TOKEN="idle-benchmark", **env),
            what="idle: play")


class Page:
    """A browser's live stream of the page's views, read and thrown away."""

    def __init__(self, url: str) -> None:
        self.response = urllib.request.urlopen(url + "/api/events", timeout=30)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while self.response.read(4096):
                pass
        except (OSError, ValueError, AttributeError):  # closed under the reader
            pass

    def close(self) -> None:
        self.response.close()


def measure(pid: int, seconds: float) -> dict[str, float]:
    started, cpu = time.monotonic(), cpu_seconds(pid)
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    return {"cpu_pct": round(100 * (cpu_seconds(pid) - cpu) / elapsed, 3),
            "rss_mb": round(rss_mb(pid), 1)}


def backend_args(name: str, workdir: Path) -> tuple[list[str], dict[str, str], list]:
    """``play``'s arguments and environment for a backend, and processes to stop after."""
    if name == "sim":
        return ["--backend", "sim"], {}, []
    if name == "gpio":
        config = ROOT / "draughtsboard" / "hardware" / "configs" / "8x8.toml"
        return (["--backend", "gpio", "--config", str(config)],
                {"GPIOZERO_PIN_FACTORY": "mock"}, [])
    if name == "serial":
        link = workdir / "board"
        emulator = subprocess.Popen(
            [sys.executable, "-m", "draughtsboard", "emulate", "--pty", "--link", str(link)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        emulator.stdout.readline()  # the path: the terminal is there
        return ["--backend", "serial", "--port", str(link)], {}, [emulator]
    raise SystemExit(f"idle: unknown backend {name!r}")


def idle(name: str, seconds: float, settle: float, pages: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="idle-") as workdir:
        args, env, helpers = backend_args(name, Path(workdir))
        play = Play(str(Path(workdir) / "data"), args, env)
        try:
            time.sleep(settle)
            quiet = measure(play.pid, seconds)
            opened = [Page(play.url) for _ in range(pages)]
            time.sleep(settle)
            watched = measure(play.pid, seconds)
            for page in opened:
                page.close()
        finally:
            play.stop()
            for helper in helpers:
                helper.terminate()
                helper.wait(20)
    print(f"{name:6s} idle: {quiet['cpu_pct']:6.2f} % of a core, {quiet['rss_mb']:5.1f} MB; "
          f"with {pages} pages open: {watched['cpu_pct']:6.2f} %, {watched['rss_mb']:5.1f} MB")
    return {**quiet, "with_pages": watched}


def firmware_figures() -> dict[str, float]:
    """The firmware's heap and pass time under MicroPython, on a short game."""
    from benchmarks import firmware_micropython as fw
    from draughtsboard.board.replay import replay_game

    name, start, moves = next(fw.games(1))
    boards: list = []

    def open_board(position):
        boards.append(fw.LitBoard(position))
        return boards[-1]

    replay_game(name, start, moves[:12], open_board, noise_seed=3, wait_until_ready=10.0)
    measured = boards[0].measured
    print(f"firmware under MicroPython ({name}, 12 plies): live heap at most "
          f"{measured['heap_peak_bound_bytes'] / 1024:.1f} KB, a pass "
          f"{measured['pass_us_median'] / 1000:.2f} ms here (median)")
    return {"firmware_heap_peak_kb": round(measured["heap_peak_bound_bytes"] / 1024, 1),
            "firmware_scan_ms": round(measured["pass_us_median"] / 1000, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--settle", type=float, default=15.0)
    parser.add_argument("--pages", type=int, default=5)
    parser.add_argument("--backends", default="sim,gpio,serial")
    parser.add_argument("--no-firmware", action="store_true")
    args = parser.parse_args()
    result: dict = {}
    for name in args.backends.split(","):
        result[name] = idle(name, args.seconds, args.settle, args.pages)
    if not args.no_firmware:
        from devtools.pico_sim.device import runtime_problem

        if runtime_problem() is None:
            result.update(firmware_figures())
        else:
            print(f"firmware figures skipped: {runtime_problem()}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
