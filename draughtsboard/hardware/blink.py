"""Blink timing shared by the LED drivers: which squares are lit at a moment.

Blinking is the driver's job, not the caller's: the tracker shows a frame once and the
driver keeps it alive. All blinking squares follow one clock, so two squares blinking at
the same speed are always in step, whatever frame they arrived in.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero.exc import DeviceClosed

from draughtsboard.board.ports import LedFrame, LedPattern

SLOW_PERIOD = 1.0  # seconds per on+off cycle of LedPattern.SLOW_BLINK
FAST_PERIOD = 0.25  # seconds per on+off cycle of LedPattern.FAST_BLINK


@dataclass(frozen=True, slots=True)
class BlinkMasks:
    """A frame reduced to three masks (bit ``n - 1`` for square ``n``)."""

    steady: int = 0
    slow: int = 0
    fast: int = 0

    @classmethod
    def from_frame(cls, frame: LedFrame, square_count: int) -> BlinkMasks:
        """The masks of squares steady, slow- and fast-blinking in a frame."""
        if len(frame.patterns) != square_count:
            raise ValueError(
                f"LED frame has {len(frame.patterns)} squares, the board has {square_count}")
        steady = slow = fast = 0
        for i, pattern in enumerate(frame.patterns):
            if pattern == LedPattern.ON:
                steady |= 1 << i
            elif pattern == LedPattern.SLOW_BLINK:
                slow |= 1 << i
            elif pattern == LedPattern.FAST_BLINK:
                fast |= 1 << i
        return cls(steady, slow, fast)

    def lit(self, now: float) -> int:
        """Squares lit at time ``now``: blinks are on in the first half of their period."""
        mask = self.steady
        if self.slow and now % SLOW_PERIOD < SLOW_PERIOD / 2:
            mask |= self.slow
        if self.fast and now % FAST_PERIOD < FAST_PERIOD / 2:
            mask |= self.fast
        return mask

    def next_change(self, now: float) -> float | None:
        """When the lit set may next change, or None for a steady frame."""
        half = (FAST_PERIOD if self.fast else SLOW_PERIOD) / 2 if (self.fast or self.slow) else 0
        if not half:
            return None
        return (now // half + 1) * half


class BlinkingSink:
    """The frame, blink clock and refresh thread shared by the LED drivers.

    Subclasses implement ``_write(lit_mask)`` (and may override ``_on_idle``). With
    ``start=False`` nothing runs in the background: ``show`` writes at once (at
    ``clock()``) and the caller calls ``refresh(now)`` to advance blinking in virtual time.
    """

    square_count: int

    def __init__(self, square_count: int, clock: Callable[[], float]) -> None:
        self.square_count = square_count
        self._clock = clock
        self._masks = BlinkMasks()
        self._lit: int | None = None
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    def show(self, frame: LedFrame) -> None:
        """Show ``frame`` until the next one; blinking is timed here."""
        masks = BlinkMasks.from_frame(frame, self.square_count)
        with self._lock:
            if self._closed:
                raise DeviceClosed("the LED driver is closed")
            self._masks = masks
            if self._thread is None:
                self.refresh(self._clock())
        self._wake.set()

    @property
    def frame_masks(self) -> BlinkMasks:
        return self._masks

    def refresh(self, now: float) -> int:
        """Bring the LEDs up to date for time ``now``; return the lit mask."""
        with self._lock:
            if self._closed:
                raise DeviceClosed("the LED driver is closed")
            lit = self._masks.lit(now)
            if lit != self._lit:
                self._write(lit)
                self._lit = lit
            return lit

    def _write(self, lit: int) -> None:
        raise NotImplementedError

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=type(self).__name__,
                                            daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.refresh(self._clock())
            except DeviceClosed:
                return
            when = self._masks.next_change(self._clock())
            timeout = None if when is None else max(0.0, when - self._clock())
            self._wake.wait(timeout)
            self._wake.clear()

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Turn every LED off and release the pins. Safe to call more than once."""
        if self._closed:
            return
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        with self._lock:
            try:
                self._write(0)
            except Exception:  # pins already gone: nothing left to turn off
                pass
            self._closed = True
            self._release()

    def _release(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
