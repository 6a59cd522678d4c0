"""Old data still reads: the journals, the hall store and the PDN that the release
before the typed record model wrote (``tests/data/old-records``, made by
`tests.recording.old_records` on that code) read back to the same games, PDN byte for
byte."""

from __future__ import annotations

import json
import shutil

import pytest

from draughtsboard.hall.store import HallStore
from draughtsboard.recording import Recorder

from .old_records import FIXTURES, hall_summary

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


@pytest.mark.parametrize("game_id", BOARD_GAMES)
def test_an_old_journal_exports_the_same_pdn_byte_for_byte(board_copy, game_id):
    expected = (FIXTURES / "board" / "pdn" / f"{game_id}.pdn").read_bytes()
    with Recorder(board_copy, sync=False) as recorder:
        assert recorder.export_pdn(game_id).encode("utf-8") == expected


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
    assert json.loads(json.dumps(hall_summary(store))) == expected
    store.close()
