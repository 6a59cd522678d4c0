"""A byte pipe that damages what passes through it, reproducibly, for the emulator.

A USB serial line can corrupt, drop, duplicate and delay bytes; the protocol must survive
all four. ``FaultyPipe`` does that at a given per-byte rate with a seeded generator and a
clock passed in, so a failing run can be replayed exactly. Delays never reorder bytes: a
serial line is a FIFO, and the protocol relies on that (see docs/protocol.md).
"""

from __future__ import annotations

import random
from collections import Counter, deque

FAULT_KINDS = ("corrupt", "drop", "duplicate", "delay")


class FaultyPipe:
    """Bytes pushed at ``now`` come out of ``pull(now)``, some of them damaged."""

    def __init__(
        self,
        rate: float = 0.0,
        seed: int | None = 0,
        *,
        max_delay: float = 0.02,
        kinds: tuple[str, ...] = FAULT_KINDS,
    ) -> None:
        unknown = set(kinds) - set(FAULT_KINDS)
        if unknown or not 0.0 <= rate <= 1.0:
            raise ValueError(f"fault rate {rate} or kinds {sorted(unknown)} not understood")
        self.rate = rate
        self.kinds = kinds
        self.max_delay = max_delay
        self.rng = random.Random(seed)
        self.faults: Counter[str] = Counter()
        self.bytes_in = 0
        self._queue: deque[tuple[float, bytes]] = deque()
        self._tail = float("-inf")  # release time of the last queued chunk

    def push(self, data: bytes, now: float) -> None:
        """Send ``data`` at time ``now``: at the seeded rate, bytes are corrupted, dropped,
        duplicated or delayed (never reordered)."""
        if not data:
            return
        self.bytes_in += len(data)
        release = max(now, self._tail)
        if self.rate <= 0.0:
            self._queue.append((release, bytes(data)))
            self._tail = release
            return
        rng, rate = self.rng, self.rate
        out = bytearray()
        for byte in data:
            if rng.random() >= rate:
                out.append(byte)
                continue
            kind = rng.choice(self.kinds)
            self.faults[kind] += 1
            if kind == "corrupt":
                out.append(byte ^ rng.randrange(1, 256))
            elif kind == "duplicate":
                out += bytes((byte, byte))
            elif kind == "delay":  # this byte and all after it come later
                if out:
                    self._queue.append((release, bytes(out)))
                    out = bytearray()
                release += rng.uniform(0.0, self.max_delay)
                out.append(byte)
            # "drop": nothing goes out
        if out:
            self._queue.append((release, bytes(out)))
        self._tail = release

    def pull(self, now: float) -> bytes:
        """The bytes that have arrived by ``now``."""
        queue = self._queue
        if not queue or queue[0][0] > now:
            return b""
        out = bytearray()
        while queue and queue[0][0] <= now:
            out += queue.popleft()[1]
        return bytes(out)

    def clear(self) -> None:
        """Forget bytes in flight (the cable was pulled)."""
        self._queue.clear()
        self._tail = float("-inf")

    @property
    def next_release(self) -> float | None:
        """When the next bytes in flight arrive (None: nothing in flight)."""
        return self._queue[0][0] if self._queue else None

    @property
    def pending(self) -> int:
        return sum(len(chunk) for _, chunk in self._queue)
