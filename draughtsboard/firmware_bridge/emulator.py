"""The reference firmware running on the host: a microcontroller without the hardware.

``EmulatedDevice`` is the real firmware logic (firmware/core.py) on fake pins whose
switches are any object with an ``occupied`` mask; a source checkout's
``devtools/pico_sim`` runs the whole firmware (main.py too) under MicroPython, with the
same interface (`Device`). Two ways to run either:

* ``VirtualBench``: device, a faulty wire in each direction and a ``HostSession``, all
  stepped in virtual time by the caller. Deterministic; what tests and replays use.
* ``SocketEmulator``: the device in a thread behind a local TCP socket, so a
  ``SerialLink`` on ``socket://127.0.0.1:PORT`` talks to it exactly as to a Pico on
  ``/dev/ttyACM0``; cable faults, device resets and unplugging included.
"""

from __future__ import annotations

import logging
import random
import select
import socket
import threading
import time
from collections.abc import Callable
from typing import Protocol, TypedDict, Unpack

from draughtsboard.board.ports import LedFrame, Snapshot
from draughtsboard.board.rules.geometry import Geometry, Numbering
from draughtsboard.firmware_bridge.fakepins import FakePins, Switches
from draughtsboard.firmware_bridge.faults import FaultyPipe
from draughtsboard.firmware_bridge.firmware import core
from draughtsboard.firmware_bridge.session import Actions, HostSession

log = logging.getLogger(__name__)


class Device(Protocol):
    """A microcontroller the host can step: what the bench and the socket emulator use."""

    square_count: int

    def power_on(self) -> None: ...

    def reset(self) -> None: ...

    def step(self, horizon: float | None = None) -> None: ...

    def feed(self, data: bytes) -> None: ...

    def take(self) -> bytes: ...

    def close(self) -> None: ...


DeviceFactory = Callable[..., Device]  # (board, switches, clock, *, seed, **options)


class DeviceOptions(TypedDict, total=False):
    """The CONFIG settings an `EmulatedDevice` takes besides its seed (as in main.py)."""

    debounce_scans: int
    heartbeat_ms: int
    snapshot_ms: int
    repeats: int
    repeat_ms: int
    quiet_heartbeat_ms: int
    quiet_after_ms: int


class EmulatedDevice:
    """A microcontroller running the reference firmware on fake pins.

    ``clock`` gives seconds (virtual or real). ``reset()`` reboots it: a new boot id, the
    LEDs dark, a half-received frame forgotten, exactly as a watchdog reset would.
    """

    def __init__(
        self,
        board: Geometry,
        switches: Switches,
        clock: Callable[[], float],
        *,
        seed: int | None = 0,
        debounce_scans: int = 3,
        heartbeat_ms: int = core.HEARTBEAT_MS,
        snapshot_ms: int = core.SNAPSHOT_MS,
        repeats: int = core.REPEATS,
        repeat_ms: int = core.REPEAT_MS,
        quiet_heartbeat_ms: int = core.QUIET_HEARTBEAT_MS,
        quiet_after_ms: int = core.QUIET_AFTER_MS,
    ) -> None:
        self.board_size = board.size
        self.cells = core.matrix_map(board.size, board.numbering is Numbering.FROM_TOP_LEFT)
        self.square_count = len(self.cells)
        self.switches = switches
        self.pins = FakePins(self.cells, switches, clock)
        self._rng = random.Random(seed)
        self._options = dict(
            debounce_scans=debounce_scans,
            heartbeat_ms=heartbeat_ms,
            snapshot_ms=snapshot_ms,
            repeats=repeats,
            repeat_ms=repeat_ms,
            quiet_heartbeat_ms=quiet_heartbeat_ms,
            quiet_after_ms=quiet_after_ms,
        )
        self.boots = 0
        self.firmware = self._new_firmware()

    def _new_firmware(self) -> core.Firmware:
        previous = getattr(self, "firmware", None)
        boot_id = self._rng.randrange(1, 1 << 16)
        while previous is not None and boot_id == previous.boot_id:
            boot_id = self._rng.randrange(1, 1 << 16)
        return core.Firmware(self.pins, self.board_size, self.cells, boot_id, **self._options)

    def power_on(self) -> None:
        self.boots += 1
        self.firmware.boot()

    def reset(self) -> None:
        self.pins.rx.clear()
        self.pins.leds = [False] * self.square_count
        self.firmware = self._new_firmware()
        self.power_on()

    def step(self, horizon: float | None = None) -> None:
        """One pass of the firmware's loop (the horizon is for devices that can run
        ahead; this one runs one pass a step)."""
        self.firmware.poll()

    def close(self) -> None:
        """Nothing to release: the firmware runs in this process."""

    def feed(self, data: bytes) -> None:
        self.pins.feed(data)

    def take(self) -> bytes:
        return self.pins.take()


class VirtualBench:
    """Device <-> faulty wire <-> host session, in virtual time, one millisecond a step.

    Published snapshots collect in ``published``; ``history`` records every occupancy the
    switches had at a step, so a test can check that the host never saw a board that
    never was.
    """

    def __init__(
        self,
        board: Geometry,
        switches: Switches,
        *,
        fault_rate: float = 0.0,
        seed: int = 0,
        step: float = 0.001,
        session: HostSession | None = None,
        device_factory: DeviceFactory = EmulatedDevice,
        **device_options: object,
    ) -> None:
        self.now = 0.0
        self.step_seconds = step
        self.switches = switches
        self.device = device_factory(
            board, switches, lambda: self.now, seed=seed, **device_options
        )
        self.session = session or HostSession(self.device.square_count)
        self.up = FaultyPipe(fault_rate, seed * 2 + 1)
        self.down = FaultyPipe(fault_rate, seed * 2 + 2)
        self.published: list[Snapshot] = []
        self.history: set[int] = {switches.occupied}
        self.device.power_on()
        self._apply(self.session.connected(self.now))

    def _apply(self, actions: Actions) -> None:
        for frame in actions.send:
            self.down.push(frame, self.now)
        self.published += actions.publish
        if actions.reopen:
            self.session.disconnected()
            self.up.clear()
            self.down.clear()
            self._apply(self.session.connected(self.now))

    def advance(self, horizon: float | None = None) -> None:
        """One step: the device polls once, bytes cross, the host reads and ticks.

        ``horizon``: the caller knows the switches stay as they are until then; a device
        that can (MicroPython's) runs ahead to it while nothing else can reach it (no
        bytes in flight to it, nothing the session will send on a timer)."""
        self.now += self.step_seconds
        self.history.add(self.switches.occupied)
        device = self.device
        device.feed(self.down.pull(self.now))
        device.step(self._horizon(horizon))
        self.up.push(device.take(), self.now)
        data = self.up.pull(self.now)
        if data:
            self._apply(self.session.receive(data, self.now))
        self._apply(self.session.tick(self.now))

    def _horizon(self, horizon: float | None) -> float | None:
        if horizon is None or not self.session.quiet:
            return None
        arriving = self.down.next_release
        return horizon if arriving is None else min(horizon, arriving)

    def close(self) -> None:
        """Stop the device (a MicroPython process)."""
        self.device.close()

    def take_published(self) -> list[Snapshot]:
        """The snapshots published since the last call (and forget them)."""
        published, self.published = self.published, []
        return published

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / self.step_seconds)):
            self.advance()

    def run_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Step until ``predicate()`` holds or ``timeout`` virtual seconds pass."""
        for _ in range(round(timeout / self.step_seconds)):
            if predicate():
                return True
            self.advance()
        return predicate()

    def show(self, frame: LedFrame) -> None:
        self._apply(self.session.show(frame, self.now))

    def reset_device(self) -> None:
        self.device.reset()

    @property
    def host_sees(self) -> int | None:
        latest = self.session.latest
        return None if latest is None else latest.occupied


class SocketEmulator:
    """The emulated device in a thread, serving one host connection at a time on TCP.

    ``url`` is what ``serial.serial_for_url`` opens. ``fault_rate`` damages bytes both
    ways; ``reset()`` reboots the device; ``unplug()`` drops the connection (the host
    sees its port fail and must reconnect). Call ``close()`` (or use ``with``).
    """

    def __init__(
        self,
        board: Geometry,
        switches: Switches,
        *,
        fault_rate: float = 0.0,
        seed: int = 0,
        poll_interval: float = 0.001,
        clock: Callable[[], float] = time.monotonic,
        **device_options: Unpack[DeviceOptions],
    ) -> None:
        self.clock = clock
        self.poll_interval = poll_interval
        self.device = EmulatedDevice(board, switches, clock, seed=seed, **device_options)
        self.up = FaultyPipe(fault_rate, seed * 2 + 1)
        self.down = FaultyPipe(fault_rate, seed * 2 + 2)
        self.lock = threading.RLock()
        self.connections = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.setblocking(False)
        self.port = self._listener.getsockname()[1]
        self._conn: socket.socket | None = None
        self._stop = threading.Event()
        self.device.power_on()
        self._thread = threading.Thread(target=self._run, name="emulated-device", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    def reset(self) -> None:
        with self.lock:
            self.device.reset()

    def unplug(self) -> None:
        with self.lock:
            self._drop_connection()

    def _drop_connection(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self.up.clear()
            self.down.clear()

    def _run(self) -> None:
        while not self._stop.is_set():
            conn = self._conn
            watched = [conn] if conn is not None else [self._listener]
            try:
                readable, _, _ = select.select(watched, [], [], self.poll_interval)
            except (OSError, ValueError):  # the connection was closed under us
                readable = []
            with self.lock:
                now = self.clock()
                if readable and self._conn is None and not self._stop.is_set():
                    self._accept()
                elif readable and self._conn is conn and conn is not None:
                    try:
                        data = conn.recv(4096)
                    except OSError:
                        data = b""
                    if not data:
                        self._drop_connection()
                    self.down.push(data, now)
                device = self.device
                device.feed(self.down.pull(now))
                device.step()
                output = device.take()
                if self._conn is None:
                    continue  # nobody listening: USB CDC drops what no host reads
                self.up.push(output, now)
                data = self.up.pull(now)
                if data:
                    try:
                        self._conn.sendall(data)
                    except OSError:
                        self._drop_connection()

    def _accept(self) -> None:
        try:
            conn, _ = self._listener.accept()
        except BlockingIOError:
            return
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._conn = conn
        self.connections += 1

    def close(self) -> None:
        """Stop the device thread and close the socket (safe twice)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)
        with self.lock:
            self._drop_connection()
        self._listener.close()

    def __enter__(self) -> SocketEmulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
