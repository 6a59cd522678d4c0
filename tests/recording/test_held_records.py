"""Issue 16, case 2: a failed write holds the move (and every later one) instead of
letting the tracker run ahead of the journal; when writing works again every held move is
recorded in order. Time is an input here: no sleeps."""

import errno
import os

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant first)
from benchmarks.harness.disk import FullDisk
from draughtsboard.board.message import Message
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.notation import parse_move
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker.events import FlagEvent, MoveEvent
from draughtsboard.recording import Recorder
from draughtsboard.recording import journal as journal_module
from draughtsboard.recording.journal import load_journal
from draughtsboard.recording.tracker_events import HeldRecords, record_tracker_event

from ..rendered import in_english, rendered

MOVES = ("c3-d4", "f6-g5", "g3-h4", "g7-f6", "b2-c3")


def move_events(texts=MOVES):
    position = initial_position(get_variant("russian"))
    events = []
    for ply, text in enumerate(texts):
        move = parse_move(position, text)
        events.append(MoveEvent(float(ply), "move", text, move.path, move.captures))
        position = position.play(move)
    return events


def test_without_holding_a_failed_move_makes_every_later_move_illegal(tmp_path, monkeypatch):
    """What used to happen: the move that failed is gone, the next one does not fit."""
    recorder = Recorder(tmp_path)
    game_id = recorder.start_game("russian")
    disk = FullDisk(kept=5)
    monkeypatch.setattr(journal_module.os, "write", disk)
    events = move_events()
    record_tracker_event(recorder, game_id, events[0], 0.0)
    disk.full = True
    try:
        record_tracker_event(recorder, game_id, events[1], 0.0)
    except OSError:
        pass
    disk.full = False
    try:
        record_tracker_event(recorder, game_id, events[2], 0.0)
    except Exception as error:  # noqa: BLE001 - the point of this test
        assert "illegal" in str(error) or "not among" in str(error)
    else:
        raise AssertionError("the third move fitted a game that lacks the second")


def test_held_moves_are_recorded_in_order_when_writing_works_again(tmp_path, monkeypatch):
    recorder = Recorder(tmp_path)
    game_id = recorder.start_game("russian")
    disk = FullDisk(kept=5)
    monkeypatch.setattr(journal_module.os, "write", disk)
    held = HeldRecords(recorder)
    events = move_events()
    assert held.add(game_id, events[0], 0.0, now=0.0) == []
    disk.full = True
    entries = held.add(game_id, events[1], 0.0, now=1.0)
    assert [e.kind for e in entries] == ["error"] and "No space" in in_english(entries[0].text)
    assert held.held and [e.notation for e in held.held_moves] == ["f6-g5"]
    assert held.add(game_id, FlagEvent(2.0, "illegal", "a1-b2 is not a move"), 0.0,
                    now=1.1) == []
    assert held.add(game_id, events[2], 0.0, now=1.2) == []  # one error line, not one a move
    assert held.retry(now=1.3) == []  # too soon: waits before it tries again
    assert held.retry(now=1.6) == []  # tried, still full: silent (same error)
    assert [e.notation for e in held.held_moves] == ["f6-g5", "g3-h4"]
    path = recorder.path_of(game_id)
    assert not load_journal(path).damaged and not load_journal(path).torn_tail
    disk.full = False
    entries = held.add(game_id, events[3], 0.0, now=1.7)  # waits its turn behind them
    assert entries == [] and held.held
    entries = held.retry(now=10.0)
    assert not held.held and held.error == ""
    assert in_english(entries[-1].text) == "recording works again: 3 held moves recorded in order"
    assert held.add(game_id, events[4], 0.0, now=10.1) == []
    recorder.close()
    loaded = load_journal(path)
    assert not loaded.damaged
    assert [r["type"] for r in loaded.records] == ["start", "move", "move", "illegal", "move",
                                                   "move", "move"]
    assert [m.text for m in Recorder(tmp_path).game(game_id).moves] == list(MOVES)


def test_a_move_with_notes_is_never_written_twice_by_a_retry(tmp_path, monkeypatch):
    recorder = Recorder(tmp_path)
    game_id = recorder.start_game("russian")
    event = move_events()[0]
    event = MoveEvent(0.0, "move", event.notation, event.path, event.captures,
                      notes=("piece slid", "touched"))
    calls = {"n": 0}
    real = os.write

    def fail_third_record(fd, data):
        calls["n"] += 1
        if calls["n"] == 2:  # the first note
            raise OSError(errno.EIO, "Input/output error")
        return real(fd, data)

    monkeypatch.setattr(journal_module.os, "write", fail_third_record)
    held = HeldRecords(recorder)
    held.add(game_id, event, 0.0, now=0.0)
    assert held.held
    held.retry(now=5.0)
    assert not held.held
    kinds = [r["type"] for r in load_journal(recorder.path_of(game_id)).records]
    assert kinds == ["start", "move", "irregularity", "irregularity"]


def test_a_flag_is_recorded_with_its_text_and_its_message_and_logged_as_the_message(tmp_path):
    recorder = Recorder(tmp_path)
    game_id = recorder.start_game("russian", {})
    said = Message.of("log.illegal_move", move=Message.of(
        "irregular.action", move="a3-a5", kind=Message.of("irregular.irregular_move")))
    flag = FlagEvent(1.0, "illegal", "illegal move a3-a5: a piece moved irregularly",
                     message=said)
    entries = record_tracker_event(recorder, game_id, flag, 0.0)
    assert [(e.kind, e.text) for e in entries] == [("illegal", said)]
    assert rendered(entries[0].text, "ru") == \
        "недопустимый ход a3-a5: шашка пошла не по правилам"
    record = load_journal(recorder.path_of(game_id)).records[-1]
    # the English text as PDN comments show it, and the message beside it
    assert record["text"] == "illegal move a3-a5: a piece moved irregularly"
    assert Message.from_json(record["message"]) == said
    recorder.close()
