"""Recording: the durable journal of every game, and the `Recorder` that owns it.

`draughtsboard.board.game` is the game as a pure value and the record model (typed
records, their codec, their one apply); this package is its durable journal on disk
(`journal`: checksummed, fsynced records), a journal's records read back into a game
(`records`: the model's codec and apply, live and when a game is rebuilt), the `Recorder`
that alone writes and reads those records (`recorder`), and what each tracker event
becomes there (`tracker_events`). Its errors are split by cause (`errors`): storage,
busy, bad input. It does file I/O, so it lives outside the
pure core.
"""

from draughtsboard.board.game.record import GameFinishedError

from .errors import (
    DataDirBusyError,
    GameIdError,
    JournalConflictError,
    JournalDamagedError,
    JournalError,
    RecordingError,
)
from .journal import Journal, LoadedJournal
from .lock import DataDirLock
from .recorder import DamagedGame, GameSummary, Recorder, default_data_dir
from .records import RecordMismatchError, apply_record, rebuild_game

__all__ = ["DamagedGame", "DataDirBusyError", "DataDirLock", "GameFinishedError", "GameIdError",
           "GameSummary", "Journal", "JournalConflictError", "JournalDamagedError", "JournalError",
           "LoadedJournal", "RecordMismatchError", "Recorder", "RecordingError", "apply_record",
           "default_data_dir", "rebuild_game"]
