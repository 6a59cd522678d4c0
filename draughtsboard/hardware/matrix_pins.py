"""The switch matrix's pins: select one row, read every column of it.

Two ways to reach them, the same to the scanner:

* :class:`GpiozeroMatrixPins`: one gpiozero device per pin, on any pin factory (the mock
  pins of the simulator and the tests included): a write to deselect the last row, one
  to select the next, and a read per column. Between the scans of a board at rest it can
  watch the columns (:meth:`GpiozeroMatrixPins.watch`): every row driven, an edge on a
  column calls back, so the scan sleeps until then or its next scan.
* :class:`LgpioGroupPins`: on a Pi through lgpio, the rows as one output group and the
  columns as one input group: one kernel call selects a row (and deselects the last),
  one reads all its columns. A 10x10 scan costs 21 calls instead of 70.

On real pins both wait ``settle_us`` after selecting a row: a column that the previous
row held low rises through its pull-up only after a few microseconds (50 kOhm of internal
pull-up and 100-300 pF of wiring: 5-15 us; 10 kOhm external: 1-3 us), and a column read
before then shows the previous row's switch in this row on every scan, a ghost that no
debouncing hides. The wait is a busy loop: a sleep would hand the interpreter to another
thread for up to its 5 ms switch interval, ten times a scan.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable, Sequence

from gpiozero import DigitalOutputDevice, InputDevice
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from .config import MatrixConfig
from .pins import claim, trim_mock_history

# Scans between two trims of mock pins' histories (`trim_mock_history`): about every 2.5 s
# at 100 scans a second, a few thousand states per pin at most.
TRIM_EVERY = 256


def settle(microseconds: int) -> None:
    """Wait ``microseconds`` without giving up the interpreter."""
    if microseconds <= 0:
        return
    end = time.perf_counter_ns() + microseconds * 1000
    while time.perf_counter_ns() < end:
        pass


class GpiozeroMatrixPins:
    """Rows and columns as gpiozero devices (any factory). ``source`` names the config
    in errors. Mock pins have no capacitance: no settle time there."""

    def __init__(self, matrix: MatrixConfig, factory: Factory, source: str = "config") -> None:
        active_low = matrix.active_low
        self.settle_us = 0 if isinstance(factory, MockFactory) else matrix.settle_us
        self._rows: list[DigitalOutputDevice] = []
        self._columns: list[InputDevice] = []
        self._on_edge: Callable[[], None] | None = None
        try:
            for i, pin in enumerate(matrix.rows):
                self._rows.append(claim(f"matrix.rows[{i}]", pin, source, functools.partial(
                    DigitalOutputDevice, pin, active_high=not active_low, initial_value=False,
                    pin_factory=factory)))
            for i, pin in enumerate(matrix.columns):
                self._columns.append(claim(f"matrix.columns[{i}]", pin, source,
                                           functools.partial(InputDevice, pin,
                                                             pull_up=active_low,
                                                             pin_factory=factory)))
        except BaseException:
            self.close()
            raise
        # The hot loop talks to the pins directly: raw levels, precomputed from the polarity.
        self._row_pins = [row.pin for row in self._rows]
        self._column_pins = [(column.pin, 1 << c) for c, column in enumerate(self._columns)]
        self._select_level = not active_low
        self._idle_level = active_low
        self._closed_level = not active_low
        self._selected: int | None = None
        self._mock_factory = factory if isinstance(factory, MockFactory) else None
        self._releases = 0

    def select(self, row: int) -> None:
        """Drive ``row`` to its selected level (and the row selected before back to idle)."""
        if self._selected is not None:
            self._row_pins[self._selected].state = self._idle_level
        self._row_pins[row].state = self._select_level
        self._selected = row
        if self.settle_us:
            settle(self.settle_us)

    def read(self) -> int:
        """Bit ``c`` set when column ``c`` sees a closed switch in the selected row."""
        closed = self._closed_level
        bits = 0
        for pin, bit in self._column_pins:
            if pin.state == closed:
                bits |= bit
        return bits

    def release(self) -> None:
        """Every row back to idle (the end of a scan)."""
        if self._selected is not None:
            self._row_pins[self._selected].state = self._idle_level
            self._selected = None
        if self._mock_factory is not None:
            self._releases += 1
            if self._releases % TRIM_EVERY == 0:
                trim_mock_history(self._mock_factory)

    def watch(self, on_edge: Callable[[], None], closed_columns: int) -> bool:
        """Drive every row and call ``on_edge()`` (from the pins' event thread) on any edge
        of a column, until :meth:`unwatch`. ``closed_columns``: bit ``c`` set when column
        ``c`` holds a closed switch; True when the columns read otherwise already (a change
        since the last scan, which no edge will report).

        With every row driven a column reads "closed" while any of its switches is
        closed: an edge comes only when its first switch closes or its last one opens."""
        for pin in self._row_pins:
            pin.state = self._select_level
        if self.settle_us:
            settle(self.settle_us)
        self._on_edge = on_edge
        for pin, _ in self._column_pins:
            pin.edges = "both"
            pin.when_changed = self._column_edge  # gpiozero holds it weakly: a method
        return self.read() != closed_columns

    def _column_edge(self, ticks, state) -> None:
        on_edge = self._on_edge
        if on_edge is not None:
            on_edge()

    def unwatch(self) -> None:
        """Stop watching: no more calls back, every row back to idle, ready to scan."""
        if self._on_edge is None:
            return
        self._on_edge = None
        for pin, _ in self._column_pins:
            pin.when_changed = None
        for pin in self._row_pins:
            pin.state = self._idle_level

    def close(self) -> None:
        if self._rows:
            self.unwatch()
        for device in self._rows + self._columns:
            device.close()
        self._rows.clear()
        self._columns.clear()


class LgpioGroupPins:
    """Rows as one lgpio output group, columns as one input group, on gpiochip ``chip``.

    ``lgpio`` is the module (passed in: it only exists on a Pi, and the tests give a
    stand-in). A busy pin is found by claiming the pins one by one, so the error names it.
    """

    def __init__(self, matrix: MatrixConfig, chip: int, lgpio, source: str = "config") -> None:
        self._lg = lgpio
        self.settle_us = matrix.settle_us
        self._rows = list(matrix.rows)
        self._columns = list(matrix.columns)
        active_low = matrix.active_low
        n = len(self._rows)
        self._all_rows = (1 << n) - 1
        # group_write levels: idle rows high (active-low) or low (active-high)
        self._idle = self._all_rows if active_low else 0
        self._levels = [self._idle ^ (1 << r) for r in range(n)]
        self._invert = (1 << len(self._columns)) - 1 if active_low else 0
        pull = lgpio.SET_PULL_UP if active_low else lgpio.SET_PULL_DOWN
        self._handle = lgpio.gpiochip_open(chip)
        self._claimed: list[int] = []
        try:
            self._claim_group(source, "matrix.rows", self._rows, lambda: lgpio.group_claim_output(
                self._handle, self._rows, [1 if active_low else 0] * n))
            self._claim_group(source, "matrix.columns", self._columns,
                              lambda: lgpio.group_claim_input(self._handle, self._columns, pull))
        except BaseException:
            self.close()
            raise

    def _claim_group(self, source: str, key: str, pins: Sequence[int], make) -> None:
        try:
            make()
        except Exception as error:
            self._find_busy(source, key, pins, error)
            raise
        self._claimed.append(pins[0])

    def _find_busy(self, source: str, key: str, pins: Sequence[int], error: Exception) -> None:
        """Raise the one-line error naming the first pin of ``pins`` that is held."""
        lg = self._lg
        for i, pin in enumerate(pins):
            def probe(pin=pin):
                lg.gpio_claim_input(self._handle, pin)
                lg.gpio_free(self._handle, pin)
            claim(f"{key}[{i}]", pin, source, probe)

    def select(self, row: int) -> None:
        self._lg.group_write(self._handle, self._rows[0], self._levels[row], self._all_rows)
        if self.settle_us:
            settle(self.settle_us)

    def read(self) -> int:
        return self._lg.group_read(self._handle, self._columns[0]) ^ self._invert

    def release(self) -> None:
        self._lg.group_write(self._handle, self._rows[0], self._idle, self._all_rows)

    def close(self) -> None:
        if self._handle is None:
            return
        for first in self._claimed:
            try:
                self._lg.group_free(self._handle, first)
            except Exception:  # closing anyway: the chip handle goes next
                pass
        self._claimed.clear()
        self._lg.gpiochip_close(self._handle)
        self._handle = None


def open_matrix_pins(matrix: MatrixConfig, factory: Factory, source: str = "config"):
    """Group reads through lgpio when gpiozero's factory is lgpio's (a Pi), else one
    gpiozero device per pin.

    lgpio is never imported here for another factory: importing it makes a pipe in its
    working folder (`lgpio_dir`), which the simulator must not need. An lgpio factory
    means gpiozero's lgpio module, and lgpio with it, is loaded already."""
    lgpio_pins = sys.modules.get("gpiozero.pins.lgpio")
    if lgpio_pins is not None and isinstance(factory, lgpio_pins.LGPIOFactory):
        return LgpioGroupPins(matrix, factory.chip, sys.modules["lgpio"], source)
    return GpiozeroMatrixPins(matrix, factory, source)
