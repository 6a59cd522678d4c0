"""Framed reading with a deadline: the one piece of I/O the Hub and DXP opponents share.

A `Channel` reads frames (a line ending in ``\\n`` for Hub, a message ending in ``\\0``
for DXP) from a file descriptor, a pipe or a socket, waiting with ``select`` until a
deadline on an injected monotonic clock. A frame longer than its limit, the other end
closing, and the deadline passing are each their own answer, never a hang and never an
unbounded buffer. The protocols above it only ever see whole frames.
"""

from __future__ import annotations

import os
import select
import socket
import time
from collections.abc import Callable


class ChannelClosed(Exception):
    """The other end closed (end of file, connection reset)."""


class ChannelTimeout(Exception):
    """The deadline passed before a whole frame came."""


class FrameTooLong(Exception):
    """A frame longer than the limit (the data is garbage, not the protocol)."""


class Channel:
    """Frames from ``source`` (a file descriptor or a socket), ``delimiter``-terminated,
    at most ``limit`` bytes each. ``stop``: a callable looked at about every 50 ms while
    waiting; when true, `read` returns None."""

    POLL = 0.05

    def __init__(self, source: int | socket.socket, delimiter: bytes, limit: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._source = source
        self._delimiter = delimiter
        self._limit = limit
        self._clock = clock
        self._buffer = b""
        self.closed = False

    def _fileno(self) -> int:
        return self._source if isinstance(self._source, int) else self._source.fileno()

    def _receive(self) -> bytes:
        if isinstance(self._source, int):
            return os.read(self._source, 4096)
        return self._source.recv(4096)

    def read(self, deadline: float | None, stop: Callable[[], bool] | None = None
             ) -> bytes | None:
        """The next frame without its delimiter; None when ``stop`` said so.
        `ChannelTimeout` at ``deadline`` (None: wait for ever), `ChannelClosed` at the
        end of the data, `FrameTooLong` past the limit."""
        while True:
            index = self._buffer.find(self._delimiter)
            if index >= 0:
                frame, self._buffer = self._buffer[:index], self._buffer[index + 1:]
                if len(frame) > self._limit:
                    raise FrameTooLong(f"{len(frame)} bytes")
                return frame
            if len(self._buffer) > self._limit:
                raise FrameTooLong(f"more than {self._limit} bytes without an end")
            if self.closed:
                raise ChannelClosed()
            if stop is not None and stop():
                return None
            wait = self.POLL
            if deadline is not None:
                left = deadline - self._clock()
                if left <= 0:
                    raise ChannelTimeout()
                wait = min(wait, left)
            try:
                ready, _, _ = select.select([self._fileno()], [], [], wait)
            except (OSError, ValueError):
                self.closed = True
                continue
            if not ready:
                continue
            try:
                data = self._receive()
            except (ConnectionError, OSError):
                data = b""
            if not data:
                self.closed = True
                continue
            self._buffer += data
