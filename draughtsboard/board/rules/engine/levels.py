"""Playing strength: levels 1-10 of the built-in engine as an opponent.

A person who plays the board at home wants an opponent they can beat, then one a little
stronger. Two numbers make a level, and both are the same on every machine:

* ``careless``: the share of its moves it plays *at a glance*. A glance looks at each of
  its moves, the reply and the captures that reply forces (``GLANCE_DEPTH``), and picks at
  random among those within ``GLANCE_MARGIN`` (1.5 men) of the best-looking one: it misses
  every shot that needs two quiet moves to set up, and may give a man away outright, the
  way a beginner does. Level 1 plays every move at a glance, level 10 none.
* ``nodes``: the node budget of the engine's full search (iterative deepening, captures
  followed to the end) for its other moves. A node budget, not a time: the same move on
  every machine and in every run, only faster or slower.

A level differs from the next lower in both numbers, so that the stronger one wins games
rather than drawing them: blunders decide games between people and between levels, and a
level that glances half as often blunders about half as often. The careless shares fall
from three moves in five (level 2) to about one in thirty (level 9), each about two
thirds of the one below; the budgets grow from 1,000 to 20,000 nodes.

Whether a move is a glance, and which move a glance picks, is drawn from the game's seed
and the position: a game replayed, or a move taken back and asked again, gives the same
move; another game (another seed) gives others.

A clock caps every level: whoever uses a level passes ``seconds`` when the clock is short
(the search then stops on its time, whichever comes first). `docs/engine.md` lists the
levels, the time a move of each takes and what ``benchmarks/engine.py --part levels``
measured for them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..position import Move, Position
from ..variants import Variant
from .search import MATE, Engine, SearchLimitError

LEVEL_NUMBERS = range(1, 11)


class UnknownLevelError(ValueError):
    """A level that is not 1-10."""


GLANCE_DEPTH = 1  # plies a glance searches after each move: the reply, captures to the end
GLANCE_MARGIN = 150  # hundredths of a man: a glance plays any move this close to its best


@dataclass(frozen=True)
class Level:
    """One playing strength. ``careless``: the share of its moves (0-1) it plays at a
    glance, a random choice among the moves that look within ``GLANCE_MARGIN`` of the
    best one after the reply and the captures it forces. Its other moves: the engine's
    full search with ``nodes`` nodes (None: it never searches)."""

    number: int
    careless: float
    nodes: int | None
    meaning: str


LEVELS: dict[int, Level] = {level.number: level for level in (
    Level(1, 1.0, None, "a beginner: every move at a glance; misses two-move shots and "
             "gives men away"),
    Level(2, 0.6, 1_000, "three moves in five at a glance, the others a search of 1,000 "
             "nodes"),
    Level(3, 0.4, 1_200, "two moves in five at a glance, the others 1,200 nodes"),
    Level(4, 0.27, 1_500, "about one move in four at a glance, the others 1,500 nodes"),
    Level(5, 0.18, 2_000, "about one move in six at a glance, the others 2,000 nodes"),
    Level(6, 0.12, 2_500, "about one move in eight at a glance, the others 2,500 nodes"),
    Level(7, 0.08, 3_500, "about one move in twelve at a glance, the others 3,500 nodes"),
    Level(8, 0.055, 4_500, "about one move in eighteen at a glance, the others 4,500 nodes"),
    Level(9, 0.035, 6_000, "about one move in thirty at a glance, the others 6,000 nodes"),
    Level(10, 0.0, 20_000, "full strength: every move a search of 20,000 nodes"),
)}


def level(number: int) -> Level:
    """The level of a number; `UnknownLevelError` (one line) outside 1-10."""
    try:
        return LEVELS[number]
    except KeyError:
        raise UnknownLevelError(f"level {number!r} is not 1-10") from None


@dataclass(frozen=True)
class LevelChoice:
    """A level's move and why: ``score`` from the mover's view (hundredths of a man),
    ``candidates`` how many moves it chose among (1 for levels that play the best)."""

    move: Move
    score: int
    candidates: int
    nodes: int


class LevelPlayer:
    """The engine playing at one level, for one game (``seed``: the game's seed). Pure
    and single-threaded, like the engine: run it on a worker and pass ``stop`` to cancel."""

    def __init__(self, variant: Variant, number: int, seed: str = "",
                 clock: Callable[[], float] | None = None) -> None:
        self.variant = variant
        self.level = level(number)
        self.seed = seed
        self._engine = Engine(variant) if clock is None else Engine(variant, clock=clock)

    def choose(self, position: Position, history: Iterable[Position] = (), *,
               seconds: float | None = None,
               stop: Callable[[], bool] | None = None) -> LevelChoice:
        """The level's move in ``position`` (``history``: the game's earlier positions,
        for repetitions). `SearchLimitError` when the side to move has no legal move."""
        legal = position.legal_moves()
        if not legal:
            raise SearchLimitError(f"no legal move in {position.fen()}")
        history = tuple(history)
        if len(legal) == 1:
            return LevelChoice(legal[0], 0, 1, 0)
        rng = random.Random(f"{self.seed}|{self.level.number}|{position.fen()}")
        if self.level.nodes is None or rng.random() < self.level.careless:
            return self._glance(position, legal, history, rng, seconds, stop)
        result = self._engine.search(position, nodes=self.level.nodes, seconds=seconds,
                                     history=history, stop=stop)
        return LevelChoice(result.move, result.score, 1, result.nodes)

    def _glance(self, position: Position, legal: list[Move], history: tuple[Position, ...],
                rng: random.Random, seconds: float | None,
                stop: Callable[[], bool] | None) -> LevelChoice:
        """A move at random among those within the margin of the best, each judged by
        the reply and the captures it forces."""
        before = history + (position,)
        scored: list[tuple[int, Move]] = []
        nodes = 0
        share = None if seconds is None else seconds / len(legal)
        for move in legal:
            after = position.play(move)
            if not after.legal_moves():
                scored.append((MATE, move))  # the other side cannot move: won
                continue
            result = self._engine.search(after, depth=GLANCE_DEPTH, seconds=share,
                                         history=before, stop=stop)
            nodes += result.nodes
            scored.append((-result.score, move))
        best = max(score for score, _ in scored)
        near = [move for score, move in scored if score >= best - GLANCE_MARGIN]
        chosen = rng.choice(near)
        score = next(score for score, move in scored if move == chosen)
        return LevelChoice(chosen, score, len(near), nodes)
