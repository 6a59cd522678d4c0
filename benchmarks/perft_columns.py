"""Perft speed of the column games against Russian draughts, measured in the same run.

Each variant counts its move tree from the initial position; the rounds are interleaved
and the best CPU time of each is kept, so load on the machine hits every variant alike.
Nodes are leaves (perft's usual count); column games count move paths. Every count is
checked against the tables in tests/data.

    .venv/bin/python -m benchmarks.perft_columns [--rounds N] [--full]

--full counts to the deepest depth of each table (column: 8) instead of a depth that
takes about a second. Goal (issue 3): Lasca nodes/s within 3 times the Russian figure,
that is a ratio russian/lasca of at most 3. The last line is JSON for scripts.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import time

from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.perft import perft
from draughtsboard.board.rules.variants import get_variant

DATA = pathlib.Path(__file__).parents[1] / "tests" / "data"
DEPTHS = {"russian": 7, "lasca": 12, "column": 7, "column-7x7": 11}
FULL_DEPTHS = {"russian": 8, "lasca": 12, "column": 8, "column-7x7": 12}
GOAL = 3.0


def tables() -> dict[str, list[int]]:
    out = json.loads((DATA / "perft.json").read_text())
    out.update(json.loads((DATA / "perft_columns.json").read_text()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--full", action="store_true", help="deepest depth of each table")
    args = parser.parse_args()
    depths = FULL_DEPTHS if args.full else DEPTHS
    expected = tables()
    best: dict[str, float] = {}
    nodes: dict[str, int] = {}
    for _ in range(args.rounds):
        for name, depth in depths.items():
            start = initial_position(get_variant(name))
            started = time.process_time()
            count = perft(start, depth)
            cpu = time.process_time() - started
            if count != expected[name][depth - 1]:
                raise SystemExit(f"{name} perft({depth}) = {count}, "
                                 f"table says {expected[name][depth - 1]}")
            nodes[name] = count
            best[name] = min(best.get(name, cpu), cpu)
    rate = {name: nodes[name] / max(best[name], 1e-9) for name in depths}
    ratio = {name: rate["russian"] / rate[name] for name in depths if name != "russian"}
    for name, depth in depths.items():
        line = (f"{name:<11} depth {depth:>2}  {nodes[name]:>9} nodes  "
                f"{best[name]:7.3f} s CPU  {rate[name]:>9.0f} nodes/s")
        if name != "russian":
            line += f"  russian/{name} = {ratio[name]:.2f}"
        print(line)
    verdict = "ok" if ratio["lasca"] <= GOAL else "OVER"
    print(f"goal: russian/lasca <= {GOAL}: {ratio['lasca']:.2f} {verdict}")
    print(json.dumps({"nodes_per_s": {k: round(v) for k, v in rate.items()},
                      "ratio_to_russian": {k: round(v, 2) for k, v in ratio.items()},
                      "depths": depths, "lasca_within_goal": ratio["lasca"] <= GOAL}))


if __name__ == "__main__":
    main()
