"""Raspberry Pi Pico (RP2040 or RP2350) entry point: the firmware logic on real pins and USB.

Only ever run on the device, where MicroPython runs it as ``__main__``; tests import it
with stand-ins for ``machine`` and friends. Copy ``wire.py``, ``core.py`` and this file
to the Pico and edit CONFIG for your wiring (docs/building.md, "The Pico").

Wiring (docs/hardware.md): the switch matrix is active-low, like the Pi's. The selected
row is driven low, the others high; each column is an input pulled up (the Pico's own
pull-up plus an external 10 kOhm resistor to 3.3 V); a closed switch pulls its column low
through its diode, cathode towards the row. Pull-ups also keep clear of the RP2350's
erratum E9 (an input with the internal pull-down latches near 2.2 V once driven high).
The LEDs hang on a chain of 74HCT595 at 5 V: square 1 on the first output of the chip
nearest the Pico. Their OE pin has a pull-up to 3.3 V, so the outputs stay dark until
the first frame is latched and OE is driven low.

Staying repairable without opening the box: hold the service pin low at power-on (or
send a SERVICE frame, docs/protocol.md) and the firmware stays out of the way: no
watchdog, Ctrl-C enabled, the REPL there for ``mpremote``. Otherwise a watchdog resets a
hung loop, any exception resets the device (the host sees a new boot id), and a host
that stops reading loses frames instead of stalling the scan.
"""

import os
import select
import sys
import time

import core
import machine
import micropython
import wire

CONFIG = {
    "board_size": 10,  # 8 for Russian, 10 for international, 7 for Lasca boards
    "from_top": True,  # False for Lasca boards (square 1 = a1)
    "row_pins": (2, 3, 4, 5, 6, 7, 8, 9, 10, 11),  # the first board_size of them are used
    "column_pins": (12, 13, 14, 15, 16),  # 4 for 7x7 and 8x8 boards, 5 for 10x10
    "sr_data": 18,  # 74HCT595 SER (pin 14)
    "sr_clock": 19,  # SRCLK (pin 11)
    "sr_latch": 20,  # RCLK (pin 12)
    "sr_enable": 21,  # OE (pin 13), active low, pulled up to 3.3 V
    "service_pin": 22,  # held low at power-on: service mode (REPL, no watchdog)
    "settle_us": 30,  # after selecting a row, before reading the columns
    "watchdog_ms": 4000,  # a pass takes about 1 ms; a stalled USB write up to 500 ms
    "debounce_scans": 5,  # at roughly 1 kHz per scan
    "heartbeat_ms": 50,  # docs/protocol.md, "Timing and redundancy"
    "quiet_heartbeat_ms": 200,  # once nothing has changed for quiet_after_ms
    "quiet_after_ms": 1000,
    "snapshot_ms": 1000,
    "repeats": 2,  # copies of each change snapshot
    "repeat_ms": 10,
}

SERVICE_FLAG = "service-mode"  # a file: the next boot stays in service mode (then removed)


class PicoHardware:
    """The hardware interface of core.Firmware on a Pico (see core.py)."""

    def __init__(self, config, square_count):
        pin = machine.Pin
        rows = config["row_pins"][: config["board_size"]]
        columns = config["column_pins"][: (config["board_size"] + 1) // 2]
        self.rows = [pin(n, pin.OUT, value=1) for n in rows]  # idle rows high
        self.columns = [pin(n, pin.IN, pin.PULL_UP) for n in columns]
        self.settle_us = config["settle_us"]
        self.data = pin(config["sr_data"], pin.OUT, value=0)
        self.clock = pin(config["sr_clock"], pin.OUT, value=0)
        self.latch = pin(config["sr_latch"], pin.OUT, value=0)
        self.enable = pin(config["sr_enable"], pin.OUT, value=1)  # dark until latched
        self.leds = bytearray(8 * ((square_count + 7) // 8))
        self.dirty = True
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.incoming = select.poll()
        self.incoming.register(sys.stdin, select.POLLIN)
        self.outgoing = select.poll()
        self.outgoing.register(sys.stdout, select.POLLOUT)
        self.byte = bytearray(1)
        self.dropped = 0

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, new, old):
        return time.ticks_diff(new, old)

    def set_row(self, row, active):
        if active:
            self.rows[row].value(0)
            # Through the pull-ups a column that the previous row held low needs
            # 10-20 us to rise (100-300 pF of wiring): read before that and the previous
            # row's switch shows in this row, on every scan (docs/hardware.md).
            time.sleep_us(self.settle_us)
        else:
            self.rows[row].value(1)

    def read_columns(self):
        bits = 0
        bit = 1
        for column in self.columns:
            if not column.value():  # a closed switch pulls its column low
                bits |= bit
            bit <<= 1
        return bits

    def set_led(self, square, on):
        self.leds[square - 1] = 1 if on else 0
        self.dirty = True

    def flush_leds(self):
        """Shift the LED states out when they changed; the first latch turns OE on."""
        if not self.dirty:
            return
        self.dirty = False
        leds = self.leds
        for i in range(len(leds) - 1, -1, -1):  # the last output is shifted in first
            self.data.value(leds[i])
            self.clock.value(1)
            self.clock.value(0)
        self.latch.value(1)
        self.latch.value(0)
        self.enable.value(0)

    def read_into(self, buffer):
        n = 0
        size = len(buffer)
        while n < size and self._waiting():
            # MicroPython's stdin.buffer has readinto; its published stubs follow CPython
            self.stdin.readinto(self.byte)  # type: ignore[union-attr]  # MicroPython's readinto
            buffer[n] = self.byte[0]
            n += 1
        return n

    def _waiting(self):
        for _ in self.incoming.ipoll(0):
            return True
        return False

    def write(self, buffer, n):
        """Send ``buffer[:n]`` only when the USB buffer has room: when the host stops
        reading, MicroPython's write would wait up to 500 ms for it, each time."""
        for _ in self.outgoing.ipoll(0):
            # MicroPython streams take write(buf, n); the stubs know only write(buf)
            self.stdout.write(buffer, n)  # type: ignore[call-overload]  # MicroPython's write
            return True
        self.dropped += 1
        return False


def service_mode(config):
    """Whether this boot stays out of the way: the service pin held low, or a SERVICE
    frame asked for it before the last reset (the flag file, removed here)."""
    button = machine.Pin(config["service_pin"], machine.Pin.IN, machine.Pin.PULL_UP)
    held = button.value() == 0
    try:
        os.remove(SERVICE_FLAG)
        return True
    except OSError:
        return held


def carry_out(action):
    """A SERVICE request, after its ACK has had time to leave."""
    time.sleep_ms(50)
    if action == wire.SERVICE_BOOTLOADER:
        machine.bootloader()
    with open(SERVICE_FLAG, "w") as flag:
        flag.write("next boot: service mode\n")
    machine.reset()


def run(config=CONFIG):
    if service_mode(config):
        print("draughtsboard firmware: service mode (REPL; mpremote works; reset to leave)")
        return
    micropython.kbd_intr(-1)  # 0x03 in a binary frame must not raise KeyboardInterrupt
    watchdog = machine.WDT(timeout=config["watchdog_ms"])
    firmware = None
    try:
        cells = core.matrix_map(config["board_size"], config["from_top"])
        hw = PicoHardware(config, len(cells))
        boot_id = int.from_bytes(os.urandom(2), "big") or 1
        firmware = core.Firmware(
            hw,
            config["board_size"],
            cells,
            boot_id,
            debounce_scans=config["debounce_scans"],
            heartbeat_ms=config["heartbeat_ms"],
            snapshot_ms=config["snapshot_ms"],
            repeats=config["repeats"],
            repeat_ms=config["repeat_ms"],
            quiet_heartbeat_ms=config["quiet_heartbeat_ms"],
            quiet_after_ms=config["quiet_after_ms"],
        )
        firmware.boot()
        while True:
            firmware.poll()
            hw.flush_leds()
            watchdog.feed()
            if firmware.service_request:
                carry_out(firmware.service_request)
            time.sleep_ms(1)
    except Exception as error:  # a dead board is worse than a reset: the host resyncs
        try:
            if firmware is not None:
                firmware.send_error(wire.ERROR_INTERNAL, repr(error))
        except Exception:
            pass
        machine.reset()


if __name__ == "__main__":
    run()
