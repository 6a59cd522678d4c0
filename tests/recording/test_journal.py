"""The journal and the Recorder: durable records, torn tails dropped, damage reported,
games resumed, PDN exported with times and the arbiter's events."""

import argparse
import errno
import json
import os
import pathlib
import subprocess
import sys

import pytest

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant first)
from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.rules.errors import IllegalMoveError
from draughtsboard.commands import pdn as pdn_command
from draughtsboard.recording import Journal, JournalDamagedError, Recorder, default_data_dir
from draughtsboard.recording.journal import encode_record, load_journal

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def play_opening(recorder, game_id, moves=("32-28", "17-22", "28x17", "12x21")):
    for ply, text in enumerate(moves):
        recorder.record_move(game_id, text, 10.0 + 5 * ply, 1_700_000_000 + 5 * ply)


def test_records_round_trip_and_sequence(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal(path) as journal:
        journal.append({"type": "a"})
        journal.append({"type": "b", "text": "ü"})
    loaded = load_journal(path)
    assert [r["seq"] for r in loaded.records] == [0, 1]
    assert loaded.records[1]["text"] == "ü" and not loaded.torn_tail and not loaded.damaged


def test_records_appended_together_are_all_written_or_none(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    with Journal(path) as journal:
        journal.append({"type": "a"})
        assert [r["seq"] for r in journal.append_all([{"type": "b"}, {"type": "c"}])] == [1, 2]
        real_write = os.write

        def half_then_full(fd, data):  # a few bytes of the lines, then the disk is full
            real_write(fd, bytes(data)[:7])
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "write", half_then_full)
        with pytest.raises(OSError):
            journal.append_all([{"type": "d"}, {"type": "e"}])
        monkeypatch.undo()
        journal.append({"type": "f"})
    assert [(r["seq"], r["type"]) for r in load_journal(path).records] == \
        [(0, "a"), (1, "b"), (2, "c"), (3, "f")]


@pytest.mark.parametrize("cut", [1, 9, 20, -1])
def test_a_torn_last_record_is_dropped_and_truncated_on_reopen(tmp_path, cut):
    path = tmp_path / "g.jsonl"
    with Journal(path) as journal:
        journal.append({"type": "a"})
    torn = encode_record({"type": "b", "seq": 1})[:cut]
    with open(path, "ab") as file:
        file.write(torn)
    loaded = load_journal(path)
    assert [r["type"] for r in loaded.records] == ["a"] and loaded.torn_tail
    with Journal(path) as journal:  # reopening to append cuts the torn bytes off
        journal.append({"type": "c"})
    assert [r["type"] for r in load_journal(path).records] == ["a", "c"]


def test_a_torn_tail_padded_with_zeros_is_still_a_torn_tail(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal(path) as journal:
        journal.append({"type": "a"})
    with open(path, "ab") as file:
        file.write(b"\0" * 64)
    assert load_journal(path).torn_tail


def test_a_bad_record_before_good_ones_is_damage_not_a_torn_tail(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal(path) as journal:
        for kind in "abc":
            journal.append({"type": kind})
    lines = path.read_bytes().splitlines(keepends=True)
    lines[1] = lines[1].replace(b'"b"', b'"x"')  # CRC no longer matches
    path.write_bytes(b"".join(lines))
    loaded = load_journal(path)
    assert [r["type"] for r in loaded.records] == ["a"]
    assert loaded.damaged and "record 2 fails its check" in loaded.damage
    with pytest.raises(JournalDamagedError):
        Journal(path)
    assert path.read_bytes() == b"".join(lines)  # left as it was, for a human


def test_a_repeated_sequence_number_is_damage(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(encode_record({"seq": 0}) + encode_record({"seq": 0})
                     + encode_record({"seq": 1}))
    assert "has seq 0, expected 1" in load_journal(path).damage


def test_recorder_keeps_moves_events_and_result(tmp_path):
    recorder = Recorder(tmp_path)
    game_id = recorder.start_game("international", {"White": "Ann", "Black": "Bob",
                                                     "Event": "Club", "Round": "3"},
                                  t_monotonic=5.0, t_wall=1_700_000_000)
    play_opening(recorder, game_id)
    recorder.record_illegal(game_id, "33-29", "a capture is required elsewhere", 31.0,
                            1_700_000_030)
    recorder.record_irregularity(game_id, "captured piece removed before the move ended")
    with pytest.raises(IllegalMoveError):
        recorder.record_move(game_id, "50-45", 32.0, 1_700_000_031)
    recorder.record_result(game_id, "1-1", "agreed")
    recorder.close()

    again = Recorder(tmp_path)
    game = again.load(game_id)
    assert [m.text for m in game.moves] == ["32-28", "17-22", "28x17", "12x21"]
    assert [e.kind for e in game.events] == ["illegal", "irregularity"]
    assert game.result == "1-1" and again.unfinished_game() is None
    assert [s.status for s in again.list_games()] == ["finished"]
    pdn = again.export_pdn(game_id)
    assert "{[%emt 0:00:05]}" in pdn and "illegal attempt at" in pdn and "33-29" in pdn
    assert '[Round "3"]' in pdn and '[Date "2023.11.1' in pdn
    read = read_pdn(pdn)
    assert read.errors == [] and [m.text for m in read.games[0].game.moves] == [
        "32-28", "17-22", "28x17", "12x21"]


def test_clock_comments_from_the_time_control(tmp_path):
    recorder = Recorder(tmp_path)
    game_id = recorder.start_game("russian", {"TimeControl": "600+5"}, t_monotonic=0.0)
    for ply, text in enumerate(["c3-d4", "f6-g5"]):
        recorder.record_move(game_id, text, 10.0 * (ply + 1), None)
    pdn = recorder.export_pdn(game_id)
    assert "{[%clock w0:09:55 B0:10:00]}" in pdn  # White used 10 s, got 5 back
    assert "{[%clock W0:09:55 b0:09:55]}" in pdn
    assert read_pdn(pdn).games[0].game.moves[1].clock == (595, 595)


def test_unfinished_game_is_resumed_from_its_journal(tmp_path):
    recorder = Recorder(tmp_path)
    finished = recorder.start_game("russian")
    recorder.record_result(finished, "1-0")
    game_id = recorder.start_game("international", start_fen="W:W31-50:B1-20")
    play_opening(recorder, game_id, ("32-28", "17-22"))
    path = recorder.path_of(game_id)
    recorder.close()
    with open(path, "ab") as file:  # the power went while the next move was written
        file.write(encode_record({"type": "move", "seq": 3})[:25])

    resumed = Recorder(tmp_path)
    found_id, game = resumed.unfinished_game()
    assert found_id == game_id and game.ply == 2
    assert game.position == game.positions[0].play(game.moves[0].move).play(game.moves[1].move)
    resumed.record_resume(game_id, 0.5, None)
    resumed.record_move(game_id, "28x17", 1.0, None)
    assert [m.text for m in Recorder(tmp_path).load(game_id).moves] == ["32-28", "17-22",
                                                                         "28x17"]


def test_takeback_in_training(tmp_path):
    recorder = Recorder(tmp_path)
    game_id = recorder.start_game("international", mode="training")
    play_opening(recorder, game_id, ("32-28", "17-22"))
    recorder.record_takeback(game_id)
    game = Recorder(tmp_path).load(game_id)
    assert [m.text for m in game.moves] == ["32-28"] and game.events[-1].kind == "takeback"


def test_data_directory_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("DRAUGHTSBOARD_DATA", str(tmp_path / "x"))
    assert default_data_dir() == tmp_path / "x"
    monkeypatch.delenv("DRAUGHTSBOARD_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert default_data_dir() == tmp_path / "xdg" / "draughtsboard"


def test_games_and_export_commands(tmp_path, capsys):
    recorder = Recorder(tmp_path)
    game_id = recorder.start_game("international", {"White": "Ann", "Black": "Bob"})
    play_opening(recorder, game_id)
    recorder.close()
    top = argparse.ArgumentParser()
    pdn_command.add_parsers(top.add_subparsers(dest="command", required=True))
    args = top.parse_args(["games", "--data", str(tmp_path)])
    assert args.handler(args) == 0
    out = capsys.readouterr().out
    assert game_id in out and "unfinished" in out and "Ann - Bob" in out
    target = tmp_path / "game.pdn"
    args = top.parse_args(["export", "--data", str(tmp_path), "--out", str(target)])
    assert args.handler(args) == 0
    assert read_pdn(target.read_text("utf-8")).games[0].game.ply == 4
    args = top.parse_args(["export", "--data", str(tmp_path), "--game", "nonsense"])
    assert args.handler(args) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.slow
def test_crash_benchmark_in_small(tmp_path):
    run = subprocess.run([sys.executable, "-m", "benchmarks.crash_resume",
                          "--kills", "4", "--dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=120, check=False, cwd=ROOT)
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["kills"] == 4 and report["lost"] == 0 and report["duplicated"] == 0


def test_an_amended_move_is_recorded_as_an_amendment_not_a_takeback(tmp_path):
    from draughtsboard.board.rules.variants import get_variant
    from draughtsboard.recording.recorder import Recorder

    recorder = Recorder(tmp_path)
    game_id = recorder.start_game(get_variant("russian"), {"White": "A", "Black": "B"})
    recorder.record_move(game_id, "c3-b4", 1.0, 1000.0)
    recorder.record_takeback(game_id, amended_by="c3-d4")
    recorder.record_move(game_id, "c3-d4", 1.5, 1000.5)
    game = recorder.load(game_id)
    assert [played.text for played in game.moves] == ["c3-d4"]
    assert [event.kind for event in game.events] == ["amendment"]
    assert "c3-b4 amended to c3-d4" in game.events[0].text
