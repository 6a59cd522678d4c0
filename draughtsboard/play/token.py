"""The arbiter's token, kept in the data directory so that it survives a restart.

A page that was given the token keeps working after the board restarts (a power cut, an
update), and the token can be printed again or replaced (``draughtsboard token
[--rotate]``) without stopping the board: the session reads the file again when it
changes. The file is ``<data dir>/arbiter-token``, readable by its owner only.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

TOKEN_FILE = "arbiter-token"
MIN_LENGTH = 12


class TokenFileError(OSError):
    """The token file cannot be read or written, or holds no usable token."""


class ArbiterToken:
    """The token file of a data directory (see the module doc)."""

    def __init__(self, directory: Path | str) -> None:
        self.path = Path(directory) / TOKEN_FILE
        self._seen: tuple[int, int, int] | None = None  # (inode, mtime_ns, size) read
        self._value = ""

    def current(self) -> str:
        """The token, created on first use; read again whenever the file changed."""
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            return self.rotate()
        key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        if key != self._seen:
            value = self.path.read_text(encoding="utf-8").strip()
            if len(value) < MIN_LENGTH or not value.isprintable() or " " in value:
                raise TokenFileError(f"{self.path}: not a usable token (at least "
                                     f"{MIN_LENGTH} characters, no spaces); "
                                     "`draughtsboard token --rotate` writes a new one")
            self._value, self._seen = value, key
        return self._value

    def rotate(self) -> str:
        """Write a new token (the old one stops working at once); the new one."""
        value = secrets.token_urlsafe(12)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".new")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(value + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.path)
        self._seen = None
        return self.current()
