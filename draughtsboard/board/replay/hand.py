"""A player's hand, scripted: how a move is physically made on the board, switch by switch.

The replay harness and the simulator use this to play recorded or random games on the
simulated board. Without noise the hand does what the lesson on captures asks: lift the
piece, put it down on each landing square of a capture in turn and then on its
destination, take the captured pieces off in the order taken, crown a king by stacking.
With a seeded random generator it adds what real hands and switches do, none of which is
a different move: switch bounce, a lifted piece brushing other squares, a piece slid
across the squares it passes, captured pieces taken off out of order or before the
capturing piece lands, a captured piece briefly put back, an unrelated piece lifted and
put back.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules.notation import traversed_squares
from ..rules.position import Move, Position

BOUNCE_INTERVAL = 0.0005  # seconds between the flips of a bouncing reed
BRUSH_TIME = 0.002  # a hand passing over a switch closes it this briefly
SLIDE_TIME = 0.06  # a piece slid across a square closes its switch this long


@dataclass(frozen=True, slots=True)
class SwitchAction:
    """One switch closing or opening at a virtual time."""
    at: float
    square: int
    closed: bool


@dataclass
class NoiseStats:
    """What the noisy hand did, for the harness's report."""

    bounces: int = 0
    brushes: int = 0
    slides: int = 0
    early_removals: int = 0
    shuffled_removals: int = 0
    put_backs: int = 0
    unrelated_lifts: int = 0
    touches: int = 0  # answers to a blinking ambiguity


class ScriptedHand:
    """Turns moves into timed switch actions. ``rng`` None: a tidy hand, no noise."""

    def __init__(self, rng: random.Random | None = None, *, pace: float = 0.25) -> None:
        self.rng = rng
        self.pace = pace
        self.stats = NoiseStats()

    def _gap(self) -> float:
        if self.rng is None:
            return self.pace
        return self.pace * self.rng.uniform(0.6, 1.8)

    def _rest(self) -> float:
        """How long the piece is put down on a landing square before it goes on: a
        deliberate put-down (at least 0.15 s), longer than any slide or brush."""
        if self.rng is None:
            return self.pace * 0.8
        return self.pace * self.rng.uniform(0.6, 1.2)

    def _chance(self, probability: float) -> bool:
        return self.rng is not None and self.rng.random() < probability

    def _noise(self) -> random.Random:
        """The random source, for the noise reached only after `_chance` said yes (which it
        never says to a tidy hand, so there is one)."""
        assert self.rng is not None
        return self.rng

    def touch(self, end: int, square: int, at: float) -> tuple[list[SwitchAction], float]:
        """Answer a blinking ambiguity as a player does: the piece on ``end`` is lifted,
        put down on ``square`` (the landing that tells the move apart) for a deliberate
        moment, and put back on ``end``."""
        self.stats.touches += 1
        actions: list[SwitchAction] = []
        t = at
        self._switch(actions, t, end, False)
        t += self._gap()
        self._switch(actions, t, square, True)
        t += 0.3
        self._switch(actions, t, square, False)
        t += self._gap()
        self._switch(actions, t, end, True)
        return actions, t + self._gap()

    def play(self, position: Position, move: Move, at: float,
             untouchable: frozenset[int] = frozenset()) -> tuple[list[SwitchAction], float]:
        """Switch actions that make ``move`` from ``position``, starting at ``at``; the time
        when the hand is done. ``untouchable``: pieces the noise never lifts (a prisoner
        the last capture left on the board: lifting it *is* that capture finished)."""
        actions: list[SwitchAction] = []
        t = at
        after = position.play(move)
        after_occupancy = after.occupancy()
        emptied = [s for s in move.captures
                   if not (after_occupancy >> (s - 1)) & 1 and s != move.end]
        occupied = position.occupancy()

        if self._chance(0.1):
            t = self._unrelated_lift(actions, t, occupied, move, (*emptied, *untouchable))

        early: list[int] = []
        order = list(emptied)
        if len(order) > 1 and self._chance(0.3):
            self._noise().shuffle(order)
            self.stats.shuffled_removals += 1
        if order and self._chance(0.2):
            early = order[:1]
            order = order[1:]
            self.stats.early_removals += 1

        self._switch(actions, t, move.start, False)
        for square in early:
            t += self._gap() / 2
            self._switch(actions, t, square, False)
        landings = move.path[1:]
        here = move.start
        for index, land in enumerate(landings):
            t += self._gap()
            t = self._brush_or_slide(actions, t, position, here, land, occupied)
            self._switch(actions, t, land, True)
            if index < len(landings) - 1:
                t += self._rest()
                self._switch(actions, t, land, False)
            here = land
        for index, square in enumerate(order):
            t += self._gap()
            self._switch(actions, t, square, False)
            if index < len(order) - 1 and self._chance(0.2):
                self.stats.put_backs += 1
                t += 0.1
                self._switch(actions, t, square, True)
                t += 0.1
                self._switch(actions, t, square, False)
        if move.captures and position.variant.holds_columns or self._crowned(position, move,
                                                                              after):
            # Prisoners go under the column, or a second piece crowns the king: the
            # capturing column or new king is lifted and put back.
            t += self._gap()
            self._switch(actions, t, move.end, False)
            t += 0.15
            self._switch(actions, t, move.end, True)
        return actions, t + self._gap()

    # -- pieces of the script ---------------------------------------------------------

    def _switch(self, actions: list[SwitchAction], t: float, square: int, closed: bool) -> None:
        if self.rng is not None and self.rng.random() < 0.3:
            flips = self.rng.randint(1, 3)
            self.stats.bounces += 1
            for i in range(flips):
                actions.append(SwitchAction(t + 2 * i * BOUNCE_INTERVAL, square, closed))
                actions.append(SwitchAction(t + (2 * i + 1) * BOUNCE_INTERVAL, square,
                                            not closed))
            t += 2 * flips * BOUNCE_INTERVAL
        actions.append(SwitchAction(t, square, closed))

    def _brush_or_slide(self, actions, t, position, here, land, occupied) -> float:
        """Before putting the piece down on ``land`` coming from ``here``: maybe slide it
        over the empty squares between, maybe brush an unrelated empty square."""
        between = [s for s in traversed_squares(position.variant, Move((here, land)))[:-1]
                   if not (occupied >> (s - 1)) & 1]
        if between and self._chance(0.5):
            self.stats.slides += 1
            for square in between:
                self._switch(actions, t, square, True)
                t += SLIDE_TIME
                self._switch(actions, t, square, False)
                t += 0.01
        if self._chance(0.3):
            empty = [s for s in position.variant.geometry.numbers
                     if not (occupied >> (s - 1)) & 1 and s != land]
            if empty:
                square = self._noise().choice(empty)
                self.stats.brushes += 1
                actions.append(SwitchAction(t, square, True))
                actions.append(SwitchAction(t + BRUSH_TIME, square, False))
                t += 0.02
        return t

    def _unrelated_lift(self, actions, t, occupied, move, emptied) -> float:
        involved = {move.start, move.end, *emptied, *move.captures}
        candidates = [s for s in range(1, occupied.bit_length() + 1)
                      if (occupied >> (s - 1)) & 1 and s not in involved]
        if not candidates:
            return t
        square = self._noise().choice(candidates)
        self.stats.unrelated_lifts += 1
        self._switch(actions, t, square, False)
        t += self._noise().uniform(0.2, 0.6)
        self._switch(actions, t, square, True)
        return t + self._gap()

    @staticmethod
    def _crowned(position: Position, move: Move, after: Position) -> bool:
        before = position.piece_at(move.start)
        now = after.piece_at(move.end)
        return before is not None and now is not None and before.islower() and now.isupper()
