"""Journals written for a test to damage: a Russian game recorded and closed, then a
byte of one of its records changed, as a disk or a hand may change it."""

from __future__ import annotations

from pathlib import Path

from draughtsboard.recording import Recorder


def recorded_journal(data: Path, moves, tags: dict | None = None) -> tuple[str, Path]:
    """A Russian game of ``moves`` recorded in the data directory ``data`` (no times),
    the recorder closed: the game's id and its journal's path."""
    with Recorder(data) as recorder:
        game_id = recorder.start_game("russian", tags)
        for text in moves:
            recorder.record_move(game_id, text, None, None)
    return game_id, recorder.path_of(game_id)


def change_record(path: Path, index: int, old: bytes, new: bytes) -> None:
    """Replace ``old`` with ``new`` in the journal's record (line) ``index``, from 0."""
    lines = path.read_bytes().splitlines(keepends=True)
    lines[index] = lines[index].replace(old, new)
    path.write_bytes(b"".join(lines))
