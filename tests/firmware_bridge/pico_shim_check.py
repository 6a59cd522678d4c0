"""Checks of the simulated Pico's stand-ins, run under MicroPython by test_micropython.py.

The host is a stub here: each exchange answers "run on for another 10 ms from where you
are, nothing new".
Prints one JSON object of findings; the test compares it with what a Pico does.
"""

import gc
import json
import sys


class Host:
    def realtime_us(self):
        return 0

    def exchange(self, line):
        clock = int(line.split()[0])
        return f"s {clock} {clock + 10_000} 0 - 1"

    def leave(self, status):
        raise SystemExit(status)


sys.modules["hostpipe"] = Host()
import pico_shim  # noqa: E402

device = pico_shim.Device({"squares": [(2, 12), (3, 12)], "diodes": "cathode-to-row"})
pico_shim.install(device)
import time  # noqa: E402

import machine  # noqa: E402

found = {}

# Ticks wrap at 2**30 as on the chip, and stay small integers: no allocation.
device.advance((1 << 30) - 50)
time.sleep_us(1)  # the host speaks (that allocates: the host's part, between passes)


def sleep_across_the_wrap():
    """Allocation of 100 short sleeps (in a function: a new global would allocate)."""
    allocated = gc.mem_alloc()
    for _ in range(100):
        time.sleep_us(1)
    return gc.mem_alloc() - allocated


before = time.ticks_us()
found["ticks_alloc"] = sleep_across_the_wrap()
found["ticks_wrapped"] = [before > time.ticks_us(), time.ticks_diff(time.ticks_us(), before)]

# The watchdog resets a chip that is not fed in time, and only then.
dog = machine.WDT(timeout=100)
time.sleep_ms(60)
dog.feed()
time.sleep_ms(60)
try:
    time.sleep_ms(60)
    found["watchdog"] = "silent"
except pico_shim.Reboot as reboot:
    found["watchdog"] = reboot.reason

# A closed switch pulls its pulled-up column low only while its row is driven low.
device.wdt_timeout = 0
device.set_switches("1")  # square 1 (row pin 2, column pin 12) closed
row = machine.Pin(2, machine.Pin.OUT, value=1)
column = machine.Pin(12, machine.Pin.IN, machine.Pin.PULL_UP)
idle = column.value()
row.value(0)
selected = column.value()
found["column"] = [idle, selected]

print(json.dumps(found))
