"""Recording: the crash-safe journal of every game and the `Recorder` the controller calls.

This package does file I/O, so it lives outside the pure `draughtsboard.board`; it turns
journal records into `board.game.Game` values and back.
"""

from .journal import Journal, JournalDamagedError, JournalError, LoadedJournal
from .recorder import GameSummary, Recorder, default_data_dir

__all__ = ["GameSummary", "Journal", "JournalDamagedError", "JournalError", "LoadedJournal",
           "Recorder", "default_data_dir"]
