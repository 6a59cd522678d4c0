"""Choosing the gpiozero pin factory without touching a Pi-only library at import time.

Drivers take ``pin_factory`` as a keyword; ``None`` means gpiozero's own choice, which
follows the ``GPIOZERO_PIN_FACTORY`` environment variable and is only made when a driver
is opened, never when a module is imported.
"""

from __future__ import annotations

import logging
import threading
import warnings

from gpiozero import Device
from gpiozero.exc import PinFactoryFallback, SPISoftwareFallback
from gpiozero.pins import SPI, Factory
from gpiozero.pins.mock import MockFactory


def resolve_pin_factory(pin_factory: Factory | None) -> Factory:
    """The factory to use: the one given, else gpiozero's default (chosen lazily).

    gpiozero warns once for every library it tries and cannot use; on a machine without
    GPIO those warnings would come before the command's one-line error, and on a Pi they
    say nothing the log line naming the chosen factory does not."""
    if pin_factory is not None:
        return pin_factory
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PinFactoryFallback)
        Device.ensure_pin_factory()
    log.info("GPIO pins through gpiozero's %s", type(Device.pin_factory).__name__)
    return Device.pin_factory


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
