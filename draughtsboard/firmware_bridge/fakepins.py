"""Fake pins for the firmware logic: a switch matrix read from an occupancy mask.

Simulation is part of the product: the emulator runs the real firmware over these pins,
and tests use them the way they would use a Pico. The switches are any object with an
``occupied`` attribute (a mask, bit n-1 = square n), read at every scan, so a virtual board
(the hardware layer's SimulatedBoard, wrapped by the composition root) can drive them
without this package importing it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here on the RP2040


class Switches(Protocol):
    """What the fake matrix reads: the occupied squares as a mask."""

    @property
    def occupied(self) -> int: ...  # read only: a plain attribute or a property will do


class StaticSwitches:
    """A hand-set switch state for tests and the stand-alone emulator."""

    def __init__(self, occupied: int = 0) -> None:
        self.occupied = occupied

    def place(self, square: int) -> None:
        self.occupied |= 1 << (square - 1)

    def lift(self, square: int) -> None:
        self.occupied &= ~(1 << (square - 1))


class FakePins:
    """The firmware's hardware interface (see firmware/core.py) on a simulated matrix.

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
        rows = max(r for r, _ in cells) + 1
        self._row_cells: list[list[tuple[int, int]]] = [[] for _ in range(rows)]
        for index, (r, c) in enumerate(cells):
            self._row_cells[r].append((1 << index, 1 << c))
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
        occupied = self.switches.occupied
        bits = 0
        for square_bit, column_bit in self._row_cells[self.active_row]:
            if occupied & square_bit:
                bits |= column_bit
        return bits

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
