"""A board you can hear: the board says its game aloud through Debian's ``espeak-ng``
(docs/accessibility.md).

`spoken` says what to say, as messages (pure); `sink.Speaker` says it, on one worker
thread, never holding up play; `announcer.Announcer` follows a board in play and tells
the speaker what is new, at a verbosity level. Only the ``cli`` package joins them to a session.
"""

from .announcer import Announcer
from .sink import Speaker
from .spoken import LEVELS

__all__ = ["LEVELS", "Announcer", "Speaker"]
