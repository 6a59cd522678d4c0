"""When the hall asks a board again for something it lacks: every ``ASK_AGAIN`` seconds
the first few times, then less and less often, at most once every ``ASK_AT_MOST_EVERY``
seconds per game, for as long as it is missing (a board that is away, or a game a
board's password named and no board has, costs one request a minute, not a flood)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

ASK_AGAIN = 2.0  # seconds between the first few requests for what is missing
ASK_QUICKLY = 3  # requests at ASK_AGAIN before backing off
ASK_AT_MOST_EVERY = 60.0  # then at most one request a minute per game


@dataclass
class _Asked:
    next_time: float
    attempts: int


class AskSchedule:
    def __init__(self) -> None:
        self._asked: dict[Hashable, _Asked] = {}

    def due(self, key: Hashable, now: float) -> bool:
        """Whether to ask for ``key`` now (and note that it was asked)."""
        asked = self._asked.get(key)
        if asked is not None and now < asked.next_time:
            return False
        attempts = asked.attempts + 1 if asked is not None else 1
        wait = ASK_AGAIN * 2 ** max(0, attempts - ASK_QUICKLY)
        self._asked[key] = _Asked(now + min(wait, ASK_AT_MOST_EVERY), attempts)
        return True

    def forget(self, key: Hashable) -> None:
        """``key`` arrived: the next time it is missing, ask at once."""
        self._asked.pop(key, None)
