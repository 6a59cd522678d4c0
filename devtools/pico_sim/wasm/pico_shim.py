"""A Raspberry Pi Pico for the firmware, inside MicroPython's WebAssembly build.

Runs under MicroPython only (never imported on the host). The firmware (main.py, core.py,
wire.py) runs unchanged; what it imports from the chip is replaced by stand-ins with the
real API of MicroPython's rp2 port, backed by a simulated board:

* ``machine.Pin``: every GPIO has a mode, a pull and a level. Input pins wired to the reed
  matrix read what the switches and the row pins make of them: a closed switch joins its
  row pin to its column pin through its diode, so a column reads the level of a row that
  drives it against the column's pull, if the diode lets that current through, else the
  pull's level. Diodes with their anode towards the row pass a row driven high into a
  pulled-down column; with their cathode towards the row, a row driven low pulls a
  pulled-up column low. The LED chain is a model of 74HC595 shift registers (data,
  clock, latch, and an optional output enable).
* ``machine.WDT``, ``reset``, ``soft_reset``, ``bootloader``, ``reset_cause``,
  ``unique_id``, ``freq``: a watchdog that reboots the firmware when not fed in time.
* ``time``: ``ticks_ms``, ``ticks_us``, ``sleep_ms``... on the host's virtual clock. Time
  passes only while the firmware waits (a sleep, a poll with a timeout, a blocking read),
  as if the chip computed infinitely fast; the compute time is measured apart.
* ``sys.stdin`` / ``sys.stdout`` (and their ``.buffer``): the USB serial line, bytes
  from and to the host; ``select.poll`` (``poll`` and ``ipoll``) on them. ``print`` writes
  to the serial line too, as on the chip.
* ``os.urandom``: seeded, so a run can be repeated.
* ``micropython.kbd_intr``: the interrupt character in the input raises
  KeyboardInterrupt, as the USB serial of a real Pico does.

Whenever the firmware waits past the moment the host allowed (``until``), the device
hands the host what it wrote and the LEDs it shows, and takes the switches, the bytes
the host sent and the next ``until``: see ``Device.exchange``.
"""

import array
import gc
import io
import json
import select as _select
import sys as _sys
import time as _time

import hostpipe  # registered by run.mjs
import micropython as _micropython

TICKS_MASK = (1 << 30) - 1  # ticks wrap at 2**30: a mask, since 2**30 is no small int
PASS_GAP_US = 500  # a wait at least this long ends one pass of the firmware's main loop
SAMPLES = 4096  # pass times and allocations kept for the medians
RX_CAPACITY = 4096  # bytes from the host the chip holds until the firmware reads them


class Reboot(BaseException):
    """The chip resets: the firmware starts again from main.py."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class Bootloader(BaseException):
    """machine.bootloader(): the chip leaves the firmware for its USB bootloader."""


class Device:
    """The simulated chip: its clock, its serial line, its pins and the board wired to them."""

    def __init__(self, settings):
        self.settings = settings
        # Time in microseconds: ``base`` (when the host last spoke) plus ``rel``; the ticks
        # are kept apart, wrapping as the chip's do. Everything touched in a pass stays a
        # small integer (below 2**30), which costs no allocation however long it runs.
        self.base = 0
        self.rel = 0
        self.until_rel = 0  # the host allows the chip to run to base + until_rel
        self.wait_end = -1  # the end of the wait under way, counted as rel is
        self.us_ticks = 0
        self.ms_ticks = 0
        self.frac_us = 0  # microseconds past ms_ticks
        # The USB serial buffers, made once as the chip's are: a pass allocates nothing.
        self.rx = bytearray(RX_CAPACITY)
        self.rx_start = 0
        self.rx_end = 0
        self.tx_capacity = settings.get("tx_capacity", 1024)
        self.tx = bytearray(self.tx_capacity)
        self.tx_len = 0
        self.connected = True
        self.events = []
        self.modes = {}
        self.pulls = {}
        self.levels = {}
        self.wdt_timeout = 0  # microseconds; 0 when no watchdog runs
        self.wdt_left = 0
        self.reset_cause = 1  # PWRON_RESET
        self.intr_char = 3
        self.interrupt = False
        self.reset_pending = False
        self.boots = 0
        self.halted = False
        self.rng_state = settings.get("seed", 1) or 1
        # The board: per column pin, the row pin of each square on it and the square.
        self.column_squares = {}
        for square, pins in enumerate(settings["squares"]):
            row_pin, column_pin = pins
            self.column_squares.setdefault(column_pin, []).append((row_pin, square))
        self.closed_rows = {pin: [] for pin in self.column_squares}
        # The level a row must drive for its diode to conduct into the column.
        self.conducting = 1 if settings.get("diodes", "anode-to-row") == "anode-to-row" else 0
        self.inputs = {}  # other input pins the host drives (buttons), pin -> level
        self.chain = ShiftChain(settings.get("chain"), len(settings["squares"]))
        self.measure = Measure(settings.get("measure", False))
        self.pin_calls = 0  # Pin reads and writes: the chip does these in C

    # -- the board -----------------------------------------------------------------------

    def set_switches(self, occupied_hex):
        """The occupancy the host sends: square n closed when bit n-1 of the hex is set."""
        raw = bytes.fromhex(occupied_hex if len(occupied_hex) % 2 == 0 else "0" + occupied_hex)
        closed = self.closed_rows
        for pin in closed:
            closed[pin] = []
        top = len(raw) - 1
        for pin, squares in self.column_squares.items():
            rows = closed[pin]
            for row_pin, square in squares:
                index = top - (square >> 3)
                if index >= 0 and raw[index] >> (square & 7) & 1:
                    rows.append(row_pin)

    def read_pin(self, pin):
        self.pin_calls = (self.pin_calls + 1) & TICKS_MASK  # stays a small int
        mode = self.modes.get(pin, 0)
        if mode == 1:  # an output reads back what it drives
            return self.levels.get(pin, 0)
        pull = self.pulls.get(pin)
        resting = 1 if pull == 1 else 0
        rows = self.closed_rows.get(pin)
        if rows:
            if self.conducting == resting:
                return resting  # the diodes block whatever a row drives
            modes = self.modes
            levels = self.levels
            for row_pin in rows:
                # A row drives its column through a closed switch when it is an output
                # (or an open drain pulling low) at the level its diode conducts.
                row_mode = modes.get(row_pin, 0)
                level = levels.get(row_pin, 0)
                if (row_mode == 1 or (row_mode == 2 and not level)) and level != resting:
                    return level
            return resting
        if pin in self.inputs:
            return self.inputs[pin]
        return resting

    def write_pin(self, pin, level):
        self.pin_calls = (self.pin_calls + 1) & TICKS_MASK  # stays a small int
        old = self.levels.get(pin, 0)
        self.levels[pin] = level
        if old != level and self.modes.get(pin, 0) in (1, 2):
            self.chain.edge(pin, level)

    # -- time and the host ---------------------------------------------------------------------

    @property
    def clock(self):
        """Microseconds since power-on (a large integer after 18 minutes: host side only)."""
        return self.base + self.rel

    def advance(self, us):
        """Let ``us`` microseconds pass on the clock, the ticks and the watchdog."""
        self.rel += us
        self.us_ticks = _ticks_add(self.us_ticks, us)
        frac = self.frac_us + us
        if frac >= 1000:
            self.ms_ticks = _ticks_add(self.ms_ticks, frac // 1000)
            frac %= 1000
        self.frac_us = frac
        if self.wdt_timeout:
            self.wdt_left -= us

    def wait(self, us, wake_on_input=False):
        """Let ``us`` microseconds pass (a negative ``us``: until input). Returns early, when
        ``wake_on_input``, once bytes are waiting. Time passes here only.

        A short wait (a row's settle time) inside a pass only moves the clock. A long one
        ends the pass: what the firmware wrote is handed to the host at once (the host may
        answer before the device's clock moves on), then the clock runs to the end of the
        wait, stopping where the host allowed (``until``) to exchange with it."""
        if 0 <= us < PASS_GAP_US and self.rel + us < self.until_rel and not self.interrupt:
            self.advance(us)
            self.measure.settle_us += us
            return
        measure = self.measure
        long_wait = us < 0 or us >= PASS_GAP_US
        if long_wait:
            measure.pass_ends()
            if self.tx_len:
                self.exchange()
        # The wait's end, counted like rel from base (an exchange moves both on).
        self.wait_end = self.rel + us if us >= 0 else -1
        while True:
            if self.interrupt:
                self.interrupt = False
                raise KeyboardInterrupt
            if self.reset_pending:
                self.reset_pending = False
                raise Reboot("reset")
            if wake_on_input and self.rx_end > self.rx_start:
                break
            end = self.wait_end
            if 0 <= end <= self.rel:
                break
            target = self.until_rel if end < 0 else min(end, self.until_rel)
            if target > self.rel:
                self.advance(target - self.rel)
            self.check_watchdog()
            if self.rel >= self.until_rel:
                self.exchange()
        self.check_watchdog()
        if long_wait:
            measure.pass_starts()
        elif us > 0:
            measure.settle_us += us

    def check_watchdog(self):
        if self.wdt_timeout and self.wdt_left < 0:
            self.wdt_timeout = 0
            raise Reboot("watchdog")

    def exchange(self):
        """Hand the host what was written and the LEDs; take switches, bytes and time.

        Answer: ``CLOCK TX LEDS EVENTS`` (hex, ``-`` for nothing; events comma-separated).
        Commands: ``s NOW UNTIL OCCUPIED RX CONNECTED [PIN=LEVEL,...]`` runs on; ``t`` asks
        for the measurements (one JSON line); ``R`` resets the chip at its next wait (``ok``);
        ``q`` ends. After ``t`` and ``R`` the next command is read.
        """
        measure = self.measure
        started = hostpipe.realtime_us() if measure.enabled else 0
        allocated = gc.mem_alloc()
        reply = "{} {} {} {}".format(
            self.clock,
            memoryview(self.tx)[: self.tx_len].hex() if self.tx_len else "-",
            self.chain.lit_hex(),
            ",".join(self.events) or "-",
        )
        self.tx_len = 0
        self.events = []
        while True:
            line = hostpipe.exchange(reply)
            parts = line.split()
            if not parts:
                reply = "error empty command"
                continue
            if parts[0] == "t":
                reply = json.dumps(measure.report(self))
                continue
            if parts[0] == "R":
                self.reset_pending = True
                reply = "ok"
                continue
            if parts[0] == "q":
                hostpipe.leave(0)
            break
        now = int(parts[1])  # the device's clock never runs back
        if now > self.clock:
            self.advance(now - self.clock)  # time the chip spent waiting, in real time
        shift = self.rel
        self.base += shift
        self.rel = 0
        if self.wait_end >= 0:
            self.wait_end = max(0, self.wait_end - shift)
        self.until_rel = max(0, min(int(parts[2]) - self.base, 1 << 29))
        self.set_switches(parts[3])
        if parts[4] != "-":
            data = bytes.fromhex(parts[4])
            if self.intr_char >= 0 and self.intr_char in data:
                data = data[: data.index(self.intr_char)]
                self.interrupt = True
            self.receive(data)
        self.connected = parts[5] == "1"
        if len(parts) > 6:
            for item in parts[6].split(","):
                pin, level = item.split("=")
                self.inputs[int(pin)] = int(level)
        if measure.enabled:  # the host's share, not the firmware's
            measure.exchange_us += hostpipe.realtime_us() - started
            measure.exchange_alloc += gc.mem_alloc() - allocated

    # -- the serial line -----------------------------------------------------------------------

    def receive(self, data):
        """Bytes from the host into the receive buffer (what does not fit is lost, as a
        chip's full buffer loses it)."""
        rx = self.rx
        if self.rx_start == self.rx_end:
            self.rx_start = self.rx_end = 0
        elif self.rx_end + len(data) > len(rx):  # move what waits to the front
            waiting = self.rx_end - self.rx_start
            rx[:waiting] = rx[self.rx_start : self.rx_end]
            self.rx_start, self.rx_end = 0, waiting
        count = min(len(data), len(rx) - self.rx_end)
        rx[self.rx_end : self.rx_end + count] = data[:count]
        self.rx_end += count

    def waiting(self):
        return self.rx_end - self.rx_start

    def write(self, data, n):
        """USB CDC: bytes nobody reads (no host) are dropped; a full buffer takes what fits."""
        if not self.connected:
            return n
        tx = self.tx
        count = min(n, self.tx_capacity - self.tx_len)
        at = self.tx_len
        for i in range(count):  # a byte at a time: no slice, no allocation
            tx[at + i] = data[i]
        self.tx_len = at + count
        return count

    def writable(self):
        return not self.connected or self.tx_len < self.tx_capacity

    def read(self, n):
        """Blocking, as ``sys.stdin.buffer.read(n)`` on the chip: waits for ``n`` bytes."""
        while self.waiting() < n:
            self.wait(-1, wake_on_input=True)
            if self.waiting() < n:
                self.wait(1000, wake_on_input=False)
        data = bytes(self.rx[self.rx_start : self.rx_start + n])
        self.rx_start += n
        return data

    def readinto(self, buffer, n=-1):
        n = len(buffer) if n < 0 else n
        while not self.waiting():
            self.wait(-1, wake_on_input=True)
        count = min(n, self.waiting())
        rx = self.rx
        start = self.rx_start
        for i in range(count):
            buffer[i] = rx[start + i]
        self.rx_start = start + count
        return count

    def urandom(self, n):
        out = bytearray(n)
        state = self.rng_state
        for i in range(n):  # xorshift32: seeded, repeatable
            state ^= (state << 13) & 0xFFFFFFFF
            state ^= state >> 17
            state ^= (state << 5) & 0xFFFFFFFF
            out[i] = state & 0xFF
        self.rng_state = state
        return bytes(out)

    def power_cycle(self):
        """Back to power-on: the clock, pins, serial buffers and chain as at the start."""
        self.base = self.rel = self.until_rel = 0
        self.us_ticks = self.ms_ticks = self.frac_us = 0
        self.tx_len = 0
        self.rx_start = self.rx_end = 0
        self.connected = True
        self.modes = {}
        self.pulls = {}
        self.levels = {}
        self.wdt_timeout = 0
        self.chain.clear()

    def reboot(self, reason):
        """A chip reset: pins back to inputs, input forgotten, the chain's outputs off."""
        self.measure.in_pass = False
        self.boots += 1
        self.events.append("reboot:" + reason)
        self.reset_cause = 3 if reason == "watchdog" else 1
        self.modes = {}
        self.pulls = {}
        self.levels = {}
        self.wdt_timeout = 0
        self.halted = False
        self.rx_start = self.rx_end = 0
        self.intr_char = 3
        self.interrupt = False
        self.chain.clear()


class ShiftChain:
    """74HC595 shift registers in a chain: square n is output n-1 of the chain.

    ``pins``: {"data", "clock", "latch"} and optionally "enable" (OE, active low: the
    outputs are off while it is high). None when the firmware drives no chain."""

    def __init__(self, pins, length):
        self.pins = pins or {}
        self.data = self.pins.get("data", -1)
        self.clock = self.pins.get("clock", -1)
        self.latch = self.pins.get("latch", -1)
        self.enable = self.pins.get("enable", -1)
        self.squares = length
        self.length = 8 * ((length + 7) // 8)  # whole chips of 8 outputs
        self.bits = bytearray(self.length)  # a ring: stage k is bits[(head + k) % length]
        self.head = 0
        self.outputs = bytearray(self.length)

    def clear(self):
        for i in range(self.length):
            self.bits[i] = 0
            self.outputs[i] = 0

    def edge(self, pin, level):
        """A rising edge on a chain pin (no slicing: the chip allocates nothing here)."""
        if not level:
            return
        if pin == self.clock:  # every stage moves one on; stage 0 takes the data pin
            self.head = (self.head - 1) % self.length
            self.bits[self.head] = DEVICE.levels.get(self.data, 0)
        elif pin == self.latch:  # after n clocks the first bit shifted in is output n-1
            bits = self.bits
            outputs = self.outputs
            length = self.length
            head = self.head
            for k in range(length):
                outputs[k] = bits[(head + k) % length]

    def lit_hex(self):
        if self.enable >= 0 and DEVICE.levels.get(self.enable, 1):
            return "0"
        mask = 0
        outputs = self.outputs
        for i in range(self.squares - 1, -1, -1):
            mask = (mask << 1) | outputs[i]
        return f"{mask:x}"


class Measure:
    """Compute time and heap allocation of each pass of the firmware's main loop.

    MicroPython's WebAssembly build collects garbage only when control returns to
    JavaScript, never while the firmware's loop runs, so ``gc.mem_alloc`` only grows in
    a pass: its growth is what the pass allocated. The live heap is weighed where a
    collection can run: with the firmware's modules imported (``loaded``), and with
    main.py's hardware and firmware built and booted as its run() does (``booted``, see
    pico_boot.probe). The live heap's peak in a game is at most their sum plus the most
    any one pass allocated (what a pass allocates is garbage once it ends: the firmware
    keeps its state in buffers made at boot).
    """

    def __init__(self, enabled):
        self.enabled = enabled
        self.passes = 0
        self.pass_us = array.array("i", bytes(4 * SAMPLES)) if enabled else None
        self.pass_alloc = array.array("i", bytes(4 * SAMPLES)) if enabled else None
        self.pass_pins = array.array("i", bytes(4 * SAMPLES)) if enabled else None
        self.start_pins = 0
        self.started = 0
        self.start_alloc = 0
        self.baseline = 0  # live heap of the harness alone
        self.loaded = 0  # live heap with the firmware's modules imported
        self.booted = -1  # what main.py's objects add once booted (-1: not weighed)
        self.before_main = 0
        self.boot_alloc = -1
        self.settle_us = 0
        self.exchange_us = 0
        self.exchange_alloc = 0
        self.in_pass = False

    def main_starts(self):
        self.before_main = gc.mem_alloc()

    def pass_starts(self):
        if not self.enabled:
            return
        self.start_alloc = gc.mem_alloc()
        if self.boot_alloc < 0:
            self.boot_alloc = self.start_alloc - self.before_main
        self.exchange_us = 0
        self.exchange_alloc = 0
        self.start_pins = DEVICE.pin_calls
        self.started = hostpipe.realtime_us()
        self.in_pass = True

    def pass_ends(self):
        if not self.in_pass:
            return
        elapsed = hostpipe.realtime_us() - self.started - self.exchange_us
        allocated = gc.mem_alloc() - self.start_alloc - self.exchange_alloc
        slot = self.passes % SAMPLES
        self.pass_us[slot] = elapsed
        self.pass_alloc[slot] = allocated
        self.pass_pins[slot] = (DEVICE.pin_calls - self.start_pins) & TICKS_MASK
        self.passes += 1
        self.in_pass = False

    def report(self, device):
        count = min(self.passes, SAMPLES)
        times = sorted(self.pass_us[:count]) if count else [0]
        allocs = sorted(self.pass_alloc[:count]) if count else [0]
        pins = sorted(self.pass_pins[:count]) if count else [0]
        return {
            "boots": device.boots,
            "passes": self.passes,
            "harness_bytes": self.baseline,
            "firmware_loaded_bytes": self.loaded - self.baseline,
            "boot_alloc_bytes": max(0, self.boot_alloc),
            "pass_alloc_median": allocs[len(allocs) // 2],
            "pass_alloc_max": allocs[-1],
            "booted_bytes": self.booted,
            "heap_peak_bound_bytes": (self.loaded - self.baseline + self.booted + allocs[-1]
                                      if self.booted >= 0 else -1),
            "pass_us_median": times[len(times) // 2],
            "pass_us_p95": times[len(times) * 95 // 100],
            "pass_us_max": times[-1],
            "settle_us_per_pass": self.settle_us // max(1, self.passes),
            "pin_calls_median": pins[len(pins) // 2],
        }


def _ticks_add(ticks, delta):
    """``(ticks + delta) mod 2**30`` without ever making 2**30 (no small integer)."""
    if delta > TICKS_MASK:
        return (ticks + delta) & TICKS_MASK  # a host's long silence: allocates, rarely
    if ticks > TICKS_MASK - delta:
        return ticks - (TICKS_MASK - delta) - 1
    return ticks + delta


DEVICE = None  # set by install()


# -- machine -----------------------------------------------------------------------------------


def _pin_number(pin_id):
    if isinstance(pin_id, Pin):
        return pin_id.id
    if isinstance(pin_id, str):
        if pin_id == "LED":
            return 25
        if pin_id.startswith("GP"):
            return int(pin_id[2:])
        raise ValueError("invalid pin")
    if not 0 <= pin_id < 30:
        raise ValueError("invalid pin")
    return pin_id


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, pin_id, mode=-1, pull=-1, *, value=None, alt=-1):
        self.id = _pin_number(pin_id)
        self.init(mode, pull, value=value, alt=alt)

    def init(self, mode=-1, pull=-1, *, value=None, alt=-1):
        device = DEVICE
        pin = self.id
        if value is not None:
            device.write_pin(pin, 1 if value else 0)
        if mode != -1:
            device.modes[pin] = mode
        if pull != -1:
            device.pulls[pin] = pull

    def value(self, level=None):
        if level is None:
            return DEVICE.read_pin(self.id)
        DEVICE.write_pin(self.id, 1 if level else 0)
        return None

    def __call__(self, level=None):
        return self.value(level)

    def on(self):
        DEVICE.write_pin(self.id, 1)

    def off(self):
        DEVICE.write_pin(self.id, 0)

    high = on
    low = off

    def toggle(self):
        DEVICE.write_pin(self.id, 1 - DEVICE.levels.get(self.id, 0))

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        return None  # never fires: the simulated board has no interrupt source

    def __repr__(self):
        return f"Pin(GPIO{self.id})"


class WDT:
    """The RP2040 watchdog: up to 8388 ms; once started it cannot be stopped."""

    def __init__(self, id=0, timeout=5000):
        if not 1 <= timeout <= 8388:
            raise ValueError("WDT timeout too long")
        DEVICE.wdt_timeout = timeout * 1000
        self.feed()

    def feed(self):
        DEVICE.wdt_left = DEVICE.wdt_timeout


def reset():
    raise Reboot("reset")


def soft_reset():
    raise Reboot("soft")


def bootloader(*args):
    raise Bootloader()


def reset_cause():
    return DEVICE.reset_cause


def unique_id():
    return b"\xe6\x61\x41\x04\x03\x2b\x5a\x2c"


def freq(hz=None):
    return 125_000_000 if hz is None else None


def idle():
    DEVICE.wait(1000)


def disable_irq():
    return 0


def enable_irq(state=0):
    return None


# -- time ------------------------------------------------------------------------------------


def ticks_ms():
    return DEVICE.ms_ticks


def ticks_us():
    return DEVICE.us_ticks


def sleep_ms(ms):
    DEVICE.wait(max(0, int(ms)) * 1000)


def sleep_us(us):
    DEVICE.wait(max(0, int(us)))


def sleep(seconds):
    DEVICE.wait(max(0, int(seconds * 1_000_000)))


def time_seconds():
    return DEVICE.clock // 1_000_000


def time_ns():
    return DEVICE.clock * 1000


# -- select and the serial line ----------------------------------------------------------------

POLLIN = _select.POLLIN
POLLOUT = _select.POLLOUT
POLLERR = _select.POLLERR
POLLHUP = _select.POLLHUP


class SerialIn:
    """sys.stdin.buffer on the chip: the USB serial line from the host."""

    def read(self, n=-1):
        if n < 0:
            n = max(1, DEVICE.waiting())
        return DEVICE.read(n)

    def readinto(self, buffer, n=-1):
        return DEVICE.readinto(buffer, n)

    def any(self):
        return DEVICE.waiting()


class SerialOut:
    """sys.stdout.buffer on the chip: the USB serial line to the host."""

    def write(self, data, n=-1):
        """``write(buf[, n])``: the stream protocol's optional length, as on the chip."""
        if isinstance(data, str):
            data = data.encode()
        return DEVICE.write(data, len(data) if n < 0 or n > len(data) else n)

    def flush(self):
        return None


class TextIn:
    def __init__(self):
        self.buffer = SerialIn()

    def read(self, n=-1):
        return self.buffer.read(n).decode()

    def readinto(self, buffer, n=-1):
        return self.buffer.readinto(buffer, n)


class TextOut:
    def __init__(self):
        self.buffer = SerialOut()

    def write(self, text):
        return self.buffer.write(text)

    def flush(self):
        return None


STDIN = TextIn()
STDOUT = TextOut()
_READERS = (STDIN, STDIN.buffer)
_WRITERS = (STDOUT, STDOUT.buffer)


def _ready(obj, mask):
    events = 0
    if mask & POLLIN and obj in _READERS and DEVICE.rx_end > DEVICE.rx_start:
        events |= POLLIN
    if mask & POLLOUT and obj in _WRITERS and DEVICE.writable():
        events |= POLLOUT
    return events


class Poll:
    """select.poll() over the serial line's objects."""

    def __init__(self):
        self.registered = []
        self._entries = []
        self._by_count = [[]]

    def register(self, obj, mask=POLLIN | POLLOUT):
        self.unregister(obj)
        self.registered.append([obj, mask])
        self._entries.append([None, 0])
        self._by_count = [self._entries[:k] for k in range(len(self._entries) + 1)]

    def modify(self, obj, mask):
        for entry in self.registered:
            if entry[0] is obj:
                entry[1] = mask
                return
        raise OSError(2)  # ENOENT, as MicroPython

    def unregister(self, obj):
        self.registered = [entry for entry in self.registered if entry[0] is not obj]
        self._entries = self._entries[: len(self.registered)]
        self._by_count = [self._entries[:k] for k in range(len(self._entries) + 1)]

    def _scan(self):
        found = []
        for obj, mask in self.registered:
            events = _ready(obj, mask)
            if events:
                found.append((obj, events))
        return found

    def poll(self, timeout=-1):
        found = self._scan()
        if found or timeout == 0:
            return found
        wants_input = any(mask & POLLIN for _, mask in self.registered)
        DEVICE.wait(-1 if timeout is None or timeout < 0 else timeout * 1000, wants_input)
        return self._scan()

    def ipoll(self, timeout=-1, flags=0):
        """The ready objects, allocating nothing, as on the chip: the entries (2-item lists
        here, tuples there) and the sequence holding them are made once and reused."""
        if timeout != 0 and not self._count_ready():
            wants_input = False
            for entry in self.registered:
                if entry[1] & POLLIN:
                    wants_input = True
            DEVICE.wait(-1 if timeout is None or timeout < 0 else timeout * 1000, wants_input)
        count = 0
        entries = self._entries
        for obj, mask in self.registered:
            events = _ready(obj, mask)
            if events:
                entries[count][0] = obj
                entries[count][1] = events
                count += 1
        return self._by_count[count]

    def _count_ready(self):
        count = 0
        for obj, mask in self.registered:
            if _ready(obj, mask):
                count += 1
        return count


# -- the modules the firmware imports ---------------------------------------------------------


class Module:
    """A module made of attributes; what it lacks comes from the real module, if any."""

    def __init__(self, name, real, **names):
        self.__name__ = name
        self._real = real
        for key, value in names.items():
            setattr(self, key, value)

    def __getattr__(self, name):
        if self._real is None:
            raise AttributeError(name)
        return getattr(self._real, name)


def print_exception(exc, file=None):
    text = io.StringIO()
    _sys.print_exception(exc, text)
    (file or STDOUT).write(text.getvalue())


def serial_print(*args, sep=" ", end="\n", file=None):
    (file or STDOUT).write(sep.join(str(arg) for arg in args) + end)


def kbd_intr(char):
    DEVICE.intr_char = char


def alloc_emergency_exception_buf(size):
    return None


def install(device):
    """Make the stand-ins what ``import machine`` (and the rest) give the firmware."""
    global DEVICE
    DEVICE = device
    modules = _sys.modules
    modules["machine"] = Module(
        "machine",
        None,
        Pin=Pin,
        WDT=WDT,
        reset=reset,
        soft_reset=soft_reset,
        bootloader=bootloader,
        reset_cause=reset_cause,
        unique_id=unique_id,
        freq=freq,
        idle=idle,
        disable_irq=disable_irq,
        enable_irq=enable_irq,
        PWRON_RESET=1,
        WDT_RESET=3,
    )
    modules["time"] = Module(
        "time",
        _time,
        ticks_ms=ticks_ms,
        ticks_us=ticks_us,
        ticks_cpu=ticks_us,
        ticks_diff=_time.ticks_diff,
        ticks_add=_time.ticks_add,
        sleep_ms=sleep_ms,
        sleep_us=sleep_us,
        sleep=sleep,
        time=time_seconds,
        time_ns=time_ns,
    )
    modules["select"] = Module("select", _select, poll=Poll, POLLIN=POLLIN, POLLOUT=POLLOUT)
    modules["sys"] = Module(
        "sys",
        _sys,
        stdin=STDIN,
        stdout=STDOUT,
        platform="rp2",
        print_exception=print_exception,
    )
    modules["os"] = Module("os", _sys.modules.get("os") or __import__("os"), urandom=device.urandom)
    modules["micropython"] = Module(
        "micropython",
        _micropython,
        kbd_intr=kbd_intr,
        alloc_emergency_exception_buf=alloc_emergency_exception_buf,
    )
