"""Errors by cause, up to the edge: bad input (400, exit 65), storage (503, exit 74),
busy (409, exit 75), each its own root; a journal conflict is never answered as if the
caller had sent nonsense."""

from __future__ import annotations

import pytest

from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.cli import EXIT_BUSY, EXIT_DATA, EXIT_IO, failure
from draughtsboard.http_limits import failure_status
from draughtsboard.recording import (
    DataDirBusyError,
    GameFinishedError,
    GameIdError,
    JournalConflictError,
    JournalDamagedError,
    RecordingError,
    RecordMismatchError,
)

STORAGE = [JournalConflictError("the file changed"), JournalDamagedError("record 3 fails"),
           RecordingError("cannot keep it"), OSError(28, "No space left on device")]
BAD_INPUT = [GameIdError("not a game id: 'x'"), GameFinishedError("the game is over"),
             RecordMismatchError("no move to take back"), DraughtsError("bad FEN")]


@pytest.mark.parametrize("error", STORAGE, ids=lambda e: type(e).__name__)
def test_storage_is_503_and_the_io_exit_status(error):
    assert not isinstance(error, (DraughtsError, ValueError))
    assert failure_status(error) == 503
    assert failure(error).status == EXIT_IO


@pytest.mark.parametrize("error", BAD_INPUT, ids=lambda e: type(e).__name__)
def test_bad_input_is_400_and_the_data_exit_status(error):
    assert not isinstance(error, OSError)
    assert failure_status(error) == 400
    assert failure(error).status == EXIT_DATA


def test_busy_is_409_and_the_busy_exit_status():
    error = DataDirBusyError("data directory x is in use by another draughtsboard process")
    assert not isinstance(error, (DraughtsError, RecordingError))
    assert failure_status(error) == 409
    assert failure(error).status == EXIT_BUSY
    assert failure(error).line("play") == f"draughtsboard play: {error}"


def test_a_bug_is_no_cause_of_the_caller():
    assert failure_status(KeyError("x")) is None

