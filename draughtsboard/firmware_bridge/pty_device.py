"""A board microcontroller behind a real pseudo-terminal, for the serial backend.

``PtyDevice`` puts an emulated device (the reference firmware, or the whole firmware under
MicroPython) on the far end of a pseudo-terminal (``os.openpty``): the host opens its
device path with pyserial exactly as it opens ``/dev/ttyACM0``, so the serial backend,
`diag` and the link's recovery run on a real tty, termios and all. The device runs on the
real clock, one pass a millisecond; bytes cross a `FaultyPipe` each way.

Unplugging closes the terminal (the host's port fails, as when a USB cable is pulled) and
powers the device off; plugging in opens a new terminal and boots the device again (a
bus-powered Pico starts afresh). A new terminal has a new ``/dev/pts/N``, so ``link``
names a symbolic link kept pointing at the current one, as udev's ``/dev/serial/by-id``
links do for a real device: give the host that path and it finds the board again.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from draughtsboard.firmware_bridge.emulator import Device
from draughtsboard.firmware_bridge.faults import FaultyPipe

log = logging.getLogger(__name__)

POLL_SECONDS = 0.001  # the device's pass: its firmware sleeps 1 ms a pass


class PtyDevice:
    """``device`` on the far end of a pseudo-terminal; ``run()`` (or `start`) moves bytes.

    ``path`` is what the host opens: ``link`` when given, else the terminal's own path.
    """

    def __init__(
        self,
        device: Device,
        *,
        fault_rate: float = 0.0,
        seed: int = 0,
        link: str | Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.device = device
        self.clock = clock
        self.link = Path(link) if link is not None else None
        self.up = FaultyPipe(fault_rate, seed * 2 + 1)
        self.down = FaultyPipe(fault_rate, seed * 2 + 2)
        self.lock = threading.RLock()
        self.terminal: str | None = None  # /dev/pts/N while plugged in
        self.plugs = 0
        self._master = -1
        self._slave = -1  # kept open: the terminal stays raw and never reads as hung up
        self._powered = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plug()

    @property
    def path(self) -> str:
        return str(self.link) if self.link is not None else (self.terminal or "")

    @property
    def plugged(self) -> bool:
        return self._master >= 0

    # -- the cable ----------------------------------------------------------------------

    def plug(self) -> None:
        """Plug the board in: a new terminal, the link pointed at it, the device booted."""
        with self.lock:
            if self.plugged:
                return
            master, slave = os.openpty()
            tty.setraw(slave)  # bytes pass as they are: no echo, no line editing
            flags = fcntl.fcntl(master, fcntl.F_GETFL)
            fcntl.fcntl(master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
            self._master, self._slave = master, slave
            self.terminal = os.ttyname(slave)
            if self.link is not None:
                temporary = self.link.with_name(self.link.name + ".new")
                with contextlib.suppress(FileNotFoundError):
                    temporary.unlink()
                temporary.symlink_to(self.terminal)
                temporary.replace(self.link)  # atomic: the host never sees half a link
            self.plugs += 1
            if self._powered:
                self.device.reset()
            else:
                self.device.power_on()
                self._powered = True
            log.info("plugged in at %s%s", self.terminal,
                     f" (linked from {self.link})" if self.link else "")

    def unplug(self) -> None:
        """Pull the cable: the terminal closes under the host and the device loses power."""
        with self.lock:
            if not self.plugged:
                return
            if self.link is not None:
                with contextlib.suppress(FileNotFoundError):
                    self.link.unlink()
            for fd in (self._master, self._slave):
                os.close(fd)
            self._master = self._slave = -1
            self.terminal = None
            self.up.clear()
            self.down.clear()
            self.device.take()  # what it wrote as the power went is lost
            log.info("unplugged")

    def reset_device(self) -> None:
        """Reset the device (its reset button): a new boot, the cable still in."""
        with self.lock:
            if self._powered:
                self.device.reset()

    # -- running -------------------------------------------------------------------------

    def step(self, timeout: float = POLL_SECONDS) -> None:
        """Wait up to ``timeout`` for the host's bytes, then one pass of the device."""
        master = self._master
        if master < 0:
            self._stop.wait(timeout)
            return
        try:
            readable, _, _ = select.select([master], [], [], timeout)
        except (OSError, ValueError):  # unplugged meanwhile
            return
        with self.lock:
            if self._master != master:
                return
            now = self.clock()
            if readable:
                try:
                    self.down.push(os.read(master, 4096), now)
                except (BlockingIOError, OSError):
                    pass
            device = self.device
            device.feed(self.down.pull(now))
            device.step()
            self.up.push(device.take(), now)
            data = self.up.pull(now)
            if data:
                try:
                    os.write(master, data)
                except (BlockingIOError, OSError):
                    pass  # nobody reads and the terminal is full: lost, as over USB

    def run(self) -> None:
        """Step until `stop` (or `close`)."""
        while not self._stop.is_set():
            self.step()

    def start(self) -> PtyDevice:
        """Run in a thread of this process (for tests)."""
        self._thread = threading.Thread(target=self.run, name="pty-device", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        """Stop, unplug and stop the device (safe twice)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        self.unplug()
        self.device.close()

    def __enter__(self) -> PtyDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
