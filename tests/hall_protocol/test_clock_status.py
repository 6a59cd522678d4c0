"""The game clock a board's state carries (`ClockStatus`): what the hall accepts of it
(bounded seconds, known words, a running side only while the clock runs), and an older
board's state without it still read."""

from __future__ import annotations

import json

import pytest

from draughtsboard.hall_protocol.messages import (
    MAX_CLOCK,
    ClockStatus,
    GameRecord,
    MessageError,
    StateMessage,
    encode,
)

GID = "00001-20261207-120000"
RUNNING = {"white": 300.0, "black": 297.5, "running": "black", "status": "running",
           "control": "300+5", "flagged": [], "at": 1_800_000_000.0}


def state_with(clock) -> bytes:
    fields = StateMessage(GameRecord(GID, "russian", {}, (), 0)).to_json()
    data = json.loads(fields)
    data.pop("v")
    if clock is not None:
        data["clock"] = clock
    return encode(data)


def test_a_clock_goes_through_the_state_and_back():
    clock = ClockStatus.from_dict(RUNNING)
    message = StateMessage(GameRecord(GID, "russian", {}, (), 0), clock=clock)
    assert StateMessage.from_json(message.to_json()).clock == clock
    assert clock.running == "black" and clock.black == 297.5 and clock.control == "300+5"


def test_an_older_boards_state_has_no_clock_and_is_read_as_before():
    assert StateMessage.from_json(state_with(None)).clock is None
    assert b'"clock"' not in StateMessage(GameRecord(GID, "russian", {}, (), 0)).to_json()


@pytest.mark.parametrize("change, error", [
    ({"white": -1}, "clock white"),
    ({"black": MAX_CLOCK + 1}, "clock black"),
    ({"white": None}, "clock white"),
    ({"black": "297"}, "black"),
    ({"white": float("inf")}, "white"),
    ({"white": True}, "white"),
    ({"status": "ticking"}, "clock status"),
    ({"running": "red"}, "clock running"),
    ({"status": "paused"}, "clock running"),  # a side runs only while the clock runs
    ({"flagged": ["white", "white"]}, "clock flagged"),
    ({"flagged": "white"}, "clock flagged"),
    ({"control": "x" * 41}, "control"),
    ({"at": "now"}, "at"),
])
def test_a_bad_clock_makes_the_state_bad_in_one_line(change, error):
    with pytest.raises(MessageError) as raised:
        StateMessage.from_json(state_with({**RUNNING, **change}))
    assert error in str(raised.value) and "\n" not in str(raised.value)


def test_a_clock_that_is_not_an_object_is_refused():
    with pytest.raises(MessageError, match="clock: expected an object"):
        StateMessage.from_json(state_with([300, 300]))


@pytest.mark.parametrize("status", ["waiting", "paused", "stopped", "running"])
def test_no_side_runs_is_allowed_in_every_status(status):
    clock = ClockStatus.from_dict({**RUNNING, "running": None, "status": status})
    assert clock.running is None and clock.status == status
