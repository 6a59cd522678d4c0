"""LEDs on a chain of 74HC595 shift registers: three pins for any number of squares.

Output ``k`` of the chain is output ``k % 8`` of register ``k // 8`` (register 0 nearest the
Pi); ``config.leds.order[k]`` names its square. The chain is written through gpiozero's SPI
interface (hardware SPI when the pins are the SPI0 pins, bit-banged otherwise; the chip
select is the latch, whose rising edge at the end of a transfer shows the new outputs) or
bit-banged with three gpiozero output devices. A frame is written only when the lit set
changes, so a steady frame costs nothing and a blinking one a write per half period.

The chain's OE pin (``enable`` in the config, active low, pulled up on the board) is
driven low only after the first frame is latched, and high again when the driver
closes: a 74HC595 powers up with random outputs, which would otherwise light random
LEDs from power-on until the service starts.

The refresh thread only wakes when the lit set changes (a blink edge, a new frame): the
chain holds its outputs by itself, so a thread starved by a busy neighbour at worst
shifts a blink edge by a few milliseconds, never dims or flickers a steady LED.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

from gpiozero import DigitalOutputDevice
from gpiozero.pins import Factory

from .blink import BlinkingSink
from .config import BoardConfig, ConfigError
from .pins import busy_problem, claim, is_busy_error, open_spi, resolve_pin_factory


class ShiftRegisterLeds(BlinkingSink):
    """An :class:`~draughtsboard.board.ports.LedSink` on a 74HC595 chain."""

    def __init__(self, config: BoardConfig, *, pin_factory: Factory | None = None,
                 start: bool = True, clock: Callable[[], float] = time.monotonic) -> None:
        leds = config.leds
        if leds.driver != "shift-register":
            raise ValueError(f"config's LED driver is {leds.driver!r}, not 'shift-register'")
        super().__init__(config.square_count, clock)
        self.registers = (len(leds.order) + 7) // 8
        self._width = 8 * self.registers
        self._output_of_square = {sq: k for k, sq in enumerate(leds.order) if sq}
        self._invert = 0 if leds.active_high else (1 << self._width) - 1
        factory = resolve_pin_factory(pin_factory)
        source = config.source
        self._spi = None
        self._devices: list[DigitalOutputDevice] = []
        self._enable: DigitalOutputDevice | None = None
        try:
            if leds.enable is not None:
                self._enable = claim("leds.enable", leds.enable, source, lambda: (
                    DigitalOutputDevice(leds.enable, active_high=False, initial_value=False,
                                        pin_factory=factory)))
            if leds.interface == "spi":
                self._spi = _open_chain_spi(factory, leds, source)
            else:
                for key in ("data", "clock", "latch"):
                    pin = getattr(leds, key)
                    self._devices.append(claim(f"leds.{key}", pin, source, functools.partial(
                        DigitalOutputDevice, pin, pin_factory=factory)))
            self.refresh(clock())
        except BaseException:
            self._release()
            raise
        if self._enable is not None:
            self._enable.on()  # the first frame is latched: outputs on
        if start:
            self.start()

    def outputs_of(self, lit: int) -> int:
        """Chain outputs (bit ``k`` = output ``k``) that light the squares in ``lit``."""
        outputs = 0
        output_of = self._output_of_square
        while lit:
            low = lit & -lit
            outputs |= 1 << output_of[low.bit_length()]
            lit ^= low
        return outputs ^ self._invert

    def _write(self, lit: int) -> None:
        outputs = self.outputs_of(lit)
        if self._spi is not None:
            # The first byte sent ends up in the register farthest from the Pi.
            data = [(outputs >> (8 * i)) & 0xFF for i in reversed(range(self.registers))]
            self._spi.transfer(data)
            return
        data, clock, latch = (device.pin for device in self._devices)
        for k in reversed(range(self._width)):
            data.state = outputs >> k & 1
            clock.state = 1
            clock.state = 0
        latch.state = 1
        latch.state = 0

    def _release(self) -> None:
        if self._enable is not None:
            self._enable.off()  # outputs off (the pull-up keeps them off after close)
            self._enable.close()
            self._enable = None
        if self._spi is not None:
            self._spi.close()
            self._spi = None
        for device in self._devices:
            device.close()
        self._devices.clear()


def _open_chain_spi(factory: Factory, leds, source: str):
    """gpiozero's SPI on the chain's pins; SPI0 switched off (or held) is one line."""
    try:
        return open_spi(factory, clock_pin=leds.clock, mosi_pin=leds.data, miso_pin=None,
                        select_pin=leds.latch)
    except Exception as error:
        if is_busy_error(error):
            raise ConfigError([busy_problem("leds.latch", leds.latch)], source) from None
        if type(error).__module__ == "lgpio" or isinstance(error, OSError):
            raise ConfigError([
                f"leds.interface: SPI0 would not open ({error}): is SPI enabled? "
                "sudo raspi-config nonint do_spi 0, then reboot"], source) from None
        raise
