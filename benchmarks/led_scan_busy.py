"""Scan rate and LED timing beside a busy Python thread (the coach thinking), real time.

The real ReedMatrix (100 scans/s, a 30 us settle per row, as on a Pi) and the real
74HC595 driver (a square blinking at 4 Hz) run in their own threads on the simulated
board's mock pins, first alone, then beside one thread that never sleeps (as the engine
does while it searches). Measured: full scans per second, and how late each blink edge
reaches the chain's latch pin. For comparison, the multiplexed LED matrix this project
used to drive from a Python thread (one row lit per ``Event.wait(1 / (100 * 7))``) is run
the same way: its frames per second are its refresh rate, and the eye sees flicker below
about 60.

    .venv/bin/python -m benchmarks.led_scan_busy [--seconds S]

Goals: scans/s within 10% of 100 beside the busy thread; blink edges late by less than
10 ms at the median. The last line is JSON for scripts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time

from draughtsboard.board.ports import LedFrame, LedPattern
from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.hardware.blink import FAST_PERIOD
from draughtsboard.hardware.config import builtin_config
from draughtsboard.hardware.matrix_pins import GpiozeroMatrixPins
from draughtsboard.hardware.reed_matrix import ReedMatrix
from draughtsboard.hardware.shift_register import ShiftRegisterLeds
from draughtsboard.hardware.simulation import SimulatedBoard


class Busy:
    """A thread that computes without pause while it runs (pure Python, holds the GIL)."""

    def __init__(self, count: int) -> None:
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._spin, daemon=True) for _ in range(count)]

    def _spin(self) -> None:
        total = 0
        while not self._stop.is_set():
            for i in range(2000):
                total += i * i

    def __enter__(self):
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()


def drivers(seconds: float, busy: int) -> dict:
    config = builtin_config(board_geometry(10))
    sim = SimulatedBoard(config, occupied=range(1, 21))
    pins = GpiozeroMatrixPins(config.matrix, sim.factory)
    pins.settle_us = config.matrix.settle_us  # mock pins skip it; a Pi does not
    latches: list[float] = []
    latch_pin = sim.factory.pin(config.leds.latch)
    latch_pin.on_change = lambda level: latches.append(time.monotonic()) if level else None
    with Busy(busy):
        time.sleep(0.2)
        matrix = ReedMatrix(config, pins=pins)
        leds = ShiftRegisterLeds(config, pin_factory=sim.factory)
        leds.show(LedFrame.from_mapping(50, {7: LedPattern.FAST_BLINK}))
        started = time.monotonic()
        scans_before = matrix.stats().scans
        latches.clear()
        time.sleep(seconds)
        scans = matrix.stats().scans - scans_before
        elapsed = time.monotonic() - started
        edges = list(latches)
        leds.close()
        matrix.close()
    half = FAST_PERIOD / 2
    late = [(t % half) * 1000 for t in edges]  # edges are due at multiples of half
    late = [x if x < half * 500 else x - half * 1000 for x in late]
    return {"scans_per_s": scans / elapsed,
            "blink_edges_per_s": len(edges) / elapsed,
            "edge_late_ms_median": statistics.median(late) if late else None,
            "edge_late_ms_max": max(late) if late else None}


def python_matrix(seconds: float, busy: int, rows: int = 7, rate: float = 100.0) -> float:
    """Frames/s of the old refresh loop: one row per Event.wait(1 / (rate * rows))."""
    stop = threading.Event()
    rows_lit = [0]

    def refresh() -> None:
        r = 0
        while not stop.is_set():
            r = (r + 1) % rows
            rows_lit[0] += 1
            stop.wait(1.0 / (rate * rows))

    with Busy(busy):
        time.sleep(0.2)
        thread = threading.Thread(target=refresh, daemon=True)
        thread.start()
        time.sleep(seconds)
        stop.set()
        thread.join()
    return rows_lit[0] / rows / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    results = {}
    print(f"{'':32} {'idle':>10} {'1 busy thread':>15}")
    for busy in (0, 1):
        results[busy] = {**drivers(args.seconds, busy),
                         "old_matrix_frames_per_s": python_matrix(args.seconds, busy)}
    for key, label in (("scans_per_s", "reed matrix scans/s (goal 100)"),
                       ("blink_edges_per_s", "4 Hz blink edges/s (goal 8)"),
                       ("edge_late_ms_median", "blink edge late, median ms"),
                       ("edge_late_ms_max", "blink edge late, worst ms"),
                       ("old_matrix_frames_per_s", "old Python LED matrix frames/s")):
        print(f"{label:32} {results[0][key]:10.1f} {results[1][key]:15.1f}")
    print(json.dumps({f"{k}_{'busy' if b else 'idle'}": round(v, 2)
                      for b, r in results.items() for k, v in r.items() if v is not None}))


if __name__ == "__main__":
    main()
