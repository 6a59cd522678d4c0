"""The wake-up every board source owes its session: a read waiting on it returns at once,
with nothing, when the session wakes it for a command (the reed matrix and the serial
link both have it)."""

from __future__ import annotations

import threading


def a_waiting_read_returns_when_woken(source) -> bool:
    """Whether a read waiting on ``source`` (for up to 30 s) returns None within 10 s of
    ``source.wake()``."""
    returned = []
    reader = threading.Thread(target=lambda: returned.append(source.read(timeout=30)))
    reader.start()
    source.wake()
    reader.join(10)
    return not reader.is_alive() and returned == [None]
