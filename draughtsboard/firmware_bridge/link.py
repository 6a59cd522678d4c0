"""A microcontroller on a serial port, as a SensorSource and LedSink.

``SerialLink`` opens any pyserial URL (``/dev/ttyACM0``, ``loop://``,
``socket://127.0.0.1:PORT``) and runs one I/O thread that moves bytes between the port
and a ``HostSession``, which holds every protocol decision. The thread reopens the port
with backoff when it fails (a USB cable pulled) or when the session declares the device
silent. pyserial's ``threaded.ReaderThread`` is not used because it has neither a timer
hook (heartbeat timeouts, retries) nor reconnection; the loop here is the same idea with
both.

The tracker cannot tell this from the GPIO backend: snapshots come out of ``read()``
with timestamps from the host's monotonic clock at the moment they were received.

What is wrong with the link is never only a debug line: a port that cannot be opened is
logged as an error (again at most every ``REPORT_EVERY`` seconds while it lasts), and
`problem` says in one line what the page must show (no port, no answer, a device of
another protocol) until the link is up.
"""

from __future__ import annotations

import errno
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import serial

from draughtsboard.board.ports import LedFrame, Snapshot
from draughtsboard.firmware_bridge.session import Actions, HostSession, LinkState, LinkStats

log = logging.getLogger(__name__)

PORT_ERRORS = (serial.SerialException, OSError, ValueError)
REPORT_EVERY = 60.0  # seconds between two log lines about the same port failure
DOWN_GRACE = 2.0  # seconds the link may be between states before the page hears of it
QUIET_POLL = 0.25  # seconds a read may block while the session has nothing to time
# Why a port does not open, in the words a player at the board can act on.
OPEN_FAILURES = {
    errno.ENOENT: "no such device (the board unplugged, or another port?)",
    errno.ENODEV: "no such device (the board unplugged?)",
    errno.ENXIO: "no such device (the board unplugged?)",
    errno.EACCES: "permission denied (is this user in the dialout group?)",
    errno.EBUSY: "in use by another program",
}


class SerialLink:
    """Snapshots from, and LED frames to, a board microcontroller on a serial URL."""

    def __init__(
        self,
        url: str,
        square_count: int,
        *,
        baudrate: int = 115200,
        session: HostSession | None = None,
        clock: Callable[[], float] = time.monotonic,
        poll_interval: float = 0.01,
        backoff: tuple[float, float] = (0.05, 2.0),
        serial_for_url: Callable[..., Any] = serial.serial_for_url,
    ) -> None:
        self.url = url
        self.square_count = square_count
        self.baudrate = baudrate
        self.session = session or HostSession(square_count)
        self.clock = clock
        self.poll_interval = poll_interval
        self.backoff = backoff
        self._serial_for_url = serial_for_url
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        # Snapshots for `read`; None is a wake-up (`wake`), read as "nothing came".
        self._snapshots: queue.Queue[Snapshot | None] = queue.Queue()
        self._port: Any = None
        self._broken = False
        # Why the port was last closed under the session, for the page while it reopens:
        # a reopen the session asked for (no frame) is not a port that will not open.
        self._closed_because = "the port is closed"
        self._open_error: str | None = None
        self._reported_at = float("-inf")
        self._down_since: float | None = clock()
        self._stop = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=f"serial-link {url}", daemon=True)
        self._thread.start()

    # -- SensorSource / LedSink ---------------------------------------------------------

    def read(self, timeout: float | None = None) -> Snapshot | None:
        """The next snapshot published by the link (see `SensorSource`)."""
        try:
            if timeout is not None and timeout <= 0:
                return self._snapshots.get_nowait()
            return self._snapshots.get(timeout=timeout)
        except queue.Empty:
            return None

    def wake(self) -> None:
        """Make a `read` waiting now return at once, with None (its caller has a command
        to run)."""
        self._snapshots.put(None)

    def latest(self) -> Snapshot | None:
        return self.session.latest

    def show(self, frame: LedFrame) -> None:
        with self._lock:
            self._apply(self.session.show(frame, self.clock()))

    def close(self) -> None:
        """Stop the thread and close the port; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self._thread.join(timeout=5.0)
        with self._lock:
            self._close_port()

    def __enter__(self) -> SerialLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- status ------------------------------------------------------------------------

    @property
    def stats(self) -> LinkStats:
        return self.session.stats

    @property
    def state(self) -> LinkState:
        return self.session.state

    @property
    def is_up(self) -> bool:
        return self.session.state is LinkState.UP

    def problem(self) -> str | None:
        """What is wrong with the link, in one line for the page; ``None`` when it is up
        (or has been down for less than ``DOWN_GRACE`` seconds, a normal reconnection)."""
        if self.session.incompatible is not None:
            return str(self.session.incompatible)
        if self._open_error is not None:
            return self._open_error
        if self.session.state is LinkState.UP:
            return None
        since = self._down_since
        if since is None or self.clock() - since < DOWN_GRACE:
            return None
        waiting = {LinkState.DOWN: self._closed_because,
                   LinkState.AWAIT_HELLO: "no answer from the device",
                   LinkState.AWAIT_SNAPSHOT: "the device sends no snapshot"}
        return f"{self.url}: {waiting.get(self.session.state, 'down')}"

    def wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Block until ``predicate()`` holds after some link event, or ``timeout``."""
        with self._changed:
            return self._changed.wait_for(predicate, timeout)

    def wait_for_up(self, timeout: float) -> bool:
        return self.wait_until(lambda: self.is_up, timeout)

    # -- the I/O thread ----------------------------------------------------------------

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            if self._port is None and not self._open():
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            delay = self.backoff[0]
            try:
                port = self._port
                # Quiet, the session has no timer of its own to keep: block until the
                # device's next frame (a heartbeat within 200 ms) rather than wake 100
                # times a second for nothing.
                wait = QUIET_POLL if self.session.quiet else self.poll_interval
                if getattr(port, "timeout", wait) != wait:
                    port.timeout = wait
                data = port.read(max(1, port.in_waiting))
            except PORT_ERRORS as error:
                self._lost(error)
                continue
            with self._lock:
                now = self.clock()
                if data:
                    self._apply(self.session.receive(data, now))
                self._apply(self.session.tick(now))
                if self.session.state is LinkState.UP:
                    self._down_since = None
                elif self._down_since is None:
                    self._down_since = now
                if self._broken:
                    self._lost(None)

    def _open(self) -> bool:
        try:
            port = self._serial_for_url(
                self.url, baudrate=self.baudrate, timeout=self.poll_interval, write_timeout=1.0
            )
        except PORT_ERRORS as error:
            why = OPEN_FAILURES.get(getattr(error, "errno", None) or -1, str(error))
            text = f"cannot open {self.url}: {why}"
            now = self.clock()
            if text != self._open_error or now - self._reported_at >= REPORT_EVERY:
                log.error("%s (retrying)", text)
                self._reported_at = now
            self._open_error = text
            if self._down_since is None:
                self._down_since = now
            return False
        with self._lock:
            self._port = port
            self._broken = False
            if self._open_error is not None:
                log.info("opened %s after: %s", self.url, self._open_error)
            self._open_error = None
            log.info("opened %s", self.url)
            self._apply(self.session.connected(self.clock()))
        return True

    def _lost(self, error: BaseException | None) -> None:
        with self._lock:
            if error is not None:
                log.warning("lost %s: %s", self.url, error)
                self._closed_because = "the port is closed"
            if self._down_since is None:
                self._down_since = self.clock()
            self._close_port()
            self.session.link_lost()
            self._changed.notify_all()

    def _close_port(self) -> None:
        port, self._port = self._port, None
        self.session.disconnected()
        if port is not None:
            try:
                port.close()
            except PORT_ERRORS:
                pass

    def _apply(self, actions: Actions) -> None:
        """Carry out a session's decision; called with the lock held."""
        port = self._port
        if port is not None and actions.send:
            try:
                port.write(b"".join(actions.send))
            except PORT_ERRORS as error:
                log.warning("write to %s failed: %s", self.url, error)
                self._broken = True
                self._closed_because = "the port is closed"
        for snapshot in actions.publish:
            self._snapshots.put(snapshot)
        if actions.reopen:
            self._broken = True
            self._closed_because = "no answer from the device"
        self._changed.notify_all()
