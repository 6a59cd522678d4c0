"""Boots the firmware on the simulated Pico, as the chip's runtime runs main.py.

Runs under MicroPython only (see pico_shim.py). run.mjs calls the steps below one after
the other, each from JavaScript, so that garbage is collected between them (this build
collects only when control is back in JavaScript): `prepare` installs the stand-ins,
`load` imports the firmware's modules and compiles main.py as the chip would at boot,
`probe` and `weigh` (when measuring) weigh a booted firmware, `run` runs
main.py, and again after every reset (machine.reset, the watchdog, the host).
An exception that ends main.py is printed on the serial line, as the chip's REPL would
print it, and the chip then idles until the watchdog (if started) resets it.
"""

import builtins
import gc
import json
import os
import sys

import hostpipe
import pico_shim

FLASH = "/flash"
STATE = {}  # type: dict  # (a comment: MicroPython has no typing) what the steps share


def log(text):
    sys.stderr.write(f"pico: {text}\n")


def prepare():
    with open("/harness/settings.json") as file:
        settings = json.load(file)
    device = pico_shim.Device(settings)
    pico_shim.install(device)
    sys.path.insert(0, FLASH)
    STATE["device"] = device
    STATE["modules"] = [
        name[:-3] for name in os.listdir(FLASH) if name.endswith(".py") and name != "main.py"
    ]
    gc.collect()  # done on the way back to JavaScript


def load():
    device = STATE["device"]
    device.measure.baseline = gc.mem_alloc()
    for name in STATE["modules"]:
        __import__(name)
    with open(FLASH + "/main.py") as file:
        STATE["main"] = compile(file.read(), "main.py", "exec")
    gc.collect()


def loaded():
    STATE["device"].measure.loaded = gc.mem_alloc()


def probe():
    """When measuring: build and boot main.py's hardware and firmware as its run() does,
    and keep them, so that `weigh`, after a collection, finds what they occupy. main.py
    runs as a module (its run() is not called); nothing it writes reaches the host."""
    device = STATE["device"]
    if not device.measure.enabled:
        return
    namespace = {"__name__": "probe"}
    try:
        exec(STATE["main"], namespace)
        core = sys.modules["core"]
        config = namespace["CONFIG"]
        cells = core.matrix_map(config["board_size"], config["from_top"])
        hw = namespace["PicoHardware"](config, len(cells))
        firmware = core.Firmware(
            hw, config["board_size"], cells, 1,
            debounce_scans=config["debounce_scans"], heartbeat_ms=config["heartbeat_ms"],
            snapshot_ms=config["snapshot_ms"], repeats=config["repeats"],
            repeat_ms=config["repeat_ms"], quiet_heartbeat_ms=config["quiet_heartbeat_ms"],
            quiet_after_ms=config["quiet_after_ms"],
        )
        device.connected = False
        device.until_rel = 1 << 29
        firmware.boot()
        STATE["probe"] = (namespace, cells, hw, firmware)
    except Exception as exc:  # main.py built otherwise: no figure rather than a wrong one
        log(f"cannot weigh a booted firmware: {exc!r}")
    gc.collect()


def weigh():
    device = STATE["device"]
    if STATE.pop("probe", None) is not None:
        device.measure.booted = gc.mem_alloc() - device.measure.loaded
    device.power_cycle()
    gc.collect()


def run():
    device = STATE["device"]
    real_print = builtins.print
    device.exchange()  # the host's first command: the time, the switches
    while True:
        device.events.append("boot")
        builtins.print = pico_shim.serial_print
        try:
            boot_once(device)
        except pico_shim.Reboot as reboot:
            builtins.print = real_print
            device.reboot(reboot.reason)
            for name in STATE["modules"]:
                sys.modules.pop(name, None)
        except pico_shim.Bootloader:
            builtins.print = real_print
            log("machine.bootloader(): the firmware has left")
            device.events.append("bootloader")
            device.until_rel = device.rel
            device.exchange()
            hostpipe.leave(0)


def boot_once(device):
    """main.py once; if it ends (an exception), the chip idles as its REPL would."""
    device.measure.main_starts()
    try:
        exec(STATE["main"], {"__name__": "__main__"})
        reason = "main.py returned"
    except (pico_shim.Reboot, pico_shim.Bootloader):
        raise
    except BaseException as exc:  # what reaches the REPL on the chip
        pico_shim.print_exception(exc)
        reason = f"{type(exc).__name__}: {exc}"
    log(f"firmware stopped ({reason}); idling")
    device.halted = True
    device.events.append("halted")
    while True:
        device.wait(1000)
