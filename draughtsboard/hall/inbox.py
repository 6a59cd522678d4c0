"""Messages waiting for the hall's ingest thread, queued per board and taken in turn.

One board's flood must never delay another board or the arbiter. So each board has its
own bounded queue, in messages and in bytes (when it is full the oldest message goes: a
move it held is asked for again like any gap, and a board's state is retained by the
broker), the ingest thread takes one message from each board in turn, and each board may
have at most ``rate`` messages and ``byte_rate`` bytes handled a second (token buckets):
a board that sends more only waits longer for its own messages. A board at a tournament
sends a few messages a move, each a few kilobytes (a 300-ply game whole is about 80 KB).

Thread-safe: paho's network thread puts, the ingest thread takes. ``clock`` is an input
(tests give it virtual time).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PER_BOARD = 500  # messages queued per board
PER_BOARD_BYTES = 4 * 1024 * 1024  # ... and bytes
RATE = 100.0  # messages handled per board and second, sustained
BURST = 300.0  # ... and at once after a quiet spell
BYTE_RATE = 512 * 1024.0  # bytes handled per board and second, sustained
BYTE_BURST = 2 * 1024 * 1024.0


@dataclass
class _BoardQueue:
    items: deque = field(default_factory=deque)
    size: int = 0  # bytes queued
    tokens: float = BURST
    byte_tokens: float = BYTE_BURST
    refilled: float = 0.0
    dropped: int = 0


class BoardInbox:
    def __init__(self, *, per_board: int = PER_BOARD, rate: float = RATE,
                 burst: float = BURST, per_board_bytes: int = PER_BOARD_BYTES,
                 byte_rate: float = BYTE_RATE, byte_burst: float = BYTE_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_board = per_board
        self.rate = rate
        self.burst = burst
        self.per_board_bytes = per_board_bytes
        self.byte_rate = byte_rate
        self.byte_burst = byte_burst
        self.clock = clock
        self._queues: dict[int, _BoardQueue] = {}
        self._turns: deque[int] = deque()  # boards with messages waiting, in turn
        self._changed = threading.Condition()

    def put(self, board: int, item: Any, size: int = 0) -> bool:
        """Queue a message of ``size`` bytes; False when the board's queue was full (its
        oldest messages were dropped to make room)."""
        with self._changed:
            queue = self._queues.get(board)
            if queue is None:
                queue = self._queues[board] = _BoardQueue(
                    tokens=self.burst, byte_tokens=self.byte_burst, refilled=self.clock())
            kept = True
            waiting = bool(queue.items)  # the board has its place in the turns already
            while queue.items and (len(queue.items) >= self.per_board
                                   or queue.size + size > self.per_board_bytes):
                queue.size -= queue.items.popleft()[1]
                queue.dropped += 1
                kept = False
            if not waiting:
                self._turns.append(board)
            queue.items.append((item, size))
            queue.size += size
            self._changed.notify()
            return kept

    def take(self, timeout: float) -> tuple[int, Any] | None:
        """The next message, from the next board in turn that may have one handled now;
        None after ``timeout`` seconds without one."""
        deadline = self.clock() + timeout
        with self._changed:
            while True:
                now = self.clock()
                soonest = deadline
                for _ in range(len(self._turns)):
                    board = self._turns.popleft()
                    queue = self._queues[board]
                    self._refill(queue, now)
                    charge = min(queue.items[0][1], self.byte_burst)  # a big one can pass
                    if queue.tokens >= 1.0 and queue.byte_tokens >= charge:
                        queue.tokens -= 1.0
                        queue.byte_tokens -= charge
                        item, size = queue.items.popleft()
                        queue.size -= size
                        if queue.items:
                            self._turns.append(board)
                        return board, item
                    self._turns.append(board)
                    soonest = min(soonest, now + max((1.0 - queue.tokens) / self.rate,
                                                     (charge - queue.byte_tokens) /
                                                     self.byte_rate))
                if now >= deadline:
                    return None
                self._changed.wait(max(0.001, soonest - now))

    def _refill(self, queue: _BoardQueue, now: float) -> None:
        elapsed = now - queue.refilled
        queue.tokens = min(self.burst, queue.tokens + elapsed * self.rate)
        queue.byte_tokens = min(self.byte_burst, queue.byte_tokens + elapsed * self.byte_rate)
        queue.refilled = now

    def dropped(self, board: int) -> int:
        with self._changed:
            queue = self._queues.get(board)
            return queue.dropped if queue is not None else 0

    def waiting(self) -> int:
        with self._changed:
            return sum(len(q.items) for q in self._queues.values())
