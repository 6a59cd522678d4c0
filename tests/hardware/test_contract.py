"""The driver contract, run against every pin factory that loads.

Nothing here assumes a simulated board behind the pins: with the mock factory the columns
just read their pulls; on a Raspberry Pi (``/dev/gpiochip0`` and lgpio present) the same
tests drive the real pins of the reference wiring, with or without a board attached.
"""

from __future__ import annotations

import dataclasses
import time

import pytest
from gpiozero.exc import DeviceClosed

from draughtsboard.board.ports import LedFrame, LedPattern, LedSink, SensorSource
from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.hardware.backends import open_gpio_board
from draughtsboard.hardware.config import builtin_config
from draughtsboard.hardware.reed_matrix import ReedMatrix
from draughtsboard.hardware.shift_register import ShiftRegisterLeds

BOARDS = [board_geometry(8), board_geometry(10), board_geometry(7)]


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: f"{b.size}x{b.size}")
def test_the_matrix_publishes_a_first_snapshot_after_debouncing(pin_factory, board):
    config = builtin_config(board)
    with ReedMatrix(config, pin_factory=pin_factory, start=False) as matrix:
        assert isinstance(matrix, SensorSource)
        now = time.monotonic()
        published = [matrix.scan_once(now + i * 0.005) for i in range(config.matrix.debounce)]
        assert published[:-1] == [None] * (config.matrix.debounce - 1)
        snapshot = published[-1]
        assert snapshot is not None and matrix.read(timeout=0) == snapshot
        assert snapshot.occupied < 1 << config.square_count
        assert matrix.stats().scans == config.matrix.debounce


def test_the_matrix_thread_scans_at_its_rate_and_stops(pin_factory):
    matrix = ReedMatrix(builtin_config(board_geometry(8)), pin_factory=pin_factory)
    try:
        assert matrix.read(timeout=5) is not None
        assert matrix.is_scanning
    finally:
        matrix.close()
    matrix.close()
    assert not matrix.is_scanning and matrix.closed
    assert matrix.stats().scans >= 3
    with pytest.raises(DeviceClosed):
        matrix.scan_once()


def test_closing_releases_the_pins(pin_factory):
    config = builtin_config(board_geometry(10))
    for _ in range(2):
        board = open_gpio_board(config, pin_factory, start=False)
        board.close()
        board.close()


@pytest.mark.parametrize("interface", ["spi", "bitbang"])
def test_the_shift_register_driver_takes_frames(pin_factory, interface):
    config = builtin_config(board_geometry(8))
    config = dataclasses.replace(config, leds=dataclasses.replace(config.leds,
                                                                  interface=interface))
    with ShiftRegisterLeds(config, pin_factory=pin_factory, start=False) as leds:
        assert isinstance(leds, LedSink) and leds.registers == 4
        leds.show(LedFrame.from_mapping(32, {1: LedPattern.ON, 32: LedPattern.FAST_BLINK}))
        assert leds.refresh(0.0) == 1 | 1 << 31
        assert leds.refresh(0.2) == 1


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: f"{b.size}x{b.size}")
def test_a_whole_board_opens_with_threads_and_closes(pin_factory, board):
    config = builtin_config(board)
    with open_gpio_board(config, pin_factory) as board:
        assert isinstance(board, SensorSource) and isinstance(board, LedSink)
        board.show(LedFrame.from_mapping(config.square_count, {1: LedPattern.SLOW_BLINK}))
        assert board.read(timeout=5) is not None
        assert set(board.buttons) == {"hint", "ask"}
