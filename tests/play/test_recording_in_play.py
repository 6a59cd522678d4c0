"""Issue 16, cases 2 and 3 in a game in play (virtual time): a full disk holds moves with
"not recorded" on the board and the page, then records them in order; a damaged journal
is shown to the arbiter, who resumes from the last good record or starts a new game."""

from __future__ import annotations

import pytest

from benchmarks.harness.disk import FullDisk
from draughtsboard.board.ports import LedPattern
from draughtsboard.play import ArbiterError
from draughtsboard.recording import Recorder
from draughtsboard.recording import journal as journal_module
from draughtsboard.recording.journal import load_journal

from ..recording.journals import change_record, recorded_journal
from ..rendered import in_english


def test_a_full_disk_holds_moves_shows_not_recorded_then_records_them(play, monkeypatch):
    disk = FullDisk(kept=3)
    monkeypatch.setattr(journal_module.os, "write", disk)
    disk.full = True
    v = play.move(22, 18)  # c3-d4
    assert v["held"] == ["c3-d4"] and v["moves"] == []
    assert any(f.startswith("not recorded: c3-d4") and "No space" in f for f in v["flags"])
    assert any("could not record move" in in_english(e["text"]) for e in v["log"])
    frame = play.game.leds.frame
    assert frame.patterns[18 - 1] is LedPattern.FAST_BLINK and frame.colours[18 - 1] == "red"
    assert play.leds.frames[-1] == frame  # what the board's LEDs were told
    assert play.move(11, 16)["held"] == ["c3-d4", "f6-g5"]  # played while the disk is full
    with pytest.raises(ArbiterError, match="not recorded yet"):
        play.arbiter.new_game()
    with pytest.raises(ArbiterError, match="not recorded yet"):  # the game played is ahead
        play.arbiter.declare_result("1-0", "Black resigned")
    with pytest.raises(ArbiterError, match="not recorded yet"):
        play.arbiter.accept_draw()
    disk.full = False
    assert play.wait(0.2)["held"] == ["c3-d4", "f6-g5"]  # the next try is not due yet
    v = play.wait(5)
    assert v["moves"] == ["c3-d4", "f6-g5"]
    assert v["held"] == [] and not any(f.startswith("not recorded") for f in v["flags"])
    assert play.game.leds.frame.patterns[18 - 1] is not LedPattern.FAST_BLINK
    assert play.move(23, 19)["moves"] == ["c3-d4", "f6-g5", "e3-f4"]  # play goes on
    loaded = load_journal(play.recorder.path_of(play.game.game_id))
    assert not loaded.damaged and not loaded.torn_tail


@pytest.fixture
def damaged_data(tmp_path):
    data = tmp_path / "damaged"
    game_id, path = recorded_journal(data, ("c3-d4", "f6-g5", "g3-h4"), {"Event": "Damage"})
    change_record(path, 2, b"f6-g5", b"f6-g4")  # a flipped byte, in the middle
    return data, game_id


def test_a_damaged_journal_is_shown_and_resumed_from_the_last_good_record(damaged_data,
                                                                         start_play):
    data, game_id = damaged_data
    play = start_play(data=data)
    v = play.view()
    assert v["game_id"] == game_id and v["damage"]["resumable"] is True
    assert "record 3 fails its check" in in_english(v["damage"]["text"])
    assert any(f.startswith("journal damaged") for f in v["flags"])
    assert v["moves"] == ["c3-d4"]
    with pytest.raises(ArbiterError, match="damaged"):
        play.arbiter.set_tags({"Round": "2"})
    text = play.arbiter.repair("resume")
    assert "resumed at ply 1" in text
    assert play.view()["state"] == "ready"  # the board shows the position after c3-d4
    v = play.move(11, 16)  # f6-g5 again
    assert v["moves"] == ["c3-d4", "f6-g5"] and v["damage"] is None
    assert len(list((data / "games").glob("*.damaged-*"))) == 1


def test_a_damaged_journal_can_be_closed_by_a_new_game(damaged_data, start_play):
    data, game_id = damaged_data
    play = start_play(data=data)
    new_id = play.arbiter.new_game({"Event": "Fresh"})
    assert new_id != game_id and play.view()["damage"] is None
    play.close()
    with Recorder(data) as recorder:
        assert recorder.find_unfinished()[0] == new_id
        assert [s.status for s in recorder.list_games()] == ["finished", "unfinished"]


def test_a_journal_without_a_good_start_record_can_only_be_replaced(tmp_path, start_play):
    data = tmp_path / "damaged"
    game_id, path = recorded_journal(data, ["c3-d4"])
    path.write_bytes(path.read_bytes().replace(b"russian", b"russiaN", 1))
    play = start_play(data=data)
    v = play.view()
    assert v["damage"]["resumable"] is False and v["damage"]["game_id"] == game_id
    assert v["moves"] == []
    with pytest.raises(ArbiterError, match="cannot be resumed"):
        play.arbiter.repair("resume")
    new_id = play.arbiter.new_game()
    assert new_id != game_id and play.view()["damage"] is None
    assert list((data / "games").glob(f"{game_id}.jsonl.damaged-*"))
