"""The hall's commands waiting for the board's link thread, bounded.

paho's network thread puts each command here; the link's thread takes them all at its
next turn. A hall (or a flood that reached the command topic) may ask for the same game
again and again faster than a board can answer from its journal: a resend of a game
replaces the one still waiting for that game (the newest wins: it asks for what is
missing now), and past ``limit`` commands the oldest waiting resend is dropped (the hall
asks again for what it still lacks), then the oldest command. The arbiter's commands
are never merged: each gets its answer.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from itertools import count

LIMIT = 100  # commands waiting at most


def _resend_game(payload: bytes) -> str | None:
    """The game a resend command is about (None: not a resend, or not readable: it is
    kept as it came, and the link answers it with the reason)."""
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict) and data.get("cmd") == "resend" and isinstance(
            data.get("game"), str):
        return data["game"][:40]
    return None


class CommandQueue:
    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.dropped = 0
        self._waiting: OrderedDict[tuple, bytes] = OrderedDict()
        self._numbers = count()
        self._lock = threading.Lock()

    def put(self, payload: bytes) -> None:
        game = _resend_game(payload)
        key = ("resend", game) if game is not None else ("command", next(self._numbers))
        with self._lock:
            if key in self._waiting:
                del self._waiting[key]  # the newer request for that game replaces it
            self._waiting[key] = payload
            while len(self._waiting) > self.limit:
                oldest = next((k for k in self._waiting if k[0] == "resend"),
                              next(iter(self._waiting)))
                del self._waiting[oldest]
                self.dropped += 1

    def take_all(self) -> list[bytes]:
        with self._lock:
            taken = list(self._waiting.values())
            self._waiting.clear()
            return taken

    def __len__(self) -> int:
        with self._lock:
            return len(self._waiting)
