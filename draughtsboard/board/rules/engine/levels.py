"""Playing strength: levels 1-10 of the built-in engine as an opponent.

A person who plays the board at home wants an opponent they can beat, then one a little
stronger. Two things make a level weaker, and each level is only these two numbers:

* **How far it looks.** Levels 1-6 judge each of their legal moves by a search of fixed
  depth after it (``depth`` plies, captures always followed to the end): level 1 sees the
  reply to its move and the captures it forces, so it walks into any shot that needs two
  quiet moves to set up. Levels 7-10 run the full search with a node budget (``nodes``):
  the same answer on every machine and every run, faster or slower as the machine is.
* **How it chooses.** Levels 1-5 choose at random among the moves whose score is within
  ``margin`` (hundredths of a man) of their best, so they give away material the way a
  beginner does, less so as the level rises. The random choice is seeded by the game's
  seed and the position, so a game replayed, or a move taken back and asked again, gives
  the same move; another game (another seed) gives another. Level 6 and the levels that
  search play the best move they found.

Level 10 is the engine at full strength for a move of about two seconds on a Raspberry Pi
Zero 2 W (0.4 s on a laptop). A clock caps every level: whoever uses a level passes
``seconds`` when the clock is short (the search then stops on its time, whichever comes
first). `docs/engine.md` lists
the levels and what the benchmark measured for them (``benchmarks/engine.py --part
levels``).
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


@dataclass(frozen=True)
class Level:
    """One playing strength. Exactly one of ``depth`` (plies searched after each of its
    moves, levels that choose among near-best moves) and ``nodes`` (the node budget of
    one full search) is set; ``margin`` is how far below its best a move may score and
    still be chosen (hundredths of a man)."""

    number: int
    depth: int | None
    nodes: int | None
    margin: int
    meaning: str


LEVELS: dict[int, Level] = {level.number: level for level in (
    Level(1, 1, None, 150, "looks one reply ahead; plays any move within 1.5 men of its best"),
    Level(2, 1, None, 70, "looks one reply ahead; plays any move within 0.7 of a man"),
    Level(3, 1, None, 30, "looks one reply ahead; plays any move within 0.3 of a man"),
    Level(4, 2, None, 30, "looks two plies ahead; plays any move within 0.3 of a man"),
    Level(5, 2, None, 10, "looks two plies ahead; plays any move within 0.1 of a man"),
    Level(6, 3, None, 0, "looks three plies ahead; plays its best move"),
    Level(7, None, 4_000, 0, "the full search, 4,000 nodes a move"),
    Level(8, None, 10_000, 0, "the full search, 10,000 nodes a move"),
    Level(9, None, 25_000, 0, "the full search, 25,000 nodes a move"),
    Level(10, None, 60_000, 0, "full strength: the full search, 60,000 nodes a move"),
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
        if self.level.nodes is not None:
            result = self._engine.search(position, nodes=self.level.nodes, seconds=seconds,
                                         history=history, stop=stop)
            return LevelChoice(result.move, result.score, 1, result.nodes)
        return self._choose_near_best(position, legal, history, seconds, stop)

    def _choose_near_best(self, position: Position, legal: list[Move],
                          history: tuple[Position, ...], seconds: float | None,
                          stop: Callable[[], bool] | None) -> LevelChoice:
        depth = self.level.depth
        before = history + (position,)
        scored: list[tuple[int, Move]] = []
        nodes = 0
        share = None if seconds is None else seconds / len(legal)
        for move in legal:
            after = position.play(move)
            if not after.legal_moves():
                scored.append((MATE, move))  # the other side cannot move: won
                continue
            result = self._engine.search(after, depth=depth, seconds=share, history=before,
                                         stop=stop)
            nodes += result.nodes
            scored.append((-result.score, move))
        best = max(score for score, _ in scored)
        near = [move for score, move in scored if score >= best - self.level.margin]
        rng = random.Random(f"{self.seed}|{self.level.number}|{position.fen()}")
        chosen = rng.choice(near)
        score = next(score for score, move in scored if move == chosen)
        return LevelChoice(chosen, score, len(near), nodes)
