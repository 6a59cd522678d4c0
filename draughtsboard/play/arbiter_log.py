"""The arbiter's log on the page: what happened, newest last, and how many flags the
arbiter has not acknowledged yet.

The session's parts note entries on the controller thread (the opening, the record
keeper, the arbiter's desk) and the view shows them; one small class so that every part
notes an entry, and counts a flag, the same way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from draughtsboard.board.message import Message

LOG_LENGTH = 50  # arbiter log entries kept for the page
# the log entries the arbiter acknowledges
FLAGGED_KINDS = ("illegal", "disturbed", "irregularity", "error", "flag", "draw", "notice")


class ArbiterLog:
    """The last `LOG_LENGTH` entries (kind, text, wall time) and the count of flags
    (`FLAGGED_KINDS`) not acknowledged. Controller thread only.

    An entry's text is a message's JSON, rendered by the page in its reader's language
    (plain text only where no message can be had: a system's error as it was given)."""

    def __init__(self, wall: Callable[[], float]) -> None:
        self.wall = wall
        self.entries: deque[dict[str, Any]] = deque(maxlen=LOG_LENGTH)
        self.unacknowledged = 0

    def note(self, kind: str, text: Message | str) -> None:
        said = text.as_json() if isinstance(text, Message) else text
        self.entries.append({"kind": kind, "text": said, "t_wall": self.wall()})
        if kind in FLAGGED_KINDS:
            self.unacknowledged += 1

    def take_unacknowledged(self) -> int:
        """Clear the count of flags; how many there were (the arbiter has seen them)."""
        count, self.unacknowledged = self.unacknowledged, 0
        return count

    def clear(self) -> None:
        """Forget everything (a new game begins)."""
        self.entries.clear()
        self.unacknowledged = 0
