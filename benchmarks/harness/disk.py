"""A disk that fills up, for the benchmarks and tests that record through one."""

from __future__ import annotations

import errno
import os


class FullDisk:
    """``os.write`` for the journal (monkeypatch ``recording.journal.os.write`` with it)
    that fails with ENOSPC while ``full``, after writing the first ``kept`` bytes of the
    record: what a disk that fills up mid-record leaves."""

    def __init__(self, kept: int) -> None:
        self.full = False
        self.kept = kept
        self.real = os.write

    def __call__(self, fd, data):
        if self.full:
            self.real(fd, bytes(data[:self.kept]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.real(fd, data)
