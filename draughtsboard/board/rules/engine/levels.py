"""Playing strength: levels 1-10 of the built-in engine as an opponent.

A person who plays the board at home wants an opponent they can beat, then one a little
stronger. Levels are made of three levers, all the same on every machine:

* ``careless``: the share of its moves it plays *at a glance*. A glance plays out only the
  captures each of its moves allows (`Engine.capture_score`: no quiet move is looked at)
  and picks at random among the moves within the level's ``margin`` of the best-looking
  one (``margin`` None: among all its moves, a random mover). It sees a man it can take and
  a man it would leave hanging, but no shot at all, and it may give men away.
* ``depth``: how many plies its other moves look ahead (the engine's search, captures and
  forced replies followed to the end), or ``nodes``: a node budget for a full-strength
  search. Depth and nodes, never a time: the same move on every machine and in every
  run, only faster or slower.
* ``margin``: how far below the best a glance may choose.

What the tries of `python -m benchmarks.engine --part levels` showed (`docs/engine.md`): a
glance's margin orders the glancing levels (a random mover, then 3, 1.5 and half a man),
a 2-ply search beats the best glance by far, and from there each ply is a step up to 5;
full strength (20,000 nodes, 5-8 plies) is the next. The one gap too wide for a single
step, between the half-man glance and 2 plies, is split by a level that glances at four
moves in ten and searches the others. A game whose steps fall elsewhere has its own
values for a level (`VARIANT_LEVELS`).

Whether a move is a glance, and which move a glance picks, is drawn from the game's seed
and the position: a game replayed, or a move taken back and asked again, gives the same
move; another game (another seed) gives others. Levels that never glance play the same
move in the same position in every game.

A clock caps every level: whoever uses a level passes ``seconds`` when the clock is short
(the search then stops on its time, whichever comes first). `docs/engine.md` lists the
levels, the time a move of each takes and what ``python -m benchmarks.engine --part levels``
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

# A depth alone does not bound a search: a column game's capture chains once made a 3-ply
# search of level 4 take 39 s here. Past this many nodes (twice level 10's budget) a level
# plays the best move its search has found; typical searches of levels 3-9 take under a
# fiftieth of it, so the level is the same wherever a person would wait anyway.
DEPTH_NODE_CEILING = 40_000

# A glance's captures end soon in most positions (a median of one node a move, 2,800 at
# most in the column games' tries), but a column game's exchanges can branch: a level-3
# glance once took 4.9 s there. So each move's captures are played out for at most this
# many nodes, and a whole glance for at most DEPTH_NODE_CEILING; past that a move is
# judged as the position stands after it (a beginner does not see through it either).
GLANCE_MOVE_NODES = 5_000


class UnknownLevelError(ValueError):
    """A level that is not 1-10."""


@dataclass(frozen=True)
class Level:
    """One playing strength. ``careless``: the share of its moves (0-1) it plays at a
    glance, a random choice among the moves that look within ``margin`` (hundredths of
    a man; None: any move, or no glance at all where ``careless`` is 0) of the best one
    once the captures they allow are played out.
    Its other moves: the engine's search ``depth`` plies deep, or with ``nodes`` nodes
    (both None: it never searches, ``careless`` is 1)."""

    number: int
    careless: float
    nodes: int | None
    depth: int | None
    margin: int | None
    meaning: str


LEVELS: dict[int, Level] = {level.number: level for level in (
    Level(1, 1.0, None, None, None, "a first game: every move at random among its legal "
             "moves (a capture when it must, as the rules say)"),
    Level(2, 1.0, None, None, 300, "a beginner: every move at a glance that sees only "
             "captures (no shot at all) and may leave up to three men hanging"),
    Level(3, 1.0, None, None, 150, "every move at a glance, leaving at most one man "
             "hanging"),
    Level(4, 1.0, None, None, 50, "every move at a glance that never leaves a man "
             "hanging if it can help it, but sees no shot"),
    Level(5, 0.4, None, 2, 50, "four moves in ten at a glance (as level 4), the others 2 "
             "plies ahead"),
    Level(6, 0.0, None, 2, None, "every move 2 plies ahead"),
    Level(7, 0.0, None, 3, None, "every move 3 plies ahead"),
    Level(8, 0.0, None, 4, None, "every move 4 plies ahead"),
    Level(9, 0.0, None, 5, None, "every move 5 plies ahead"),
    Level(10, 0.0, 20_000, None, None, "full strength: every move a search of 20,000 "
              "nodes"),
)}


# Where a game's steps fall elsewhere, its own values (measured: docs/engine.md, "Levels").
# International: a glance of 3 men was a narrow step from the random mover and a wide one
# to 1.5 men; 2 men share them out. The column games: a margin of 1.5 men at level 3 left
# a narrow step to level 4 (half a man); 2 men share the steps from level 2 and to level 4
# out, and in column 8x8 level 2 glances with 4 men (3 was as far from the random mover as
# it was close to 2 men). Lasca: 20,000 nodes (level 10) reach 7-8 plies there, so 5 plies
# left a narrow step from level 8 (4 plies) and a wide one to level 10; 6 plies share them.
_TWO_MEN_GLANCE = "every move at a glance, leaving at most two men hanging"
VARIANT_LEVELS: dict[str, dict[int, Level]] = {
    "international": {2: Level(2, 1.0, None, None, 200, f"a beginner: {_TWO_MEN_GLANCE}")},
    "column": {2: Level(2, 1.0, None, None, 400, "a beginner: every move at a glance, "
                        "leaving up to four men hanging"),
               3: Level(3, 1.0, None, None, 200, _TWO_MEN_GLANCE)},
    "column-7x7": {3: Level(3, 1.0, None, None, 200, _TWO_MEN_GLANCE)},
    "lasca": {9: Level(9, 0.0, None, 6, None, "every move 6 plies ahead")},
}


def level(number: int, variant_name: str | None = None) -> Level:
    """The level of a number, in variant ``variant_name`` where that game has its own
    values (`VARIANT_LEVELS`); `UnknownLevelError` (one line) outside 1-10."""
    try:
        entry = LEVELS[number]
    except KeyError:
        raise UnknownLevelError(f"level {number!r} is not 1-10") from None
    return VARIANT_LEVELS.get(variant_name or "", {}).get(number, entry)


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
        self.level = level(number, variant.name)
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
        if self.level.careless >= 1 or rng.random() < self.level.careless:
            return self._glance(position, legal, history, rng)
        nodes = self.level.nodes if self.level.nodes is not None else DEPTH_NODE_CEILING
        result = self._engine.search(position, nodes=nodes, depth=self.level.depth,
                                     seconds=seconds, history=history, stop=stop)
        assert result.move is not None  # the search has a move: `legal` is not empty
        return LevelChoice(result.move, result.score, 1, result.nodes)

    def _glance(self, position: Position, legal: list[Move], history: tuple[Position, ...],
                rng: random.Random) -> LevelChoice:
        """A move at random among those within the margin of the best, each judged by
        the captures it allows (quick: no time share or stop needed); without a margin,
        any move, unjudged."""
        if self.level.margin is None:
            return LevelChoice(rng.choice(legal), 0, len(legal), 0)
        before = history + (position,)
        scored: list[tuple[int, Move]] = []
        nodes = 0
        for move in legal:
            after = position.play(move)
            if not after.legal_moves():
                scored.append((MATE, move))  # the other side cannot move: won
                continue
            budget = max(1, min(GLANCE_MOVE_NODES, DEPTH_NODE_CEILING - nodes))
            scored.append((-self._engine.capture_score(after, before, nodes=budget), move))
            nodes += self._engine.nodes
        best = max(score for score, _ in scored)
        near = [move for score, move in scored if score >= best - self.level.margin]
        chosen = rng.choice(near)
        score = next(score for score, move in scored if move == chosen)
        return LevelChoice(chosen, score, len(near), nodes)
