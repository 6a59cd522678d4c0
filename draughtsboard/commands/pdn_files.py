"""Reading a PDN file named on the command line, bounded: a device that never ends
(``/dev/zero``), a binary file or a file larger than any PDN collection is refused in one
line after reading a little of it, never read whole into memory first."""

from __future__ import annotations

from pathlib import Path

from draughtsboard.board.game.pdn_reader import decode_pdn
from draughtsboard.board.rules.errors import DraughtsError

MAX_PDN_FILE = 128 * 1024 * 1024  # bytes: a collection of some 200,000 games
CHUNK = 1024 * 1024


class PdnFileError(DraughtsError):
    """A file that is not a PDN file one can read (too large, binary)."""


def read_pdn_file(path: str | Path, limit: int = MAX_PDN_FILE) -> str:
    """The text of a PDN file; `OSError` if it cannot be read, `PdnFileError` (the
    reason, without the path) if it is larger than ``limit`` bytes or holds NUL bytes."""
    chunks: list[bytes] = []
    size = 0
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(CHUNK)
            if not chunk:
                break
            if b"\x00" in chunk:
                raise PdnFileError("binary data (NUL bytes), not a PDN file")
            size += len(chunk)
            if size > limit:
                raise PdnFileError(f"larger than {limit // (1024 * 1024)} MB; split it into "
                                   "smaller files")
            chunks.append(chunk)
    return decode_pdn(b"".join(chunks))
