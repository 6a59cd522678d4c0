"""One empty-board report for both backends (issue 43, item 5): ``diag --empty`` on pins
and ``diag --empty --backend serial`` print the same lines for the same fault, from one
function (`draughtsboard.hardware.board_map.empty_board_report`, which the composition
root passes to the serial diag); a microcontroller's wires are its own, so only the pins'
report names them."""

from __future__ import annotations

import argparse
import logging

import pytest

from draughtsboard.board.ports import mask_from_squares
from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.firmware_bridge import diag as serial_diag
from draughtsboard.firmware_bridge.emulator import SocketEmulator
from draughtsboard.hardware import diag
from draughtsboard.hardware.board_map import empty_board_report, render_map
from draughtsboard.hardware.virtual import simulated_switches

STUCK_17 = ("closed on an empty board: a stuck reed, a magnet nearby, or a short to its "
            "column")


def test_a_sound_empty_board_passes():
    assert empty_board_report(32, [], {}) == (
        "empty board: all 32 switches open and steady", True)
    assert empty_board_report(50, [], {7: 0}) == (
        "empty board: all 50 switches open and steady", True)


def test_closed_squares_come_first_then_the_flickers_with_their_wires_where_known():
    text, passed = empty_board_report(32, [17, 3], {5: 2, 3: 1},
                                      {3: "row 0 (BCM 5), column 2 (BCM 24)"})
    assert not passed
    assert text.splitlines() == [
        f"square 3 (row 0 (BCM 5), column 2 (BCM 24)): {STUCK_17}",
        f"square 17: {STUCK_17}",
        "square 3 (row 0 (BCM 5), column 2 (BCM 24)): flickered 1 times on an empty board: "
        "a loose wire or a failing reed",
        "square 5: flickered 2 times on an empty board: a loose wire or a failing reed"]


def _options(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    diag.add_arguments(parser)
    return parser.parse_args(list(argv))


@pytest.fixture
def quiet_link_logger():
    logger = logging.getLogger("draughtsboard.firmware_bridge")
    level = logger.level
    yield
    logger.setLevel(level)


def test_both_backends_say_the_same_of_a_stuck_reed(capsys, quiet_link_logger):
    assert diag.run(_options("--backend", "sim", "--empty", "--sim-fault", "stuck:17")) == 1
    pins = capsys.readouterr().out
    assert pins == f"square 17 (row 4 (BCM 16), column 0 (BCM 22)): {STUCK_17}\n"
    switches = simulated_switches(board_geometry(8), mask_from_squares([17]))
    with SocketEmulator(board_geometry(8), switches) as emulator:
        status = serial_diag.run(_options("--backend", "serial", "--port", emulator.url,
                                          "--empty"),
                                 render_map, diag.walk_leds, empty_board_report)
    assert status == 1
    serial = capsys.readouterr().out.splitlines()
    assert serial[0].startswith("8x8 board (serial socket://")
    assert serial[1:] == [f"square 17: {STUCK_17}"]
