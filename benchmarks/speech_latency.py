"""How soon the board starts saying a move: from the move recorded to speech started.

Runs ``draughtsboard play --backend sim --speech all --speech-to DIR`` and plays seeded
random legal moves through the page's hands (/api/hands, as benchmarks/play_web.py
does), one at a time: each move is made, its view awaited, then its announcement's WAV
file. The speaker lists every announcement in ``DIR/announcements.jsonl`` with its delay
from the move's recording (the board's monotonic clock) to espeak-ng's start; this
prints their median and 95th percentile (the goal: p95 under 300 ms) and, last, one line
of JSON. Needs Debian's espeak-ng (``apt-get install espeak-ng``).

The second figure, in the same run: the switch-to-page latency (a piece lifted or put
down on the simulated board, to the page's live stream showing it: benchmarks/
play_web.py's `measure_latency`) with speech off, with speech on (``--speech all
--speech-to DIR``: the announcer follows every publication), and with speech on while
the board speaks (a player asking ``POST /api/ask/position`` twice a second, so espeak-ng
runs during the samples). Each setting gets its own play process, in turns over
``--rounds``; the medians and their ratios to speech off are printed.

    .venv/bin/python -m benchmarks.speech_latency --moves 40 --language ru
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from benchmarks.harness.stats import percentile
from benchmarks.play_web import Play, hand_actions, measure_latency, unambiguous_moves
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.variants import get_variant

HERE = Path(__file__).resolve().parents[1]

URL = re.compile(r"the board's page: (http://[0-9.]+:\d+)/")
GOAL_P95 = 0.300


def start_play(data: str, wav: str, variant: str, language: str) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, DRAUGHTSBOARD_ARBITER_TOKEN="speech-bench", PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "draughtsboard", "play", "--backend", "sim", "--variant",
         variant, "--listen", "127.0.0.1:0", "--data", data, "--speech", "all",
         "--speech-to", wav, "--speech-language", language],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env=env, cwd=HERE)
    found, url = threading.Event(), []

    def read() -> None:
        for line in process.stderr:
            match = URL.search(line)
            if match and not url:
                url.append(match.group(1))
                found.set()
        found.set()

    threading.Thread(target=read, daemon=True).start()
    if not found.wait(30) or not url:
        process.kill()
        raise SystemExit("play did not start")
    return process, url[0]


def request(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"Content-Type": "application/json"},
                                 method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=10) as response:
        return json.loads(response.read())


def announced(index: Path) -> list[dict]:
    if not index.exists():
        return []
    return [json.loads(line) for line in index.read_text(encoding="utf-8").splitlines()
            if line.endswith("}")]


def wait_for(predicate, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.005)
    raise TimeoutError("waited too long")


SETTINGS = ("off", "on", "speaking")


def asking(url: str, stop: threading.Event) -> None:
    """A player asking the board for the position twice a second (it says it)."""
    while not stop.wait(0.5):
        try:
            request(url + "/api/ask/position", {})
        except OSError:
            pass


def page_latency(args) -> dict[str, list[float]]:
    """Switch-to-page latency samples for each of `SETTINGS` (see the module doc)."""
    samples: dict[str, list[float]] = {name: [] for name in SETTINGS}
    for turn in range(args.rounds):
        order = SETTINGS if turn % 2 == 0 else tuple(reversed(SETTINGS))
        for name in order:
            with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as wav:
                extra = () if name == "off" else (
                    "--speech", "all", "--speech-to", wav, "--speech-language", args.language)
                play = Play(data, args.variant, "training", extra=extra)
                stop = threading.Event()
                try:
                    if name == "speaking":
                        threading.Thread(target=asking, args=(play.url, stop),
                                         daemon=True).start()
                    samples[name] += measure_latency(play, args.page_samples)
                finally:
                    stop.set()
                    play.stop()
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--language", default="ru")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--page-samples", type=int, default=100,
                        help="switch-to-page samples per setting and round")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if shutil.which("espeak-ng") is None:
        raise SystemExit("espeak-ng is not installed (apt-get install espeak-ng)")
    variant = get_variant(args.variant)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as wav:
        index = Path(wav) / "announcements.jsonl"
        process, url = start_play(data, wav, args.variant, args.language)
        try:
            wait_for(lambda: announced(index))  # "the board speaks"
            played = 0
            while played < args.moves:
                view = request(url + "/api/state")
                if view["state"] != "ready":
                    time.sleep(0.01)
                    continue
                position = parse_fen(variant, view["fen"])
                moves = position.legal_moves()
                if not moves or view["result"]:
                    break
                move = rng.choice(unambiguous_moves(position, moves))
                heard = len(announced(index))
                request(url + "/api/hands",
                        {"actions": hand_actions(move, position.play(move).occupancy())})
                wait_for(lambda n=heard: len(announced(index)) > n
                         and any(a["delay"] is not None for a in announced(index)[n:]))
                played += 1
            entries = announced(index)
        finally:
            process.terminate()
            process.wait(15)
    delays = [a["delay"] for a in entries if a["delay"] is not None]
    if not delays:
        raise SystemExit("no move was announced")
    median, p95 = statistics.median(delays), percentile(delays, 0.95)
    print(f"{args.variant}, {args.language}: {played} moves, {len(delays)} announced, "
          f"{sum(1 for a in entries if not a['ok'])} failed")
    print(f"move recorded -> speech started: median {median * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms (goal p95 < {GOAL_P95 * 1000:.0f} ms: "
          f"{'met' if p95 < GOAL_P95 else 'NOT met'})")
    page = page_latency(args)
    medians = {name: statistics.median(values) for name, values in page.items()}
    for name in SETTINGS:
        print(f"switch to page, speech {name}: median {medians[name] * 1000:.1f} ms, "
              f"p95 {percentile(page[name], 0.95) * 1000:.1f} ms, {len(page[name])} samples, "
              f"ratio to speech off {medians[name] / medians['off']:.2f}")
    print(json.dumps({"benchmark": "speech_latency", "variant": args.variant,
                      "language": args.language, "moves": played,
                      "announced": len(delays), "median_ms": round(median * 1000, 1),
                      "p95_ms": round(p95 * 1000, 1), "goal_p95_ms": GOAL_P95 * 1000,
                      "met": p95 < GOAL_P95,
                      "page_median_ms": {k: round(v * 1000, 2) for k, v in medians.items()},
                      "page_ratio_to_off": {k: round(v / medians["off"], 3)
                                            for k, v in medians.items()},
                      "page_samples": {k: len(v) for k, v in page.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
