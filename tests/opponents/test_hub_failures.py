"""Every way an external Hub engine fails is one typed line (a fake engine misbehaves on
purpose, one way per mode: tests/opponents/fake_hub.py)."""

import pathlib
import shlex
import sys

import pytest

from draughtsboard.board.rules import get_variant, initial_position
from draughtsboard.opponents import (
    Clocks,
    HubOpponent,
    base,
    open_opponent,
)

from .games import ticking_clock

FAKE = pathlib.Path(__file__).with_name("fake_hub.py")
INTERNATIONAL = get_variant("international")


def fake(mode: str) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE))} {mode}"


def started(mode: str, variant=INTERNATIONAL, **kwargs) -> HubOpponent:
    opponent = HubOpponent(variant, fake(mode), **kwargs)
    opponent.start(initial_position(variant), opponent_is_white=True)
    return opponent


def test_the_fake_engine_plays_when_it_behaves():
    opponent = started("good")
    assert opponent.move(Clocks(move_seconds=5)) in initial_position(INTERNATIONAL).legal_moves()
    assert opponent.name == "Fake 1"
    opponent.close()


@pytest.mark.parametrize("mode, error, message", [
    ("malformed", base.OpponentProtocolError, "unclosed quote"),
    ("illegal", base.OpponentIllegalMoveError, "'1-2'.*not legal"),
    ("error", base.OpponentProtocolError, "reported an error: out of memory"),
    ("long-line", base.OpponentProtocolError, "line too long"),
])
def test_a_bad_answer_is_one_typed_line(mode, error, message):
    opponent = started(mode)
    with pytest.raises(error, match=message) as raised:
        opponent.move(Clocks(move_seconds=5))
    assert "\n" not in str(raised.value)
    opponent.close()


def test_an_engine_that_dies_mid_game():
    opponent = started("die")
    variant_position = initial_position(INTERNATIONAL)
    first = opponent.move(Clocks(move_seconds=5))
    opponent.other_side_moved(variant_position.play(first).legal_moves()[0])
    with pytest.raises(base.OpponentGoneError, match=r"stopped \(exit status 3\)"):
        opponent.move(Clocks(move_seconds=5))


def test_an_engine_that_exceeds_its_time():
    opponent = started("silent", clock=ticking_clock(0.5), handshake_seconds=1e9)
    with pytest.raises(base.OpponentTimeoutError, match="did not answer in time while thinking"):
        opponent.move(Clocks(move_seconds=2))


@pytest.mark.slow
def test_stop_sends_stop_and_a_silent_engine_still_times_out_after_the_grace():
    opponent = started("silent", clock=ticking_clock(0.25), handshake_seconds=1e9)
    with pytest.raises(base.OpponentTimeoutError):
        opponent.move(Clocks(move_seconds=600), stop=lambda: True)


@pytest.mark.parametrize("command, message", [
    ("/nonexistent/engine hub", "cannot start the Hub engine '/nonexistent/engine hub'"),
    ("", "no Hub engine command"),
    ("'unclosed", "cannot read the command"),
])
def test_an_engine_that_does_not_start(command, message):
    with pytest.raises(base.OpponentStartError, match=message):
        HubOpponent(INTERNATIONAL, command).start(initial_position(INTERNATIONAL), True)


def test_an_engine_that_exits_before_it_is_ready():
    with pytest.raises(base.OpponentStartError, match=r"stopped \(exit status 2\) before it was"):
        started("exit-at-start")


def test_a_variant_the_engine_does_not_declare_is_refused_in_one_line():
    with pytest.raises(base.OpponentUnsupportedError, match="plays only international"):
        started("no-variants", variant=get_variant("russian"))


@pytest.mark.parametrize("text, message", [
    ("engine:11", "level is 1-10"), ("hub:", "command"), ("dxp:host", "HOST:PORT"),
    ("dxp:host:70000", "port 1-65535"), ("scan", "expected engine"),
])
def test_opponent_texts_that_name_no_opponent(text, message):
    with pytest.raises(ValueError, match=message):
        open_opponent(text, INTERNATIONAL)


@pytest.mark.parametrize("text", ["dxp:127.0.0.1:27531", "dxp-listen:0.0.0.0:27531"])
def test_dxp_for_a_variant_other_than_10x10_is_refused_in_one_line(text):
    with pytest.raises(base.OpponentUnsupportedError, match="cannot play Russian draughts"):
        open_opponent(text, get_variant("russian"))


def test_the_engine_and_hub_kinds_open_for_every_variant():
    assert open_opponent("engine:4", get_variant("lasca")).name == \
        "draughtsboard engine, level 4"
    assert open_opponent("engine", get_variant("russian")).name.endswith("level 10")
    assert open_opponent("hub:scan hub", get_variant("column")).command == "scan hub"
