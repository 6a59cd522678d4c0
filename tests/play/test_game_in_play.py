"""The game in play without a thread: what it records and what the page shows, move by
move in virtual time (`VirtualPlay`: the test is the controller thread)."""

from __future__ import annotations

import pytest

from draughtsboard.board.game.tags import InvalidTagError, parse_tag_options
from draughtsboard.board.mode import Mode
from draughtsboard.board.ports import LedFrame, Snapshot
from draughtsboard.board.rules import get_variant, parse_fen
from draughtsboard.board.tracker import State, Tracker
from draughtsboard.play import ArbiterError, build_view

from ..recording.journals import recorded_journal
from ..rendered import in_english
from .virtual import STEP


def test_the_board_is_set_up_at_the_first_scan_and_a_move_is_recorded(play):
    assert play.game.tracker.state is State.READY and play.game.moves_recorded == 0
    v = play.move(22, 18)
    assert v["moves"] == ["c3-d4"] and play.game.moves_recorded == 1
    assert v["state"] == "ready" and v["white_to_move"] is False
    game = play.recorder.game(play.game.game_id)
    assert game.moves[0].t_monotonic == pytest.approx(3 * STEP)  # the third scan's time


def test_a_game_lost_by_the_rules_gets_its_result(play):
    play.arbiter.new_game({"Event": "Endgame"}, fen="W:W22:B18")
    assert play.hand(("setup", None))["state"] == "ready"
    # c3 takes d4: lift, put down on e5, take the black piece off
    v = play.move(22, 15, 18)
    assert v["moves"] == ["c3:e5"] and v["result"] == "1-0"
    assert "no legal move" in in_english(v["result_reason"])
    assert play.recorder.unfinished_game() is None
    assert "[FEN " in play.export_pdn()


def test_training_takeback_is_recorded(start_play):
    play = start_play(mode="training")
    assert play.move(22, 18)["moves"] == ["c3-d4"]
    v = play.hand(("lift", 18), ("place", 22))
    assert v["moves"] == [] and v["white_to_move"] is True
    assert any(e["kind"] == "takeback" for e in v["log"])
    game = play.recorder.load(play.game.game_id)
    assert [e.kind for e in game.events] == ["takeback"]


def test_clocks_show_when_the_game_has_a_time_control(play):
    play.arbiter.set_tags({"TimeControl": "300+5"})
    clocks = play.view()["clocks"]
    assert clocks["white"] == 300 and clocks["running"] is None  # waits for the first move
    assert clocks["status"] == "waiting" and clocks["control"] == "300+5"


def test_arbiter_mistakes_are_refused_with_a_reason(play):
    with pytest.raises(ArbiterError, match="not a result"):
        play.arbiter.declare_result("3-0")
    with pytest.raises(ArbiterError, match="derived"):
        play.arbiter.set_tags({"Result": "1-0"})
    with pytest.raises(ArbiterError):
        play.arbiter.new_game({}, fen="W:Wnonsense")
    with pytest.raises(InvalidTagError, match="KEY=VALUE"):
        parse_tag_options(["White"])
    assert parse_tag_options(["White=Ann Smith", "Round=2"]) == {"White": "Ann Smith",
                                                                  "Round": "2"}


def test_arbiter_tags_stay_on_the_page_and_in_the_pdn_after_the_result(play, monkeypatch):
    import draughtsboard.recording.recorder as recorder_module

    play.arbiter.set_tags({"Event": "Club final"})
    play.arbiter.declare_result("1-0")
    reads = []
    real = recorder_module.load_journal
    monkeypatch.setattr(recorder_module, "load_journal",
                        lambda path: reads.append(path) or real(path))
    # page updates after the result: a hand on the board changes the view each time
    assert 22 not in play.hand(("lift", 22))["occupied"]
    v = play.hand(("place", 22))
    assert 22 in v["occupied"]
    assert v["tags"]["Event"] == "Club final" and v["result"] == "1-0"
    assert '[Event "Club final"]' in play.export_pdn()
    assert reads == []  # the finished game is not read from disk again


def test_nothing_is_played_while_a_damaged_journal_waits(start_play, tmp_path):
    data = tmp_path / "damaged"
    game_id, path = recorded_journal(data, ["c3-d4"])
    path.write_bytes(path.read_bytes() + b"00000000 {}\n")
    play = start_play(data=data)
    assert play.game.damage is not None
    assert play.move(21, 17)["moves"] == ["c3-d4"]  # seen, never played
    assert play.wait(60)["damage"]["game_id"] == game_id
    assert play.recorder.list_games()[0].moves == 1


def test_the_view_is_built_without_a_thread_or_a_board():
    from draughtsboard.board.game.record import Game

    variant = get_variant("russian")
    game = Game.from_fen(variant, "W:W22:B18", tags={"TimeControl": "60"})
    tracker = Tracker(parse_fen(variant, "W:W22:B18"), Mode.TRAINING, check_start=False)
    tracker.feed(Snapshot(tracker.position.occupancy(), 0.0))
    view = build_view(tracker=tracker, game=game.read_only_copy(), game_id="00001-x",
                      mode="training", backend="gpio", frame=LedFrame.blank(32),
                      occupied=tracker.position.occupancy(), switches=None, log=[],
                      unacknowledged=0, error=None)
    assert view["hands"] is False and view["state"] == "ready"
    assert view["intents"] == {"must_capture": [22]} and view["flags"] == ["must capture"]
    assert in_english(view["status"]) == "White to move"
    assert in_english(view["guidance"]) == [{"kind": "must-capture", "title": "White must capture",
                                 "steps": ["Capture with the piece on c3"]}]
    assert view["clocks"] is None and view["last_move"] is None
    assert view["fen"] == "W:W22:B18" and view["moves"] == []


def test_after_a_capture_lands_the_page_and_leds_say_only_what_to_take_off(start_play):
    # White c3 and e3 must capture d4; c3:e5 lands and d4 is still on the board
    play = start_play(mode="training", fen="W:W22,23:B18,4")
    v = play.view()
    assert [f["kind"] for f in v["guidance"]] == ["must-capture"]
    play.hand(("lift", 22), ("place", 15))
    v = play.wait(0.2)  # the hand rests on e5: the capture is down
    assert [(f["kind"], in_english(f["steps"])) for f in v["guidance"]] == [
        ("take-off", ["Take off the piece on d4"])]
    assert in_english(v["status"]) == "White is moving"  # not the capture instruction again
    assert v["leds"]["18"] == ["fast_blink", "violet"]
    assert {square for square, (_, colour) in v["leds"].items() if colour == "yellow"} == set()
    v = play.hand(("lift", 18))
    assert v["moves"] == ["c3:e5"] and v["guidance"] == []
