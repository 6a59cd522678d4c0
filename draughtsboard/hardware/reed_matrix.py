"""The reed-switch matrix driver: scans rows, debounces, publishes snapshots.

It works through gpiozero devices on any pin factory, so the code that scans a real board
on a Pi is the code that scans the simulated board in tests and replays. It runs in its
own thread at the configured rate, or is stepped by hand with :meth:`ReedMatrix.scan_once`
so that a simulation runs in virtual time, much faster than real time.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero.exc import DeviceClosed
from gpiozero.pins import Factory

from draughtsboard.board.ports import Snapshot

from .config import BoardConfig
from .debounce import Debouncer
from .matrix_pins import open_matrix_pins
from .pins import resolve_pin_factory

IDLE_AFTER = 2.0  # seconds of scans reading nothing new before the board counts as idle
# How often a board nobody touches is scanned, by how long nothing has changed: (quiet
# seconds, scans a second). Each scan costs a thread wake-up; the first change after a
# quiet spell is seen at most one pause late. A player's think of up to 10 s keeps the
# 40 scans a second of play (25 ms at most); a longer silence lets the scan sleep longer.
# Never slower than 10 a second: a move begun after any think is seen at most 100 ms late,
# and its time on the mover's clock is off by no more (a second was tried: 0.08 % of a
# core instead of about 0.2 %, but a clock that charges a player up to a second is wrong).
REST_STEPS = ((IDLE_AFTER, 40.0), (10.0, 10.0))
IDLE_SCAN_RATE = REST_STEPS[0][1]
# From a pause this long, the matrix pins watch the columns between scans (every row
# driven, an edge on a column wakes the scan: `GpiozeroMatrixPins.watch`).
WATCH_FROM = 0.05
# An idle board that says when it is touched (`ReedMatrix.nudge`: the simulator does) is
# scanned only this often: the scans then only confirm that nothing changed unannounced.
NUDGED_IDLE_SCAN_RATE = 1
NUDGED_REST_STEPS = ((IDLE_AFTER, float(NUDGED_IDLE_SCAN_RATE)),)


class ScanPacer:
    """How long to the next scan: ``period`` while anything changes; once every scan for
    ``steps[i][0]`` seconds has read what the board already showed, ``1 / steps[i][1]``
    (the last step reached counts)."""

    def __init__(self, period: float, steps: tuple[tuple[float, float], ...], now: float
                 ) -> None:
        self.period = period
        self.steps = tuple((after, max(period, 1.0 / rate)) for after, rate in steps)
        self.quiet_since = now

    def next_step(self, now: float, busy: bool) -> float:
        """The pause after a scan at ``now``; ``busy``: it read something new."""
        if busy:
            self.quiet_since = now
        quiet = now - self.quiet_since
        step = self.period
        for after, pause in self.steps:
            if quiet < after:
                break
            step = pause
        return step


@dataclass(frozen=True, slots=True)
class ScanStats:
    """Counters since the matrix was opened. ``scans_per_second`` uses the scan timestamps."""

    scans: int
    scans_per_second: float
    changes: int
    bounces_filtered: int
    snapshots: int
    dropped: int


class ReedMatrix:
    """A :class:`~draughtsboard.board.ports.SensorSource` over a diode switch matrix.

    ``start=True`` scans in a daemon thread at ``config.matrix.scan_rate``; with
    ``start=False`` the caller steps it with ``scan_once(now)`` (virtual time). The first
    snapshot is published once ``debounce`` scans have been made, then one per change.
    Unread snapshots beyond ``queue_size`` are dropped oldest first and counted.
    ``before_scan(now)`` is called before each scan: a simulated board uses it to move its
    scripted hand to the scan's time, so ``scan_once(now)`` is all a replay has to call.
    ``pins`` replaces the pins `open_matrix_pins` would open (tests: lgpio stand-ins).
    ``rest_steps``: how often an idle board is scanned (below); ``watch_columns``: whether
    the columns are watched between its scans (below); ``changes_due()``:
    whether the board has changes on their way (a simulated hand's schedule), which keep
    it from counting as idle.

    100 scans a second (the shipped configs) and a debounce of 3 scans confirm a change in
    30 ms, well inside the 100 ms the tracker waits before it takes a piece as put down;
    more scans would only cost kernel calls.

    A board nobody touches is scanned less often: after `IDLE_AFTER` seconds in which every
    scan read what the board already showed, 40 times a second, after 10 s 10 times
    (`REST_STEPS`), and at the configured rate again from the first scan that
    reads anything else. Only the first change after a quiet spell waits longer (at most
    one pause) before it is seen; its debounce and everything after run at full rate.

    A board that can tell when it is touched calls :meth:`nudge`: an idle scan thread
    scans at once and at the full rate again. The simulated board does, on every switch
    its hands move, so it is opened with `NUDGED_REST_STEPS`. A real matrix can tell only
    some touches: during pauses of `WATCH_FROM` or longer, pins that can (``pins.watch``)
    drive every row and nudge the scan on an edge of a column. A column changes only when
    its first switch closes or its last one opens: lifting one of two pieces in a column
    changes no input, and waits for the next scan (docs/hardware.md).
    """

    def __init__(
        self,
        config: BoardConfig,
        *,
        pin_factory: Factory | None = None,
        start: bool = True,
        clock: Callable[[], float] = time.monotonic,
        queue_size: int = 4096,
        before_scan: Callable[[float], None] | None = None,
        pins=None,
        rest_steps: tuple[tuple[float, float], ...] = REST_STEPS,
        watch_columns: bool = True,
        changes_due: Callable[[], bool] | None = None,
    ) -> None:
        matrix = config.matrix
        self.square_count = config.square_count
        self.config = config
        self._clock = clock
        self._before_scan = before_scan
        self._debouncer = Debouncer(matrix.debounce)
        self._period = 1.0 / matrix.scan_rate
        self._rest_steps = rest_steps
        self._watch_columns = watch_columns
        self._changes_due = changes_due
        self._queue: deque[Snapshot] = deque()
        self._queue_size = queue_size
        self._cond = threading.Condition()
        self._latest: Snapshot | None = None
        self._snapshots = 0
        self._dropped = 0
        self._scans = 0
        self._first_scan: float | None = None
        self._last_scan: float | None = None
        self._stop = threading.Event()
        # The scan thread sleeps on this lock (held but for a moment by close or a nudge):
        # a timed lock acquire is a third of the CPU of Event.wait's wake-up, paid at every
        # scan. Only `_wake_scanner` releases it, under `_sleeper_guard`.
        self._sleeper = threading.Lock()
        self._sleeper.acquire()
        self._sleeper_guard = threading.Lock()
        self._nudged = False
        self._idling = False
        self._woken = False
        self._raw = 0
        self._thread: threading.Thread | None = None
        self._closed = False
        if pins is None:
            pins = open_matrix_pins(matrix, resolve_pin_factory(pin_factory), config.source)
        self._pins = pins
        # Per row: (column bit, square bit) of each square on it.
        self._plan = tuple(
            (r, tuple((1 << c, 1 << (square - 1))
                      for c, square in enumerate(matrix.squares[r]) if square))
            for r in range(len(matrix.rows))
        )
        # Per column: the squares on it (which columns read "closed" at rest).
        self._column_squares = tuple(
            sum(1 << (row[c] - 1) for row in matrix.squares if c < len(row) and row[c])
            for c in range(len(matrix.columns)))
        if start:
            self.start()

    # -- scanning --------------------------------------------------------------------

    def read_raw(self) -> int:
        """One full scan of the switches, undebounced: bit ``n - 1`` for square ``n``."""
        raw = 0
        pins = self._pins
        for row, cells in self._plan:
            pins.select(row)
            columns = pins.read()
            if columns:
                for column_bit, square_bit in cells:
                    if columns & column_bit:
                        raw |= square_bit
        pins.release()
        return raw

    def scan_once(self, now: float | None = None) -> Snapshot | None:
        """Scan and debounce once at time ``now``; return the snapshot it published, if any."""
        if self._closed:
            raise DeviceClosed("the reed matrix is closed")
        if now is None:
            now = self._clock()
        if self._before_scan is not None:
            self._before_scan(now)
        raw = self.read_raw()
        self._raw = raw
        self._scans += 1
        if self._first_scan is None:
            self._first_scan = now
        self._last_scan = now
        debouncer = self._debouncer
        was_primed = debouncer.primed
        changed = debouncer.update(raw)
        if changed or (debouncer.primed and not was_primed):
            return self._publish(Snapshot(debouncer.stable, now))
        return None

    def _publish(self, snapshot: Snapshot) -> Snapshot:
        with self._cond:
            if len(self._queue) >= self._queue_size:
                self._queue.popleft()
                self._dropped += 1
            self._queue.append(snapshot)
            self._latest = snapshot
            self._snapshots += 1
            self._cond.notify_all()
        return snapshot

    # -- SensorSource ----------------------------------------------------------------

    def read(self, timeout: float | None = None) -> Snapshot | None:
        """The next unread snapshot, or None when none comes within ``timeout`` seconds."""
        try:
            return self._queue.popleft()
        except IndexError:
            if timeout is not None and timeout <= 0:
                return None
        with self._cond:
            self._cond.wait_for(lambda: self._queue or self._closed or self._woken, timeout)
            self._woken = False
            try:
                return self._queue.popleft()
            except IndexError:
                return None

    def wake(self) -> None:
        """Make a `read` waiting now return at once (None if nothing came): its caller has
        something else to do."""
        with self._cond:
            self._woken = True
            self._cond.notify_all()

    def latest(self) -> Snapshot | None:
        return self._latest

    @property
    def occupied(self) -> int:
        """The debounced occupancy mask right now (valid once the first snapshot is out)."""
        return self._debouncer.stable

    def stats(self) -> ScanStats:
        elapsed = (self._last_scan or 0.0) - (self._first_scan or 0.0)
        rate = (self._scans - 1) / elapsed if elapsed > 0 else 0.0
        d = self._debouncer
        return ScanStats(self._scans, rate, d.changes, d.bounces, self._snapshots, self._dropped)

    def changes_by_square(self) -> dict[int, int]:
        """Debounced changes per square since opening (diagnostics: stuck switches)."""
        return dict(self._debouncer.changes_by_square)

    def together_by_square(self) -> dict[int, int]:
        """Per square that changed: the mask of squares that changed with it every time."""
        return dict(self._debouncer.together_by_square)

    def bounces_by_square(self) -> dict[int, int]:
        """Filtered bounces per square since opening (diagnostics: chattering switches)."""
        return dict(self._debouncer.bounces_by_square)

    # -- thread and lifetime ---------------------------------------------------------

    def start(self) -> None:
        """Scan in a background thread at the configured rate (no-op if already running)."""
        if self._closed:
            raise DeviceClosed("the reed matrix is closed")
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="reed-matrix", daemon=True)
        self._thread.start()

    @property
    def is_idle(self) -> bool:
        """Whether the scan thread is in an idle pause (diagnostics and tests)."""
        return self._idling

    @property
    def is_scanning(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def nudge(self) -> None:
        """The board was touched (called from any thread): an idle scan thread scans at
        once, and the board counts as busy again, scanned at the full rate."""
        self._nudged = True
        if self._idling:
            self._wake_scanner()

    def _wake_scanner(self) -> None:
        with self._sleeper_guard:
            if self._sleeper.locked():
                self._sleeper.release()

    def _closed_columns(self) -> int:
        """Bit ``c`` set when column ``c`` holds a closed switch (debounced)."""
        stable = self._debouncer.stable
        return sum(1 << c for c, squares in enumerate(self._column_squares) if stable & squares)

    def _run(self) -> None:
        deadline = self._clock()
        pacer = ScanPacer(self._period, self._rest_steps, deadline)
        debouncer = self._debouncer
        # pins that can wake the scan, unless the board says every touch itself (nudge)
        watch = getattr(self._pins, "watch", None) if self._watch_columns else None
        watching = False
        while not self._stop.is_set():
            if watching:
                self._pins.unwatch()
                watching = False
            nudged, self._nudged = self._nudged, False
            now = self._clock()
            try:
                self.scan_once(now)
            except DeviceClosed:
                return
            busy = (nudged or self._raw != debouncer.stable or not debouncer.primed
                    or (self._changes_due is not None and self._changes_due()))
            step = pacer.next_step(now, busy)
            deadline += step
            delay = deadline - self._clock()
            if delay < -step:  # fell behind (a slow machine): do not try to catch up
                deadline = self._clock()
                delay = 0.0
            # Set before _nudged is looked at, so that a nudge in between wakes the sleep.
            self._idling = step > pacer.period
            if watch is not None and step >= WATCH_FROM and debouncer.primed:
                watching = True
                if watch(self.nudge, self._closed_columns()):
                    self._nudged = True  # a column changed since the scan
            if delay > 0 and not self._nudged and self._sleeper.acquire(True, delay):
                if self._stop.is_set():
                    return  # released by close
                deadline = self._clock()  # released by a nudge: scan now (lock held again)
            self._idling = False

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Stop scanning and release the pins. Safe to call more than once."""
        if self._closed:
            return
        self._stop.set()
        self._wake_scanner()  # the scan thread wakes and stops
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._close_devices()

    def _close_devices(self) -> None:
        self._pins.close()

    def __enter__(self) -> ReedMatrix:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{len(self._plan)} rows"
        return f"<ReedMatrix {self.config.board} {state}>"
