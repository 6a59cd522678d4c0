"""Recording: the durable journal of every game, and the `Recorder` that owns it.

`draughtsboard.board.game` is the game as a pure value; this package is its durable
journal on disk (`journal`: checksummed, fsynced records), the `Recorder` that alone
writes and reads those records and rebuilds games from them (`recorder`), and what each
tracker event becomes there (`tracker_events`). It does file I/O, so it lives outside the
pure core.
"""

from .journal import (
    Journal,
    JournalConflictError,
    JournalDamagedError,
    JournalError,
    LoadedJournal,
)
from .lock import DataDirBusyError, DataDirLock
from .recorder import (
    DamagedGame,
    GameFinishedError,
    GameSummary,
    Recorder,
    default_data_dir,
    rebuild_game,
)

__all__ = ["DamagedGame", "DataDirBusyError", "DataDirLock", "GameFinishedError", "GameSummary",
           "Journal", "JournalConflictError", "JournalDamagedError", "JournalError",
           "LoadedJournal", "Recorder", "default_data_dir", "rebuild_game"]
