"""What a press of the board's button means: short, long or double (docs/accessibility.md).

`PressClassifier` is a pure state machine: it is fed the button's edges (`pressed`,
`released`) with their times, and asked at a time (`tick`) whether a press has become
long or a short press's wait for a second one is over. Each call returns the presses it
decided (`SHORT`, `LONG`, `DOUBLE`); `deadline` says when to tick next. Time is an input
here: no thread, no sleep, no clock of its own.

- a **long** press is held for ``long`` seconds (0.8); it is told when the time is up,
  while the button is still held, so a person hears the answer without letting go;
- a **double** press is a second press that starts within ``double`` seconds (0.4) of the
  first one's release;
- a **short** press is any other: told once its window for a second press has passed;
- a press that starts within ``bounce`` seconds (0.03) of the last release is the same
  press (a contact that bounced): after a double or a long press, which were told at
  or before that release, such a press and its release are ignored; a repeated edge
  (pressed while down, released while up) is ignored;
- a tap followed by a hold within the window is a long press (the hold is what counts).

`ButtonPresses` is the thin adapter: it joins a gpiozero ``Button`` (``when_pressed``,
``when_released``) to a classifier, with the clock and a timer for the deadlines
injected (the tests drive gpiozero's mock pins with a clock they hold and a timer they
fire).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

SHORT, LONG, DOUBLE = "short", "long", "double"
PRESSES = (SHORT, LONG, DOUBLE)
LONG_SECONDS = 0.8
DOUBLE_SECONDS = 0.4
BOUNCE_SECONDS = 0.03

_IDLE, _DOWN, _WAITING, _HELD, _BOUNCED = "idle", "down", "waiting", "held", "bounced"


class PressClassifier:
    """See the module doc."""

    def __init__(self, long: float = LONG_SECONDS, double: float = DOUBLE_SECONDS,
                 bounce: float = BOUNCE_SECONDS) -> None:
        if not 0 <= bounce < double < long:
            raise ValueError("press timing: expected 0 <= bounce < double < long seconds")
        self.long = long
        self.double = double
        self.bounce = bounce
        self.state = _IDLE
        self.down_at = 0.0  # when the press being held started
        self.up_at = 0.0  # when the last short press was released
        self.last_up = -math.inf  # when the button last went up, whatever the press
        self.second = False  # the press being held is the second of a pair

    def deadline(self) -> float | None:
        """When `tick` may decide something (``None``: nothing to wait for)."""
        if self.state == _DOWN:
            return self.down_at + self.long
        if self.state == _WAITING:
            return self.up_at + self.double
        return None

    def tick(self, now: float) -> list[str]:
        """The presses decided by ``now`` alone: a press held long enough, a short
        press whose window for a second one has passed."""
        if self.state == _DOWN and now >= self.down_at + self.long:
            self.state = _HELD
            self.second = False
            return [LONG]
        if self.state == _WAITING and now >= self.up_at + self.double:
            self.state = _IDLE
            return [SHORT]
        return []

    def pressed(self, now: float) -> list[str]:
        """The button went down at ``now``."""
        decided = self.tick(now)
        if self.state in (_DOWN, _HELD, _BOUNCED):
            return decided  # a repeated edge
        if self.state == _IDLE and now - self.last_up < self.bounce:
            self.state = _BOUNCED  # the release of a press already told bounced
            return decided
        if self.state == _WAITING:
            if now - self.up_at < self.bounce:
                self.state = _DOWN  # the contact bounced: the same press goes on
                return decided
            self.second = True
        else:
            self.second = False
        self.state = _DOWN
        self.down_at = now
        return decided

    def released(self, now: float) -> list[str]:
        """The button went up at ``now``."""
        decided = self.tick(now)
        if self.state in (_HELD, _BOUNCED):
            self.state = _IDLE  # the long press was told already, or this bounced
            self.last_up = now
            return decided
        if self.state != _DOWN:
            return decided  # a repeated edge
        self.last_up = now
        if self.second:
            self.state = _IDLE
            self.second = False
            return [*decided, DOUBLE]
        self.state = _WAITING
        self.up_at = now
        return decided


class Cancel(Protocol):
    def cancel(self) -> Any: ...


# (delay in seconds, what to call then) -> what cancels it (threading.Timer by default)
Timer = Callable[[float, Callable[[], None]], Cancel]


def thread_timer(delay: float, action: Callable[[], None]) -> Cancel:
    timer = threading.Timer(max(0.0, delay), action)
    timer.daemon = True
    timer.start()
    return timer


class ButtonPresses:
    """Joins ``button`` (anything with gpiozero's ``when_pressed``/``when_released``) to
    a `PressClassifier`, calling ``answer(press)`` for every press decided. ``clock`` is
    the monotonic clock, ``timer`` what wakes it at the classifier's deadline. The
    answer runs on the thread that decided it (gpiozero's, or the timer's): it must be
    quick (hand the work on)."""

    def __init__(self, button: Any, answer: Callable[[str], None], *,
                 classifier: PressClassifier | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 timer: Timer = thread_timer) -> None:
        self.classifier = classifier or PressClassifier()
        self.answer = answer
        self.clock = clock
        self.timer = timer
        self._lock = threading.Lock()
        self._pending: Cancel | None = None
        button.when_pressed = self._pressed
        button.when_released = self._released

    def _pressed(self, *_: Any) -> None:
        self._edge(self.classifier.pressed)

    def _released(self, *_: Any) -> None:
        self._edge(self.classifier.released)

    def _tick(self) -> None:
        self._edge(self.classifier.tick)

    def _edge(self, step: Callable[[float], list[str]]) -> None:
        with self._lock:
            decided = step(self.clock())
            if self._pending is not None:
                self._pending.cancel()
                self._pending = None
            deadline = self.classifier.deadline()
            if deadline is not None:
                self._pending = self.timer(deadline - self.clock(), self._tick)
        for press in decided:
            self.answer(press)
