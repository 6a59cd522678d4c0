"""A virtual physical board on gpiozero mock pins, with a scripted hand.

The real drivers (:class:`~draughtsboard.hardware.reed_matrix.ReedMatrix` and the LED
drivers) open their pins on this board's :class:`~gpiozero.pins.mock.MockFactory` exactly as
they would on a Pi. The column input pins work out their level from the row being driven
and the switches that are closed; the LED pins are watched, and a 74HC595 chain (with its
OE pin) is emulated to read back which LEDs are lit. Wiring faults (a cut row or column
wire, two bridged columns, a stuck reed: :class:`WiringFault`) can be built in, so that
``diag`` can be tried and tested without hardware. Time is virtual: the hand's lifts,
placements, bounces and brushes are scheduled at timestamps, and :meth:`advance` applies
them before a scan at that time. Mock pins normally remember every state change; here the
history is cleared as it grows, so a replay of millions of scans runs in constant memory.

This is the one model of the switch matrix and the LED chain: a board microcontroller
emulated on the host (`draughtsboard.firmware_bridge`) scans the same simulated board
through `SimulatedBoard.columns_closed`, which the composition root hands it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gpiozero.pins.mock import MockFactory, MockPin

from draughtsboard.board.ports import mask_from_squares, squares_from_mask

from .config import BoardConfig

HISTORY_LIMIT = 64  # state changes a simulated pin remembers before clearing its history
FAULT_FORMS = "row:R:open, column:C:open, short:column:A,B, stuck:N or stuck:N:open"


@dataclass(frozen=True)
class WiringFault:
    """A fault built into the simulated board. ``kind``: ``row-open`` (matrix row
    ``index``'s wire cut), ``column-open``, ``column-short`` (columns ``index`` and
    ``other`` bridged), ``stuck-closed`` or ``stuck-open`` (square ``index``'s reed)."""

    kind: str
    index: int
    other: int = -1

    @classmethod
    def parse(cls, text: str) -> WiringFault:
        """``row:2:open``, ``column:1:open``, ``short:column:1,2``, ``stuck:17``,
        ``stuck:17:open`` (matrix rows and columns count from 0); ValueError otherwise."""
        parts = text.strip().lower().split(":")
        try:
            if len(parts) == 3 and parts[0] in ("row", "column") and parts[2] == "open":
                return cls(f"{parts[0]}-open", int(parts[1]))
            if len(parts) == 3 and parts[:2] == ["short", "column"]:
                first, second = (int(p) for p in parts[2].split(","))
                return cls("column-short", first, second)
            if parts[0] == "stuck" and len(parts) in (2, 3):
                if len(parts) == 2 or parts[2] == "closed":
                    return cls("stuck-closed", int(parts[1]))
                if parts[2] == "open":
                    return cls("stuck-open", int(parts[1]))
        except ValueError:
            pass
        raise ValueError(f"--sim-fault {text!r}: expected one of {FAULT_FORMS}")


class SimOutputPin(MockPin):
    """A mock pin that tells the board when it changes and keeps a bounded history."""

    def __init__(self, factory, info, on_change: Callable[[bool], None] | None = None):
        super().__init__(factory, info)
        self.on_change = on_change

    def _change_state(self, value):
        if self._state == value:
            return False
        super()._change_state(value)
        if len(self.states) > HISTORY_LIMIT:
            self.clear_states()
        if self.on_change is not None:
            self.on_change(value)
        return True


class SimColumnPin(MockPin):
    """A column input of the switch matrix: its level follows the driven rows and switches.

    A closed switch joins its row to the column through a diode, so the column reads the
    selected level when any selected row has its switch closed, and its pull otherwise.
    With a ``when_changed`` set it reports its edges as a real pin's interrupt does: when
    a switch moves and the level it reads changes (`notice`).
    """

    def __init__(self, factory, info, board: SimulatedBoard | None = None, column: int = 0):
        super().__init__(factory, info)
        self.board = board
        self.column = column
        self._seen = self._state

    def _enable_event_detect(self):
        self._seen = self._get_state()

    def notice(self) -> None:
        """The switches changed: an edge, if watched and if this column's level changed."""
        if self._when_changed is None:
            return
        level = self._get_state()
        if level == self._seen:
            return
        self._seen = level
        if self._edges in ("both", "rising" if level else "falling"):
            callback = self.when_changed  # what gpiozero's own edge calls, with our level
            if callback is not None:
                callback(self.factory.ticks(), level)

    def _get_state(self):
        board = self.board
        if board is None or self._function != "input":
            return self._state
        return board.column_level(self.column)

    def _change_state(self, value):
        if super()._change_state(value):
            if len(self.states) > HISTORY_LIMIT:
                self.clear_states()
            return True
        return False


class SimulatedBoard:
    """The physical board without the wood: switches, a hand, and LEDs to look at.

    ``factory`` is the mock pin factory the drivers must be opened on (pass it as their
    ``pin_factory``). ``occupied`` is the set of closed switches as a mask (bit ``n - 1``
    for square ``n``); ``now`` is the virtual time of the last :meth:`advance`.
    """

    def __init__(self, config: BoardConfig, *, pin_factory: MockFactory | None = None,
                 occupied: Iterable[int] = (), faults: Iterable[WiringFault] = ()) -> None:
        self.config = config
        self.square_count = config.square_count
        self.factory = pin_factory if pin_factory is not None else MockFactory()
        self.now = 0.0
        # Called whenever a switch is moved or scheduled: the scan driver's `nudge`, so
        # that an idle board need not be scanned often to notice the hand.
        self.on_touch: Callable[[], None] | None = None
        self._events: list[tuple[float, int, int, bool]] = []
        self._sequence = 0
        matrix = config.matrix
        self._select_level = not matrix.active_low
        self._idle_level = matrix.active_low
        self._where: dict[int, tuple[int, int]] = {}
        for r, row in enumerate(matrix.squares):
            for c, square in enumerate(row):
                if square:
                    self._where[square] = (r, c)
        self._selected_rows = 0
        self._closed_rows = [0] * len(matrix.columns)
        self._closed = 0
        self.faults = tuple(faults)
        self._apply_faults(matrix)
        self.pins: list[MockPin] = []
        for r, pin in enumerate(matrix.rows):
            self.pins.append(self.factory.pin(
                pin, pin_class=SimOutputPin, on_change=self._row_watcher(r)))
        self._column_pins: list[SimColumnPin] = []
        for c, pin in enumerate(matrix.columns):
            self._column_pins.append(self.factory.pin(pin, pin_class=SimColumnPin, board=self,
                                                      column=c))
        self.pins += self._column_pins
        # the emulated 74HC595 chain (None without LEDs): latched outputs and OE
        self.led_chain = (_ShiftChain(self, config) if config.leds.driver == "shift-register"
                          else None)
        self.set_occupied(occupied)

    def _apply_faults(self, matrix) -> None:
        rows, columns = len(matrix.rows), len(matrix.columns)
        self._cut_rows = 0
        self._cut_columns = 0
        self._bridged = [1 << c for c in range(columns)]  # columns wired together
        self._stuck_closed = [0] * columns  # per column: rows whose reed is stuck closed
        self._stuck_open = [0] * columns
        for fault in self.faults:
            if fault.kind == "row-open" and 0 <= fault.index < rows:
                self._cut_rows |= 1 << fault.index
            elif fault.kind == "column-open" and 0 <= fault.index < columns:
                self._cut_columns |= 1 << fault.index
            elif (fault.kind == "column-short" and 0 <= fault.index < columns
                  and 0 <= fault.other < columns):
                both = self._bridged[fault.index] | self._bridged[fault.other]
                for c in range(columns):
                    if both >> c & 1:
                        self._bridged[c] = both
            elif fault.kind in ("stuck-closed", "stuck-open") and fault.index in self._where:
                r, c = self._where[fault.index]
                target = self._stuck_closed if fault.kind == "stuck-closed" else self._stuck_open
                target[c] |= 1 << r
            else:
                raise ValueError(f"--sim-fault: {fault.kind} {fault.index}: not on this "
                                 f"board ({rows} rows, {columns} columns, squares "
                                 f"1-{self.square_count})")
        self._faulty = bool(self.faults)

    def _row_watcher(self, row: int) -> Callable[[bool], None]:
        bit = 1 << row
        select = self._select_level

        def changed(level: bool) -> None:
            if level == select:
                self._selected_rows |= bit
            else:
                self._selected_rows &= ~bit

        return changed

    # -- the switches ----------------------------------------------------------------

    def column_level(self, column: int) -> bool:
        """The level a column input reads now: the selected level when a driven row has
        its switch in this column closed (through its diode), else the pull's level."""
        if self._column_closed(column, self._selected_rows):
            return self._select_level
        return self._idle_level

    def columns_closed(self, rows: int) -> int:
        """The matrix columns that read a closed switch while the matrix rows in ``rows``
        (a mask, bit ``r`` for row ``r``) are driven: bit ``c`` for column ``c``.

        The scan of a microcontroller that drives this board's rows and reads its
        columns (`draughtsboard.firmware_bridge.fakepins`, handed this board by the
        composition root): one diode-matrix model, wiring faults included, for the Pi's
        drivers on the mock pins and for the firmware."""
        bits = 0
        if not self._faulty:  # the rule of `_column_closed`, a column at a time, inlined
            for column, closed in enumerate(self._closed_rows):
                if rows & closed:
                    bits |= 1 << column
            return bits
        for column in range(len(self._closed_rows)):
            if self._column_closed(column, rows):
                bits |= 1 << column
        return bits

    def _column_closed(self, column: int, rows: int) -> bool:
        """The diode matrix: a closed switch joins its row to its column through its
        diode, so a column reads closed when a driven row has its switch there closed
        (with the faults built in: cut wires, bridged columns, stuck reeds)."""
        if not self._faulty:
            return bool(rows & self._closed_rows[column])
        if self._cut_columns >> column & 1:
            return False  # the input sees only its pull
        driven = rows & ~self._cut_rows
        bridged = self._bridged[column]
        for c in range(len(self._closed_rows)):
            if bridged >> c & 1 and not self._cut_columns >> c & 1:
                closed = (self._closed_rows[c] | self._stuck_closed[c]) & ~self._stuck_open[c]
                if driven & closed:
                    return True
        return False

    @property
    def occupied(self) -> int:
        """The closed switches as a mask (bit ``n - 1`` for square ``n``); set, it puts
        the board in that position at once (`set_occupied`)."""
        return self._closed

    @occupied.setter
    def occupied(self, mask: int) -> None:
        self.set_occupied(squares_from_mask(mask))

    @property
    def squares(self) -> list[int]:
        return squares_from_mask(self._closed)

    def set_switch(self, square: int, closed: bool) -> None:
        """Close or open one switch now."""
        try:
            r, c = self._where[square]
        except KeyError:
            raise ValueError(f"square {square} is not on this board "
                             f"(1-{self.square_count})") from None
        if closed:
            self._closed |= 1 << (square - 1)
            self._closed_rows[c] |= 1 << r
        else:
            self._closed &= ~(1 << (square - 1))
            self._closed_rows[c] &= ~(1 << r)
        for pin in self._column_pins:
            pin.notice()
        if self.on_touch is not None:
            self.on_touch()

    def set_occupied(self, squares: Iterable[int]) -> None:
        """Put the board in a position at once (pieces on exactly these squares)."""
        wanted = mask_from_squares(squares)
        for square in range(1, self.square_count + 1):
            self.set_switch(square, bool(wanted >> (square - 1) & 1))

    # -- the hand ----------------------------------------------------------------------

    def schedule(self, at: float, square: int, closed: bool) -> None:
        """Close or open ``square``'s switch at virtual time ``at``."""
        if square not in self._where:
            raise ValueError(f"square {square} is not on this board (1-{self.square_count})")
        self._sequence += 1
        heapq.heappush(self._events, (at, self._sequence, square, closed))
        if self.on_touch is not None:
            self.on_touch()

    def lift(self, square: int, at: float | None = None, *, bounce: int = 0,
             bounce_interval: float = 0.0005) -> None:
        """Lift the piece on ``square`` (now, or at ``at``), the reed bouncing ``bounce`` times."""
        self._switch(square, False, at, bounce, bounce_interval)

    def place(self, square: int, at: float | None = None, *, bounce: int = 0,
              bounce_interval: float = 0.0005) -> None:
        """Put a piece on ``square`` (now, or at ``at``), the reed bouncing ``bounce`` times."""
        self._switch(square, True, at, bounce, bounce_interval)

    def brush(self, square: int, at: float | None = None, duration: float = 0.002) -> None:
        """A hand passing over ``square``: its switch flips for ``duration`` and flips back."""
        start = self.now if at is None else at
        was = self.switch_at(square, start)
        self.schedule(start, square, not was)
        self.schedule(start + duration, square, was)

    def move(self, source: int, target: int, at: float | None = None,
             hold: float = 0.3) -> float:
        """Lift from ``source`` and put down on ``target`` ``hold`` seconds later; end time."""
        start = self.now if at is None else at
        self.lift(source, start)
        self.place(target, start + hold)
        return start + hold

    def _switch(self, square: int, closed: bool, at: float | None, bounce: int,
                interval: float) -> None:
        if at is None and not bounce:
            self.set_switch(square, closed)
            return
        t = self.now if at is None else at
        for _ in range(bounce):
            self.schedule(t, square, closed)
            self.schedule(t + interval, square, not closed)
            t += 2 * interval
        self.schedule(t, square, closed)

    def switch_at(self, square: int, at: float) -> bool:
        """Whether ``square``'s switch will be closed at ``at``, given what is scheduled."""
        closed = bool(self._closed >> (square - 1) & 1)
        for when, _, sq, level in sorted(self._events):
            if when > at:
                break
            if sq == square:
                closed = level
        return closed

    @property
    def pending(self) -> int:
        """Scheduled switch changes not yet applied."""
        return len(self._events)

    @property
    def next_change(self) -> float | None:
        """When the next scheduled switch change is due (None: nothing scheduled)."""
        return self._events[0][0] if self._events else None

    def advance(self, now: float) -> None:
        """Move virtual time to ``now``, applying every scheduled change due by then."""
        events = self._events
        while events and events[0][0] <= now:
            _, _, square, closed = heapq.heappop(events)
            self.set_switch(square, closed)
        if now > self.now:
            self.now = now

    # -- the LEDs and the rest -----------------------------------------------------------

    def led_mask(self) -> int:
        """Squares whose LED is lit (bit ``n - 1``), as read back from the driver's pins.

        For a shift-register chain: the latched outputs. For a multiplexed matrix: every
        LED lit at some moment since the previous call (the eye's persistence).
        """
        return self.led_chain.take() if self.led_chain is not None else 0

    def lit_squares(self) -> list[int]:
        return squares_from_mask(self.led_mask())

    def press(self, button: str) -> None:
        """Hold a button down (buttons pull up; pressed reads low)."""
        self.factory.pin(dict(self.config.buttons)[button]).drive_low()

    def release(self, button: str) -> None:
        self.factory.pin(dict(self.config.buttons)[button]).drive_high()

    def clear_history(self) -> None:
        """Forget the state history of every simulated pin."""
        for pin in self.factory.pins.values():
            pin.clear_states()

    def __repr__(self) -> str:
        return f"<SimulatedBoard {self.config.board} occupied={self.squares}>"


# -- LED read-back ------------------------------------------------------------------------

class _ShiftChain:
    """A chain of 74HC595: shifts the data pin in on each clock rise, latches on latch rise;
    with an OE pin, the outputs show only while OE is low."""

    def __init__(self, board: SimulatedBoard, config: BoardConfig) -> None:
        leds = config.leds
        self.width = 8 * ((len(leds.order) + 7) // 8)
        self.full = (1 << self.width) - 1
        self.shift = 0
        self.outputs = 0
        self.order = leds.order
        self.active_high = leds.active_high
        factory = board.factory
        self.data = factory.pin(leds.data, pin_class=SimOutputPin)
        board.pins += [
            self.data,
            factory.pin(leds.clock, pin_class=SimOutputPin, on_change=self._clock),
            factory.pin(leds.latch, pin_class=SimOutputPin, on_change=self._latch),
        ]
        self.enable = None
        if leds.enable is not None:
            # OE is pulled up on the board: outputs off until a driver pulls it low
            self.enable = factory.pin(leds.enable, pin_class=SimOutputPin)
            self.enable._state = True
            board.pins.append(self.enable)

    def _clock(self, level: bool) -> None:
        if level:
            self.shift = ((self.shift << 1) | bool(self.data.state)) & self.full

    def _latch(self, level: bool) -> None:
        if level:
            self.outputs = self.shift

    @property
    def outputs_enabled(self) -> bool:
        return self.enable is None or not self.enable.state

    def take(self) -> int:
        if not self.outputs_enabled:
            return 0
        outputs = self.outputs if self.active_high else ~self.outputs & self.full
        mask = 0
        for k, square in enumerate(self.order):
            if square and outputs >> k & 1:
                mask |= 1 << (square - 1)
        return mask
