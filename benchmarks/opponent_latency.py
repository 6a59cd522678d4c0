"""From the person's move being complete to the opponent's move on the LEDs, per level.

A board in play against the built-in engine, as `draughtsboard play --opponent engine:L`
runs it: the real-time simulated board (the reed-matrix driver scanning mock pins at 200
Hz with its debounce), the controller thread, the journal (an fsync per record), the
opponent's seat and its worker thread, the engine at level L. The person's moves are
random legal moves (seeded), made with the simulator's hands; each sample is the time
from the last switch of the person's move to the LED frame that lights the opponent's
piece to move (violet, steady). It includes the scan and debounce, the tracker, writing
the move, handing the position to the worker, the engine's thinking, the answer's way
back through the session's queue and the frame. The engine's move is then carried out
with the hands and the next sample begins. A game that ends, or reaches ``--plies``
plies, is followed by a new one.

Prints a line per level (median and 95th percentile, ms) and, last, the figures as JSON.
Usage: ``python -m benchmarks.opponent_latency [--variant russian] [--samples 20]
[--levels 1-10]``. Single-piece games only (the hands here lift a taken piece off the
board; a column game's capture moves it under the captor).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time

from benchmarks.harness.stats import percentile
from draughtsboard.board.ports import LedFrame, LedPattern
from draughtsboard.board.rules import get_variant, parse_fen
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.opponents import BuiltinOpponent, OpponentSpec
from draughtsboard.play import PlaySession, choose_opening
from draughtsboard.play.opponent_seat import OpponentSeat
from draughtsboard.recording import Recorder

REST = 0.12  # seconds a hand rests on each landing of a capture, and on its end before
# the prisoners are taken off (as a person's hand does; the tracker takes a capture as
# done once its piece has rested, 0.1 s)


class TimedLeds:
    """The board's LED sink, noting when each frame lighting the opponent's piece to
    move arrives."""

    def __init__(self, sink) -> None:
        self.sink = sink
        self.square_count = sink.square_count
        self.shown: list[float] = []  # when a frame with the opponent's piece lit came
        self._lock = threading.Lock()

    def show(self, frame: LedFrame) -> None:
        lit = frame.colours is not None and any(
            pattern == LedPattern.ON and colour == "violet"
            for pattern, colour in zip(frame.patterns, frame.colours, strict=True))
        if lit:
            with self._lock:
                self.shown.append(time.monotonic())
        self.sink.show(frame)

    def first_after(self, moment: float) -> float | None:
        with self._lock:
            return next((t for t in self.shown if t >= moment), None)

    def close(self) -> None:
        self.sink.close()


def view(session) -> dict:
    return json.loads(session.view()[1])


def wait_for(session, predicate, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        current = view(session)
        if predicate(current):
            return current
        time.sleep(0.002)
    raise TimeoutError("the board did not get there in time")


def hand_move(session, path, captures) -> float:
    """A move by the hands; the moment its last switch changed."""
    session.hand([("lift", path[0])])
    for index, square in enumerate(path[1:], start=1):
        session.hand([("place", square)])
        if index < len(path) - 1:
            time.sleep(REST)
            session.hand([("lift", square)])
    if captures:
        time.sleep(REST)
    for square in captures:
        session.hand([("lift", square)])
    return time.monotonic()


def measure(variant_name: str, level: int, samples: int, plies: int,
            seed: str) -> list[tuple[float, bool]]:
    """``samples`` latencies (seconds) of moves where the engine had a choice, and those
    of the forced moves met on the way: (latency, had a choice)."""
    variant = get_variant(variant_name)
    rng = random.Random(f"{seed}-{level}")
    out: list[tuple[float, bool]] = []
    with tempfile.TemporaryDirectory() as data:
        recorder = Recorder(data)
        opening = choose_opening(recorder, variant=variant_name, resume=False)
        occupied = [n for n in variant.geometry.numbers
                    if opening.expected_position.occupancy() >> (n - 1) & 1]
        board = open_simulated_board(variant.geometry, occupied=occupied, real_time=True)
        leds = TimedLeds(board)
        session = PlaySession(variant_name, board, leds, recorder, mode="training",
                              hands=board.simulation, opening=opening, token="benchmark")
        seat = OpponentSeat(BuiltinOpponent(variant, level, seed=f"{seed}-{level}"),
                            OpponentSpec("engine", level=level), False, post=session.submit,
                            clock=session.game.clock)
        session.game.attach_opponent(seat)
        session.start()
        try:
            while sum(choice for _, choice in out) < samples:
                current = wait_for(session, lambda v: v["state"] in ("ready", "game_over"))
                if current["result"] is not None or len(current["moves"]) >= plies:
                    session.arbiter.new_game({}, None)
                    session.hand([("setup", 0)])
                    wait_for(session, lambda v: v["state"] == "ready" and not v["moves"])
                    continue
                position = parse_fen(variant, current["fen"])
                move = rng.choice(position.legal_moves())
                choice = len(position.play(move).legal_moves()) > 1
                count = len(current["moves"])
                done = hand_move(session, move.path, move.captures)
                current = wait_for(session, lambda v, count=count: v["opponent"]["pending"]
                                   is not None or v["result"] is not None
                                   or len(v["moves"]) > count + 1)
                pending = current["opponent"]["pending"]
                if pending is None:
                    continue  # the person's move ended the game
                shown = leds.first_after(done)  # (the pending move is in the view: its
                assert shown is not None  # frame was shown before the view was published)
                out.append((shown - done, choice))
                hand_move(session, pending["path"], pending["captures"])
                wait_for(session, lambda v, count=count: len(v["moves"]) >= count + 2
                         or v["result"] is not None)
        finally:
            session.stop()
            board.close()
            recorder.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--samples", type=int, default=20,
                        help="engine moves with a choice per level")
    parser.add_argument("--levels", default="1-10", help="e.g. 1-10 or 3,7")
    parser.add_argument("--plies", type=int, default=60, help="a new game after this many")
    parser.add_argument("--seed", default="latency")
    args = parser.parse_args()
    if get_variant(args.variant).holds_columns:
        # these hands lift each taken piece off the board; in a column game a capture
        # moves the taken top under the captor instead, which they do not carry out
        print(f"opponent_latency.py: {args.variant} is a column game; this benchmark "
              "plays single-piece games (russian, international)", file=sys.stderr)
        return 2
    if "-" in args.levels:
        low, high = (int(x) for x in args.levels.split("-"))
        levels = list(range(low, high + 1))
    else:
        levels = [int(x) for x in args.levels.split(",")]
    figures = {}
    for level in levels:
        measured = measure(args.variant, level, args.samples, args.plies, args.seed)
        chosen = [t for t, choice in measured if choice]
        everything = [t for t, _ in measured]
        figures[str(level)] = {
            "median_ms": round(statistics.median(chosen) * 1000, 1),
            "p95_ms": round(percentile(chosen, 0.95) * 1000, 1), "samples": len(chosen),
            "all_median_ms": round(statistics.median(everything) * 1000, 1),
            "all_p95_ms": round(percentile(everything, 0.95) * 1000, 1),
            "all_samples": len(everything)}
        f = figures[str(level)]
        print(f"level {level:2d}: median {f['median_ms']:7.1f} ms, p95 {f['p95_ms']:7.1f} ms "
              f"({len(chosen)} moves with a choice); with forced moves: median "
              f"{f['all_median_ms']:7.1f}, p95 {f['all_p95_ms']:7.1f} ({len(everything)})",
              flush=True)
    print(json.dumps({"variant": args.variant, "levels": figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
