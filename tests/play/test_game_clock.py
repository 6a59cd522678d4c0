"""The game clock: it waits for the set-up, starts with the first move (or the arbiter),
shows the side whose time runs, lets a flag fall without going below zero, and survives
a restart. Time is an input: the game in play runs on the test's virtual clock, so every
figure is exact."""

from __future__ import annotations

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules import get_variant
from draughtsboard.play import ArbiterError
from draughtsboard.play.clock import TimeControl, read_clock
from draughtsboard.play.errors import TimeControlError

from ..rendered import in_english
from .virtual import STEP

RUSSIAN = get_variant("russian")
MOVE = 2 * STEP  # a move by hand: the piece lifted at one scan, put down at the next


def test_time_controls_are_read_or_refused_with_the_reason():
    assert TimeControl.parse("300") == TimeControl(300.0, 0.0)
    assert str(TimeControl.parse(" 300+5 ")) == "300+5"
    for bad in ("five minutes", "300+", "-5", "0", "300+-2"):
        with pytest.raises(TimeControlError, match="TimeControl"):
            TimeControl.parse(bad)
    assert read_clock(Game(RUSSIAN, tags={"TimeControl": "-"})) is None
    assert read_clock(Game(RUSSIAN)) is None


def test_clocks_computed_from_thinking_times_stop_at_zero():
    # a game recorded before clocks were: its clocks come from the thinking times
    game = Game(RUSSIAN, tags={"TimeControl": "10+5"})
    game.start_monotonic = 0.0
    game.play("c3-d4", 4.0)  # White: 10 - 4 + 5 = 11
    game.play("f6-g5", 19.0)  # Black thought 15 s of its 10: the flag fell, 0 and no bonus
    game.play("d4-e5", 20.0)
    assert game.clocks() == [(11.0, 10.0), (11.0, 0.0), (15.0, 0.0)]
    assert "[%clock w0:00:15 B0:00:00]" in write_game(game)


def test_the_clock_waits_for_the_first_move_then_runs_for_the_side_to_move(start_play):
    play = start_play(tags={"TimeControl": "60+2"})
    clocks = play.view()["clocks"]
    assert clocks["status"] == "waiting" and clocks["running"] is None
    play.wait(30)  # the players chat and set up: nobody's time goes
    clocks = play.move(22, 18)["clocks"]  # c3-d4: the clock starts, White not charged
    assert clocks["status"] == "running" and clocks["running"] == "black"
    assert (clocks["white"], clocks["black"]) == (62, 60)
    assert clocks["since"] == pytest.approx(play.wall())
    play.wait(10)
    clocks = play.move(11, 16)["clocks"]  # f6-g5 after ten seconds
    assert clocks["black"] == pytest.approx(60 - 10 - MOVE + 2)
    assert clocks["white"] == 62 and clocks["running"] == "white"
    game = play.recorder.game(play.game.game_id)
    assert [e.kind for e in game.events] == ["clock-start"]
    assert game.moves[0].clock == (62, 60)


def test_a_flag_falls_once_is_recorded_and_the_clock_stays_at_zero(start_play):
    play = start_play(tags={"TimeControl": "60+2"})
    play.move(22, 18)  # c3-d4: Black's clock runs
    assert play.wait(59.9)["clocks"]["flagged"] == []
    v = play.wait(0.2)
    assert v["clocks"]["flagged"] == ["black"] and v["clocks"]["black"] == 0
    assert v["log"][-1]["kind"] == "flag" and v["unacknowledged"] == 1
    assert "Black's flag fell" in in_english(v["log"][-1]["text"])
    assert v["result"] is None  # the board does not decide: the arbiter rules
    play.wait(5)
    clocks = play.move(11, 16)["clocks"]  # Black plays on: no increment, never below 0
    assert clocks["black"] == 0 and clocks["running"] == "white"
    assert clocks["flagged"] == ["black"]
    pdn = play.export_pdn()
    assert "flag fall" in pdn and "Black's flag fell: time (60+2) ran out at move 1" in pdn
    assert "B0:00:00" in pdn.replace("b0:00:00", "B0:00:00")
    assert "-" not in pdn.split("[%clock")[-1].split("]")[0]
    game = read_pdn(pdn).games[0].game
    assert [m.text for m in game.moves] == ["c3-d4", "f6-g5"]
    assert len([e for e in play.recorder.game(play.game.game_id).events
                if e.kind == "flag"]) == 1


def test_the_arbiter_starts_pauses_and_resumes_the_clock(start_play):
    play = start_play(tags={"TimeControl": "300"})
    with pytest.raises(ArbiterError):
        play.arbiter.clock_action("pause")  # not running yet
    assert play.arbiter.clock_action("start") == "clock started"
    assert play.view()["clocks"]["running"] == "white"
    play.wait(20)
    assert play.arbiter.clock_action("pause") == "clock paused"
    clocks = play.view()["clocks"]
    assert clocks["status"] == "paused" and clocks["white"] == pytest.approx(280)
    play.wait(600)  # a dispute: nobody's time goes
    play.arbiter.clock_action("resume")
    play.wait(10)
    clocks = play.move(22, 18)["clocks"]
    assert clocks["white"] == pytest.approx(270 - MOVE)  # the 600 s not charged
    assert clocks["black"] == 300
    with pytest.raises(ArbiterError, match="already started"):
        play.arbiter.clock_action("start")
    with pytest.raises(ArbiterError, match="start, pause or resume"):
        play.arbiter.clock_action("wind")
    with pytest.raises(ArbiterError, match="TimeControl"):
        play.arbiter.set_tags({"TimeControl": "ten minutes"})


def test_after_a_restart_the_clock_waits_for_the_board_then_goes_on(start_play):
    first = start_play(tags={"TimeControl": "100"})
    first.move(22, 18)
    first.wait(30)
    first.move(11, 16)  # Black thought 30 s
    first.wait(40)  # White thinks 40 s ... and the power goes
    first.close()
    # an hour without power is nobody's time; the board is lifted and set up again
    again = start_play(switches=0)
    assert again.view()["clocks"]["status"] != "running"
    again.wait(3600)
    clocks = again.hand(("setup", None))["clocks"]
    assert clocks["status"] == "running" and clocks["running"] == "white"
    assert clocks["white"] == 100 and clocks["black"] == pytest.approx(70 - MOVE)
    kinds = [e.kind for e in again.recorder.game(again.game.game_id).events]
    assert kinds == ["clock-start", "resume", "clock-resume"]
