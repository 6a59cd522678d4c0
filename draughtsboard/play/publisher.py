"""Publishing the page's view: its version, its JSON text and the live streams told of it.

The session builds a view (`view.build_view`) after every change on the controller
thread; the publisher keeps it only when it differs from the last one, numbers it, and
wakes the subscribers (the web app's live streams, the hall link), which read it from
their own threads. Kept apart from the session so that what other threads may read, and
how, is in one place.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from draughtsboard.board.game.record import Game
from draughtsboard.subscribers import Subscribers


class Publisher:
    """The latest view and its subscribers. `publish` runs on the controller thread;
    `view`, `published` and `subscribe` are safe on any thread (each reads one value
    replaced whole)."""

    def __init__(self) -> None:
        self._subscribers = Subscribers()
        self._view: dict[str, Any] = {}
        self._current = (0, "{}")  # (version, JSON text), replaced whole
        self._published: tuple[str, Game | None, dict[str, Any]] = ("", None, {})

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake()`` (from any thread) whenever a new view is ready; returns the
        function that unsubscribes."""
        return self._subscribers.subscribe(wake)

    def view(self) -> tuple[int, str]:
        """The latest view as (version, JSON text)."""
        return self._current

    @property
    def version(self) -> int:
        return self._current[0]

    def published(self) -> tuple[str, Game | None, dict[str, Any]]:
        """The latest publication's game id, recorded game (a read-only copy: safe to read
        on any thread) and view, all three from the same moment."""
        return self._published

    def notify(self) -> None:
        """Wake every subscriber (a new view, or the server going down)."""
        self._subscribers.notify()

    def publish(self, game_id: str, game: Game, view: dict[str, Any]) -> None:
        """Keep ``view`` as the latest, numbered, and wake the subscribers, unless it is
        the view already published."""
        if view == self._view:
            return
        self._view = view
        self._published = (game_id, game, view)
        version = self._current[0] + 1
        self._current = (version, json.dumps(dict(view, version=version),
                                             separators=(",", ":")))
        self.notify()
