"""The slide amendment: a move just released may be amended by sliding its piece on.

A king passing the squares of a quiet move, or (column games, where a jumped column keeps
its place) the landing squares of the same capture, may stop and then slide on: the move
recorded at the first stop is then replaced by the one slid on to. Only a move on the
same line (one way contains the other) amends it, and only while the window is open:
the piece lifted again within `AMEND_WINDOW` of its release, and nobody else has acted.
Kept out of the tracker, which asks `Amendment` only whether a board amends the last
move and whether the window is still open.
"""

from __future__ import annotations

from typing import Protocol

from ..rules.position import Position
from .move_table import MoveShape
from .opponent import MoveTables

# A released move may be amended (the piece slid on along its line) only if the piece is
# lifted again within this window.
AMEND_WINDOW = 2.0


class Amendment(Protocol):
    """What the tracker asks of the slide amendment (see the module doc)."""

    @property
    def is_open(self) -> bool:
        """Whether the last move may still be amended."""
        ...

    def open(self, before: Position, shape: MoveShape) -> None:
        """``shape`` was just played from ``before``: open to amendment."""
        ...

    def close(self) -> None:
        """Somebody acted (or the move was taken back): no amendment any more."""
        ...

    def close_if_due(self, now: float, released_at: float | None, observed: int) -> None:
        """Time passes: close the window unless the piece was lifted within it."""
        ...

    def amendment(self, occupied: int) -> MoveShape | None:
        """The move the board shows the last move amended to (None: none)."""
        ...

    def still_open(self, removed: int, added: int) -> bool:
        """Whether a board differing by ``removed``/``added`` may still be the piece
        sliding on (nobody else has acted)."""
        ...


class SlideWindow:
    """The last quiet move and whether its piece was lifted again within the window."""

    def __init__(self, tables: MoveTables) -> None:
        self._tables = tables
        self._before: Position | None = None
        self._slide: MoveShape | None = None
        self._lifted = False  # its piece was lifted again within the window

    @property
    def is_open(self) -> bool:
        return self._slide is not None

    def open(self, before: Position, shape: MoveShape) -> None:
        self._before = before
        self._slide = shape
        self._lifted = False

    def close(self) -> None:
        self._slide = None

    def close_if_due(self, now: float, released_at: float | None, observed: int) -> None:
        """The last move stays open to amendment only if its piece is lifted again within
        `AMEND_WINDOW` of its release."""
        slide = self._slide
        if slide is None or released_at is None:
            return
        if not observed & slide.end_bit:
            if now - released_at <= AMEND_WINDOW:
                self._lifted = True
        if not self._lifted and now - released_at > AMEND_WINDOW:
            self._slide = None

    def amendment(self, occupied: int) -> MoveShape | None:
        """The last move's piece slid on along its line before anyone else acted."""
        slide = self._slide
        if slide is None:
            return None
        for shape in self._family(slide):
            if shape is not slide and shape.after_occupancy == occupied:
                common = shape.passage & slide.passage
                if common in (shape.passage, slide.passage):
                    return shape
        return None

    def still_open(self, removed: int, added: int) -> bool:
        slide = self._slide
        if slide is None:
            return False
        if removed & ~slide.end_bit:
            return False
        line = 0
        for shape in self._family(slide):
            if (shape.passage & slide.passage) in (shape.passage, slide.passage):
                line |= shape.passage
        return not added & ~line

    def _family(self, slide: MoveShape) -> list[MoveShape]:
        """Moves of the previous position with the last move's start and captures."""
        assert self._before is not None  # set with the slide
        table = self._tables.table_of(self._before)
        return [shape for shape in table.by_start.get(slide.move.start, ())
                if shape.move.captures == slide.move.captures]
