"""One program at a time on the board's pins.

``play`` (the service) and ``diag`` open the same pins; started while the other runs, the
second would fail half-way through with a busy pin, or worse, on a factory that does not
check, both would drive the rows. Whoever opens the real board first holds an exclusive
lock on a file in ``/run/lock`` (the kernel drops it when the process ends, however it
ends); the second is refused in one line that names the holder.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from pathlib import Path

LOCK_NAME = "draughtsboard-gpio.lock"
ENV_LOCK = "DRAUGHTSBOARD_GPIO_LOCK"  # another lock file (tests; two boards on one machine)


class BoardBusyError(RuntimeError):
    """Another process has the board's pins."""


def default_lock_path() -> Path:
    if os.environ.get(ENV_LOCK):
        return Path(os.environ[ENV_LOCK])
    run_lock = Path("/run/lock")
    base = run_lock if run_lock.is_dir() and os.access(run_lock, os.W_OK) else Path(
        tempfile.gettempdir())
    return base / LOCK_NAME


class BoardLock:
    """An exclusive, non-blocking ``flock`` on ``path`` with the holder's pid inside."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_lock_path()
        self._fd: int | None = None

    def acquire(self) -> BoardLock:
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd)
            os.close(fd)
            who = f"process {holder}" if holder else "another process"
            raise BoardBusyError(
                f"the board's pins are in use by {who} (the draughtsboard service? "
                "sudo systemctl stop draughtsboard)") from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {_command()}\n".encode(), 0)
        except OSError:  # read-only lock file: the lock still holds, only the name is lost
            pass
        self._fd = fd
        return self

    def _open(self) -> int:
        # An existing file is opened without O_CREAT: in a sticky directory such as
        # /run/lock, fs.protected_regular refuses O_CREAT on another user's file even to
        # root, and the service runs as its own user.
        try:
            return os.open(self.path, os.O_RDWR)
        except PermissionError:
            return os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                os.fchmod(fd, 0o666)  # the service user and root both take it later
            except OSError:
                pass
            return fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the lock
            self._fd = None

    def __enter__(self) -> BoardLock:
        return self.acquire()

    def __exit__(self, *exc_info) -> None:
        self.release()


def _read(fd: int) -> str:
    try:
        return os.pread(fd, 200, 0).decode(errors="replace").strip()
    except OSError:
        return ""


def _command() -> str:
    try:
        return Path("/proc/self/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace").strip()[:120]
    except OSError:
        return ""
