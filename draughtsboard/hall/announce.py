"""When the ingest thread tells the page's live streams that the hall changed.

Every message the ingest thread handles may change what the page shows. Waking each live
stream for each message would cost more than it tells (a hundred boards send a hundred
messages a second, and a stream sends at most every 0.1 s anyway), so the changes are
gathered and told at most every ``EVERY`` seconds: a change after a quiet spell at once,
a change in a busy spell within ``EVERY`` seconds. A bound in time, never in messages:
the page once heard of changes after 50 messages or when the queue ran dry, and a hall
whose queue never runs dry (a hundred boards at a move every two seconds each) told it
every 0.4 s, which was most of the time from a board's move to the page.

A pure decision: the ingest thread gives it the time (`time.monotonic`), so that the rule
is a plain test.
"""

from __future__ import annotations

EVERY = 0.05  # seconds: the page is told of a change within this


class Announcer:
    def __init__(self, every: float = EVERY) -> None:
        self.every = every
        self._told = float("-inf")  # when the page was last told
        self._pending = False  # a change it has not been told of

    def changed(self) -> None:
        """Something the page shows may have changed."""
        self._pending = True

    def due(self, now: float) -> bool:
        """Whether to tell the page now (and note that it was told)."""
        if not self._pending or now < self._told + self.every:
            return False
        self._pending, self._told = False, now
        return True

    def wait(self, now: float, longest: float) -> float:
        """How long the ingest thread may wait for its next message, at most ``longest``
        seconds, before a change it holds is due."""
        if not self._pending:
            return max(0.0, longest)
        return max(0.0, min(longest, self._told + self.every - now))
