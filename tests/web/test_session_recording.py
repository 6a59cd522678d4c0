"""Issue 16, cases 2 and 3 in a live play session: a full disk holds moves with "not
recorded" on the board and the page, then records them in order; a damaged journal is
shown to the arbiter, who resumes from the last good record or starts a new game."""

from __future__ import annotations

import errno
import json
import os

import pytest

from draughtsboard.board.ports import LedPattern
from draughtsboard.board.tracker import State
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.play import ArbiterError, PlaySession, choose_opening
from draughtsboard.recording import Recorder
from draughtsboard.recording import journal as journal_module
from draughtsboard.recording.journal import load_journal

from .helpers import TOKEN, wait_until


def view(session) -> dict:
    return json.loads(session.view()[1])


class Disk:
    def __init__(self) -> None:
        self.full = False
        self.real = os.write

    def __call__(self, fd, data):
        if self.full:
            self.real(fd, bytes(data[:3]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.real(fd, data)


def test_a_full_disk_holds_moves_shows_not_recorded_then_records_them(session, monkeypatch):
    disk = Disk()
    monkeypatch.setattr(journal_module.os, "write", disk)
    disk.full = True
    session.hand([("lift", 22), ("place", 18)])  # c3-d4
    v = wait_until(lambda: (v := view(session))["held"] and v, what="a held move")
    assert v["held"] == ["c3-d4"] and v["moves"] == []
    assert any(f.startswith("not recorded: c3-d4") and "No space" in f for f in v["flags"])
    assert any("could not record move" in e["text"] for e in v["log"])
    assert session.leds.frame.patterns[18 - 1] is LedPattern.FAST_BLINK
    assert session.leds.frame.colours[18 - 1] == "red"
    session.hand([("lift", 11), ("place", 16)])  # f6-g5, played while the disk is full
    wait_until(lambda: view(session)["held"] == ["c3-d4", "f6-g5"], what="two held moves")
    with pytest.raises(ArbiterError, match="not recorded yet"):
        session.new_game()
    with pytest.raises(ArbiterError, match="not recorded yet"):  # the game played is ahead
        session.declare_result("1-0", "Black resigned")
    with pytest.raises(ArbiterError, match="not recorded yet"):
        session.accept_draw()
    disk.full = False
    v = wait_until(lambda: (v := view(session))["moves"] == ["c3-d4", "f6-g5"] and v,
                   what="the held moves recorded")
    assert v["held"] == [] and not any(f.startswith("not recorded") for f in v["flags"])
    assert session.leds.frame.patterns[18 - 1] is not LedPattern.FAST_BLINK
    session.hand([("lift", 23), ("place", 19)])  # e3-f4: play goes on
    wait_until(lambda: view(session)["moves"] == ["c3-d4", "f6-g5", "e3-f4"])
    loaded = load_journal(session.recorder.path_of(session.game_id))
    assert not loaded.damaged and not loaded.torn_tail


@pytest.fixture
def damaged_data(tmp_path):
    data = tmp_path / "data"
    with Recorder(data) as recorder:
        game_id = recorder.start_game("russian", {"Event": "Damage"})
        for text in ("c3-d4", "f6-g5", "g3-h4"):
            recorder.record_move(game_id, text, None, None)
        path = recorder.path_of(game_id)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b"f6-g5", b"f6-g4")  # a flipped byte, in the middle
    path.write_bytes(b"".join(lines))
    return data, game_id


def open_session(data):
    recorder = Recorder(data)
    opening = choose_opening(recorder)
    occupied = [n for n in range(1, 33) if opening.expected_position.occupancy() >> (n - 1) & 1]
    board = open_simulated_board("russian", occupied=occupied, real_time=True)
    session = PlaySession("russian", board, board, recorder, hands=board.simulation,
                          token=TOKEN, opening=opening)
    session.start()

    def close():
        session.stop()
        board.close()
        recorder.close()

    return session, close


def test_a_damaged_journal_is_shown_and_resumed_from_the_last_good_record(damaged_data):
    data, game_id = damaged_data
    session, close = open_session(data)
    try:
        v = view(session)
        assert v["game_id"] == game_id and v["damage"]["resumable"] is True
        assert "record 3 fails its check" in v["damage"]["text"]
        assert any(f.startswith("journal damaged") for f in v["flags"])
        assert v["moves"] == ["c3-d4"]
        with pytest.raises(ArbiterError, match="damaged"):
            session.set_tags({"Round": "2"})
        text = session.repair("resume")
        assert "resumed at ply 1" in text
        wait_until(lambda: session.tracker.state is State.READY, what="the board set up")
        session.hand([("lift", 11), ("place", 16)])  # f6-g5 again
        wait_until(lambda: view(session)["moves"] == ["c3-d4", "f6-g5"])
        assert view(session)["damage"] is None
    finally:
        close()
    copies = list((data / "games").glob("*.damaged-*"))
    assert len(copies) == 1


def test_a_damaged_journal_can_be_closed_by_a_new_game(damaged_data):
    data, game_id = damaged_data
    session, close = open_session(data)
    try:
        new_id = session.new_game({"Event": "Fresh"})
        assert new_id != game_id and view(session)["damage"] is None
    finally:
        close()
    with Recorder(data) as recorder:
        assert recorder.find_unfinished()[0] == new_id
        assert [s.status for s in recorder.list_games()] == ["finished", "unfinished"]


def test_a_journal_without_a_good_start_record_can_only_be_replaced(tmp_path):
    data = tmp_path / "data"
    with Recorder(data) as recorder:
        game_id = recorder.start_game("russian")
        recorder.record_move(game_id, "c3-d4", None, None)
        path = recorder.path_of(game_id)
    path.write_bytes(path.read_bytes().replace(b"russian", b"russiaN", 1))
    session, close = open_session(data)
    try:
        v = view(session)
        assert v["damage"]["resumable"] is False and v["damage"]["game_id"] == game_id
        assert v["moves"] == []
        with pytest.raises(ArbiterError, match="cannot be resumed"):
            session.repair("resume")
        new_id = session.new_game()
        assert new_id != game_id and view(session)["damage"] is None
    finally:
        close()
    assert list((data / "games").glob(f"{game_id}.jsonl.damaged-*"))
