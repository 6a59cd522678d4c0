"""Who wants to know when something new is ready: a list of wake-up callables, safe from
any thread. A server's live streams and the hall link subscribe; the one thread that
makes the new thing (a board's view, the hall's state) wakes them, and each reads it
from its own thread. A wake-up that fails because its event loop has closed is skipped,
never an error for the thread that woke it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Subscribers:
    """The wake-ups (see the module doc)."""

    def __init__(self) -> None:
        self._wakes: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake()`` at every `notify`; returns the function that unsubscribes."""
        with self._lock:
            self._wakes.append(wake)

        def unsubscribe() -> None:
            with self._lock:
                if wake in self._wakes:
                    self._wakes.remove(wake)

        return unsubscribe

    def notify(self) -> None:
        """Wake every subscriber (from any thread)."""
        with self._lock:
            wakes = list(self._wakes)
        for wake in wakes:
            try:
                wake()
            except RuntimeError:  # an event loop that has closed
                pass
