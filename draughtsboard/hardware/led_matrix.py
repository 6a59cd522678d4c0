"""LEDs in a multiplexed GPIO matrix: one row lit at a time, fast enough to look steady.

Rows (anodes, usually through transistors) and columns (cathodes) are gpiozero output
devices; the refresh thread lights each row in turn for ``1 / (refresh_rate * rows)``
seconds. Stepped by hand (``start=False``), ``refresh(now)`` makes one full pass over the
rows and leaves them all dark, so a simulation sees every LED of the frame once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from gpiozero import DigitalOutputDevice
from gpiozero.exc import DeviceClosed
from gpiozero.pins import Factory

from .blink import BlinkingSink
from .config import BoardConfig
from .pins import resolve_pin_factory


class GpioMatrixLeds(BlinkingSink):
    """An :class:`~draughtsboard.board.ports.LedSink` on a row x column LED matrix."""

    def __init__(self, config: BoardConfig, *, pin_factory: Factory | None = None,
                 start: bool = True, clock: Callable[[], float] = time.monotonic) -> None:
        leds = config.leds
        if leds.driver != "gpio-matrix":
            raise ValueError(f"config's LED driver is {leds.driver!r}, not 'gpio-matrix'")
        super().__init__(config.square_count, clock)
        factory = resolve_pin_factory(pin_factory)
        self._rows: list[DigitalOutputDevice] = []
        self._columns: list[DigitalOutputDevice] = []
        try:
            for pin in leds.rows:
                self._rows.append(DigitalOutputDevice(
                    pin, active_high=leds.rows_active_high, pin_factory=factory))
            for pin in leds.columns:
                self._columns.append(DigitalOutputDevice(
                    pin, active_high=leds.columns_active_high, pin_factory=factory))
        except Exception:
            self._release()
            raise
        self._row_period = 1.0 / (leds.refresh_rate * len(self._rows))
        # _cells[r] = ((column device, square bit), ...)
        self._cells = tuple(
            tuple((self._columns[c], 1 << (sq - 1)) for c, sq in enumerate(row) if sq)
            for row in leds.squares)
        self._current = 0
        if start:
            self.start()

    def _light_row(self, r: int, lit: int) -> None:
        self._rows[self._current].off()
        for column, bit in self._cells[r]:
            column.value = bool(lit & bit)
        self._rows[r].on()
        self._current = r

    def refresh(self, now: float) -> int:
        """One full pass over the rows for time ``now`` (all dark afterwards)."""
        with self._lock:
            if self._closed:
                raise DeviceClosed("the LED driver is closed")
            lit = self._masks.lit(now)
            self._lit = lit
            for r in range(len(self._rows)):
                self._light_row(r, lit)
            self._rows[self._current].off()
            return lit

    def _write(self, lit: int) -> None:
        if not lit:
            for device in self._rows + self._columns:
                device.off()

    def _run(self) -> None:
        rows = len(self._rows)
        r = 0
        while not self._stop.is_set():
            with self._lock:
                if self._closed:
                    return
                self._light_row(r, self._masks.lit(self._clock()))
            r = (r + 1) % rows
            if self._stop.wait(self._row_period):
                return

    def _release(self) -> None:
        for device in self._rows + self._columns:
            device.close()
        self._rows.clear()
        self._columns.clear()
