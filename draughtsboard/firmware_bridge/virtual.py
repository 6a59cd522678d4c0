"""The replay harness's board behind the emulated microcontroller, in virtual time.

A board's switches (anything that can be scheduled and advanced in virtual time, such as
the hardware layer's simulated board, which the composition root passes in) are scanned
by the reference firmware (or another `DeviceFactory`: a source checkout's
``devtools/pico_sim`` runs the whole firmware under MicroPython),
whose frames cross a faulty serial wire to the real host session. The harness sees only
the snapshots the host publishes, exactly as `play` would over a USB cable. This package
never imports the hardware layer: the switches are given.
"""

from __future__ import annotations

import functools
from typing import Protocol

from draughtsboard.board.ports import Snapshot
from draughtsboard.board.rules.geometry import Geometry

from .emulator import DeviceFactory, EmulatedDevice, VirtualBench
from .session import LinkStats


class ScheduledSwitches(Protocol):
    """Switches driven by a scripted hand in virtual time, scanned through their matrix
    (`fakepins.Switches`)."""

    @property
    def occupied(self) -> int: ...

    def columns_closed(self, rows: int) -> int: ...

    def schedule(self, at: float, square: int, closed: bool) -> None: ...

    def advance(self, now: float) -> None: ...

    def clear_history(self) -> None: ...

    @property
    def next_change(self) -> float | None: ...


class EmulatedVirtualBoard:
    """A `draughtsboard.board.replay.VirtualBoard` over the emulated serial path."""

    scan_period = 0.005

    def __init__(self, board: Geometry, switches: ScheduledSwitches, *, fault_rate: float = 0.0,
                 seed: int = 0, device_factory: DeviceFactory = EmulatedDevice,
                 **device_options: object) -> None:
        self.switches = switches
        factory: DeviceFactory = device_factory
        if device_options:  # the device's own options, bound to its factory
            factory = functools.partial(device_factory, **device_options)
        self.bench = VirtualBench(board, switches, fault_rate=fault_rate, seed=seed,
                                  device_factory=factory)

    @property
    def link_stats(self) -> LinkStats:
        """The host session's counters (frames, faults, resyncs, device resets)."""
        return self.bench.session.stats

    def schedule(self, at: float, square: int, closed: bool) -> None:
        self.switches.schedule(at, square, closed)

    def scan(self, now: float) -> list[Snapshot]:
        """Run device, wire and host up to ``now``; the snapshots published meanwhile."""
        bench = self.bench
        switches = self.switches
        while bench.now < now:
            switches.advance(bench.now + bench.step_seconds)
            change = switches.next_change
            bench.advance(now if change is None else min(now, change))
        return bench.take_published()

    def reset_device(self) -> None:
        """Reboot the emulated microcontroller (the host must resynchronise)."""
        self.bench.reset_device()

    def close(self) -> None:
        self.switches.clear_history()
        self.bench.close()
