"""The game clock: it waits for the set-up, starts with the first move (or the arbiter),
shows the side whose time runs, lets a flag fall without going below zero, and survives
a restart. Time is an input: the session's clocks are shifted by the test."""

from __future__ import annotations

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules import get_variant
from draughtsboard.play import ArbiterError, choose_opening
from draughtsboard.play.clock import TimeControl, read_clock
from draughtsboard.play.errors import TimeControlError
from draughtsboard.recording import Recorder

from .conftest import ShiftedTime
from .helpers import move, view_of, wait_until

RUSSIAN = get_variant("russian")


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


def test_the_clock_waits_for_the_first_move_then_runs_for_the_side_to_move(start_session):
    time = ShiftedTime()
    session = start_session(tags={"TimeControl": "60+2"}, clock=time.clock, wall=time.wall)
    clocks = view_of(session)["clocks"]
    assert clocks["status"] == "waiting" and clocks["running"] is None
    time.advance(30)  # the players chat and set up: nobody's time goes
    clocks = move(session, 22, 18)["clocks"]  # c3-d4: the clock starts, White not charged
    assert clocks["status"] == "running" and clocks["running"] == "black"
    assert (clocks["white"], clocks["black"]) == (62, 60)
    assert clocks["since"] == pytest.approx(time.wall(), abs=2)
    time.advance(10)
    clocks = move(session, 11, 16)["clocks"]  # f6-g5 after ten seconds
    assert 45 < clocks["black"] <= 52 and clocks["white"] == 62  # (real seconds allowed)
    assert clocks["running"] == "white"
    game = session.recorder.game(session.game_id)
    assert [e.kind for e in game.events] == ["clock-start"]
    assert game.moves[0].clock == (62, 60)


def test_a_flag_falls_once_is_recorded_and_the_clock_stays_at_zero(start_session):
    time = ShiftedTime()
    session = start_session(tags={"TimeControl": "60+2"}, clock=time.clock, wall=time.wall)
    move(session, 22, 18)  # c3-d4: Black's clock runs
    time.advance(61)
    v = wait_until(lambda: (v := view_of(session))["clocks"]["flagged"] and v,
                   what="Black's flag to fall")
    assert v["clocks"]["flagged"] == ["black"] and v["clocks"]["black"] == 0
    assert v["log"][-1]["kind"] == "flag" and v["unacknowledged"] == 1
    assert "Black's flag fell" in v["log"][-1]["text"]
    assert v["result"] is None  # the board does not decide: the arbiter rules
    time.advance(5)
    clocks = move(session, 11, 16)["clocks"]  # Black plays on: no increment, never below 0
    assert clocks["black"] == 0 and clocks["running"] == "white"
    assert clocks["flagged"] == ["black"]
    pdn = session.export_pdn()
    assert "flag fall" in pdn and "Black's flag fell: time (60+2) ran out at move 1" in pdn
    assert "B0:00:00" in pdn.replace("b0:00:00", "B0:00:00")
    assert "-" not in pdn.split("[%clock")[-1].split("]")[0]
    game = read_pdn(pdn).games[0].game
    assert [m.text for m in game.moves] == ["c3-d4", "f6-g5"]
    assert len([e for e in session.recorder.game(session.game_id).events
                if e.kind == "flag"]) == 1


def test_the_arbiter_starts_pauses_and_resumes_the_clock(start_session):
    time = ShiftedTime()
    session = start_session(tags={"TimeControl": "300"}, clock=time.clock, wall=time.wall)
    with pytest.raises(ArbiterError):
        session.clock_action("pause")  # not running yet
    assert session.clock_action("start") == "clock started"
    assert view_of(session)["clocks"]["running"] == "white"
    time.advance(20)
    assert session.clock_action("pause") == "clock paused"
    clocks = view_of(session)["clocks"]
    # (real seconds pass too, a few on a loaded machine: the bounds allow them)
    assert clocks["status"] == "paused" and 275 < clocks["white"] <= 280
    time.advance(600)  # a dispute: nobody's time goes
    session.clock_action("resume")
    time.advance(10)
    clocks = move(session, 22, 18)["clocks"]
    assert 260 < clocks["white"] <= 270 and clocks["black"] == 300  # the 600 s not charged
    with pytest.raises(ArbiterError, match="already started"):
        session.clock_action("start")
    with pytest.raises(ArbiterError, match="start, pause or resume"):
        session.clock_action("wind")
    with pytest.raises(ArbiterError, match="TimeControl"):
        session.set_tags({"TimeControl": "ten minutes"})


def test_after_a_restart_the_clock_waits_for_the_board_then_goes_on(start_session, tmp_path):
    time = ShiftedTime()
    data = tmp_path / "data"
    first = start_session(tags={"TimeControl": "100"}, clock=time.clock, wall=time.wall,
                          data=data)
    move(first, 22, 18)
    time.advance(30)
    move(first, 11, 16)  # Black thought 30 s
    time.advance(40)  # White thinks 40 s ... and the power goes
    first.stop()
    first.recorder.close()
    time.advance(3600)  # an hour without power is nobody's time
    recorder = Recorder(data)
    opening = choose_opening(recorder)
    recorder.close()
    again = start_session(opening=opening, clock=time.clock, wall=time.wall, data=data)
    clocks = wait_until(lambda: (c := view_of(again)["clocks"])["status"] == "running" and c,
                        what="the clock to go on once the board matches")
    assert clocks["running"] == "white" and clocks["white"] == 100
    assert 65 < clocks["black"] <= 70  # (real seconds allowed; not the hour)
    kinds = [e.kind for e in again.recorder.game(again.game_id).events]
    assert kinds == ["clock-start", "resume", "clock-resume"]
