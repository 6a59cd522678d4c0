"""Opening a whole board (switches, LEDs, buttons) on real or simulated pins.

This is what the ``play``, ``replay`` and ``diag`` commands call: one function per backend,
both returning a :class:`HardwareBoard` that is a ``SensorSource`` and an ``LedSink`` at
once, so the caller never knows which one it got.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable

from gpiozero import DigitalInputDevice
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from draughtsboard.board.ports import LedFrame, Snapshot
from draughtsboard.board.rules.geometry import Geometry

from .blink import BlinkingSink
from .board_lock import BoardLock
from .config import BoardConfig, builtin_config
from .pins import claim, resolve_pin_factory
from .reed_matrix import NUDGED_REST_STEPS, ReedMatrix
from .shift_register import ShiftRegisterLeds
from .simulation import SimulatedBoard, WiringFault


class NoLeds:
    """The LED sink of a board without LEDs: frames are accepted and ignored."""

    def __init__(self, square_count: int) -> None:
        self.square_count = square_count
        self.closed = False

    def show(self, frame: LedFrame) -> None:
        if len(frame.patterns) != self.square_count:
            raise ValueError(
                f"LED frame has {len(frame.patterns)} squares, the board has {self.square_count}")

    def refresh(self, now: float) -> int:
        return 0

    def close(self) -> None:
        self.closed = True


class HardwareBoard:
    """Switches, LEDs and buttons of one board, opened together, closed together.

    ``sensors`` is the :class:`ReedMatrix`, ``leds`` the LED driver, ``buttons`` gpiozero
    ``Button``s by config name, ``simulation`` the :class:`SimulatedBoard` behind a
    simulated board (None on real pins), ``lock`` the hold on the real board's pins.
    """

    def __init__(self, config: BoardConfig, sensors: ReedMatrix,
                 leds: BlinkingSink | NoLeds,
                 buttons: dict[str, Button] | None = None,
                 simulation: SimulatedBoard | None = None,
                 lock: BoardLock | None = None) -> None:
        self.config = config
        self.square_count = config.square_count
        self.sensors = sensors
        self.leds = leds
        self.buttons = buttons or {}
        self.simulation = simulation
        self.lock = lock

    # SensorSource
    def read(self, timeout: float | None = None) -> Snapshot | None:
        return self.sensors.read(timeout)

    def wake(self) -> None:
        """A `read` waiting now returns at once (see `ReedMatrix.wake`)."""
        self.sensors.wake()

    def latest(self) -> Snapshot | None:
        return self.sensors.latest()

    # LedSink
    def show(self, frame: LedFrame) -> None:
        self.leds.show(frame)

    def step(self, now: float) -> Snapshot | None:
        """Scan once at ``now`` (virtual time: the simulated hand moves to ``now`` first)."""
        return self.sensors.scan_once(now)

    def close(self) -> None:
        """Close every device (LEDs first, so the board goes dark). Safe twice."""
        self.leds.close()
        self.sensors.close()
        for button in self.buttons.values():
            _close_button(button)
        if self.lock is not None:
            self.lock.release()

    def __enter__(self) -> HardwareBoard:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class Button(DigitalInputDevice):
    """A push button to ground, pulled up: pressed reads low. gpiozero's ``Button`` without
    its hold thread, which wakes ten times a second for a "held" event nothing here asks
    for (on an idle board that was as much CPU as the web server)."""

    def __init__(self, pin, *, bounce_time: float | None = None, pin_factory=None) -> None:
        super().__init__(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)

    is_pressed = DigitalInputDevice.is_active
    when_pressed = DigitalInputDevice.when_activated
    when_released = DigitalInputDevice.when_deactivated


def _close_button(button: Button) -> None:
    button.close()


BUTTON_BOUNCE = 0.05  # seconds: one press of a bouncy button is one press, not two


def _open(config: BoardConfig, factory: Factory, start: bool,
          clock: Callable[[], float], simulation: SimulatedBoard | None,
          lock: BoardLock | None = None) -> HardwareBoard:
    opened: list = []
    try:
        if simulation is None:
            sensors = ReedMatrix(config, pin_factory=factory, start=start, clock=clock)
        else:
            # The simulated board says when its hands move a switch, and what they have
            # scheduled: its scan may idle at a far lower rate than real pins allow.
            sensors = ReedMatrix(config, pin_factory=factory, start=start, clock=clock,
                                 before_scan=simulation.advance,
                                 rest_steps=NUDGED_REST_STEPS, watch_columns=False,
                                 changes_due=lambda: simulation.pending > 0)
            simulation.on_touch = sensors.nudge
        opened.append(sensors)
        driver = config.leds.driver
        leds: BlinkingSink | NoLeds
        if driver == "shift-register":
            leds = ShiftRegisterLeds(config, pin_factory=factory, start=start, clock=clock)
        else:
            leds = NoLeds(config.square_count)
        opened.append(leds)
        buttons = {}
        for name, pin in config.buttons:
            buttons[name] = claim(f"buttons.{name}", pin, config.source, functools.partial(
                Button, pin, bounce_time=BUTTON_BOUNCE, pin_factory=factory))
            opened.append(buttons[name])
    except BaseException:
        for device in reversed(opened):
            if isinstance(device, Button):
                _close_button(device)
            else:
                device.close()
        if lock is not None:
            lock.release()
        raise
    return HardwareBoard(config, sensors, leds, buttons, simulation, lock)


def open_gpio_board(config: BoardConfig, pin_factory: Factory | None = None, *,
                    start: bool = True, lock: BoardLock | None = None) -> HardwareBoard:
    """The board on real pins (gpiozero's default factory unless one is given), held
    against a second program (`BoardLock`: ``BoardBusyError`` if another one has it)."""
    lock = (lock or BoardLock()).acquire()
    try:
        factory = resolve_pin_factory(pin_factory)
    except BaseException:
        lock.release()
        raise
    return _open(config, factory, start, time.monotonic, None, lock)


def open_simulated_board(board: Geometry | BoardConfig, *,
                         occupied: Iterable[int] = (), real_time: bool = False,
                         pin_factory: MockFactory | None = None,
                         faults: Iterable[WiringFault] = ()) -> HardwareBoard:
    """The same drivers on a :class:`SimulatedBoard` of ``board``: a config, or a board's
    geometry (with the reference wiring, `builtin_config`).

    By default in virtual time: nothing runs in the background; call
    ``board.sensors.scan_once(now)`` (or ``board.step(now)``), which first moves the
    simulated hand to ``now``, and read snapshots with ``board.read(timeout=0)``. With
    ``real_time=True`` the scan and LED threads run on the monotonic clock, as on a Pi.
    ``faults`` builds wiring faults into the simulated board (`WiringFault`).
    """
    config = board if isinstance(board, BoardConfig) else builtin_config(board)
    simulation = SimulatedBoard(config, pin_factory=pin_factory, occupied=occupied,
                                faults=faults)
    if real_time:
        return _open(config, simulation.factory, True, time.monotonic, simulation)
    return _open(config, simulation.factory, False, lambda: simulation.now, simulation)
