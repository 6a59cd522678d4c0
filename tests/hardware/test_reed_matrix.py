"""The real ReedMatrix scanning the simulated board, in virtual time."""

from __future__ import annotations

import dataclasses
import time

import pytest
from gpiozero.exc import DeviceClosed

from draughtsboard.board.ports import SensorSource, mask_from_squares
from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.hardware.config import builtin_config
from draughtsboard.hardware.layout import CORNERS, LINES, corner_map
from draughtsboard.hardware.reed_matrix import (
    IDLE_AFTER,
    IDLE_SCAN_RATE,
    REST_STEPS,
    ReedMatrix,
    ScanPacer,
)
from draughtsboard.hardware.simulation import SimulatedBoard

from ..web.helpers import wait_until
from .conftest import VirtualScans
from .woken import a_waiting_read_returns_when_woken


def test_the_first_snapshot_comes_after_the_debounce_scans(sim_board, scans):
    sim_board.simulation.set_occupied([1, 2, 3])
    period = scans.period
    snapshots = scans.run(10 * period)
    assert len(snapshots) == 1
    assert snapshots[0].squares == [1, 2, 3]
    assert snapshots[0].timestamp == pytest.approx(2 * period)
    assert isinstance(sim_board.sensors, SensorSource)


def test_lifting_and_placing_publish_changes_with_their_time(sim_board, scans):
    hand = sim_board.simulation
    hand.set_occupied([5])
    scans.run(0.1)
    hand.move(5, 9, at=0.2, hold=0.3)
    snapshots = scans.run(1.0)
    assert [s.squares for s in snapshots] == [[], [9]]
    # The lift at 0.2 s counts on the third scan at or after it; the same for the placing.
    assert snapshots[0].timestamp == pytest.approx(0.2 + 2 * scans.period)
    assert snapshots[1].timestamp == pytest.approx(0.5 + 2 * scans.period)
    assert sim_board.latest() == snapshots[-1]


def test_switch_bounce_and_a_brushing_hand_are_filtered(sim_board, scans):
    hand = sim_board.simulation
    scans.run(0.1)
    hand.place(7, at=0.2, bounce=2, bounce_interval=scans.period)
    hand.brush(12, at=0.5, duration=scans.period)
    snapshots = scans.run(1.0)
    assert [s.squares for s in snapshots] == [[7]]
    stats = sim_board.sensors.stats()
    assert stats.changes == 1
    assert stats.bounces_filtered == 3
    assert sim_board.sensors.bounces_by_square() == {7: 2, 12: 1}
    assert stats.scans_per_second == pytest.approx(100)


def test_every_square_is_seen_on_its_own_bit(config):
    with open_simulated_board(config) as board:
        scans = VirtualScans(board)
        for square in range(1, config.square_count + 1):
            board.simulation.set_occupied([square])
            snapshot = scans.run(4 * scans.period)[-1]
            assert snapshot.occupied == 1 << (square - 1)


@pytest.mark.parametrize("origin", CORNERS)
@pytest.mark.parametrize("rows_along", LINES)
@pytest.mark.parametrize("polarity", [True, False])
def test_any_wiring_and_polarity_reads_the_same_squares(origin, rows_along, polarity):
    base = builtin_config(board_geometry(8))

    matrix = dataclasses.replace(
        base.matrix, active_low=polarity,
        squares=corner_map(board_geometry(8), origin, rows_along))
    config = dataclasses.replace(base, matrix=matrix)
    position = [1, 2, 3, 12, 17, 32]
    with open_simulated_board(config, occupied=position) as board:
        assert VirtualScans(board).run(0.05)[-1].occupied == mask_from_squares(position)


def test_many_scans_run_in_constant_memory(sim_board, scans):
    hand = sim_board.simulation
    for i in range(20):
        hand.move(1 + i % 5, 10 + i % 5, at=0.05 * i, hold=0.02)
    scans.run(5.0)
    assert max(len(pin.states) for pin in hand.factory.pins.values()) <= 65


def test_read_consumes_and_waits_no_longer_than_asked(sim_board):
    assert sim_board.read(timeout=0) is None
    assert sim_board.read(timeout=0.01) is None
    for t in range(3):
        sim_board.step(t * 0.005)
    assert sim_board.read(timeout=0) is not None
    assert sim_board.read(timeout=0) is None


def test_closing_twice_is_fine_and_scanning_after_is_not(sim_board):
    sim_board.close()
    sim_board.close()
    assert sim_board.sensors.closed
    with pytest.raises(DeviceClosed):
        sim_board.sensors.scan_once(0.0)


def test_the_scan_thread_publishes_on_its_own():
    with open_simulated_board(board_geometry(8), occupied=[1, 32], real_time=True) as board:
        assert board.sensors.is_scanning
        snapshot = board.read(timeout=5)
        assert snapshot is not None and snapshot.squares == [1, 32]
    assert not board.sensors.is_scanning


def test_scan_once_alone_moves_the_simulated_hand(sim_board):
    sim_board.simulation.place(4, at=0.05)
    published = [sim_board.sensors.scan_once(i * 0.005) for i in range(20)]
    assert [s.squares for s in published if s] == [[], [4]]
    assert sim_board.simulation.now == pytest.approx(19 * 0.005)


def test_importing_the_drivers_loads_no_pi_only_library():
    import subprocess
    import sys

    code = ("import sys, draughtsboard.hardware.backends, draughtsboard.hardware.diag; "
            "print(sorted(m for m in ('lgpio', 'RPi', 'pigpio', 'spidev') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_an_idle_board_is_scanned_less_often_until_something_changes():
    """At 100 scans a second while anything changes; after IDLE_AFTER seconds of scans
    that read nothing new, IDLE_SCAN_RATE; full rate again from the first scan that reads
    a change (its debounce runs at full rate)."""
    pacer = ScanPacer(0.01, REST_STEPS, now=0.0)
    now, steps = 0.0, []
    while now < IDLE_AFTER + 0.2:
        steps.append(pacer.next_step(now, busy=False))
        now += steps[-1]
    assert set(steps[: round(IDLE_AFTER / 0.01) - 1]) == {0.01}
    assert steps[-1] == pytest.approx(1 / IDLE_SCAN_RATE)
    assert pacer.next_step(now, busy=True) == 0.01  # a lifted piece: full rate at once
    assert pacer.next_step(now + 0.01, busy=False) == 0.01


def test_the_longer_nothing_changes_the_longer_the_scan_sleeps():
    """40 scans a second through a player's think of up to 10 s, then 10 however long the
    silence: a move is never seen more than 100 ms late, nor timed later on the clock."""
    pacer = ScanPacer(0.01, REST_STEPS, now=0.0)
    assert [pacer.next_step(t, busy=False) for t in (1.9, 2.0, 9.9, 10.0, 29.9, 30.0, 3600)] \
        == pytest.approx([0.01, 0.025, 0.025, 0.1, 0.1, 0.1, 0.1])
    assert pacer.next_step(3600.5, busy=True) == 0.01


def test_a_waiting_read_returns_when_woken():
    """The session wakes its controller thread for a command: the read it waits in
    returns at once, with nothing."""
    with open_simulated_board(board_geometry(8), occupied=[1], real_time=True) as board:
        assert board.read(timeout=5) is not None  # the first snapshot
        assert a_waiting_read_returns_when_woken(board)


@pytest.mark.parametrize("told", [True, False])
def test_a_touched_board_is_scanned_at_once_however_long_its_idle_pause(told):
    """The simulated board tells its scanner when a hand moves a switch (`nudge`), so it
    may idle at a scan a second. Here the pause is a thousand seconds (the scanner's
    clock runs a thousand times fast, so its two quiet seconds pass in two
    milliseconds): the lift is seen at once when the board tells, and not at all within
    the test's wait when it does not."""
    config = builtin_config(board_geometry(8))
    # 1 is not the last piece of its matrix column: lifting it changes no column's level,
    # so the pins' watch between scans (test_matrix_watch.py) sees nothing either
    other = next(row[0] for row in config.matrix.squares[1:] if row[0])
    simulation = SimulatedBoard(config, occupied=[1, other])
    matrix = ReedMatrix(config, pin_factory=simulation.factory,
                        clock=lambda: time.monotonic() * 1000, before_scan=simulation.advance,
                        rest_steps=((IDLE_AFTER, 0.001),))
    if told:
        simulation.on_touch = matrix.nudge
    try:
        first = matrix.read(timeout=10)
        assert first is not None and first.squares == sorted([1, other])
        wait_until(lambda: matrix.is_idle, interval=0.001, what="the scan's idle pause")
        simulation.set_switch(1, False)
        lifted = matrix.read(timeout=10 if told else 0.3)
        assert (lifted is not None and lifted.squares == [other]) is told
    finally:
        matrix.close()  # wakes an idle pause at once
    assert not matrix.is_scanning


def test_scanning_plain_mock_pins_for_hours_keeps_their_history_bounded():
    """gpiozero's mock pins remember every change of state; the gpio backend on them
    (``GPIOZERO_PIN_FACTORY=mock``) changed 16 row states a scan and grew by megabytes a
    minute. 6,000 scans (a minute at the full rate, 12,000 row states) leave each pin
    with a few hundred remembered states at most, the LED pins on the same factory
    included."""
    from gpiozero.pins.mock import MockFactory

    from draughtsboard.board.ports import LedFrame, LedPattern
    from draughtsboard.hardware.matrix_pins import TRIM_EVERY
    from draughtsboard.hardware.shift_register import ShiftRegisterLeds

    config = builtin_config(board_geometry(8))
    factory = MockFactory()
    matrix = ReedMatrix(config, pin_factory=factory, start=False)
    leds = ShiftRegisterLeds(config, pin_factory=factory, start=False)
    try:
        for i in range(6_000):
            matrix.scan_once(i * 0.01)
            if i % 100 == 0:  # a new LED frame a second: 32 LEDs shifted out on SPI
                leds.show(LedFrame.from_mapping(32, {1 + i // 100 % 32: LedPattern.ON}))
                leds.refresh(i * 0.01)
        longest = max(len(pin.states) for pin in factory.pins.values())
        assert longest <= 2 * TRIM_EVERY + 2
    finally:
        leds.close()
        matrix.close()
