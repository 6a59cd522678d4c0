"""Why gpiozero found no pins, in one line that says what is missing and what to do.

gpiozero tries each pin library in turn and, when none works, says only "Unable to load
any default pin factory!" (with a warning per library before it). A board owner needs
to know which of two things is missing, the GPIO chip (``/dev/gpiochip*``: not a Pi, or
its driver not loaded) or a pin library (lgpio: the ``[pi]`` extra installs it from PyPI
where the system has none), or, when both are there, what lgpio said (no permission on
the chip: the ``gpio`` group or a udev rule, docs/raspberry-pi.md).
"""

from __future__ import annotations

import glob
import importlib.util
import os
from collections.abc import Mapping, Sequence

from gpiozero.exc import BadPinFactory

# The pin libraries gpiozero can use on a Pi: the module, and gpiozero's factory name.
PIN_LIBRARIES = {"lgpio": "lgpio", "RPi.GPIO": "rpigpio", "pigpio": "pigpio"}
INSTALL_HINT = ("install the board with its [pi] extra, which brings lgpio from PyPI "
                "(.venv/bin/pip install -e 'src[pi]', docs/raspberry-pi.md)")


class NoGpioError(BadPinFactory):
    """No pin factory could be loaded; the message says why and what to do. Still the
    `BadPinFactory` gpiozero raised (an `ImportError` too), for whoever catches that."""


def gpio_chips() -> list[str]:
    """The GPIO character devices of this machine, ``/dev/gpiochip0`` first."""
    return sorted(glob.glob("/dev/gpiochip*"))


def installed_pin_libraries() -> list[str]:
    """Which of `PIN_LIBRARIES` this Python could import (found, not imported: lgpio's
    import makes a pipe, `lgpio_dir`)."""
    found = []
    for name in PIN_LIBRARIES:
        try:
            if importlib.util.find_spec(name) is not None:
                found.append(name)
        except (ImportError, ValueError):  # RPi.GPIO without RPi
            pass
    return found


def no_gpio_line(chips: Sequence[str], libraries: Sequence[str],
                 reasons: Mapping[str, str], denied: bool = False) -> str:
    """The one line: ``reasons`` are gpiozero's, by factory name (``lgpio``: what
    lgpio said when it was tried); ``denied``: this user may not open the chip for
    reading and writing. lgpio does not say so: its error for a chip it cannot open is
    "can not open gpiochip" whatever the cause (lgGpio.c, ``LG_CANNOT_OPEN_CHIP``), so
    the chip's permissions are looked at here (`chip_denied`)."""
    if not chips:
        return ("no GPIO chip: there is no /dev/gpiochip* on this machine (not a Raspberry "
                "Pi, or its GPIO driver is not loaded); without one, --backend sim "
                "simulates the board")
    if not libraries:
        return (f"no pin library: {chips[0]} is here but none of "
                f"{', '.join(PIN_LIBRARIES)} is installed in this Python: {INSTALL_HINT}")
    name = libraries[0]
    reason = reasons.get(PIN_LIBRARIES.get(name, name), "")
    said = f": {reason}" if reason else ""
    hint = ""
    if denied or "permission" in reason.lower() or "not permitted" in reason.lower():
        hint = (f" (the user needs read and write access to {chips[0]}: the gpio group, "
                "or a udev rule where there is none, docs/raspberry-pi.md)")
    return f"gpiozero could not use {chips[0]} through {name}{said}{hint}"


def fallback_reasons(messages: Sequence[str]) -> dict[str, str]:
    """gpiozero's "Falling back from lgpio: <why>" warnings, as {"lgpio": "<why>"}."""
    reasons = {}
    for message in messages:
        head, _, why = message.partition(": ")
        if head.startswith("Falling back from "):
            reasons[head.removeprefix("Falling back from ")] = why
    return reasons


def explain(warned: Sequence[str]) -> NoGpioError:
    """gpiozero's failure to find any pin factory ("Unable to load any default pin
    factory!") as a `NoGpioError` that says why, from this machine's chips and libraries
    and the warnings gpiozero gave on the way."""
    chips = gpio_chips()
    return NoGpioError(no_gpio_line(chips, installed_pin_libraries(),
                                    fallback_reasons(warned), chip_denied(chips)))


def chip_denied(chips: Sequence[str]) -> bool:
    """Whether this user may not read and write the first GPIO chip."""
    return bool(chips) and not os.access(chips[0], os.R_OK | os.W_OK)
