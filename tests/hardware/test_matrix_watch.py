"""A board at rest: the matrix pins watch the columns between scans, and an edge wakes the
scan. Which touches make an edge, and which wait for the next scan, on the simulated
board's pins (edges as a real diode matrix makes them) and on gpiozero's plain mock pins
(the gpio backend with ``GPIOZERO_PIN_FACTORY=mock``)."""

from __future__ import annotations

import threading
import time

from gpiozero.pins.mock import MockFactory

from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.hardware.config import builtin_config
from draughtsboard.hardware.matrix_pins import GpiozeroMatrixPins
from draughtsboard.hardware.reed_matrix import IDLE_AFTER, ReedMatrix
from draughtsboard.hardware.simulation import SimulatedBoard

CONFIG = builtin_config(board_geometry(8))
COLUMN_0 = [row[0] for row in CONFIG.matrix.squares]  # the squares of matrix column 0


def watched(simulation: SimulatedBoard):
    pins = GpiozeroMatrixPins(CONFIG.matrix, simulation.factory)
    edges: list[int] = []
    return pins, edges, lambda: edges.append(1)


def test_a_column_edge_comes_when_its_first_switch_closes_or_its_last_one_opens():
    simulation = SimulatedBoard(CONFIG, occupied=[COLUMN_0[0]])
    pins, edges, on_edge = watched(simulation)
    try:
        assert pins.watch(on_edge, closed_columns=0b0001) is False  # as the scan left it
        simulation.set_switch(COLUMN_0[0], False)  # the last piece of its column lifted
        assert len(edges) == 1
        simulation.set_switch(COLUMN_0[3], True)  # the first put back into it
        assert len(edges) == 2
    finally:
        pins.close()


def test_lifting_one_of_two_pieces_in_a_column_makes_no_edge():
    """With every row driven a column reads closed while any of its switches is closed:
    this lift waits for the next scan (docs/hardware.md)."""
    simulation = SimulatedBoard(CONFIG, occupied=COLUMN_0[:2])
    pins, edges, on_edge = watched(simulation)
    try:
        pins.watch(on_edge, closed_columns=0b0001)
        simulation.set_switch(COLUMN_0[1], False)
        simulation.set_switch(COLUMN_0[5], True)  # nor a piece put beside them
        assert edges == []
        simulation.set_switch(COLUMN_0[0], False)
        simulation.set_switch(COLUMN_0[5], False)  # the last one: now the column rises
        assert len(edges) == 1
    finally:
        pins.close()


def test_a_change_between_the_scan_and_the_watch_is_told_by_the_watch_itself():
    simulation = SimulatedBoard(CONFIG, occupied=[COLUMN_0[0]])
    pins, edges, on_edge = watched(simulation)
    try:
        assert pins.watch(on_edge, closed_columns=0) is True  # the scan saw it empty
        assert edges == []
    finally:
        pins.close()


def test_after_unwatch_the_scan_reads_every_square_and_nothing_calls_back():
    simulation = SimulatedBoard(CONFIG, occupied=COLUMN_0[:2])
    pins, edges, on_edge = watched(simulation)
    try:
        pins.watch(on_edge, closed_columns=0b0001)
        pins.unwatch()
        pins.unwatch()  # twice is fine
        simulation.set_switch(COLUMN_0[0], False)
        simulation.set_switch(COLUMN_0[1], False)
        assert edges == []
        pins.select(2)
        simulation.set_switch(CONFIG.matrix.squares[2][1], True)
        assert pins.read() == 0b0010
        pins.release()
    finally:
        pins.close()


def test_plain_mock_pins_call_back_when_a_column_is_driven():
    """gpiozero's mock pins: a test (or nobody) drives a column input low and high."""
    factory = MockFactory()
    pins = GpiozeroMatrixPins(CONFIG.matrix, factory)
    edges: list[int] = []
    try:
        column = factory.pin(CONFIG.matrix.columns[2])
        assert pins.watch(lambda: edges.append(1), closed_columns=0) is False
        column.drive_low()
        column.drive_high()
        assert len(edges) == 2
        pins.unwatch()
        column.drive_low()
        assert len(edges) == 2
    finally:
        pins.close()


class ArmedPins(GpiozeroMatrixPins):
    """The matrix pins, telling the test each time the scan thread starts to watch."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.armed = threading.Event()

    def watch(self, on_edge, closed_columns: int) -> bool:
        changed = super().watch(on_edge, closed_columns)
        self.armed.set()
        return changed


def test_an_edge_wakes_a_scan_that_sleeps_a_thousand_seconds():
    """No hand tells this scanner anything: only the column's edge. Its clock runs a
    thousand times fast, so its quiet seconds pass in milliseconds and its pause after
    them is a thousand seconds."""
    simulation = SimulatedBoard(CONFIG, occupied=[COLUMN_0[0], CONFIG.matrix.squares[0][1]])
    pins = ArmedPins(CONFIG.matrix, simulation.factory)
    matrix = ReedMatrix(CONFIG, pins=pins, clock=lambda: time.monotonic() * 1000,
                        before_scan=simulation.advance, rest_steps=((IDLE_AFTER, 0.001),))
    try:
        first = matrix.read(timeout=10)
        assert first is not None and len(first.squares) == 2
        assert pins.armed.wait(10)
        simulation.set_switch(COLUMN_0[0], False)
        lifted = matrix.read(timeout=10)
        assert lifted is not None and lifted.squares == [CONFIG.matrix.squares[0][1]]
    finally:
        matrix.close()
    assert not matrix.is_scanning
