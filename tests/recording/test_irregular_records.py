"""The record kinds of irregular play: an irregular move that stood, an arbiter's
correction, a take-back to an earlier ply; each rebuilt from the journal as it was
recorded. And a stream that ends in the middle of a capture: the game resumes from the
journal, and the capture is recorded once."""

from __future__ import annotations

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import FMJD, Mode, Tracker
from draughtsboard.recording import Recorder

from .old_records import JournalledHand

RUSSIAN = get_variant("russian")


def assert_exported_reads_back(directory, game_id: str, game, note: str) -> None:
    """The game's PDN export says ``note`` and reads back as ``game``, the journal's:
    the same moves through the same positions."""
    exported = Recorder(directory).export_pdn(game_id)
    assert note in exported
    again = read_pdn(exported).games[0].game
    assert [m.text for m in again.moves] == [m.text for m in game.moves]
    assert again.positions == game.positions


def test_an_irregular_move_that_stood_is_rebuilt_from_the_journal(tmp_path):
    recorder = Recorder(tmp_path, sync=False)
    game_id = recorder.start_game(RUSSIAN, {"Irregularities": "fmjd"})
    hand = JournalledHand(Tracker(initial_position(RUSSIAN), Mode.TOURNAMENT,
                                  check_start=False, policy=FMJD), recorder, game_id)
    hand.move("c3", "e5")  # irregular
    hand.move("d6", "f4").lift("e5")  # Black plays on: it stands
    live = recorder.game(game_id)
    assert [m.text for m in live.moves] == ["c3-e5", "d6:f4"]
    assert live.moves[0].irregularity == "irregular_move"
    recorder.close()
    reread = Recorder(tmp_path).game(game_id)
    assert [m.text for m in reread.moves] == ["c3-e5", "d6:f4"]
    assert reread.position == hand.tracker.position
    assert_exported_reads_back(tmp_path, game_id, reread, "irregular (FMJD Annex 1, 5.4)")


def test_corrections_and_take_backs_are_rebuilt(tmp_path):
    recorder = Recorder(tmp_path, sync=False)
    game_id = recorder.start_game(RUSSIAN)
    recorder.record_move(game_id, "c3-d4", 1.0, 1001.0)
    recorder.record_move(game_id, "b6-a5", 2.0, 1002.0)
    recorder.record_takeback_to(game_id, 1, "taken back by the arbiter to ply 1")
    fen = "W:W18,21,23-32:B1-11"
    recorder.record_correction(game_id, fen, "position accepted by the arbiter")
    recorder.record_move(game_id, "d4-c5", 3.0, 1003.0)
    recorder.close()
    game = Recorder(tmp_path).game(game_id)
    assert [m.text for m in game.moves] == ["c3-d4", "d4-c5"]
    assert game.positions[1] == parse_fen(RUSSIAN, fen)
    assert [e.kind for e in game.events] == ["takeback", "correction"]
    assert_exported_reads_back(tmp_path, game_id, game, "arbiter correction")


def test_a_stream_that_ends_mid_capture_resumes_from_the_journal(tmp_path):
    fen = "W:W20,30:B16,1"  # h4 takes g5
    recorder = Recorder(tmp_path, sync=False)
    game_id = recorder.start_game(RUSSIAN, start_fen=fen)
    hand = JournalledHand(Tracker(parse_fen(RUSSIAN, fen), check_start=False), recorder,
                          game_id)
    hand.move("h4", "f6")  # ... and the power goes: g5 is still on the board
    recorder.close()

    recorder = Recorder(tmp_path, sync=False)
    resumed_id, game = recorder.unfinished_game()
    assert resumed_id == game_id and game.ply == 0
    tracker = Tracker(game.position, Mode.TOURNAMENT, check_start=True)
    again = JournalledHand(tracker, recorder, game_id, missing=["h4"])  # as the cut left it
    again.place("f6")
    assert sorted(again.intent("restore")) == ["f6", "h4"]  # lights what differs
    again.lift("f6").place("h4")
    assert tracker.state.value == "ready"
    again.move("h4", "f6").lift("g5")
    assert [m.text for m in recorder.game(game_id).moves] == ["h4:f6"]
    assert again.flags() == []
