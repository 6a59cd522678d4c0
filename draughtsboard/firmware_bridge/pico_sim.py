"""Where ``emulate --micropython`` finds the Pico firmware under MicroPython.

That harness (chip stand-ins for MicroPython's WebAssembly build, a Node runtime and their
host driver) is a development tool of the source checkout, ``devtools/pico_sim``: a Pi
never runs it, so the installed package does not hold it. This module is the one place the
package looks for it, next to itself in a checkout; elsewhere the command gets one line
saying why it cannot run (an `ImportError`, which the command line shows as "not installed
here").
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import cast

from .emulator import DeviceFactory

MODULE = "devtools.pico_sim.device"
CHECKOUT_FILE = Path(__file__).resolve().parents[2] / "devtools" / "pico_sim" / "device.py"


class PicoSimMissing(ImportError):
    """The MicroPython harness is absent: an installed package, not a source checkout."""


def micropython_device() -> DeviceFactory:
    """The ``MicroPythonDevice`` class of the checkout's ``devtools/pico_sim``."""
    try:
        module = importlib.import_module(MODULE)
    except ModuleNotFoundError:
        if not CHECKOUT_FILE.is_file():
            raise PicoSimMissing(
                "the firmware under MicroPython (--micropython) runs from a source checkout "
                "only (devtools/pico_sim), not from an installed package") from None
        spec = importlib.util.spec_from_file_location(MODULE, CHECKOUT_FILE)
        if spec is None or spec.loader is None:
            raise PicoSimMissing(f"cannot load {CHECKOUT_FILE}") from None
        module = importlib.util.module_from_spec(spec)
        sys.modules[MODULE] = module  # its dataclasses look their module up by name
        spec.loader.exec_module(module)
    return cast(DeviceFactory, module.MicroPythonDevice)
