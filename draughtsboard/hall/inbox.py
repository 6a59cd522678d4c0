"""Messages waiting for the hall's ingest thread, queued per board and taken in turn.

One board's flood must never delay another board or the arbiter. So each board has its
own bounded queue (when it is full the oldest message goes: a move it held is asked for
again like any gap, and a board's state is retained by the broker), the ingest thread
takes one message from each board in turn, and each board may have at most ``rate``
messages handled a second (a token bucket with ``burst`` tokens): a board that sends more
only waits longer for its own messages. A board at a tournament sends a few messages a
move; a resend of a whole game is one message.

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
RATE = 100.0  # messages handled per board and second, sustained
BURST = 300.0  # ... and at once after a quiet spell


@dataclass
class _BoardQueue:
    items: deque = field(default_factory=deque)
    tokens: float = BURST
    refilled: float = 0.0
    dropped: int = 0


class BoardInbox:
    def __init__(self, *, per_board: int = PER_BOARD, rate: float = RATE,
                 burst: float = BURST, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_board = per_board
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._queues: dict[int, _BoardQueue] = {}
        self._turns: deque[int] = deque()  # boards with messages waiting, in turn
        self._changed = threading.Condition()

    def put(self, board: int, item: Any) -> bool:
        """Queue a message; False when the board's queue was full (its oldest message
        was dropped to make room)."""
        with self._changed:
            queue = self._queues.get(board)
            if queue is None:
                queue = self._queues[board] = _BoardQueue(tokens=self.burst,
                                                          refilled=self.clock())
            kept = True
            if len(queue.items) >= self.per_board:
                queue.items.popleft()
                queue.dropped += 1
                kept = False
            if not queue.items:
                self._turns.append(board)
            queue.items.append(item)
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
                    if queue.tokens >= 1.0:
                        queue.tokens -= 1.0
                        item = queue.items.popleft()
                        if queue.items:
                            self._turns.append(board)
                        return board, item
                    self._turns.append(board)
                    soonest = min(soonest, now + (1.0 - queue.tokens) / self.rate)
                if now >= deadline:
                    return None
                self._changed.wait(max(0.001, soonest - now))

    def _refill(self, queue: _BoardQueue, now: float) -> None:
        queue.tokens = min(self.burst, queue.tokens + (now - queue.refilled) * self.rate)
        queue.refilled = now

    def dropped(self, board: int) -> int:
        with self._changed:
            queue = self._queues.get(board)
            return queue.dropped if queue is not None else 0

    def waiting(self) -> int:
        with self._changed:
            return sum(len(q.items) for q in self._queues.values())
