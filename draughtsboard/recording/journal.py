"""An append-only, self-checking journal file: one JSON record per line, each with a CRC.

A line is ``<crc32 as 8 hex digits> <json>\\n``; the JSON holds a ``seq`` number that
starts at 0 and goes up by one. `Journal.append` writes the line, flushes it and fsyncs
the file before it returns, so a record that was appended survives a power cut.

Reading never guesses:

* only a last line *without its newline* is a *torn tail*, the record that was being
  written when the power went (the newline is the last byte written): it is dropped, and
  truncated away when the journal is opened to append, so that the next record starts on
  a clean line;
* any complete line that fails its CRC, its JSON or its ``seq`` (a gap, a repeat) is
  *damage*: storage corruption, a hand edit, a CRLF conversion or a second writer. The
  records before it are returned, the rest is reported and left in the file, untouched;
  the journal refuses further appends (`JournalDamagedError`) until a person chooses what
  to do (`repair_journal` keeps a copy of the damaged file before it rewrites anything).

Appends are all-or-nothing and single-writer: before writing, `Journal.append` checks that
the file still has the length and the last line it wrote (another process appending to
the same file is refused, not interleaved); a failed write (disk full, I/O error) is cut
back to the last good record before the error reaches the caller.
"""

from __future__ import annotations

import json
import os
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import JournalConflictError, JournalDamagedError, JournalError


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
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None
    return record if isinstance(record, dict) and type(record.get("seq")) is int else None


@dataclass
class LoadedJournal:
    """What a journal file holds: its good records, and what was wrong with the rest.

    ``damage_record`` is the 1-based line number of the first bad record (0: none);
    ``crlf`` says that the damage is only line ends converted to CRLF, in which case
    ``records`` holds every record (each one passed its CRC once the ``\\r`` was taken
    off) and a repair loses nothing."""

    records: list[dict] = field(default_factory=list)
    good_length: int = 0  # bytes up to the end of the last good record
    torn_tail: bool = False
    damage: str = ""  # non-empty: a bad record (see module docstring)
    damage_record: int = 0
    crlf: bool = False

    @property
    def damaged(self) -> bool:
        return bool(self.damage)


def load_journal(path: Path) -> LoadedJournal:
    """Read a journal file without changing it."""
    data = Path(path).read_bytes()
    out = LoadedJournal()
    offset = 0
    number = 0
    crlf_lines = 0
    while offset < len(data):
        newline = data.find(b"\n", offset)
        number += 1
        if newline < 0:  # no newline: the append the power cut off
            out.torn_tail = True
            return out
        end = newline + 1
        line = data[offset:newline]
        record = decode_line(line)
        if record is None and line.endswith(b"\r"):
            record = decode_line(line[:-1])
            crlf_lines += record is not None
        if record is not None and record["seq"] != len(out.records):
            problem = (f"record {number} has seq {record['seq']}, expected "
                       f"{len(out.records)}")
        elif record is None:
            problem = f"record {number} fails its check"
        else:
            problem = ""
        if problem:
            _report_damage(out, path, data, end, number, problem)
            return out
        assert record is not None  # (no record set a problem above)
        out.records.append(record)
        if not crlf_lines:
            out.good_length = end
        offset = end
    if crlf_lines:
        out.crlf = True
        out.damage_record = 1
        out.damage = (f"{Path(path).name}: line ends were converted to CRLF ({crlf_lines} of "
                      f"{len(out.records)} records); every record is readable")
    return out


def _report_damage(out: LoadedJournal, path: Path, data: bytes, end: int, number: int,
                   problem: str) -> None:
    rest = data[end:]
    later = rest.count(b"\n") + (not rest.endswith(b"\n") and bool(rest))
    out.damage_record = number
    out.damage = f"{Path(path).name}: {problem}; {later} later line(s) left unread"


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
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        if created:
            _sync_directory(self.path.parent, sync)
        elif self.loaded.torn_tail or os.fstat(self._fd).st_size != self.loaded.good_length:
            os.ftruncate(self._fd, self.loaded.good_length)
            if sync:
                os.fsync(self._fd)
        self._next_seq = len(self.loaded.records)
        self._length = self.loaded.good_length
        self._last_line = encode_record(self.loaded.records[-1]) if self.loaded.records else b""
        self._rollback_pending = False

    @property
    def records(self) -> list[dict]:
        return self.loaded.records

    def append(self, record: dict) -> dict:
        """Write a record (``seq`` added), durable when this returns; on any error the
        file is as it was before the call (`JournalConflictError` if another writer has
        changed it, the `OSError` of a failed write after cutting it off)."""
        return self.append_all([record])[0]

    def append_all(self, records: list[dict]) -> list[dict]:
        """Write several records at once, as `append` writes one: one write and one
        fsync for them all (a hall sending a round's pairings to 500 boards pays one disk
        flush, not 500), all durable when this returns or none written."""
        if self._fd < 0:
            raise JournalError(f"{self.path}: journal is closed")
        self._check_unchanged()
        written = [{**record, "seq": self._next_seq + index}
                   for index, record in enumerate(records)]
        lines = [encode_record(record) for record in written]
        data = b"".join(lines)
        if not data:
            return []
        try:
            self._write(data)
        except BaseException:
            self._roll_back()
            raise
        self._next_seq += len(written)
        self._length += len(data)
        self._last_line = lines[-1]
        self.loaded.records.extend(written)
        self.loaded.good_length = self._length
        return written

    def _write(self, data: bytes) -> None:
        step = self.chunk_size or len(data)
        for start in range(0, len(data), step):
            view = memoryview(data)[start:start + step]
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
        if self.sync:
            os.fsync(self._fd)

    def _check_unchanged(self) -> None:
        """The file must end where our last record ended, with that record."""
        size = os.fstat(self._fd).st_size
        if size != self._length and self._rollback_pending:
            self._roll_back()  # a cut-off that failed last time: try again first
            size = os.fstat(self._fd).st_size
        last = self._last_line
        if size == self._length and (
                not last or os.pread(self._fd, len(last), self._length - len(last)) == last):
            return
        raise JournalConflictError(
            f"{self.path.name}: the file changed under this writer (expected "
            f"{self._length} bytes ending with record {self._next_seq - 1}, found {size} "
            "bytes): another process is writing it; nothing appended")

    def _roll_back(self) -> None:
        """Cut the file back to the last good record (a write that failed half-way)."""
        try:
            os.ftruncate(self._fd, self._length)
            if self.sync:
                os.fsync(self._fd)
        except OSError:
            self._rollback_pending = True
        else:
            self._rollback_pending = False

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def repair_journal(path: Path, keep: int, *, sync: bool = True) -> Path:
    """Keep the first ``keep`` good records of a damaged journal and drop the rest, after
    copying the damaged file beside it (``<name>.damaged-<n>``, never overwritten); the
    copy's path. The good records are rewritten to a new file that replaces the old one
    in one rename, so a crash leaves either the damaged file or the repaired one."""
    path = Path(path)
    loaded = load_journal(path)
    if keep > len(loaded.records):
        raise JournalError(f"{path.name}: only {len(loaded.records)} good record(s)")
    copy = _free_name(path, "damaged")
    data = path.read_bytes()
    _write_file(copy, data, sync)
    temporary = path.with_name(path.name + ".repairing")
    _write_file(temporary, b"".join(encode_record(r) for r in loaded.records[:keep]), sync)
    os.replace(temporary, path)
    _sync_directory(path.parent, sync)
    return copy


def set_aside(path: Path, *, sync: bool = True) -> Path:
    """Rename a journal that holds nothing usable (no good start record) out of the way,
    as ``<name>.damaged-<n>``; its new path."""
    target = _free_name(Path(path), "damaged")
    os.rename(path, target)
    _sync_directory(target.parent, sync)
    return target


def _free_name(path: Path, word: str) -> Path:
    for number in range(1, 10_000):
        candidate = path.with_name(f"{path.name}.{word}-{number}")
        if not candidate.exists():
            return candidate
    return path.with_name(f"{path.name}.{word}-{time.time_ns()}")


def _write_file(path: Path, data: bytes, sync: bool) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


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
