"""An append-only, self-checking journal file: one JSON record per line, each with a CRC.

A line is ``<crc32 as 8 hex digits> <json>\\n``; the JSON holds a ``seq`` number that
starts at 0 and goes up by one. `Journal.append` writes the line, flushes it and fsyncs
the file before it returns, so a record that was appended survives a power cut.

Reading never guesses:

* a last line that is incomplete (no newline) or fails its CRC is a *torn tail*, the
  record that was being written when the power went: it is dropped, and truncated away
  when the journal is opened to append, so that the next record starts on a clean line;
* a bad line, or a gap or repeat in ``seq``, *followed by good lines* cannot come from a
  torn write (appends are sequential and synced): the journal is *damaged*. The records
  before the damage are returned, the rest is reported and left in the file, untouched,
  for a human; the journal refuses further appends (`JournalDamagedError`).
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from draughtsboard.board.rules.errors import DraughtsError


class JournalError(DraughtsError):
    """A journal that cannot be used: unreadable, or not a journal."""


class JournalDamagedError(JournalError):
    """A journal with a bad record before good ones: read-only until a human looks."""


def encode_record(record: dict) -> bytes:
    """A record as one journal line: its CRC-32 (8 hex digits), a space, the JSON, a newline."""
    body = json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    data = body.encode("utf-8")
    return b"%08x " % zlib.crc32(data) + data + b"\n"


def decode_line(line: bytes) -> dict | None:
    """The record of a complete line (newline stripped), or ``None`` if it fails its
    check."""
    if len(line) < 10 or line[8:9] != b" ":
        return None
    try:
        crc = int(line[:8], 16)
    except ValueError:
        return None
    data = line[9:]
    if zlib.crc32(data) != crc:
        return None
    try:
        record = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return record if isinstance(record, dict) and isinstance(record.get("seq"), int) else None


@dataclass
class LoadedJournal:
    """What a journal file holds: its good records, and what was wrong with the rest."""

    records: list[dict] = field(default_factory=list)
    good_length: int = 0  # bytes up to the end of the last good record
    torn_tail: bool = False
    damage: str = ""  # non-empty: a bad record before good ones (see module docstring)

    @property
    def damaged(self) -> bool:
        return bool(self.damage)


def load_journal(path: Path) -> LoadedJournal:
    """Read a journal file without changing it."""
    data = Path(path).read_bytes()
    out = LoadedJournal()
    offset = 0
    number = 0
    while offset < len(data):
        newline = data.find(b"\n", offset)
        number += 1
        complete = newline >= 0
        end = newline + 1 if complete else len(data)
        record = decode_line(data[offset:newline]) if complete else None
        if record is not None and record["seq"] != len(out.records):
            problem = (f"record {number} has seq {record['seq']}, expected "
                       f"{len(out.records)}")
        elif record is None:
            problem = f"record {number} fails its check"
        else:
            problem = ""
        if problem:
            rest = data[end:]
            if not rest.strip(b" \t\r\n\0"):
                out.torn_tail = True  # power lost mid-write; file systems may pad with NULs
            else:
                later = rest.count(b"\n") + (not rest.endswith(b"\n"))
                out.damage = f"{path}: {problem}; {later} later line(s) left unread"
            return out
        out.records.append(record)
        out.good_length = end
        offset = end
    return out


class Journal:
    """One journal file, opened for appending (and created if need be).

    ``chunk_size`` splits each write into pieces: only the crash benchmark uses it, to
    make torn records likely where the operating system would otherwise write a short
    line in one go.
    """

    def __init__(self, path: Path | str, *, sync: bool = True,
                 chunk_size: int | None = None) -> None:
        self.path = Path(path)
        self.sync = sync
        self.chunk_size = chunk_size
        created = not self.path.exists()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.loaded = load_journal(self.path) if not created else LoadedJournal()
        if self.loaded.damaged:
            raise JournalDamagedError(self.loaded.damage)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        if created:
            _sync_directory(self.path.parent, sync)
        elif self.loaded.torn_tail or os.fstat(self._fd).st_size != self.loaded.good_length:
            os.ftruncate(self._fd, self.loaded.good_length)
            if sync:
                os.fsync(self._fd)
        self._next_seq = len(self.loaded.records)

    @property
    def records(self) -> list[dict]:
        return self.loaded.records

    def append(self, record: dict) -> dict:
        """Write a record (``seq`` added), durable when this returns."""
        if self._fd < 0:
            raise JournalError(f"{self.path}: journal is closed")
        record = {**record, "seq": self._next_seq}
        data = encode_record(record)
        step = self.chunk_size or len(data)
        for start in range(0, len(data), step):
            view = memoryview(data)[start:start + step]
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
        if self.sync:
            os.fsync(self._fd)
        self._next_seq += 1
        self.loaded.records.append(record)
        return record

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _sync_directory(directory: Path, sync: bool) -> None:
    """Make a new file's directory entry durable too (a file fsynced in a directory
    that was not can vanish after a power cut)."""
    if not sync:
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
