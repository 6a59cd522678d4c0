"""Choosing the gpiozero pin factory, and claiming pins with errors a builder can act on.

Drivers take ``pin_factory`` as a keyword; ``None`` means gpiozero's own choice, which
follows the ``GPIOZERO_PIN_FACTORY`` environment variable and is only made when a driver
is opened, never when a module is imported.

A pin another driver or process holds (SPI enabled on the switch rows, the service still
running while ``diag`` starts) makes lgpio raise a bare "GPIO busy" that names no pin;
:func:`claim` turns it into one line naming the config key, the BCM and header pin and
the likely cause, as a :class:`~draughtsboard.hardware.config.ConfigError`.
"""

from __future__ import annotations

import errno
import logging
import threading
import warnings
from collections.abc import Callable
from typing import TypeVar

from gpiozero import Device
from gpiozero.exc import BadPinFactory, GPIOPinInUse, PinFactoryFallback, SPISoftwareFallback
from gpiozero.pins import SPI, Factory
from gpiozero.pins.mock import MockFactory, MockPin

from .config import ConfigError
from .lgpio_dir import keeping_cwd, prepare_lgpio
from .no_gpio import explain

# Physical pin on the 40-pin header of each BCM GPIO (every Pi since the B+).
HEADER_PIN = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19,
    9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35,
    16: 36, 26: 37, 20: 38, 21: 40,
}

# What usually holds a pin on Raspberry Pi OS, by BCM number.
USUAL_HOLDER = {
    0: "the HAT EEPROM bus (ID_SD)", 1: "the HAT EEPROM bus (ID_SC)",
    2: "I2C enabled", 3: "I2C enabled", 4: "1-Wire enabled",
    7: "SPI enabled (SPI0 holds BCM 7-11)", 8: "SPI enabled (SPI0 holds BCM 7-11)",
    9: "SPI enabled (SPI0 holds BCM 7-11)", 10: "SPI enabled (SPI0 holds BCM 7-11)",
    11: "SPI enabled (SPI0 holds BCM 7-11)",
    14: "the serial console enabled", 15: "the serial console enabled",
    18: "audio (I2S) enabled", 19: "audio (I2S) enabled", 20: "audio (I2S) enabled",
    21: "audio (I2S) enabled",
}
SERVICE_HINT = "the draughtsboard service running (sudo systemctl stop draughtsboard)"

T = TypeVar("T")


def pin_name(pin: int) -> str:
    """``BCM 8 (header pin 24)``."""
    header = HEADER_PIN.get(pin)
    return f"BCM {pin}" + (f" (header pin {header})" if header else "")


def is_busy_error(error: BaseException) -> bool:
    """Whether ``error`` says a pin is held elsewhere (lgpio, the kernel, or gpiozero)."""
    if isinstance(error, GPIOPinInUse):
        return True
    if type(error).__module__ == "lgpio" and "busy" in str(error).lower():
        return True
    return isinstance(error, OSError) and error.errno == errno.EBUSY


def busy_problem(where: str, pin: int) -> str:
    causes = [c for c in (USUAL_HOLDER.get(pin), SERVICE_HINT) if c]
    return f"{where}: {pin_name(pin)} is in use: {'? '.join(causes)}?"


def claim(where: str, pin: int, source: str, make: Callable[[], T]) -> T:
    """``make()``, the device on ``pin`` (the config key ``where``); a busy pin becomes a
    `ConfigError` of one line naming the pin and what usually holds it."""
    try:
        return make()
    except Exception as error:
        if is_busy_error(error):
            raise ConfigError([busy_problem(where, pin)], source) from None
        raise


def resolve_pin_factory(pin_factory: Factory | None) -> Factory:
    """The factory to use: the one given, else gpiozero's default (chosen lazily).

    gpiozero warns once for every library it tries and cannot use; on a machine without
    GPIO those warnings would come before the command's one-line error, and on a Pi they
    say nothing the log line naming the chosen factory does not. When none loads, the
    error says what is missing and what to do (`no_gpio.NoGpioError`)."""
    if pin_factory is not None:
        return pin_factory
    prepare_lgpio()  # gpiozero tries lgpio first: its pipe goes to the board's folder
    with warnings.catch_warnings(record=True) as warned, keeping_cwd():
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            Device.ensure_pin_factory()
        except BadPinFactory as error:
            raise explain([str(w.message) for w in warned
                           if issubclass(w.category, PinFactoryFallback)]) from error
    for other in warned:  # gpiozero's other warnings go out as they would have
        if not issubclass(other.category, PinFactoryFallback):
            warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
    log.info("GPIO pins through gpiozero's %s", type(Device.pin_factory).__name__)
    return Device.pin_factory


MOCK_HISTORY_LIMIT = 64  # state changes a mock pin keeps once trimmed


def trim_mock_history(factory: MockFactory, limit: int = MOCK_HISTORY_LIMIT) -> None:
    """Forget the older state changes of every pin of a mock factory.

    gpiozero's mock pins remember every change of state (for tests that look back); a
    scanned matrix changes 16-20 of them 100 times a second, so `play` on mock pins (the
    gpio backend with ``GPIOZERO_PIN_FACTORY=mock``) grew by megabytes a minute. Only the
    latest state matters to a driver."""
    for pin in list(factory.pins.values()):
        if isinstance(pin, MockPin) and len(pin.states) > limit:
            pin.clear_states()


log = logging.getLogger(__name__)
_GLOBAL_FACTORY_LOCK = threading.Lock()


def open_spi(factory: Factory, **pins: int | None) -> SPI:
    """``factory.spi(**pins)``, also when no global pin factory is set.

    gpiozero 2.0's software SPI bus (``SPISoftwareBus``, also behind the mock factory's
    SPI) builds its own ``Device`` without passing ``pin_factory`` on, which makes gpiozero
    look for a default factory and fail on a machine without GPIO. Its pins do use the
    factory given, so the global is lent for the length of the call and put back.
    """
    with _GLOBAL_FACTORY_LOCK:
        lent = Device.pin_factory is None
        if lent:
            Device.pin_factory = factory
        try:
            with warnings.catch_warnings():
                # On the mock factory "hardware" SPI is the software one; say nothing.
                if isinstance(factory, MockFactory):
                    warnings.simplefilter("ignore", SPISoftwareFallback)
                return factory.spi(**pins)
        finally:
            if lent:
                Device.pin_factory = None
