"""`draughtsboard play` end to end: how fast the page hears of a switch, and how much memory
the whole process holds after 1,000 moves.

Starts ``python -m draughtsboard play --backend sim`` (the real-time simulated board: the
reed-matrix driver scanning mock pins at the shipped config's 100 scans a second, with
3-scan debounce; idle for 2 s, once a second, the hands' touch waking it at once; the
tracker, the journal with an fsync per record, the LED driver, uvicorn and the page's
event stream) and acts as a spectator's browser and as the hands:

* latency: a switch is flipped through the page's hands endpoint; the time from just
  before that request to the moment the live stream (server-sent events) delivers a view
  showing the change. It includes the HTTP request, the debounce (3 scans at 100 a second
  = 20-30 ms by design; with ``--pause`` the board is idle, and the touch wakes its scan:
  real pins, which can say only some touches, are scanned 40 times a second for the
  first 10 s idle and see the first change up to 25 ms later, then less often,
  docs/hardware.md), the tracker and the view's JSON.
* memory: random legal games (seeded) are played through the hands endpoint, a new game
  (arbiter action) after each finished one or after ``--game-length`` plies, until
  ``--moves`` moves are recorded; then the process's resident memory (VmRSS, and its peak
  VmHWM) from /proc. Goal: under 80 MB.

With ``--reference DIR`` (another checkout of the project, such as main before a change)
both are measured in the same run, taking turns (``--rounds`` each), and the figures are
compared as ratios of medians: the machine's load moves both alike. Before the memory is
read, the page's catalogs are fetched in every language, as browsers in a hall would.

Prints its figures; the last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from benchmarks.harness.http import call
from benchmarks.harness.processes import ServedProcess
from benchmarks.harness.stats import share_percentile
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.recording import Recorder

TOKEN = "benchmark-token"
URL = re.compile(r"the board's page: (http://[0-9.]+:\d+)/")


HERE = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", "ru", "nl", "fr")


class Play:
    def __init__(self, data: str, variant: str, mode: str = "tournament",
                 tree: Path = HERE, extra: tuple[str, ...] = ()) -> None:
        env = dict(os.environ, DRAUGHTSBOARD_ARBITER_TOKEN=TOKEN, PYTHONUNBUFFERED="1",
                   PYTHONPATH=str(tree))
        self.served = ServedProcess(
            [sys.executable, "-m", "draughtsboard", "play", "--backend", "sim", "--variant",
             variant, "--listen", "127.0.0.1:0", "--data", data, "--mode", mode, *extra],
            URL, env=env, cwd=tree, timeout=30, what="play")
        self.process, self.url = self.served.process, self.served.url
        self.views: queue.Queue = queue.Queue()
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        with urllib.request.urlopen(self.url + "/api/events", timeout=60) as stream:
            for line in stream:
                if line.startswith(b"data: "):
                    data = json.loads(line[6:])
                    if isinstance(data, dict):  # a view (a "now" event is a number)
                        self.views.put((time.perf_counter(), data))

    def post(self, path: str, body: dict, token: bool = False) -> None:
        call(self.url, path, body, token=TOKEN if token else None, timeout=10)

    def state(self) -> dict:
        return call(self.url, "/api/state", timeout=10)

    def hands(self, actions: list) -> None:
        self.post("/api/hands", {"actions": actions})

    def wait_view(self, predicate, timeout: float = 10.0) -> tuple[float, dict]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such view")
            received, view = self.views.get(timeout=left)
            if predicate(view):
                return received, view

    def drain(self) -> dict | None:
        last = None
        while True:
            try:
                last = self.views.get_nowait()[1]
            except queue.Empty:
                return last

    def fetch_catalogs(self) -> int:
        """Every language's catalog, as browsers would fetch it; how many were served (a
        tree without catalogs serves none)."""
        served = 0
        for language in LANGUAGES:
            try:
                with urllib.request.urlopen(f"{self.url}/words/catalog.json?lang={language}",
                                            timeout=10) as response:
                    response.read()
                    served += 1
            except urllib.error.HTTPError:
                pass
        return served

    def memory(self) -> dict[str, float]:
        out = {}
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
        return out

    def stop(self) -> int:
        self.process.terminate()
        return self.process.wait(15)


def measure_latency(play: Play, samples: int, pause: float = 0.0) -> list[float]:
    """Switch to page, ``samples`` times; ``pause`` seconds of nobody touching the board
    before each (past the reed matrix's IDLE_AFTER, each is the first change of an idle
    board)."""
    _, view = play.wait_view(lambda v: v["state"] == "ready")
    latencies = []
    square = view["occupied"][-1]  # a piece of the start position
    for i in range(samples):
        lifted = i % 2 == 0
        if pause:
            time.sleep(pause)
        play.drain()
        started = time.perf_counter()
        play.hands([["lift" if lifted else "place", square]])
        received, _ = play.wait_view(lambda v, up=lifted: (square in v["occupied"]) != up)
        latencies.append(received - started)
    deadline = time.monotonic() + 5
    while play.state()["state"] != "ready" and time.monotonic() < deadline:
        time.sleep(0.01)
    return latencies


def hand_actions(move, after: int) -> list:
    """The hand's actions for a move: lift, each landing, then the taken pieces (in
    column games only those whose square the move leaves empty)."""
    actions = [["lift", move.path[0]]]
    for landing in move.path[1:-1]:
        actions += [["place", landing], ["lift", landing]]
    actions.append(["place", move.path[-1]])
    actions += [["lift", square] for square in move.captures
                if not after >> (square - 1) & 1]
    return actions


def unambiguous_moves(position, moves: list) -> list:
    """The moves whose end position no other move shares (hands that act all at once
    cannot be told apart otherwise); all of ``moves`` when none is."""
    after: dict[int, list] = {}
    for move in moves:
        after.setdefault(position.play(move).occupancy(), []).append(move)
    return [ms[0] for ms in after.values() if len(ms) == 1] or moves


def play_moves(play: Play, variant_name: str, total: int, game_length: int,
               rng: random.Random) -> tuple[int, int, float]:
    variant = get_variant(variant_name)
    played = games = 0
    started = time.perf_counter()
    play.drain()
    view = play.state()
    while played < total:
        position = parse_fen(variant, view["fen"])
        moves = position.legal_moves()
        if not moves or len(view["moves"]) >= game_length or view["result"]:
            play.post("/api/arbiter/new-game", {}, token=True)
            play.hands([["setup", None]])
            _, view = play.wait_view(lambda v: v["state"] == "ready" and not v["moves"], 10)
            games += 1
            continue
        move = rng.choice(unambiguous_moves(position, moves))
        plies = len(view["moves"])
        play.hands(hand_actions(move, position.play(move).occupancy()))
        _, view = play.wait_view(lambda v, p=plies: len(v["moves"]) > p or v["result"], 10)
        played += 1
    return played, games, time.perf_counter() - started


def run_once(args, tree: Path) -> dict:
    """One play process of ``tree``: its latency samples, the moves, its memory."""
    with tempfile.TemporaryDirectory() as data:
        play = Play(data, args.variant, args.mode, tree)
        try:
            start_memory = play.memory()
            latencies = measure_latency(play, args.samples, args.pause)
            moves, games, seconds = play_moves(play, args.variant, args.moves,
                                               args.game_length, random.Random(args.seed))
            catalogs = play.fetch_catalogs()
            memory = play.memory()
        finally:
            status = play.stop()
        with Recorder(data) as recorder:
            journalled = sum(summary.moves for summary in recorder.list_games())
    return {"latencies": latencies, "moves": moves, "games": games, "seconds": seconds,
            "start_memory": start_memory, "memory": memory, "status": status,
            "journalled": journalled, "catalogs": catalogs}


def compare(args) -> int:
    """This tree and ``args.reference`` in turns: medians and their ratios."""
    trees = {"this": HERE, "reference": Path(args.reference).resolve()}
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    for round_index in range(args.rounds):
        order = list(trees) if round_index % 2 == 0 else list(reversed(trees))
        for name in order:
            runs[name].append(run_once(args, trees[name]))
    summary = {}
    for name, results in runs.items():
        latencies = sorted(x for r in results for x in r["latencies"])
        summary[name] = {
            "latency_median_ms": round(statistics.median(latencies) * 1000, 2),
            "latency_p95_ms": round(share_percentile(latencies, 0.95) * 1000, 2),
            "rss_mb": round(statistics.median(r["memory"]["VmRSS"] for r in results), 1),
            "rss_peak_mb": round(statistics.median(r["memory"]["VmHWM"] for r in results), 1),
            "catalogs_served": results[0]["catalogs"],
            "ok": all(r["status"] == 0 and r["journalled"] == r["moves"] for r in results)}
        print(f"{name} ({trees[name]}): switch -> page median {summary[name]['latency_median_ms']}"
              f" ms, p95 {summary[name]['latency_p95_ms']} ms over {len(latencies)} samples; "
              f"RSS after {args.moves} moves {summary[name]['rss_mb']} MB (median of "
              f"{len(results)}), peak {summary[name]['rss_peak_mb']} MB")
    this, reference = summary["this"], summary["reference"]
    ratios = {"latency_median": round(this["latency_median_ms"]
                                      / reference["latency_median_ms"], 3),
              "latency_p95": round(this["latency_p95_ms"] / reference["latency_p95_ms"], 3),
              "rss_mb_difference": round(this["rss_mb"] - reference["rss_mb"], 1)}
    print(f"this / reference: median x{ratios['latency_median']}, p95 x{ratios['latency_p95']}; "
          f"memory {ratios['rss_mb_difference']:+.1f} MB")
    print(json.dumps({"benchmark": "play_web", "variant": args.variant, "rounds": args.rounds,
                      "pause_s": args.pause, "samples_each": args.samples, **summary,
                      "ratios": ratios}))
    return 0 if this["ok"] and reference["ok"] else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--pause", type=float, default=0.0,
                        help="seconds nobody touches the board before each latency sample "
                        "(2.5: each is the first change after the board went idle)")
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--game-length", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", default="tournament", help="training: the coach searches "
                        "after every move (hint, curve, blunder check) beside the game")
    parser.add_argument("--reference", metavar="DIR",
                        help="another checkout to measure in the same run, in turns")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --reference: runs of each, taking turns")
    args = parser.parse_args()
    if args.reference:
        return compare(args)

    result = run_once(args, HERE)
    latencies, moves, games, seconds = (result["latencies"], result["moves"], result["games"],
                                        result["seconds"])
    start_memory, memory, status, journalled = (result["start_memory"], result["memory"],
                                                result["status"], result["journalled"])
    ordered = sorted(latencies)
    median = statistics.median(ordered) * 1000
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000
    after = f", each after {args.pause:g} s untouched" if args.pause else ""
    print(f"switch change -> page update: median {median:.1f} ms, p95 {p95:.1f} ms, "
          f"max {ordered[-1] * 1000:.1f} ms ({len(ordered)} samples{after})")
    print(f"{moves} moves in {games + 1} games through the hands endpoint: "
          f"{seconds:.1f} s ({moves / seconds:.0f} moves/s)")
    print(f"resident memory of the play process: {start_memory.get('VmRSS', 0):.1f} MB "
          f"at start, {memory['VmRSS']:.1f} MB after {moves} moves "
          f"(peak {memory['VmHWM']:.1f} MB; goal under 80 MB)")
    print(f"exit status after SIGTERM: {status}; moves in the journals: {journalled}")
    print(json.dumps({
        "benchmark": "play_web", "variant": args.variant,
        "latency_ms": {"median": round(median, 2), "p95": round(p95, 2),
                       "max": round(ordered[-1] * 1000, 2), "samples": len(ordered),
                       "pause_s": args.pause},
        "moves": moves, "games": games + 1, "seconds": round(seconds, 2),
        "rss_mb_start": round(start_memory.get("VmRSS", 0), 1),
        "rss_mb": round(memory["VmRSS"], 1), "rss_peak_mb": round(memory["VmHWM"], 1),
        "goal_rss_mb": 80, "exit_status": status, "moves_journalled": journalled,
    }))
    return 0 if status == 0 and journalled == moves else 1


if __name__ == "__main__":
    sys.exit(main())
