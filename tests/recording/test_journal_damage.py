"""Issue 16, cases 1-3 at the journal level: one writer, all-or-nothing appends, damage
shown and never hidden (first the situation that used to go wrong, then the fix)."""

import errno
import os

import pytest

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant first)
from draughtsboard.recording import (
    DamagedGame,
    DataDirBusyError,
    Journal,
    JournalConflictError,
    JournalDamagedError,
    Recorder,
)
from draughtsboard.recording import journal as journal_module
from draughtsboard.recording.journal import encode_record, load_journal

from ..rendered import in_english

MOVES = ("c3-d4", "f6-g5", "g3-h4", "g7-f6")


def recorded_game(directory, moves=MOVES, **options):
    recorder = Recorder(directory, **options)
    game_id = recorder.start_game("russian", {"White": "A", "Black": "B"}, t_wall=1.7e9)
    for ply, move in enumerate(moves):
        recorder.record_move(game_id, move, float(ply), 1.7e9 + ply)
    return recorder, game_id


# -- 1. two writers ---------------------------------------------------------------------

def test_a_second_recorder_on_the_same_directory_is_refused_before_it_writes(tmp_path):
    first, game_id = recorded_game(tmp_path)
    before = first.path_of(game_id).read_bytes()
    second = Recorder(tmp_path)
    with pytest.raises(DataDirBusyError, match="in use by another draughtsboard process"):
        second.unfinished_game()  # opening the game to resume it would append
    with pytest.raises(DataDirBusyError):
        second.start_game("russian")
    assert first.path_of(game_id).read_bytes() == before
    assert len(first.game_ids()) == 1
    first.record_move(game_id, "b2-c3", 9.0, None)  # the first writer goes on
    first.close()
    assert Recorder(tmp_path).unfinished_game()[1].ply == 5  # released at close


def test_an_append_after_another_writer_appended_is_refused_not_interleaved(tmp_path):
    # Without the lock (a foreign tool, an old version): the check before each append.
    first, game_id = recorded_game(tmp_path, lock=False)
    second = Recorder(tmp_path, lock=False)
    second.record_resume(game_id)  # the second process's `resume` record
    with pytest.raises(JournalConflictError, match="another process is writing it"):
        first.record_move(game_id, "b2-c3", 9.0, None)
    loaded = load_journal(first.path_of(game_id))
    assert not loaded.damaged and [r["seq"] for r in loaded.records] == list(range(6))
    assert [r["type"] for r in loaded.records][-1] == "resume"


def test_a_rewritten_last_record_of_the_same_length_is_caught_too(tmp_path):
    path = tmp_path / "g.jsonl"
    journal = Journal(path)
    journal.append({"type": "a"})
    with open(path, "r+b") as file:  # same length, another record
        file.write(encode_record({"type": "b", "seq": 0}))
    with pytest.raises(JournalConflictError):
        journal.append({"type": "c"})


# -- 2. a failed write -------------------------------------------------------------------

class FullDisk:
    """os.write that writes ``room`` bytes in all, then fails with ENOSPC."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.real = os.write

    def __call__(self, fd, data):
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        written = self.real(fd, bytes(data[:self.room]))
        self.room -= written
        return written


@pytest.mark.parametrize("room", [0, 7, 40])
def test_a_failed_append_is_rolled_back_and_writing_resumes_when_space_returns(
        tmp_path, monkeypatch, room):
    recorder, game_id = recorded_game(tmp_path, moves=MOVES[:2])
    path = recorder.path_of(game_id)
    before = path.read_bytes()
    monkeypatch.setattr(journal_module.os, "write", FullDisk(room))
    with pytest.raises(OSError, match="No space"):
        recorder.record_move(game_id, "g3-h4", 5.0, None)
    assert path.read_bytes() == before  # no partial record left
    assert recorder.game(game_id).ply == 2  # not on disk: not in the game either
    monkeypatch.undo()
    recorder.record_move(game_id, "g3-h4", 6.0, None)
    recorder.record_move(game_id, "g7-f6", 7.0, None)
    recorder.close()
    loaded = load_journal(path)
    assert not loaded.damaged and not loaded.torn_tail
    assert [m.text for m in Recorder(tmp_path).game(game_id).moves] == list(MOVES)


def test_a_start_record_that_cannot_be_written_leaves_no_empty_game(tmp_path, monkeypatch):
    recorder = Recorder(tmp_path)
    monkeypatch.setattr(journal_module.os, "write", FullDisk(0))
    with pytest.raises(OSError):
        recorder.start_game("russian")
    monkeypatch.undo()
    assert recorder.game_ids() == []


# -- 3. damage is shown ------------------------------------------------------------------

def _lines(path):
    return path.read_bytes().splitlines(keepends=True)


def flip_byte(path):
    lines = _lines(path)
    middle = bytearray(lines[2])
    middle[20] ^= 0x01
    lines[2] = bytes(middle)
    path.write_bytes(b"".join(lines))


def swap_lines(path):
    lines = _lines(path)
    lines[2], lines[3] = lines[3], lines[2]
    path.write_bytes(b"".join(lines))


def duplicate_line(path):
    lines = _lines(path)
    path.write_bytes(b"".join(lines[:3] + [lines[2]] + lines[3:]))


def damage_start(path):
    lines = _lines(path)
    lines[0] = lines[0].replace(b"russian", b"russiaN")
    path.write_bytes(b"".join(lines))


def to_crlf(path):
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))


def damage_last_line(path):
    lines = _lines(path)
    lines[-1] = lines[-1].replace(b"g7-f6", b"g7-f5")
    path.write_bytes(b"".join(lines))


def damaged_game(directory, damage):
    """A `recorded_game`, closed, its journal then damaged by ``damage``: the journal's
    path, the game's id and the damaged bytes."""
    recorder, game_id = recorded_game(directory)
    recorder.close()
    path = recorder.path_of(game_id)
    damage(path)
    return path, game_id, path.read_bytes()


DAMAGE = {flip_byte: 2, swap_lines: 2, duplicate_line: 3, damage_start: 0, to_crlf: 5,
          damage_last_line: 4}


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__)
def test_a_damaged_unfinished_game_is_reported_not_replaced(tmp_path, damage):
    path, game_id, damaged = damaged_game(tmp_path, damage)
    again = Recorder(tmp_path)
    found = again.find_unfinished()
    assert isinstance(found, DamagedGame) and found.game_id == game_id
    assert found.good == DAMAGE[damage]
    assert game_id in in_english(found.describe()) and "damaged" in in_english(found.describe())
    assert again.unfinished_game() is None  # the old answer, for callers that cannot show it
    assert path.read_bytes() == damaged  # nothing repaired behind anyone's back
    with pytest.raises(JournalDamagedError):
        again.record_move(game_id, "b2-c3", 9.0, None)
    assert [s.status for s in again.list_games()] == ["damaged"]


def test_a_complete_last_line_that_fails_its_check_is_damage_not_a_torn_tail(tmp_path):
    recorder, game_id = recorded_game(tmp_path)
    recorder.close()
    damage_last_line(recorder.path_of(game_id))
    loaded = load_journal(recorder.path_of(game_id))
    assert loaded.damaged and not loaded.torn_tail and loaded.damage_record == 5


@pytest.mark.parametrize("damage", [flip_byte, to_crlf, damage_last_line],
                         ids=lambda f: f.__name__)
def test_the_arbiter_resumes_from_the_last_good_record_and_a_copy_is_kept(tmp_path, damage):
    path, game_id, damaged = damaged_game(tmp_path, damage)
    again = Recorder(tmp_path)
    good = again.find_unfinished().good
    text, copy = again.repair(game_id, "resume")
    assert copy.read_bytes() == damaged and copy.name.startswith(path.name + ".damaged-")
    assert "resumed at ply" in text
    game = again.game(game_id)
    assert game.ply == good - 1 and game.events[-1].kind == "note"
    again.close()
    resumed = Recorder(tmp_path).unfinished_game()
    assert resumed[0] == game_id and resumed[1].ply == good - 1
    assert not load_journal(path).damaged


def test_abandoning_a_damaged_game_closes_it_and_keeps_the_copy(tmp_path):
    _, game_id, _ = damaged_game(tmp_path, flip_byte)
    again = Recorder(tmp_path)
    again.repair(game_id, "abandon")
    assert again.find_unfinished() is None
    assert again.game(game_id).result is None and again.game(game_id).result_reason


def test_a_game_without_a_good_start_record_can_only_be_set_aside(tmp_path):
    path, game_id, _ = damaged_game(tmp_path, damage_start)
    again = Recorder(tmp_path)
    with pytest.raises(Exception, match="cannot be resumed"):
        again.repair(game_id, "resume")
    text, copy = again.repair(game_id, "abandon")
    assert copy.exists() and not path.exists()
    assert again.find_unfinished() is None
