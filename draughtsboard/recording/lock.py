"""One writer per data directory: an exclusive `flock` on ``<data dir>/lock``.

Two `draughtsboard play` processes on one directory (a second start by systemd or by
hand) would both append to the live game's journal. The lock is taken before anything
else is touched and held until the process ends; the kernel drops it when the process
dies, however it dies, so a SIGKILL never leaves a stale lock behind. The lock file
holds the owner's pid, for the one-line message the second process prints.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from .errors import DataDirBusyError

LOCK_NAME = "lock"

class DataDirLock:
    """The exclusive lock of one data directory (`acquire` once, `release` at the end)."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.path = self.directory / LOCK_NAME
        self._fd = -1

    @property
    def held(self) -> bool:
        return self._fd >= 0

    def acquire(self) -> None:
        """Take the lock or raise `DataDirBusyError` (an `OSError` when the directory
        cannot be created or written: a file in its place, a read-only disk)."""
        if self._fd >= 0:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            raise DataDirBusyError(
                f"data directory {self.directory} is in use by another draughtsboard "
                f"process{f' (pid {owner})' if owner.isdigit() else ''}") from None
        except BaseException:
            os.close(fd)
            raise
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # the pid is only for the message; the lock is what counts
        self._fd = fd

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = -1

    def __enter__(self) -> DataDirLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
