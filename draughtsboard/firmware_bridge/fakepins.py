"""Fake pins for the firmware logic: its hardware interface on a simulated board.

Simulation is part of the product: the emulator runs the real firmware over these pins,
and tests use them the way they would use a Pico. The switch matrix is not modelled
here: the switches are any object that says which columns read closed while given rows
are driven (`Switches.columns_closed`), in practice the hardware layer's simulated board,
the one model of the diode matrix (wiring faults included), which the composition root
hands in; this package never imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here on the RP2040


class Occupancy(Protocol):
    """The closed switches as a mask (bit n-1 = square n): what a bench records."""

    @property
    def occupied(self) -> int: ...


class Switches(Occupancy, Protocol):
    """A board's switches as the firmware scans them: drive rows, read columns."""

    def columns_closed(self, rows: int) -> int:
        """Bit ``c`` set when column ``c`` reads a closed switch while the rows in the
        mask ``rows`` are driven."""
        ...


class StaticSwitches:
    """A hand-set mask, for a device that scans the switches itself from the mask (the
    whole firmware under MicroPython, whose stand-in Pico has its own pins): no matrix."""

    def __init__(self, occupied: int = 0) -> None:
        self.occupied = occupied

    def place(self, square: int) -> None:
        self.occupied |= 1 << (square - 1)

    def lift(self, square: int) -> None:
        self.occupied &= ~(1 << (square - 1))


class FakePins:
    """The firmware's hardware interface (see firmware/core.py) on a simulated board.

    ``cells`` is the firmware's wiring (square ``n`` on matrix row and column
    ``cells[n - 1]``), the simulated board's too (the reference wiring).

    Bytes the host sends are queued with ``feed``; bytes the device writes are collected
    with ``take``. ``leds[n - 1]`` is whether square n's LED is lit right now.
    """

    def __init__(
        self,
        cells: Sequence[tuple[int, int]],
        switches: Switches,
        clock: Callable[[], float],
        ticks_period: int = TICKS_PERIOD,
    ) -> None:
        self.switches = switches
        self.clock = clock
        self.ticks_period = ticks_period
        self.active_row: int | None = None
        self.leds = [False] * len(cells)
        self.led_changes = 0
        self.rx = bytearray()
        self.tx = bytearray()

    # -- the firmware's interface ----------------------------------------------------

    def ticks_ms(self) -> int:
        return int(self.clock() * 1000) % self.ticks_period

    def ticks_diff(self, new: int, old: int) -> int:
        half = self.ticks_period // 2
        return ((new - old + half) % self.ticks_period) - half

    def set_row(self, row: int, active: bool) -> None:
        if active:
            self.active_row = row
        elif self.active_row == row:
            self.active_row = None

    def read_columns(self) -> int:
        """The column bits of the active row: bit c set when its switch is closed."""
        if self.active_row is None:
            return 0
        return self.switches.columns_closed(1 << self.active_row)

    def set_led(self, square: int, on: bool) -> None:
        self.leds[square - 1] = on
        self.led_changes += 1

    def read_into(self, buffer: bytearray) -> int:
        """Up to ``len(buffer)`` waiting bytes from the host (the rest wait for the next
        pass, as in the Pico's input buffer)."""
        n = min(len(buffer), len(self.rx))
        buffer[:n] = self.rx[:n]
        del self.rx[:n]
        return n

    def write(self, data, n: int | None = None) -> bool:
        """Bytes from the device: ``data[:n]`` (all of it when ``n`` is None). Always taken
        (a host on a socket or in a test always reads)."""
        self.tx.extend(data if n is None else memoryview(data)[:n])
        return True

    # -- the test's side ---------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes from the host, delivered at the device's next poll."""
        self.rx.extend(data)

    def take(self) -> bytes:
        """Everything the device wrote since the last call."""
        data = bytes(self.tx)
        self.tx.clear()
        return data

    def lit(self) -> set[int]:
        return {i + 1 for i, on in enumerate(self.leds) if on}
