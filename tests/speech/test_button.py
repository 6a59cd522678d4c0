"""The ask button on gpiozero's mock pins: edges driven by the test, the clock it holds
and the timer it fires (no thread, no sleep), presses told as short, long, double."""

from __future__ import annotations

import pytest

gpiozero = pytest.importorskip("gpiozero")

from gpiozero.pins.mock import MockFactory  # noqa: E402

from draughtsboard.hardware.backends import Button  # noqa: E402
from draughtsboard.speech.presses import DOUBLE, LONG, SHORT, ButtonPresses  # noqa: E402


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Timers:
    """Timers the test fires: each (when due, action), the cancelled ones dropped."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.pending: list[list] = []

    def __call__(self, delay, action):
        timer = [self.clock() + delay, action, False]
        self.pending.append(timer)

        class Handle:
            def cancel(self_inner) -> None:
                timer[2] = True

        return Handle()

    def advance(self, to: float) -> None:
        self.clock.now = to
        for timer in list(self.pending):
            if not timer[2] and timer[0] <= to:
                timer[2] = True
                timer[1]()


@pytest.fixture
def wired():
    factory = MockFactory()
    button = Button(17, pin_factory=factory)
    clock = Clock()
    timers = Timers(clock)
    told: list[tuple[str, float]] = []
    ButtonPresses(button, lambda press: told.append((press, clock())), clock=clock,
                  timer=timers)
    yield button.pin, clock, timers, told
    button.close()
    factory.reset()


def edge(pin, clock, at, pressed):
    clock.now = at
    pin.drive_low() if pressed else pin.drive_high()  # pulled up: pressed reads low


def test_a_short_press_is_told_when_the_timer_fires_after_the_window(wired):
    pin, clock, timers, told = wired
    edge(pin, clock, 100.0, True)
    edge(pin, clock, 100.1, False)
    timers.advance(100.3)
    assert told == []
    timers.advance(100.5)
    assert told == [(SHORT, 100.5)]


def test_a_long_press_is_told_while_held(wired):
    pin, clock, timers, told = wired
    edge(pin, clock, 100.0, True)
    timers.advance(100.8)
    assert told == [(LONG, 100.8)]
    edge(pin, clock, 102.0, False)
    timers.advance(105.0)
    assert told == [(LONG, 100.8)]


def test_a_double_press(wired):
    pin, clock, timers, told = wired
    edge(pin, clock, 100.0, True)
    edge(pin, clock, 100.1, False)
    edge(pin, clock, 100.3, True)
    edge(pin, clock, 100.4, False)
    timers.advance(102.0)
    assert told == [(DOUBLE, 100.4)]
