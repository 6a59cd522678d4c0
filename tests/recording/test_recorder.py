"""The recorder owns the journal: every record kind comes back when a game is rebuilt,
the games it hands out are read-only, and a finished game is not read from disk again."""

from __future__ import annotations

import pytest

import draughtsboard.recording.recorder as recorder_module
from draughtsboard.board.game.record import ReadOnlyGameError
from draughtsboard.board.game.tags import InvalidTagError
from draughtsboard.recording import GameFinishedError, Recorder


def test_tags_set_during_a_game_survive_the_result_a_restart_and_the_export(tmp_path):
    with Recorder(tmp_path) as recorder:
        game_id = recorder.start_game("russian", {"White": "Ann"})
        recorder.record_move(game_id, "c3-d4", 1.0, 100.0)
        recorder.record_tags(game_id, {"Event": "Club final", "Round": "3"})
        recorder.record_result(game_id, "1-0", "declared by the arbiter")
        assert recorder.game(game_id).tags["Event"] == "Club final"
        assert '[Event "Club final"]' in recorder.export_pdn(game_id)
    with Recorder(tmp_path) as reopened:
        game = reopened.game(game_id)
        assert (game.tags["Event"], game.tags["Round"], game.tags["White"]) == (
            "Club final", "3", "Ann")
        assert '[Event "Club final"]' in reopened.export_pdn(game_id)
        assert [e.kind for e in game.events] == ["note"]


def test_tags_of_an_unfinished_game_come_back_when_it_is_resumed(tmp_path):
    with Recorder(tmp_path) as recorder:
        game_id = recorder.start_game("russian")
        recorder.record_tags(game_id, {"Black": "Bea"})
    with Recorder(tmp_path) as reopened:
        resumed_id, game = reopened.unfinished_game()
        assert resumed_id == game_id and game.tags["Black"] == "Bea"


def test_bad_tags_and_tags_of_a_finished_game_are_refused_before_anything_is_written(
        tmp_path):
    with Recorder(tmp_path) as recorder:
        game_id = recorder.start_game("russian")
        for bad in ({"Result": "1-0"}, {"not a name": "x"}, {"Event": "two\nlines"}):
            with pytest.raises(InvalidTagError):
                recorder.record_tags(game_id, bad)
        recorder.record_result(game_id, "1-0")
        with pytest.raises(GameFinishedError):
            recorder.record_tags(game_id, {"Event": "late"})
        lines = recorder.path_of(game_id).read_text().splitlines()
        assert [line.split('"type":"')[1].split('"')[0] for line in lines] == ["start", "result"]


def test_the_games_the_recorder_hands_out_are_read_only(tmp_path):
    with Recorder(tmp_path) as recorder:
        game_id = recorder.start_game("russian")
        game = recorder.game(game_id)
        with pytest.raises(ReadOnlyGameError):
            game.play("c3-d4")
        with pytest.raises(ReadOnlyGameError):
            game.result = "1-0"
        with pytest.raises(TypeError):
            game.tags["Event"] = "sneaked in"
        recorder.record_move(game_id, "c3-d4", None, None)
        assert game.ply == 0 and recorder.game(game_id).ply == 1  # a copy, not a view


def test_a_finished_game_is_not_read_from_disk_again(tmp_path, monkeypatch):
    with Recorder(tmp_path) as recorder:
        game_id = recorder.start_game("russian")
        recorder.record_move(game_id, "c3-d4", None, None)
        recorder.record_result(game_id, "1-0")
        reads = []
        real = recorder_module.load_journal
        monkeypatch.setattr(recorder_module, "load_journal",
                            lambda path: reads.append(path) or real(path))
        for _ in range(20):
            assert recorder.game(game_id).result == "1-0"
        assert reads == []


def test_a_result_keeps_who_set_it_as_data(tmp_path):
    from draughtsboard.board.game.codec import decode
    from draughtsboard.board.game.records import Result, Setter
    from draughtsboard.recording.journal import load_journal

    recorder = Recorder(tmp_path, sync=False)
    game_id = recorder.start_game("russian", {"Date": "2026.01.01"}, t_wall=1000.0)
    recorder.record_result(game_id, "1-0", "Black resigned", 1.0, 1001.0, by=Setter.ARBITER)
    recorder.close()
    last = load_journal(recorder.path_of(game_id)).records[-1]
    assert last["by"] == "arbiter"
    assert decode(last) == Result("1-0", "Black resigned", Setter.ARBITER,
                                  decode(last).at)
    assert Recorder(tmp_path).game(game_id).result_reason == "Black resigned"
