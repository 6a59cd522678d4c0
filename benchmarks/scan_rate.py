"""CPU time per full 10x10 scan through the real ReedMatrix on mock pins, and memory.

The simulated international board runs in virtual time at 200 scans/s while a scripted
hand keeps moving pieces (with switch bounce and the odd brushed square), so the scans
exercise the debouncer and the snapshot queue, not only a quiet board. Memory is the
resident set size after a warm-up and after the last scan: mock pins remember their state
changes, so growth here means a long replay would run out of memory.

    .venv/bin/python -m benchmarks.scan_rate [--scans N]

Goals: at most 300 us per scan, memory flat. The last line is JSON for scripts.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import time

from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.hardware.backends import open_simulated_board

WARM_UP = 20_000


def rss_kb() -> int:
    """Resident set size now (Linux), else the peak so far."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize() // 1024
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scans", type=int, default=1_000_000)
    args = parser.parse_args()
    board = open_simulated_board(board_geometry(10), occupied=range(1, 21))
    hand = board.simulation
    period = 1.0 / board.config.matrix.scan_rate
    step = board.step
    read = board.read
    moves = 0
    now = 0.0

    def run(scans: int) -> None:
        nonlocal now, moves
        for i in range(scans):
            if not hand.pending and i % 100 == 0:
                # A move every half second of virtual time: lift, carry, place with bounce.
                occupied = hand.squares
                source = occupied[moves % len(occupied)]
                target = next(s for s in range(1, 51) if s not in occupied)
                hand.lift(source, now + period)
                hand.place(target, now + 0.2, bounce=2, bounce_interval=period)
                if moves % 4 == 0:
                    hand.brush(25 + moves % 20, now + 0.3, duration=period)
                moves += 1
            step(now)
            while read(timeout=0) is not None:
                pass
            now += period

    run(WARM_UP)
    gc.collect()
    rss_before = rss_kb()
    started = time.process_time()
    run(args.scans)
    cpu = time.process_time() - started
    gc.collect()
    rss_growth = rss_kb() - rss_before
    stats = board.sensors.stats()
    board.close()
    us_per_scan = cpu / args.scans * 1e6
    print("board: international 10x10, 50 switches, 10 rows x 5 columns, mock pins")
    print(f"scans: {args.scans}  moves: {moves}  changes: {stats.changes}  "
          f"bounces filtered: {stats.bounces_filtered}  snapshots: {stats.snapshots}")
    print(f"cpu per scan: {us_per_scan:.1f} us (goal <= 300)  "
          f"= {1e6 / us_per_scan:.0f} scans per CPU second")
    print(f"rss growth over {args.scans} scans: {rss_growth} kB (goal: flat)")
    print(json.dumps({"us_per_scan": round(us_per_scan, 1), "rss_growth_kb": rss_growth}))


if __name__ == "__main__":
    main()
