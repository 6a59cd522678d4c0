"""Tracker processing time per snapshot over the replay of the recorded games.

Replays every game of tests/data (international and Russian, no noise, then noise seed 1)
through the simulated board, the real reed-matrix driver and the real tracker, and
reports the tracker's CPU time per debounced snapshot (p50, p99, max) and the delay from
the debounced change that completes a move to the move event (in virtual time: the
tracker has no settle timer, so the event comes with that very snapshot).
Goal: p99 <= 1 ms. Last line JSON.
"""

from __future__ import annotations

import json
import pathlib

from draughtsboard.board.game.pdn_reader import decode_pdn, read_pdn
from draughtsboard.board.replay import percentile, replay_game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.cli import replay_on_simulated_board

ROOT = pathlib.Path(__file__).resolve().parents[1]

FILES = [("international-wk2003.pdn", None), ("international-candidate95.pdn", None),
         ("russian-ussr-championship-part1.pdn", "russian")]


def main() -> None:
    timings: list[float] = []
    latencies: list[float] = []
    plies = mismatches = alarms = 0
    for noise in (None, 1):
        for name, variant in FILES:
            text = decode_pdn((ROOT / "tests" / "data" / name).read_bytes())
            default = get_variant(variant) if variant else None
            for item in read_pdn(text, variant=default, source=name).games:
                game = item.game
                report = replay_game(name, game.positions[0], [p.move for p in game.moves],
                                     lambda position: replay_on_simulated_board(position, None),
                                     noise_seed=noise)
                timings += report.timings
                latencies += report.latencies
                plies += report.plies
                mismatches += report.mismatches
                alarms += report.false_alarms
    result = {
        "snapshots": len(timings), "plies": plies, "mismatches": mismatches,
        "false_alarms": alarms,
        "p50_ms": round(percentile(timings, 0.5) * 1000, 4),
        "p99_ms": round(percentile(timings, 0.99) * 1000, 4),
        "max_ms": round(max(timings) * 1000, 3),
        "max_move_event_delay_ms": round(max(latencies, default=0.0) * 1000, 3),
    }
    print(f"{result['snapshots']} snapshots over {plies} plies: tracker p50 "
          f"{result['p50_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
