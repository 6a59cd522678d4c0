"""Old data still reads: the journals, the hall store and the PDN that the release
before the typed record model wrote (``tests/data/old-records``, made by
`tests.recording.old_records` on that code) read back to the same games, PDN byte for
byte.

One change to the PDN is deliberate and came with the record model's release: Black's
move number is no longer written after a comment (docs/pdn.md, "Move numbers").
``board/pdn-as-released`` is the PDN exactly as the release wrote it; ``board/pdn`` is
what that release's own code writes with only that change (the writer before the record
model, with the move-number change alone), and the board must write it byte for byte.
The two are checked to differ in those move numbers and nothing else."""

from __future__ import annotations

import json
import re
import shutil
import zlib

import pytest

from draughtsboard.hall.store import HallStore
from draughtsboard.recording import Recorder
from draughtsboard.recording.recorder import DamagedGame

from .old_records import FIXTURES, hall_summary, make

BOARD_GAMES = sorted(path.stem for path in (FIXTURES / "board" / "games").glob("*.jsonl"))


def test_the_fixture_set_covers_every_game_it_says():
    assert len(BOARD_GAMES) == 6
    assert sorted(p.stem for p in (FIXTURES / "board" / "pdn").glob("*.pdn")) == BOARD_GAMES


@pytest.fixture(scope="module")
def board_copy(tmp_path_factory):
    """The board's data directory, copied (a recorder takes its lock)."""
    directory = tmp_path_factory.mktemp("old-board")
    shutil.copytree(FIXTURES / "board" / "games", directory / "games")
    return directory


BLACK_NUMBER_AFTER_COMMENT = re.compile(r"(\}) \d+\.\.\. ")


def without_black_numbers_after_comments(pdn: str) -> str:
    """The PDN's text in single spaces, less a Black move number that follows a comment:
    the one difference the move-number change makes (line breaks move with it)."""
    return BLACK_NUMBER_AFTER_COMMENT.sub(r"\1 ", " ".join(pdn.split()))


@pytest.mark.parametrize("game_id", BOARD_GAMES)
def test_an_old_journal_exports_the_same_pdn_byte_for_byte(board_copy, game_id):
    expected = (FIXTURES / "board" / "pdn" / f"{game_id}.pdn").read_bytes()
    with Recorder(board_copy, sync=False) as recorder:
        assert recorder.export_pdn(game_id).encode("utf-8") == expected


@pytest.mark.parametrize("game_id", BOARD_GAMES)
def test_the_pdn_differs_from_the_release_only_in_black_move_numbers(game_id):
    released = (FIXTURES / "board" / "pdn-as-released" / f"{game_id}.pdn").read_text("utf-8")
    now = (FIXTURES / "board" / "pdn" / f"{game_id}.pdn").read_text("utf-8")
    assert without_black_numbers_after_comments(released) == " ".join(now.split())


def test_the_old_board_directory_lists_and_resumes_as_it_did(board_copy):
    with Recorder(board_copy, sync=False) as recorder:
        statuses = [(s.game_id, s.status, s.moves, s.result) for s in recorder.list_games()]
        assert [status for _, status, _, _ in statuses] == [
            "finished", "finished", "unfinished", "finished", "finished", "finished"]
        found = recorder.find_unfinished()
        assert found[0] == BOARD_GAMES[2] and found[1].ply == 5


def test_an_old_hall_store_reads_the_same(tmp_path):
    shutil.copytree(FIXTURES / "hall", tmp_path / "hall")
    store = HallStore(tmp_path / "hall", sync=False)
    assert store.load() == 5
    assert not store.set_aside_games
    expected = json.loads((FIXTURES / "hall.json").read_text(encoding="utf-8"))
    summary = json.loads(json.dumps(hall_summary(store)))
    for games in (expected, summary):  # the PDN as released, less the move-number change
        for game in games.values():
            game["pdn"] = without_black_numbers_after_comments(game["pdn"])
    assert summary == expected
    store.close()


def _records(path) -> list[dict]:
    return [json.loads(line.split(" ", 1)[1])
            for line in path.read_text(encoding="utf-8").splitlines()]


def _worded(record):
    """A hall record with a result's reason as its words: the hall hears a board's
    reason as the wire's words (``result_reason``) and keeps them as words, where the
    codec reads an old store's rule sentence as the rule's reason; both say the same."""
    from dataclasses import replace

    from draughtsboard.board.game.reasons import words
    from draughtsboard.board.rules.draws import Reason
    from draughtsboard.hall.records import HallResult

    if isinstance(record, HallResult) and isinstance(record.result.reason, Reason):
        return replace(record, result=replace(record.result,
                                              reason=words(record.result.reason)))
    return record


def test_the_record_model_writes_the_old_journals_again(tmp_path):
    """The same calls on the recorder now write the records the old code wrote, field for
    field, but for the coach's records, which now say as data whether they switch an aid
    (``switch``), and the results, which say as data which rule's reason they give
    (``rule``, null for a person's words): the journal's format did not change under
    the model, so a journal written now reads in the release before too. Hall journals:
    the same typed records, and every field the old store wrote, as it wrote it (the
    codec adds its own: the start's ``version``, a result's ``by`` and ``rule``, a
    correction's ``text``)."""
    make(tmp_path)
    for path in sorted((FIXTURES / "board" / "games").glob("*.jsonl")):
        new = _records(tmp_path / "board" / "games" / path.name)
        for record in new:
            if record["type"] == "coach":
                assert "switch" in record
                del record["switch"]
            if record["type"] == "result":  # a rule's reason typed, null for words
                assert "rule" in record
                del record["rule"]
        assert new == _records(path), path.name
    from draughtsboard.hall import records as hall_records

    for path in sorted((FIXTURES / "hall").rglob("*.jsonl")):
        relative = path.relative_to(FIXTURES)
        (new_start, *new), (old_start, *old) = _records(tmp_path / relative), _records(path)
        assert hall_records.decode_start(new_start) == hall_records.decode_start(old_start)
        assert list(map(_worded, map(hall_records.decode, new))) == \
            list(map(_worded, map(hall_records.decode, old)))
        assert new_start["version"] == 1  # the hall's journal has the model's versions
        for written, was in zip([new_start, *new], [old_start, *old], strict=True):
            assert {k: v for k, v in written.items() if k in was} == was, relative


def test_a_record_of_a_newer_format_is_one_line_and_nothing_is_lost(tmp_path):
    shutil.copytree(FIXTURES / "board" / "games", tmp_path / "games")
    game_id = BOARD_GAMES[2]  # the unfinished one
    path = tmp_path / "games" / f"{game_id}.jsonl"
    with Recorder(tmp_path, sync=False) as recorder:
        recorder.record_note(game_id, "written by a newer release", 1.0, 2.0)
    lines = path.read_bytes().splitlines(keepends=True)
    record = json.loads(lines[-1].split(b" ", 1)[1])
    record["v"] = 2
    body = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()
    lines[-1] = f"{zlib.crc32(body):08x} ".encode() + body + b"\n"
    path.write_bytes(b"".join(lines))
    before = path.read_bytes()
    with Recorder(tmp_path, sync=False) as recorder:
        found = recorder.find_unfinished()
        assert isinstance(found, DamagedGame) and found.game.ply == 5
        assert "format 2, newer than this release reads (format 1)" in found.problem
        assert "\n" not in found.problem
    assert path.read_bytes() == before  # nothing dropped, nothing rewritten


def test_every_old_record_goes_through_the_typed_records_and_back():
    """Each record of the old journals, board's and hall's, decoded into the typed
    records and encoded again, is the record it was (the journal's ``seq`` aside)."""
    from draughtsboard.board.game import codec
    from draughtsboard.hall import records as hall_records

    for path in sorted((FIXTURES / "board" / "games").glob("*.jsonl")):
        for record in _records(path):
            del record["seq"]
            again = codec.encode(codec.decode(record))
            if record["type"] == "coach":  # now says whether it switches, as data
                assert "switch" in again
                del again["switch"]
            if record["type"] == "result":  # now says whether a rule's reason, as data
                assert codec.decode(again) == codec.decode(record)
                del again["rule"]
            assert again == record, (path.name, record)
    for path in sorted((FIXTURES / "hall").rglob("*.jsonl")):
        first, *rest = _records(path)
        del first["seq"]
        again = hall_records.encode(hall_records.decode_start(first))
        assert {k: v for k, v in again.items() if k in first} == first
        for record in rest:
            del record["seq"]
            again = hall_records.encode(hall_records.decode(record))
            assert hall_records.decode(again) == hall_records.decode(record)
            assert {k: v for k, v in again.items() if k in record} == record, record
