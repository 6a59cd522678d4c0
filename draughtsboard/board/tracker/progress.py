"""A move in progress: what the hands did since the board last matched the position.

Placements with their times (a piece *rests* on a square when it stays `REST_TIME` or
longer; slides and brushes are shorter), removals in the order and at the time they came,
and the last few boards that were a legal move in progress (from which an unfinished
move and the opponent's reply are read). Plain data with a little arithmetic; the
tracker decides what it means.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ports import squares_from_mask
from .irregular import IrregularAction

REST_TIME = 0.1


@dataclass(frozen=True, slots=True)
class Placement:
    """A square filled during a move: when, and when it was emptied again (None: still)."""

    square: int
    at: float
    until: float | None = None

    def rested(self, now: float) -> bool:
        end = self.until if self.until is not None else now
        return end - self.at >= REST_TIME


@dataclass(slots=True)
class MoveInProgress:
    """What happened since the board last matched the position. The tracker's
    classification works on a `copy` (the move in progress as a snapshot leaves it, part
    of its evidence); the tracker's step makes that copy its own. Copies share their
    lists and dict until one of them changes: `track` and `settle` put a new container
    in place of one they change, never change a shared one (a copy per snapshot is then
    one small object)."""

    placements: list[Placement] = field(default_factory=list)  # squares filled, in order
    removals: list[tuple[int, int]] = field(default_factory=list)  # (square, occupancy then)
    started_at: float | None = None
    lifted_since: float | None = None  # when an unexplained lift began
    touched_non_capturing: bool = False
    lifted_at: dict[int, float] = field(default_factory=dict)  # first emptied, when
    last_filled: int = 0  # squares the last change filled
    # an irregular move seen so far only by lifts: its readings, the one flagged first
    readings: tuple[IrregularAction, ...] = ()
    settled_boards: list[int] = field(default_factory=list)  # the last legal in-between
    # boards (a few), newest last

    def copy(self) -> MoveInProgress:
        """A copy that changes independently (see the class doc)."""
        return MoveInProgress(self.placements, self.removals, self.started_at,
                              self.lifted_since, self.touched_non_capturing,
                              self.lifted_at, self.last_filled, self.readings,
                              self.settled_boards)

    def track(self, occupied: int, previous: int, position_occupancy: int,
              now: float) -> None:
        """A new board: remember the placements (with their times) and the removals."""
        if self.started_at is None:
            self.started_at = now
        newly_filled = occupied & ~previous
        newly_emptied = previous & ~occupied
        if newly_filled or newly_emptied:  # (time passing alone changes neither)
            placements = list(self.placements)
            for square in squares_from_mask(newly_emptied):
                for index in range(len(placements) - 1, -1, -1):
                    placement = placements[index]
                    if placement.square == square:
                        if placement.until is None:
                            placements[index] = Placement(square, placement.at, now)
                        break
            for square in squares_from_mask(newly_filled):
                placements.append(Placement(square, now))
            self.placements = placements
            self.last_filled = newly_filled
            self.readings = ()
        emptied = newly_emptied & position_occupancy
        if not emptied:
            return
        seen = {square for square, _ in self.removals}
        new = [square for square in squares_from_mask(emptied) if square not in seen]
        if new:
            self.removals = self.removals + [(square, occupied) for square in new]
            lifted_at = dict(self.lifted_at)
            for square in new:
                lifted_at[square] = now  # squares emptied in one snapshot: at once
            self.lifted_at = lifted_at

    def rests(self, now: float) -> list[int]:
        """The squares a piece came to rest on, in order (slides and brushes left out),
        and the squares a piece is down on now."""
        return [p.square for p in self.placements if p.rested(now) or p.until is None]

    def rest_at(self, square: int, now: float) -> float:
        """How long a piece has been down on ``square`` (since the move began when it
        was never put there during this move)."""
        for placement in reversed(self.placements):
            if placement.square == square and placement.until is None:
                return now - placement.at
        return now - (self.started_at or now)

    def removal_order(self) -> list[int]:
        return [square for square, _ in self.removals]

    def settle(self, occupied: int) -> None:
        """A legal in-between board (the last four are kept)."""
        boards = self.settled_boards
        if not boards or boards[-1] != occupied:
            self.settled_boards = (boards + [occupied])[-4:]


def followed(landings: tuple[int, ...], rests: list[int]) -> int | None:
    """How many of ``landings`` the rests have followed in order (None: they left the
    path)."""
    done = 0
    for square in dedupe_consecutive(rests):
        if done < len(landings) and square == landings[done]:
            done += 1
        elif square not in landings[:done]:
            return None
    return done


def dedupe_consecutive(squares: list[int]) -> list[int]:
    out: list[int] = []
    for square in squares:
        if not out or out[-1] != square:
            out.append(square)
    return out
