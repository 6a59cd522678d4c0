"""Switch to move event through the serial path, and host CPU per snapshot.

Run: .venv/bin/python -m benchmarks.serial_latency [--games N] [--fault-rate R ...]
Figures first, one JSON line last (for scripts comparing runs).

Recorded games (the first N of the Russian championship file and of the 2003 world
championship file) are played by a tidy hand on the simulated board; the reference
firmware scans it (3-scan debounce at 1 kHz) inside ``VirtualBench``; bytes cross the
emulated serial line (no faults, then 2% of bytes damaged); ``HostSession`` decodes them
and the real tracker turns the published snapshots into moves. Everything is stepped in
virtual time, one millisecond a step, so the latency is exact and repeatable:

* latency: from the switch change that completes a move (the first moment the switches
  show the position after it) to the tracker's move event, in virtual milliseconds.
* host CPU: the bytes the host received during the replay (every chunk as it arrived,
  with its time) are fed again to a fresh ``HostSession`` in a tight loop; its CPU time
  divided by the SNAPSHOT frames decoded (heartbeats, copies and damaged frames included:
  what the Pi really spends per snapshot), next to ``benchmarks/firmware_codec.py``'s
  figures on a dense stream of snapshots. (Timing each call inside the replay would
  mostly measure the clock and cold caches.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from benchmarks import firmware_codec
from draughtsboard.board.game.pdn_reader import decode_pdn, read_pdn
from draughtsboard.board.replay.hand import ScriptedHand
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import Mode, Tracker
from draughtsboard.firmware_bridge.firmware import wire
from draughtsboard.firmware_bridge.session import HostSession
from draughtsboard.firmware_bridge.virtual import EmulatedVirtualBoard
from draughtsboard.hardware.virtual import simulated_switches

ROOT = Path(__file__).resolve().parents[1]


def emulated_board(position, fault_rate, seed):
    """The simulated board's switches behind the emulated microcontroller."""
    switches = simulated_switches(position.variant.geometry, position.occupancy())
    return EmulatedVirtualBoard(position.variant.geometry, switches, fault_rate=fault_rate,
                                seed=seed)

FILES = [("russian-ussr-championship-part1.pdn", "russian"), ("international-wk2003.pdn", None)]
STEP = 0.001  # the bench's step: latencies are exact to the millisecond


def games(count: int):
    for name, variant in FILES:
        text = decode_pdn((ROOT / "tests" / "data" / name).read_bytes())
        default = get_variant(variant) if variant else None
        for item in read_pdn(text, variant=default, source=name).games[:count]:
            game = item.game
            yield f"{name} {item.number}", game.positions[0], [p.move for p in game.moves]


class RecordedSession:
    """Keeps every chunk of bytes the host session receives, with its time."""

    def __init__(self, session) -> None:
        self.chunks: list[tuple[bytes, float]] = []
        self.stats = session.stats
        self.square_count = session.square_count
        receive = session.receive

        def recorded(data, now):
            self.chunks.append((data, now))
            return receive(data, now)

        session.receive = recorded


def session_cpu(recordings: list[RecordedSession], rounds: int = 3) -> tuple[float, int, int]:
    """Best CPU seconds of feeding every recording to a fresh session; snapshots and good
    frames decoded."""
    best = float("inf")
    snapshots = frames = 0
    for _ in range(rounds):
        sessions = [HostSession(r.square_count) for r in recordings]
        for session in sessions:
            session.connected(0.0)
        started = time.process_time()
        for session, recording in zip(sessions, recordings, strict=True):
            receive = session.receive
            for data, now in recording.chunks:
                receive(data, now)
        best = min(best, time.process_time() - started)
        snapshots = sum(session.stats.snapshots for session in sessions)
        frames = sum(session.stats.frames_ok for session in sessions)
    return best, snapshots, frames


def play(start, moves, fault_rate: float, seed: int):
    """Latencies (s) of every move of one game, the recorded session, the bytes sent up,
    the virtual seconds, and whether every move was recorded right."""
    board = emulated_board(start, fault_rate, seed)
    bench = board.bench
    recording = RecordedSession(bench.session)
    tracker = Tracker(start, Mode.TOURNAMENT, check_start=True)
    hand = ScriptedHand(None)
    now = 0.0
    recorded = []

    def run_until(t: float) -> None:
        nonlocal now
        while now < t:
            now += STEP
            for snapshot in board.scan(now):
                for event in tracker.feed(snapshot):
                    if event.kind == "move":
                        recorded.append((event.t, event.path, event.captures))

    run_until(0.1)
    latencies = []
    position = start
    t = now + 0.05
    for move in moves:
        actions, done = hand.play(position, move, t)
        after = position.play(move).occupancy()
        occupied = position.occupancy()
        completed_at = None
        for action in sorted(actions, key=lambda a: a.at):
            board.schedule(action.at, action.square, action.closed)
            bit = 1 << (action.square - 1)
            occupied = occupied | bit if action.closed else occupied & ~bit
            if completed_at is None and occupied == after:
                completed_at = action.at
        before = len(recorded)
        run_until(done + 0.05)
        if len(recorded) == before + 1 and completed_at is not None:
            latencies.append(recorded[-1][0] - completed_at)
        position = position.play(move)
        t = now + 0.05
    ok = [(path, captures) for _, path, captures in recorded] == [
        (m.path, m.captures) for m in moves
    ]
    board.close()
    return latencies, recording, bench.up.bytes_in, now, ok


def summary(values_ms: list[float]) -> dict[str, float]:
    ordered = sorted(values_ms)
    return {
        "median_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(ordered[max(0, round(0.95 * len(ordered)) - 1)], 2),
        "max_ms": round(ordered[-1], 2),
    }


def measure(count: int, fault_rate: float, seed: int) -> dict[str, object]:
    latencies: list[float] = []
    recordings = []
    bad = resyncs = up_bytes = 0
    seconds = 0.0
    plies = wrong = 0
    for _name, start, moves in games(count):
        game_latencies, recording, sent, duration, ok = play(start, moves, fault_rate, seed)
        latencies += game_latencies
        recordings.append(recording)
        bad += sum(recording.stats.bad_frames.values())
        resyncs += recording.stats.resyncs
        up_bytes += sent
        seconds += duration
        plies += len(moves)
        wrong += not ok
    cpu, snapshots, frames = session_cpu(recordings)
    return {
        "fault_rate": fault_rate,
        "plies": plies,
        "moves_timed": len(latencies),
        "games_wrong": wrong,
        "latency": summary([x * 1000 for x in latencies]),
        "snapshot_frames": snapshots,
        "session_cpu_us_per_snapshot": round(cpu / max(snapshots, 1) * 1e6, 2),
        "frames": frames,
        "session_cpu_us_per_frame": round(cpu / max(frames, 1) * 1e6, 2),
        "bad_frames": bad,
        "resyncs": resyncs,
        "up_bytes_per_s": round(up_bytes / seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per file (default 3)")
    parser.add_argument("--fault-rate", type=float, nargs="*", default=[0.0, 0.02])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    runs = [measure(args.games, rate, args.seed) for rate in args.fault_rate]
    parts = firmware_codec.chunks(firmware_codec.snapshot_stream(firmware_codec.FRAMES))
    hello = firmware_codec.codec.Hello(
        (1, 0, 0), 10, 10, 5, firmware_codec.SQUARES, firmware_codec.BOOT, 0, 50
    ).encode()
    codec_figures = {
        "decode_us_per_snapshot": round(firmware_codec.bench_decode(parts), 2),
        "session_us_per_snapshot": round(firmware_codec.bench_session(hello, parts), 2),
    }
    for run in runs:
        lat = run["latency"]
        print(
            f"fault rate {run['fault_rate']}: switch -> move event over {run['moves_timed']} "
            f"of {run['plies']} plies: median {lat['median_ms']} ms, p95 {lat['p95_ms']} ms, "
            f"max {lat['max_ms']} ms; games wrong {run['games_wrong']}"
        )
        print(
            f"  host session {run['session_cpu_us_per_snapshot']} us CPU per snapshot "
            f"(all frames fed: {run['session_cpu_us_per_frame']} us per good frame), "
            f"{run['snapshot_frames']} snapshots in {run['frames']} good frames, "
            f"{run['bad_frames']} bad frames, {run['resyncs']} resyncs, "
            f"{run['up_bytes_per_s']} bytes/s up"
        )
    print(
        f"dense stream of 50-square snapshots: decode {codec_figures['decode_us_per_snapshot']}"
        f" us, decode + session {codec_figures['session_us_per_snapshot']} us CPU per snapshot"
    )
    print(
        json.dumps(
            {
                "benchmark": "serial_latency",
                "step_ms": STEP * 1000,
                "debounce_scans": 3,
                "protocol": wire.PROTOCOL_VERSION,
                "runs": runs,
                "codec": codec_figures,
            }
        )
    )


if __name__ == "__main__":
    main()
