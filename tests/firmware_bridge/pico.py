"""A Pico on the desk for CPython: the firmware's ``main.py`` with stand-ins for
``machine``, ``micropython``, ``time``, ``select`` and ``sys``, wired to a switch matrix
whose columns behave like real ones (pull-ups, diodes, a rise time after a row changes).

Only MicroPython calls a Pico has are offered, so a call the device lacks fails here too.
"""

from __future__ import annotations

import importlib.util
import sys
import types

from draughtsboard.firmware_bridge.firmware import core, wire

MAIN = core.__file__.replace("core.py", "main.py")
RISE_US = 15  # a column pulled up through ~50 kOhm and ~200 pF: 10-20 us to read high
PIN_CALL_US = 3  # one Pin.value() call of MicroPython on an RP2040 at 125 MHz, roughly


class StopLoop(BaseException):
    """Ends the firmware's endless loop from a test (not an ``Exception``: the firmware's
    reset-on-exception must not catch it)."""


class Reset(BaseException):
    """``machine.reset()`` or ``machine.bootloader()`` was called."""


class Board:
    """The wired matrix: ``closed`` holds (row pin, column pin) pairs with a closed switch
    (through its diode, cathode towards the row). A column reads low at once while a row
    with a closed switch on it is driven low (the row output is strong), but after that
    row lets go it rises through its pull-up only ``RISE_US`` later, like a real wire's
    capacitance: a read before then sees the previous row's switch (a ghost)."""

    def __init__(self) -> None:
        self.pins: dict[int, Pin] = {}
        self.closed: set[tuple[int, int]] = set()
        self.now_us = 0
        self.low_until: dict[int, int] = {}

    def pulled_low(self, column: int) -> bool:
        return any(self.pins[row].value_ == 0 and self.pins[row].mode == Pin.OUT
                   for row, col in self.closed if col == column)

    def level(self, column: int) -> int:
        pin = self.pins[column]
        if pin.pull != Pin.PULL_UP:
            return 0  # floating, or pulled down: reads nothing useful either way
        if self.pulled_low(column) or self.now_us < self.low_until.get(column, 0):
            return 0
        return 1

    def row_changed(self) -> None:
        """Before a row output changes: a column held low now rises only later."""
        for number, pin in self.pins.items():
            if pin.mode == Pin.IN and self.pulled_low(number):
                self.low_until[number] = self.now_us + RISE_US


class Pin:
    IN, OUT = 0, 1
    PULL_UP, PULL_DOWN = 1, 2
    board: Board

    def __init__(self, number, mode=-1, pull=None, *, value=None):
        self.number = number
        self.mode = mode
        self.pull = pull
        self.value_ = value if value is not None else 0
        self.board.pins[number] = self
        self.changes = 0

    def value(self, level=None):
        self.board.now_us += PIN_CALL_US
        if level is None:
            if self.mode == Pin.OUT:
                return self.value_
            if self.number == getattr(self.board, "service_pin", None):
                return 0 if self.board.service_held else 1
            return self.board.level(self.number)
        if level != self.value_:
            if self.board.is_row(self.number):
                self.board.row_changed()  # the columns keep their old levels a while
            self.value_ = level
            self.changes += 1


class WDT:
    made: list[WDT] = []

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        WDT.made.append(self)

    def feed(self):
        self.feeds += 1


class Poll:
    def __init__(self, pico: Pico) -> None:
        self.pico = pico
        self.flags = 0

    def register(self, stream, flags):
        self.flags = flags

    def ipoll(self, timeout=-1, flags=0):
        assert timeout == 0, "the firmware never waits for the host"
        if self.flags == Select.POLLIN:
            return iter([("stdin", Select.POLLIN)] if self.pico.rx else [])
        return iter([("stdout", Select.POLLOUT)] if self.pico.host_reading else [])


class Select:
    POLLIN, POLLOUT = 1, 4

    def __init__(self, pico: Pico) -> None:
        self.pico = pico

    def poll(self):
        return Poll(self.pico)


class Stdin:
    def __init__(self, pico: Pico) -> None:
        self.pico = pico

    def readinto(self, buffer):
        buffer[0] = self.pico.rx.pop(0)
        return 1


class Stdout:
    def __init__(self, pico: Pico) -> None:
        self.pico = pico

    def write(self, buffer, n=None):
        self.pico.tx.extend(bytes(buffer[:n] if n is not None else buffer))
        return n


class Pico:
    """main.py loaded against stand-ins; ``run(passes)`` runs its loop that many times."""

    def __init__(self, config: dict | None = None) -> None:
        self.board = Board()
        self.board.service_held = False
        self.rx: list[int] = []
        self.tx = bytearray()
        self.host_reading = True
        self.ms = 0
        self.resets = 0
        self.bootloaders = 0
        self.kbd_intr: int | None = None
        self.pass_limit = 0
        self.passes = 0
        WDT.made = []
        self.main = self._load()
        self.config = dict(self.main.CONFIG, **(config or {}))
        self.board.service_pin = self.config["service_pin"]
        rows = self.config["row_pins"][: self.config["board_size"]]
        self.row_pins = rows
        self.board.is_row = lambda number: number in rows
        self.column_pins = self.config["column_pins"][: (self.config["board_size"] + 1) // 2]

    def _load(self):
        pin_class = type("Pin", (Pin,), {"board": self.board})
        machine = types.SimpleNamespace(Pin=pin_class, WDT=WDT, reset=self._reset,
                                        bootloader=self._bootloader)
        micropython = types.SimpleNamespace(kbd_intr=self._kbd_intr)
        saved = {name: sys.modules.get(name) for name in ("machine", "micropython", "core",
                                                          "wire")}
        sys.modules.update(machine=machine, micropython=micropython, core=core, wire=wire)
        try:
            spec = importlib.util.spec_from_file_location("pico_main", MAIN)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        finally:
            for name, value in saved.items():
                if value is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = value
        module.time = types.SimpleNamespace(
            ticks_ms=lambda: self.ms % (1 << 30),
            ticks_diff=lambda new, old: ((new - old + (1 << 29)) % (1 << 30)) - (1 << 29),
            sleep_us=self._sleep_us, sleep_ms=self._sleep_ms)
        module.select = Select(self)
        module.sys = types.SimpleNamespace(
            stdin=types.SimpleNamespace(buffer=Stdin(self)),
            stdout=types.SimpleNamespace(buffer=Stdout(self)))
        return module

    # -- the stand-ins' effects ---------------------------------------------------------

    def _reset(self):
        self.resets += 1
        raise Reset("machine.reset()")

    def _bootloader(self):
        self.bootloaders += 1
        raise Reset("machine.bootloader()")

    def _kbd_intr(self, char):
        self.kbd_intr = char

    def _sleep_us(self, us):
        self.board.now_us += us

    def _sleep_ms(self, ms):
        self.board.now_us += ms * 1000
        self.ms += ms
        self.passes += 1
        if self.passes >= self.pass_limit:
            raise StopLoop

    # -- the test's side ----------------------------------------------------------------

    def close_switch(self, row: int, column: int) -> None:
        self.board.closed.add((self.row_pins[row], self.column_pins[column]))

    def open_switch(self, row: int, column: int) -> None:
        self.board.closed.discard((self.row_pins[row], self.column_pins[column]))

    def run(self, passes: int) -> str:
        """Run main.run() for ``passes`` passes of its loop; how it ended: "running",
        "reset", or "returned" (service mode)."""
        self.pass_limit = self.passes + passes
        try:
            self.main.run(self.config)
        except StopLoop:
            return "running"
        except Reset:
            return "reset"
        return "returned"

    def feed(self, data: bytes) -> None:
        self.rx.extend(data)

    def take(self) -> bytes:
        data, self.tx = bytes(self.tx), bytearray()
        return data

    def pin(self, number: int) -> Pin:
        return self.board.pins[number]
