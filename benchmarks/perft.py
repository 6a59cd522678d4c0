"""Perft speed from the initial positions: ours against pydraughts, in the same run.

Nodes per second = leaf count / CPU seconds of this process (the machine may be shared,
so CPU time is steadier than wall time; both are printed). Our perft counts the last ply
without playing it; pydraughts' perft (written here) plays moves with push/pop and counts
the last ply as ``len(board.legal_moves())``, the same counting. pydraughts is slow, so it
runs only at a shallow depth; the ratio compares nodes per second at the two depths. Every
count is checked against the published tables (tests/data/perft.json).

    .venv/bin/python -m benchmarks.perft [--repeat N] [--reference-depth D] [--deep]

Default depths: international 7, Russian 8 (a few seconds each); ``--deep`` runs ours to
depth 8 in both games (about a minute) and checks the count. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.perft import perft
from draughtsboard.board.rules.variants import get_variant

TABLES = json.loads(
    (pathlib.Path(__file__).parents[1] / "tests" / "data" / "perft.json").read_text())
PYDRAUGHTS_NAME = {"international": "standard", "russian": "russian"}
DEPTHS = {"international": 7, "russian": 8}
DEEP = 8


def pydraughts_perft(board, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += pydraughts_perft(board, depth - 1)
        board.pop()
    return total


def timed(function, repeat: int) -> tuple[int, float, float]:
    """(result, median CPU seconds, median wall seconds) over ``repeat`` runs; every run
    must give the same result."""
    results, cpu, wall = set(), [], []
    for _ in range(repeat):
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        results.add(function())
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started_wall)
    (result,) = results
    return result, statistics.median(cpu), statistics.median(wall)


def check(variant_name: str, depth: int, nodes: int, who: str) -> None:
    expected = TABLES[variant_name][depth - 1]
    if nodes != expected:
        sys.exit(f"{who} perft({variant_name}, {depth}) = {nodes}, published {expected}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of ours (median)")
    parser.add_argument("--reference-depth", type=int, default=3,
                        help="pydraughts' depth (default 3; 4 takes minutes)")
    parser.add_argument("--reference-repeat", type=int, default=1,
                        help="runs of pydraughts (median)")
    parser.add_argument("--deep", action="store_true",
                        help=f"ours to depth {DEEP} in both games (one run), checked")
    args = parser.parse_args()
    import draughts  # the reference: a test-only dependency

    figures: dict[str, dict] = {}
    print(f"{'variant':<14} {'engine':<11} {'depth':>5} {'nodes':>10} {'cpu s':>8} "
          f"{'wall s':>8} {'nodes/s':>10}")
    for variant_name in ("international", "russian"):
        start = initial_position(get_variant(variant_name))
        depth = DEEP if args.deep else DEPTHS[variant_name]
        repeat = 1 if args.deep else args.repeat
        nodes, seconds, wall = timed(lambda: perft(start, depth), repeat)  # noqa: B023
        check(variant_name, depth, nodes, "our")
        ours = nodes / seconds
        print(f"{variant_name:<14} {'ours':<11} {depth:>5} {nodes:>10} {seconds:>8.3f} "
              f"{wall:>8.3f} {ours:>10.0f}", flush=True)

        reference_depth = args.reference_depth
        name = PYDRAUGHTS_NAME[variant_name]
        reference_nodes, reference_seconds, reference_wall = timed(
            lambda: pydraughts_perft(draughts.Board(variant=name), reference_depth),  # noqa: B023
            args.reference_repeat)
        check(variant_name, reference_depth, reference_nodes, "pydraughts'")
        theirs = reference_nodes / reference_seconds
        print(f"{variant_name:<14} {'pydraughts':<11} {reference_depth:>5} "
              f"{reference_nodes:>10} {reference_seconds:>8.3f} {reference_wall:>8.3f} "
              f"{theirs:>10.0f}", flush=True)
        figures[variant_name] = {
            "depth": depth, "nodes": nodes, "cpu_seconds": round(seconds, 4),
            "wall_seconds": round(wall, 4),
            "nodes_per_second": round(ours),
            "pydraughts_depth": reference_depth, "pydraughts_nodes": reference_nodes,
            "pydraughts_cpu_seconds": round(reference_seconds, 4),
            "pydraughts_wall_seconds": round(reference_wall, 4),
            "pydraughts_nodes_per_second": round(theirs, 1),
            "ratio": round(ours / theirs, 1),
        }
    for variant_name, figure in figures.items():
        print(f"{variant_name}: ours / pydraughts = {figure['ratio']:.0f}x nodes per second")
    print(json.dumps({"benchmark": "perft", "counts_checked": True, "repeat": repeat,
                      **figures}))


if __name__ == "__main__":
    main()
