"""The two ports through which the pure core meets the hardware.

Adapters (`draughtsboard.hardware`, `draughtsboard.firmware_bridge`) implement these
protocols; the tracker and controller only ever see them, so a GPIO board, a
microcontroller on a serial line and the simulator are interchangeable.

Square numbers are the variant's own numbers (Russian 1-32 with 1 = b8, international
1-50, Lasca 1-25 with 1 = a1). An occupancy mask has bit ``n - 1`` set when square
``n`` is occupied, so it does not depend on how the rules engine lays out its bitboards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Protocol, runtime_checkable


def mask_from_squares(squares: Iterable[int]) -> int:
    """Occupancy mask with bit ``n - 1`` set for each square number ``n``."""
    mask = 0
    for square in squares:
        if square < 1:
            raise ValueError(f"square numbers start at 1, got {square}")
        mask |= 1 << (square - 1)
    return mask


def squares_from_mask(mask: int) -> list[int]:
    """Square numbers set in an occupancy mask, ascending."""
    squares = []
    while mask:
        low = mask & -mask
        squares.append(low.bit_length())
        mask ^= low
    return squares


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A debounced reading of every switch at one moment.

    ``timestamp`` is monotonic seconds from the source's own clock (real or virtual);
    the tracker takes time only from here, which keeps it exactly testable.
    """

    occupied: int
    timestamp: float

    @property
    def squares(self) -> list[int]:
        return squares_from_mask(self.occupied)


class LedPattern(IntEnum):
    """What one square's LED does. Blinking is timed by the driver, not the caller."""

    OFF = 0
    ON = 1
    SLOW_BLINK = 2
    FAST_BLINK = 3


@dataclass(frozen=True, slots=True)
class LedFrame:
    """A full frame: one pattern per square (index ``n - 1`` for square ``n``).

    ``colours`` is optional: a name per square (``"red"``, ``"green"`` ...) for LEDs
    that have colours; single-colour drivers ignore it.
    """

    patterns: tuple[LedPattern, ...]
    colours: tuple[str | None, ...] | None = None

    @classmethod
    def blank(cls, square_count: int) -> LedFrame:
        return cls((LedPattern.OFF,) * square_count)

    @classmethod
    def from_mapping(cls, square_count: int, patterns: dict[int, LedPattern]) -> LedFrame:
        frame = [LedPattern.OFF] * square_count
        for square, pattern in patterns.items():
            frame[square - 1] = pattern
        return cls(tuple(frame))

    def lit(self) -> dict[int, LedPattern]:
        """Squares whose LED is not off, by square number."""
        return {i + 1: p for i, p in enumerate(self.patterns) if p != LedPattern.OFF}


@runtime_checkable
class SensorSource(Protocol):
    """Publishes debounced occupancy snapshots.

    ``read(timeout)`` returns the next snapshot published since the previous call, or
    ``None`` when none came within ``timeout`` seconds (``None`` waits for ever,
    ``0`` only looks). ``latest()`` is the most recent snapshot without consuming.
    """

    square_count: int

    def read(self, timeout: float | None = None) -> Snapshot | None: ...

    def latest(self) -> Snapshot | None: ...

    def close(self) -> None: ...


@runtime_checkable
class LedSink(Protocol):
    """Shows a full frame of per-square LED patterns until the next frame."""

    square_count: int

    def show(self, frame: LedFrame) -> None: ...

    def close(self) -> None: ...

