"""LED drivers: frames reach the pins, blinking is timed by the driver."""

from __future__ import annotations

import dataclasses

import pytest
from gpiozero.exc import DeviceClosed

from draughtsboard.board.ports import LedFrame, LedPattern, LedSink
from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.hardware.blink import FAST_PERIOD, SLOW_PERIOD, BlinkMasks
from draughtsboard.hardware.config import builtin_config


def configs():
    russian = builtin_config(board_geometry(8))
    bitbang = dataclasses.replace(
        russian, leds=dataclasses.replace(russian.leds, interface="bitbang"))
    return {
        "spi-595": russian,
        "bitbang-595": bitbang,
        "spi-595-10x10": builtin_config(board_geometry(10)),
        "spi-595-7x7": builtin_config(board_geometry(7)),
    }


@pytest.fixture(params=list(configs()))
def board(request):
    with open_simulated_board(configs()[request.param]) as board:
        yield board


def frame(board, patterns):
    return LedFrame.from_mapping(board.square_count, patterns)


def test_a_frame_lights_exactly_its_squares(board):
    assert isinstance(board.leds, LedSink)
    sim = board.simulation
    board.show(frame(board, {1: LedPattern.ON, 7: LedPattern.ON, board.square_count: 1}))
    assert sim.lit_squares() == [1, 7, board.square_count]
    board.show(LedFrame.blank(board.square_count))
    assert sim.lit_squares() == []


def test_every_square_has_its_own_led(board):
    for square in range(1, board.square_count + 1):
        board.show(frame(board, {square: LedPattern.ON}))
        assert board.simulation.lit_squares() == [square]


def test_blinking_is_timed_by_the_driver(board):
    sim = board.simulation
    board.show(frame(board, {2: LedPattern.SLOW_BLINK, 3: LedPattern.FAST_BLINK,
                             4: LedPattern.ON}))
    seen = {}
    for t in (0.0, FAST_PERIOD / 2, SLOW_PERIOD / 2, SLOW_PERIOD / 2 + FAST_PERIOD / 2):
        board.leds.refresh(t)
        seen[t] = sim.lit_squares()
    assert list(seen.values()) == [[2, 3, 4], [2, 4], [3, 4], [4]]


def test_a_frame_of_the_wrong_size_is_refused(board):
    with pytest.raises(ValueError, match="LED frame has 3 squares"):
        board.show(LedFrame.blank(3))


def test_closing_turns_the_leds_off(board):
    board.show(LedFrame((LedPattern.ON,) * board.square_count))
    assert len(board.simulation.lit_squares()) == board.square_count
    board.close()
    board.close()
    assert board.simulation.lit_squares() == []
    with pytest.raises(DeviceClosed):
        board.show(LedFrame.blank(board.square_count))


def test_blink_edges_are_where_the_lit_set_changes():
    masks = BlinkMasks(steady=1, slow=2)
    assert masks.next_change(0.1) == pytest.approx(SLOW_PERIOD / 2)
    assert BlinkMasks(fast=4).next_change(0.0) == pytest.approx(FAST_PERIOD / 2)
    assert BlinkMasks(steady=1).next_change(0.3) is None


def test_the_blink_thread_keeps_blinking():
    with open_simulated_board(board_geometry(8), real_time=True) as board:
        board.show(frame(board, {5: LedPattern.FAST_BLINK}))
        assert board.leds.frame_masks.fast == 1 << 4


def test_the_hint_button_is_debounced(sim_board):
    sim = sim_board.simulation
    button = sim_board.buttons["hint"]
    assert button.pin.bounce == pytest.approx(0.05)  # a bouncy press is one press
    sim.press("hint")
    assert button.is_pressed
    sim.release("hint")
    assert not button.is_pressed


def test_the_chain_stays_dark_until_its_first_frame_is_latched():
    """OE is pulled up on the board: a 74HC595 powers up with random outputs, shown only
    once the driver has latched a frame and pulled OE low; closing lets it go high."""
    from draughtsboard.hardware.shift_register import ShiftRegisterLeds
    from draughtsboard.hardware.simulation import SimulatedBoard

    config = builtin_config(board_geometry(8))
    sim = SimulatedBoard(config)
    chain = sim.led_chain
    chain.outputs = chain.full  # power-on garbage in the output latches
    assert not chain.outputs_enabled and sim.lit_squares() == []
    leds = ShiftRegisterLeds(config, pin_factory=sim.factory, start=False)
    assert chain.outputs_enabled and sim.lit_squares() == []  # a blank frame went first
    leds.show(LedFrame.from_mapping(32, {5: LedPattern.ON}))
    assert sim.lit_squares() == [5]
    leds.close()
    assert not chain.outputs_enabled
