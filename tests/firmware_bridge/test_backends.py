"""The factories cli.py will call give a working board."""

from draughtsboard.board.ports import LedFrame, LedPattern, LedSink, SensorSource
from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.firmware_bridge.backends import open_emulated_board, open_serial_board
from draughtsboard.hardware.virtual import simulated_switches


def test_an_emulated_board_reports_its_switches_and_takes_led_frames():
    switches = simulated_switches(board_geometry(7), 0b1001)
    board = open_emulated_board(board_geometry(7), switches=switches, fault_rate=0.02, seed=1)
    try:
        assert isinstance(board, SensorSource) and isinstance(board, LedSink)
        assert board.square_count == 25
        snapshot = board.read(timeout=5.0)
        assert snapshot is not None and snapshot.occupied == 0b1001
        board.show(LedFrame.from_mapping(25, {25: LedPattern.ON}))
        pins = board.emulator.device.pins
        assert board.wait_until(lambda: pins.leds[24], 5.0)
    finally:
        board.close()
        board.close()


def test_a_serial_board_sizes_itself_from_its_board():
    board = open_serial_board("loop://", board_geometry(10))
    try:
        assert board.square_count == 50
    finally:
        board.close()
