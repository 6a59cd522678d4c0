"""What can go wrong in recording, by cause, each with its own root.

* **Storage** (`RecordingError`, an `OSError`: the fitting builtin, so that every
  handler of a failed write handles these too): a journal that is damaged, changed
  under its writer, or not a journal. The board's page answers 503, a command exits with
  the I/O status (74). Whoever asked did nothing wrong; the record could not be kept.
* **Busy** (`DataDirBusyError`, a `BlockingIOError`, which is what ``flock`` says):
  another process writes the data directory. A command exits with 75 (try again later).
* **Bad input** (the core's root, `DraughtsError`, a `ValueError`): a game id that is
  not one, or names no recorded game (`GameIdError`); a change the game refuses (an
  illegal move; a change of a finished game, `GameFinishedError`; a record that does not
  fit, `records.RecordMismatchError`): 400, exit 65.

Storage and busy never derive from the core's bad-input root, so a journal conflict is
never answered as if the caller had sent nonsense.
"""

from __future__ import annotations

from draughtsboard.board.rules.errors import DraughtsError


class RecordingError(OSError):
    """The record could not be kept, or read back as it was (storage)."""


class JournalError(RecordingError):
    """A journal that cannot be used: unreadable, or not a journal."""


class JournalDamagedError(JournalError):
    """A journal with a bad record: read-only until a person chooses what to do."""


class JournalConflictError(JournalError):
    """The file changed under the writer (another process appended): nothing written."""


class DataDirBusyError(BlockingIOError):
    """Another process holds the data directory's lock (busy: try again later)."""


class GameIdError(DraughtsError):
    """A game id that is not one, or that names no recorded game (bad input)."""
