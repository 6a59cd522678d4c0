"""Crash safety of the recording path: SIGKILL a recording process at random moments.

A child process records games through the real path (`Recorder.record_move`, fsync per
record), resuming the unfinished game after each kill the way the controller does, and
prints a confirmation line for each move only after `record_move` returned (the moment
the board would light its confirmation LED). The parent kills it with SIGKILL at a
random moment, then reloads the journal and checks that every confirmed move is there,
in its place, exactly once, and that no record is repeated. Records are written in small
pieces (``--chunk``) so that some kills land in the middle of a record and leave a torn
tail, which the loader must drop.

    .venv/bin/python benchmarks/crash_resume.py --kills 200

The last line is JSON: ``{"kills": N, "lost": 0, "duplicated": 0, ...}``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import draughtsboard.board.rules.variants  # noqa: E402, F401  (registers every variant)
from draughtsboard.recording.journal import load_journal  # noqa: E402
from draughtsboard.recording.recorder import Recorder  # noqa: E402

MAX_PLIES = 80


def child(directory: str, seed: int, chunk: int) -> None:
    """Record games forever (until killed), resuming the unfinished one first."""
    recorder = Recorder(directory, chunk_size=chunk)
    found = recorder.unfinished_game()
    if found is not None:
        game_id, game = found
        recorder.record_resume(game_id, time.monotonic(), time.time())
    else:
        game_id, game = None, None
    print("ready", flush=True)
    number = 0
    while True:
        if game_id is None:
            variant = ("international", "russian")[number % 2]
            game_id = recorder.start_game(variant, {"Event": "crash benchmark"},
                                          t_monotonic=time.monotonic(), t_wall=time.time())
            game = recorder.load(game_id)
            number += 1
        legal = sorted(game.position.legal_moves(), key=lambda m: (m.path, m.captures))
        rng = random.Random(f"{seed}:{game_id}:{game.ply}")
        if game.ply % 7 == 3:
            recorder.record_illegal(game_id, "50-45", "no piece there", time.monotonic(),
                                    time.time())
        move = rng.choice(legal)
        ply = game.ply
        recorder.record_move(game_id, move, time.monotonic(), time.time())
        print(f"move {game_id} {ply} {'-'.join(map(str, move.path))}", flush=True)
        outcome = game.outcome()
        if outcome is not None or game.ply >= MAX_PLIES:
            result, reason = outcome or ("*", "benchmark length limit")
            recorder.record_result(game_id, result, reason)
            print(f"result {game_id}", flush=True)
            game_id = None


def verify(directory: Path, confirmed: dict[str, dict[int, str]],
           torn_seen: set) -> tuple[int, int]:
    """(lost, duplicated) over every journal in ``directory``; torn tails are added to
    ``torn_seen`` as (game, length) so that each is counted once."""
    recorder = Recorder(directory)
    lost = duplicated = 0
    for game_id in recorder.game_ids():
        loaded = load_journal(recorder.path_of(game_id))
        if loaded.torn_tail:
            torn_seen.add((game_id, recorder.path_of(game_id).stat().st_size))
        if loaded.damaged:
            raise SystemExit(f"damaged journal: {loaded.damage}")
        plies = [r["ply"] for r in loaded.records if r.get("type") == "move"]
        duplicated += len(plies) - len(set(plies))
        if not loaded.records:
            continue  # killed while writing the start record: nothing confirmed
        game = recorder.load(game_id)
        for ply, path in confirmed.get(game_id, {}).items():
            if ply >= game.ply or "-".join(map(str, game.moves[ply].move.path)) != path:
                lost += 1
    for game_id in set(confirmed) - set(recorder.game_ids()):
        lost += len(confirmed[game_id])
    return lost, duplicated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=16, help="bytes per write() call")
    parser.add_argument("--max-delay", type=float, default=0.06,
                        help="seconds after the child is ready before the kill, at most")
    parser.add_argument("--dir", help="journal directory (default: a temporary one)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.dir, args.seed, args.chunk)
        return 0
    directory = Path(args.dir or tempfile.mkdtemp(prefix="crash-resume-"))
    rng = random.Random(args.seed)
    confirmed: dict[str, dict[int, str]] = {}
    totals = {"lost": 0, "duplicated": 0}
    torn_seen: set = set()
    started = time.perf_counter()
    command = [sys.executable, __file__, "--child", "--dir", str(directory),
               "--seed", str(args.seed), "--chunk", str(args.chunk)]
    for _ in range(args.kills):
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        ready = process.stdout.readline()
        if ready.strip() != "ready":
            process.kill()
            raise SystemExit(f"child did not start: {ready!r}")
        time.sleep(rng.uniform(0, args.max_delay))
        os.kill(process.pid, signal.SIGKILL)
        output = process.stdout.read()
        process.wait()
        process.stdout.close()
        for line in output.splitlines():
            parts = line.split()
            if parts and parts[0] == "move" and len(parts) == 4:
                confirmed.setdefault(parts[1], {})[int(parts[2])] = parts[3]
        lost, duplicated = verify(directory, confirmed, torn_seen)
        totals["lost"] = max(totals["lost"], lost)  # cumulative checks: the worst seen
        totals["duplicated"] = max(totals["duplicated"], duplicated)
    moves = sum(len(plies) for plies in confirmed.values())
    report = {"kills": args.kills, "lost": totals["lost"], "duplicated": totals["duplicated"],
              "torn_tails_dropped": len(torn_seen), "confirmed_moves": moves,
              "games": len(Recorder(directory).game_ids()),
              "seconds": round(time.perf_counter() - started, 1)}
    print(f"journal directory: {directory}", file=sys.stderr)
    print(json.dumps(report))
    return 0 if report["lost"] == 0 and report["duplicated"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
