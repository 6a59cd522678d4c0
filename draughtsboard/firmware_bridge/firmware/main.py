"""Raspberry Pi Pico entry point: binds the firmware logic to real pins and USB serial.

Only ever run on the device (it imports ``machine``); the host never imports it. Copy
``wire.py``, ``core.py`` and this file to the Pico and edit CONFIG for your wiring.

Wiring of the reference design: matrix rows are outputs driven high one at a time,
columns are inputs with pull-downs (one diode per switch, so no ghosting); the LEDs hang
on a chain of 74HC595 shift registers, square 1 on the first output of the first chip.
"""

import os
import select
import sys
import time

import core
import machine
import micropython

CONFIG = {
    "board_size": 10,  # 8 for Russian, 10 for international, 7 for Lasca boards
    "from_top": True,  # False for Lasca boards (square 1 = a1)
    "row_pins": (2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
    "column_pins": (12, 13, 14, 15, 16),
    "sr_data": 18,
    "sr_clock": 19,
    "sr_latch": 20,
    "debounce_scans": 5,  # at roughly 1 kHz per scan
    "heartbeat_ms": 50,  # docs/protocol.md, "Timing and redundancy"
    "snapshot_ms": 1000,
    "repeats": 2,  # copies of each change snapshot
    "repeat_ms": 10,
}


class PicoHardware:
    """The hardware interface of core.Firmware on a Pico."""

    def __init__(self, config, square_count):
        pin = machine.Pin
        self.rows = [pin(n, pin.OUT, value=0) for n in config["row_pins"]]
        self.columns = [pin(n, pin.IN, pin.PULL_DOWN) for n in config["column_pins"]]
        self.data = pin(config["sr_data"], pin.OUT, value=0)
        self.clock = pin(config["sr_clock"], pin.OUT, value=0)
        self.latch = pin(config["sr_latch"], pin.OUT, value=0)
        self.leds = bytearray(square_count)
        self.dirty = True
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, new, old):
        return time.ticks_diff(new, old)

    def set_row(self, row, active):
        self.rows[row].value(1 if active else 0)
        if active:
            time.sleep_us(10)  # let the line settle before the columns are read

    def read_columns(self):
        bits = 0
        for i, column in enumerate(self.columns):
            if column.value():
                bits |= 1 << i
        return bits

    def set_led(self, square, on):
        self.leds[square - 1] = 1 if on else 0
        self.dirty = True

    def flush_leds(self):
        if not self.dirty:
            return
        self.dirty = False
        for value in reversed(self.leds):  # the last square is shifted in first
            self.data.value(value)
            self.clock.value(1)
            self.clock.value(0)
        self.latch.value(1)
        self.latch.value(0)

    def read(self):
        data = bytearray()
        while len(data) < 256 and self.poller.poll(0):
            data.extend(self.stdin.read(1))
        return bytes(data)

    def write(self, data):
        self.stdout.write(data)


def run():
    micropython.kbd_intr(-1)  # 0x03 in a binary frame must not raise KeyboardInterrupt
    cells = core.matrix_map(CONFIG["board_size"], CONFIG["from_top"])
    hw = PicoHardware(CONFIG, len(cells))
    boot_id = int.from_bytes(os.urandom(2), "big") or 1
    firmware = core.Firmware(
        hw,
        CONFIG["board_size"],
        cells,
        boot_id,
        debounce_scans=CONFIG["debounce_scans"],
        heartbeat_ms=CONFIG["heartbeat_ms"],
        snapshot_ms=CONFIG["snapshot_ms"],
        repeats=CONFIG["repeats"],
        repeat_ms=CONFIG["repeat_ms"],
    )
    firmware.boot()
    while True:
        firmware.poll()
        hw.flush_leds()
        time.sleep_ms(1)


run()
