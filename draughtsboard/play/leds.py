"""The board's LEDs as a session shows them: the backend's sink, with what it last showed.

The page draws the last frame, so the sink remembers it. A coach adds its intents (a
hint, a blunder warning) to the tracker's, and moves not yet recorded blink on top of
everything: the board's own "not recorded" flag. Kept apart from the session so the one
place that decides what the LEDs show is small.
"""

from __future__ import annotations

from collections.abc import Callable

from draughtsboard.board.ports import LedFrame, LedPattern, LedSink
from draughtsboard.board.tracker import render


class RememberingLeds:
    """The backend's LED sink, remembering the last frame for the page. With a coach, the
    coach's intents (a hint, a blunder warning) are rendered with the tracker's; the
    squares of moves not yet recorded (``held``) blink fast in red on top of everything:
    the board's own "not recorded" flag."""

    def __init__(self, sink: LedSink) -> None:
        self.sink = sink
        self.square_count = sink.square_count
        self.frame = LedFrame.blank(sink.square_count)
        self._base = self.frame
        self.held: tuple[int, ...] = ()
        self.tracker_intents: Callable[[], dict] | None = None
        self.coach_intents: Callable[[], dict] | None = None

    def show(self, frame: LedFrame) -> None:
        if self.coach_intents is not None and self.tracker_intents is not None:
            extra = self.coach_intents()
            if extra:
                frame = render({**self.tracker_intents(), **extra}, self.square_count)
        self._base = frame
        frame = self._with_held(frame)
        self.sink.show(frame)
        self.frame = frame

    def set_held(self, squares: tuple[int, ...]) -> None:
        """Change the "not recorded" squares and show the frame again if they changed."""
        if squares != self.held:
            self.held = squares
            self.show(self._base)

    def _with_held(self, frame: LedFrame) -> LedFrame:
        if not self.held:
            return frame
        patterns = list(frame.patterns)
        colours = list(frame.colours or (None,) * len(patterns))
        for square in self.held:
            if 1 <= square <= len(patterns):
                patterns[square - 1] = LedPattern.FAST_BLINK
                colours[square - 1] = "red"
        return LedFrame(tuple(patterns), tuple(colours))

    def close(self) -> None:
        self.sink.close()
