"""Where the program's log lines go, and how a flood of them is held back: one set-up for
every long-running command (the board's ``play``, the ``hall``).

Lines go to standard error; under systemd (``JOURNAL_STREAM`` set) each carries its
journald priority and no timestamp (journald adds its own). A flood of clients makes
uvicorn and the event loop log the same line over and over: `RateLimitFilter` lets each
through once per interval and says how many were held back, so one client cannot fill
the disk with log. `configure_logging` returns the function that puts the logging back
as it was, for a command run inside another program (a test calling ``cli.main``).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable

_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3,
             logging.CRITICAL: 2}
# Loggers a flood of clients makes talk, and whether the first line keeps its traceback:
# the event loop's are expected conditions ("socket.accept() out of system resource" when
# every descriptor is in use), the server's may be a bug.
FLOODED = (("uvicorn.error", True), ("asyncio", False))


class _JournaldFormatter(logging.Formatter):
    """``<priority>`` before each line: journald reads it as the line's level."""

    def format(self, record: logging.LogRecord) -> str:
        priority = _PRIORITY.get(record.levelno, 6)
        return f"<{priority}>" + super().format(record)


class _StandardError(logging.StreamHandler):
    """A handler writing to whatever ``sys.stderr`` is when a line is written (a program
    that replaces it, as pytest does, never leaves the handler on a closed stream)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        pass


class RateLimitFilter(logging.Filter):
    """Lets the same message through at most once per ``interval`` seconds, and says how
    many were held back when it next lets one through. ``clock`` is an input (tests)."""

    def __init__(self, interval: float = 10.0, clock: Callable[[], float] = time.monotonic,
                 *, tracebacks: bool = True) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self.tracebacks = tracebacks  # keep the first one's (a bug, not a flood)
        self._last: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = f"{record.name}:{record.msg}"
        now = self.clock()
        seen = self._last.get(key)
        if seen is not None and now - seen[0] < self.interval:
            self._last[key] = (seen[0], seen[1] + 1)
            return False
        if seen is not None and seen[1]:
            record.msg = f"{record.msg} ({seen[1]} more like it not logged)"
        if seen is not None or not self.tracebacks:
            record.exc_info = None  # the first one had its traceback: no more of them
            record.exc_text = None
        if len(self._last) > 256:
            self._last.clear()
        self._last[key] = (now, 0)
        return True


def configure_logging(level: int = logging.INFO) -> Callable[[], None]:
    """Log lines to standard error (see the module doc); the function that puts the root
    logger and the flooded loggers' filters back as they were."""
    handler = _StandardError()
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(_JournaldFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S"))
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    root.handlers[:] = [handler]
    root.setLevel(level)
    added: list[tuple[logging.Logger, RateLimitFilter]] = []
    for name, tracebacks in FLOODED:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RateLimitFilter) for f in logger.filters):
            limit = RateLimitFilter(tracebacks=tracebacks)
            logger.addFilter(limit)
            added.append((logger, limit))

    def restore() -> None:
        if root.handlers == [handler]:
            root.handlers[:] = saved[0]
            root.setLevel(saved[1])
        for logger, limit in added:
            logger.removeFilter(limit)

    return restore
