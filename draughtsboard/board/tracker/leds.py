"""The LED renderer: the tracker's semantic intents become per-square patterns.

The tracker says *why* a square should draw attention (an illegal placement, a square to
restore, a required capture ...); this module alone decides *how* (steady, slow or fast
blink, and a colour for LEDs that have one). Where two intents name the same square the
more urgent one wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..ports import LedFrame, LedPattern

# Most urgent first: (intent, pattern, colour).
STYLE: tuple[tuple[str, LedPattern, str], ...] = (
    ("illegal", LedPattern.FAST_BLINK, "red"),
    ("setup_fill", LedPattern.ON, "green"),  # a puzzle's set-up: put a piece here
    ("setup_empty", LedPattern.SLOW_BLINK, "orange"),  # ... take the piece off
    ("solved", LedPattern.ON, "white"),  # a puzzle solved: every piece, for a moment
    ("ambiguous", LedPattern.FAST_BLINK, "magenta"),
    ("restore", LedPattern.ON, "orange"),
    # the coach (training): a blunder to take back, a hint, a puzzle's set-up
    ("blunder", LedPattern.SLOW_BLINK, "red"),
    ("hint", LedPattern.ON, "cyan"),
    ("hint_path", LedPattern.SLOW_BLINK, "cyan"),
    # a captured piece to take off (the opponent's capture, or one's own once it is down),
    # then the opponent's move to carry out: the piece, the landing squares still to come
    ("opponent_take", LedPattern.FAST_BLINK, "violet"),
    ("take_off", LedPattern.FAST_BLINK, "violet"),
    ("opponent_from", LedPattern.ON, "violet"),
    ("opponent_path", LedPattern.SLOW_BLINK, "violet"),
    ("must_capture", LedPattern.SLOW_BLINK, "yellow"),
    ("path", LedPattern.SLOW_BLINK, "green"),
    ("destination", LedPattern.ON, "green"),
    ("last_move", LedPattern.ON, "blue"),
    ("game_over", LedPattern.SLOW_BLINK, "white"),
)


def render(intents: Mapping[str, Sequence[int]], square_count: int) -> LedFrame:
    """A full LED frame for the intents (squares are the variant's numbers)."""
    patterns = [LedPattern.OFF] * square_count
    colours: list[str | None] = [None] * square_count
    for intent, pattern, colour in reversed(STYLE):
        for square in intents.get(intent, ()):
            if 1 <= square <= square_count:
                patterns[square - 1] = pattern
                colours[square - 1] = colour
    return LedFrame(tuple(patterns), tuple(colours))
