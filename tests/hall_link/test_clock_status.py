"""What a board publishes of its game clock: the board page's clock (`GameClock.view`)
stated at the moment of publishing, on the board's own clock; and the retained state is
published again when the clock does something, not as time passes."""

from __future__ import annotations

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall_link.outbox import Outbox, clock_status
from draughtsboard.hall_protocol.messages import StateMessage

GID = "00001-20261207-120000"
RUNNING = {"control": "300+5", "white": 305.0, "black": 300.0, "status": "running",
           "running": "black", "since": 1000.0, "held": False, "suspended": False,
           "flagged": []}


def test_the_running_side_is_stated_as_of_publishing():
    status = clock_status(RUNNING, 1012.25)
    assert status is not None
    assert (status.white, status.black, status.running) == (305.0, 287.75, "black")
    assert status.status == "running" and status.control == "300+5" and status.at == 1012.25


def test_a_clock_never_shows_less_than_zero_nor_more_when_published_early():
    status = clock_status(RUNNING, 1400.0)
    assert status is not None and status.black == 0.0
    early = clock_status(RUNNING, 990.0)  # the board's wall clock stepped back
    assert early is not None and early.black == 300.0


def test_no_side_runs_when_paused_waiting_held_stopped_or_flagged():
    cases = [{"status": "paused", "running": None, "since": None},
             {"status": "waiting", "running": None, "since": None},
             {"held": True, "since": None},  # a match between boards: frozen
             {"status": "stopped", "running": None, "since": None},
             {"flagged": ["black"], "black": 0.0}]
    for change in cases:
        status = clock_status({**RUNNING, **change}, 1012.0)
        assert status is not None and status.running is None, change
        assert status.black == (0.0 if change.get("flagged") else 300.0), change


def test_no_time_control_no_clock():
    assert clock_status(None, 1000.0) is None


def test_the_state_goes_out_again_when_the_clock_changes_not_as_time_passes():
    outbox = Outbox()
    game = Game(get_variant("russian"), tags={"TimeControl": "300+5"})
    waiting = {"clocks": {**RUNNING, "status": "waiting", "running": None, "since": None,
                          "white": 300.0}}
    first = outbox.plan(GID, game, waiting, 900.0)
    assert [p.kind for p in first] == ["state"]
    state = StateMessage.from_json(first[0].payload)
    assert state.clock is not None and state.clock.status == "waiting"
    assert (state.clock.white, state.clock.black) == (300.0, 300.0)  # before any move
    assert outbox.plan(GID, game, waiting, 950.0) == []
    running = {"clocks": RUNNING}
    second = outbox.plan(GID, game, running, 1001.0)
    clock = StateMessage.from_json(second[0].payload).clock
    assert clock is not None and clock.running == "black" and clock.black == 299.0
    assert outbox.plan(GID, game, running, 1030.0) == []  # the hall counts it down
