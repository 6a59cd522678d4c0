"""The Pico firmware under real MicroPython for whole games: its heap and its time a pass.

Run: .venv/bin/python -m benchmarks.firmware_micropython [--games N] [--fault-rate R]
Figures first, one JSON line last (for scripts comparing runs). Needs Node.js and the
pinned MicroPython WebAssembly build (scripts/test.sh installs it).

Recorded games (the first N of the Russian championship file and of the 2003 world
championship file) are played by a noisy hand on the simulated board; the firmware's own
main.py runs in MicroPython 1.27's WebAssembly build (32-bit, as the RP2040) on the
simulated Pico of devtools/pico_sim; the host session reads it over a
clean line (or one that damages ``--fault-rate`` of the bytes each way: the 10x10
game is too long for the test suite, so this is where it meets a faulty line under
MicroPython, its wrong and missing moves counted) and shows an LED frame at every
snapshot (as `play` lights the squares a move touches), so that the passes that receive
frames are weighed too.

* heap: this build collects garbage only between calls from JavaScript, never inside
  the firmware's loop, so what one pass allocates is read exactly (``gc.mem_alloc``
  before and after). The live heap is weighed where a collection can run: the firmware's
  modules loaded (core.py, wire.py, main.py compiled: the bytecode lives in RAM when the
  files are .py on the Pico's flash) and main.py's hardware and Firmware built and
  booted. The peak of the live heap in a game is at most loaded + booted + the most one
  pass allocated. Goal: under 32 KB (docs/protocol.md, "The firmware's memory").
* time: the compute of one pass of the main loop (one scan of the matrix, debounce,
  timers, LEDs) in this interpreter on this machine, medians over the game's passes;
  the settle waits and the 1 ms sleep are virtual and not in it. Part of it is the
  simulated Pico's Pin calls, written in Python here and in C on the chip: counted per
  pass and timed apart, so the Pico's own figure can be estimated (marked as such) from
  a stated speed ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

from benchmarks.serial_latency import games  # the same recorded games
from devtools.pico_sim.device import (
    HARNESS,
    MicroPythonDevice,
    run_script,
    runtime_problem,
)
from draughtsboard.board.ports import LedFrame, LedPattern
from draughtsboard.board.replay import replay_game
from draughtsboard.firmware_bridge.virtual import EmulatedVirtualBoard
from draughtsboard.hardware.virtual import simulated_switches

GOAL_KB = 32

# The speed ratio (an estimate, docs/raspberry-pi.md): MicroPython on an RP2040 at
# 125 MHz against this build here, from one integer loop timed here and published
# timings of the same loop elsewhere. shaoziyang/micropython_benchmarks: 1,000,000
# integer additions in a function take 3.44 s on a pyboard v1.0 (STM32F405, 168 MHz);
# scruss.com's MicroPython benchmark table: a Pico W (RP2040, 125 MHz) takes 19.8 s
# where a pyboard v1.1 takes 13.0 s, 1.52 times as long. So about 5.2 s on the Pico.
PICO_INT_ADD_S = 3.44 * 19.8 / 13.0
# One Pin.value() call on the RP2040, roughly (the estimate tests/firmware_bridge/pico.py
# uses for the firmware's timing on the chip).
PICO_PIN_CALL_US = 3.0

INT_ADD = """
import time
def int_add(n=1000000, a=12345, b=56789):
    t = time.ticks_us()
    s = 0
    for i in range(n):
        s = a + b
    return time.ticks_diff(time.ticks_us(), t)
print(min(int_add() for _ in range(5)))
"""

PIN_CALLS = """
import sys, time
class Host:
    def realtime_us(self): return 0
    def exchange(self, line):
        clock = int(line.split()[0])
        return "s {} {} 0 - 1".format(clock, clock + (1 << 28))
    def leave(self, status): pass
sys.modules["hostpipe"] = Host()
import pico_shim
device = pico_shim.Device({"squares": [(2 + i // 5, 12 + i % 5) for i in range(50)]})
pico_shim.install(device)
import machine
Pin = machine.Pin
row = Pin(2, Pin.OUT, value=1)
column = Pin(12, Pin.IN, Pin.PULL_UP)
def calls(n=20000):
    t = time.ticks_us()
    for i in range(n):
        row.value(0)
        column.value()
    return time.ticks_diff(time.ticks_us(), t) / (2 * n)
print(min(calls() for _ in range(5)))
"""


class LitBoard:
    """The MicroPython board, showing an LED frame of the squares each snapshot changed
    (as `play` lights a move's squares); keeps the chip's measurements when closed."""

    def __init__(self, position, fault_rate: float = 0.0) -> None:
        board = position.variant.geometry
        switches = simulated_switches(board, position.occupancy())
        self.inner = EmulatedVirtualBoard(board, switches, fault_rate=fault_rate, seed=3,
                                          device_factory=MicroPythonDevice, measure=True)
        self.scan_period = self.inner.scan_period
        self.square_count = self.inner.bench.device.square_count
        self.last = position.occupancy()
        self.measured: dict = {}

    def set_occupied(self, squares) -> None:
        raise NotImplementedError  # the harness schedules switches instead

    def schedule(self, at: float, square: int, closed: bool) -> None:
        self.inner.schedule(at, square, closed)

    def scan(self, now: float):
        snapshots = self.inner.scan(now)
        if snapshots:
            changed = snapshots[-1].occupied ^ self.last
            self.last = snapshots[-1].occupied
            squares = {n: LedPattern.ON for n in range(1, self.square_count + 1)
                       if changed >> (n - 1) & 1}
            self.inner.bench.show(LedFrame.from_mapping(self.square_count, squares))
        return snapshots

    def close(self) -> None:
        self.measured = self.inner.bench.device.measurements()
        self.inner.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games of each file")
    parser.add_argument("--fault-rate", type=float, default=0.0, metavar="R",
                        help="share of bytes the line damages each way (default 0)")
    args = parser.parse_args()
    problem = runtime_problem()
    if problem:
        sys.exit(f"firmware_micropython: {problem}")

    results = {}
    for name, start, moves in games(args.games):
        boards: list[LitBoard] = []

        def open_board(position, boards=boards):
            boards.append(LitBoard(position, args.fault_rate))
            return boards[-1]

        report = replay_game(name, start, moves, open_board, noise_seed=3,
                             wait_until_ready=10.0)
        m = boards[0].measured
        results[name] = {"plies": len(moves), "recorded": report.recorded,
                         "wrong": report.wrong, "missing": report.missing,
                         "false_alarms": report.false_alarms, **m}
        print(f"{name}: {report.recorded}/{len(moves)} plies recorded, {report.wrong} wrong; "
              f"{m['passes']} passes")
        print(f"  heap: firmware loaded {m['firmware_loaded_bytes'] / 1024:.1f} KB, booted "
              f"objects {m['booted_bytes'] / 1024:.1f} KB, most in one pass "
              f"{m['pass_alloc_max']} B (median {m['pass_alloc_median']} B): live peak at "
              f"most {m['heap_peak_bound_bytes'] / 1024:.1f} KB (goal < {GOAL_KB} KB)")
        print(f"  a pass here: median {m['pass_us_median']} us, p95 {m['pass_us_p95']} us; "
              f"{m['pin_calls_median']} Pin calls and {m['settle_us_per_pass']} us of "
              "settle waits a pass")

    int_add_us = int(run_script(INT_ADD).split()[-1])
    pin_call_us = float(run_script(PIN_CALLS, modules=HARNESS).split()[-1])
    ratio = PICO_INT_ADD_S * 1e6 / int_add_us
    peak = max(r["heap_peak_bound_bytes"] for r in results.values())
    largest = results[max(results, key=lambda n: results[n]["firmware_loaded_bytes"]
                          + results[n]["booted_bytes"])]
    pass_ms = statistics.median(r["pass_us_median"] for r in results.values()) / 1000
    pins = largest["pin_calls_median"]
    own_us = max(0.0, largest["pass_us_median"] - pins * pin_call_us)
    pico_ms = (own_us * ratio + pins * PICO_PIN_CALL_US + largest["settle_us_per_pass"]) / 1000
    print(f"1,000,000 integer additions here: {int_add_us / 1e6:.2f} s; published for a Pico "
          f"(RP2040, 125 MHz): about {PICO_INT_ADD_S:.1f} s: ratio {ratio:.0f} (an estimate)")
    print(f"one simulated Pin call here: {pin_call_us:.1f} us (about {PICO_PIN_CALL_US} us "
          "on the chip, an estimate)")
    print(f"estimate for a Pico, largest board: a pass about {pico_ms:.1f} ms of compute and "
          f"settle, so about {1000 / (pico_ms + 1):.0f} passes a second with the 1 ms sleep")
    print(json.dumps({
        "fault_rate": args.fault_rate,
        "games": results,
        "firmware_heap_peak_kb": round(peak / 1024, 1),
        "firmware_scan_ms": round(pass_ms, 3),
        "speed_ratio_estimate": round(ratio, 1),
        "pico_pass_ms_estimate": round(pico_ms, 2),
    }))


if __name__ == "__main__":
    main()
