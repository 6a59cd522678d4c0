"""Log lines about what boards send, rate-limited per board and kind: a board that sends
ten thousand bad messages makes one line every few seconds, each saying how many like it
were held back, and never hides another board's lines."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

INTERVAL = 10.0  # seconds between two lines of one kind about one board
KEYS = 2000  # kinds of lines remembered (the oldest forgotten first)


class LogLimiter:
    def __init__(self, interval: float = INTERVAL, clock: Callable[[], float] = time.monotonic,
                 keys: int = KEYS) -> None:
        self.interval = interval
        self.clock = clock
        self.keys = keys
        self._seen: OrderedDict[Hashable, tuple[float, int]] = OrderedDict()

    def allow(self, key: Hashable) -> str | None:
        """None: hold this line back. Otherwise the line may go out, with this text added
        (empty, or how many like it were held back)."""
        now = self.clock()
        seen = self._seen.get(key)
        if seen is not None and now - seen[0] < self.interval:
            self._seen[key] = (seen[0], seen[1] + 1)
            return None
        self._seen[key] = (now, 0)
        self._seen.move_to_end(key)
        while len(self._seen) > self.keys:
            self._seen.popitem(last=False)
        held = seen[1] if seen is not None else 0
        return f" ({held} more like it not logged)" if held else ""
