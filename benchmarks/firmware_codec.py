"""Host CPU per decoded snapshot (10x10 board), and switch-to-host latency.

Run: .venv/bin/python -m benchmarks.firmware_codec
Figures first, one JSON line last (for scripts comparing runs).

* decode: FrameDecoder alone on a stream of 50-square SNAPSHOT frames, fed in 64-byte
  chunks as a serial port delivers them.
* session: the same stream through HostSession (decode + sequence logic + publish).
* encode: building one SNAPSHOT frame (what the firmware does per change, on CPython).
* latency: real time from setting an emulated switch to SerialLink.read() returning the
  snapshot, over a local socket, no faults (includes 3 debounce scans at ~1 kHz). The
  tracker's move event will add its own cost on top once the tracker exists.
"""

from __future__ import annotations

import json
import statistics
import time

from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.firmware_bridge import codec
from draughtsboard.firmware_bridge.emulator import SocketEmulator
from draughtsboard.firmware_bridge.firmware import wire
from draughtsboard.firmware_bridge.link import SerialLink
from draughtsboard.firmware_bridge.session import HostSession
from draughtsboard.hardware.virtual import simulated_switches

SQUARES = 50
FRAMES = 20_000
BOOT = 0x1234


def snapshot_stream(count: int) -> bytes:
    return b"".join(
        codec.SnapshotMessage(
            BOOT, seq, seq, 0, SQUARES, (seq * 0x9E3779B97F4A7C15) >> 14 & ((1 << SQUARES) - 1)
        ).encode()
        for seq in range(1, count + 1)
    )


def chunks(data: bytes, size: int = 64) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def best_of(runs: int, work) -> float:
    """Best CPU seconds of several runs (least disturbed by the machine)."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def bench_decode(parts: list[bytes]) -> float:
    def work() -> None:
        decoder = codec.FrameDecoder()
        for part in parts:
            decoder.feed(part)
        assert decoder.frames_ok == FRAMES

    return best_of(5, work) / FRAMES * 1e6


def bench_session(hello: bytes, parts: list[bytes]) -> float:
    def work() -> None:
        session = HostSession(SQUARES)
        session.connected(0.0)
        session.receive(hello, 0.0)
        for i, part in enumerate(parts):
            session.receive(part, i * 1e-3)
        assert session.stats.snapshots == FRAMES

    return best_of(5, work) / FRAMES * 1e6


def bench_encode() -> float:
    count = 20_000

    def work() -> None:
        for seq in range(count):
            wire.encode_frame(wire.SNAPSHOT, wire.pack_snapshot(BOOT, seq + 1, seq, 0, 50, seq))

    return best_of(3, work) / count * 1e6


def bench_latency(samples: int = 50) -> list[float]:
    switches = simulated_switches(board_geometry(10), 0)
    latencies = []
    with SocketEmulator(board_geometry(10), switches) as emulator:
        with SerialLink(emulator.url, SQUARES, poll_interval=0.005) as link:
            assert link.wait_for_up(5.0)
            while link.read(timeout=0.2) is not None:
                pass
            for i in range(samples):
                square = i % SQUARES + 1
                start = time.perf_counter()
                switches.occupied ^= 1 << (square - 1)
                expected = switches.occupied
                while True:
                    snapshot = link.read(timeout=2.0)
                    assert snapshot is not None, "no snapshot within 2 s"
                    if snapshot.occupied == expected:
                        break
                latencies.append((time.perf_counter() - start) * 1e3)
                time.sleep(0.01)  # a hand does not move faster than this
    return latencies


def main() -> None:
    hello = codec.Hello((1, 0, 0), 10, 10, 5, SQUARES, BOOT, 0, 200).encode()
    stream = snapshot_stream(FRAMES)
    parts = chunks(stream)
    frame_bytes = len(stream) / FRAMES
    decode_us = bench_decode(parts)
    session_us = bench_session(hello, parts)
    encode_us = bench_encode()
    latencies = bench_latency()
    latency = {
        "median_ms": round(statistics.median(latencies), 2),
        "p95_ms": round(sorted(latencies)[int(0.95 * len(latencies)) - 1], 2),
        "max_ms": round(max(latencies), 2),
    }
    print(f"snapshot frame, 50 squares: {frame_bytes:.0f} bytes on the wire")
    print(f"decode:  {decode_us:6.2f} us CPU per snapshot (FrameDecoder, 64-byte chunks)")
    print(f"session: {session_us:6.2f} us CPU per snapshot (decode + host session logic)")
    print(f"encode:  {encode_us:6.2f} us CPU per snapshot frame (CPython)")
    print(
        f"latency switch -> SerialLink.read(): median {latency['median_ms']} ms, "
        f"p95 {latency['p95_ms']} ms, max {latency['max_ms']} ms ({len(latencies)} samples)"
    )
    print(
        json.dumps(
            {
                "benchmark": "firmware_codec",
                "frame_bytes": round(frame_bytes, 1),
                "decode_us_per_snapshot": round(decode_us, 2),
                "session_us_per_snapshot": round(session_us, 2),
                "encode_us_per_snapshot": round(encode_us, 2),
                "latency": latency,
            }
        )
    )


if __name__ == "__main__":
    main()
