"""The built-in engine as an opponent, at a level 1-10 (`board.rules.engine.levels`).

Every variant. Its time: the level's budget, cut short by the clock's share when a clock
runs (`Clocks.budget`), and by ``stop``. The game's seed makes a weak level's random
choices differ from game to game and repeat within one (a takeback asked again gives the
same move).
"""

from __future__ import annotations

from collections.abc import Callable

from draughtsboard.board.rules.engine.levels import LevelPlayer, level
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import Variant

from .base import Clocks, GameTrack


class BuiltinOpponent:
    """The engine at ``level_number`` for one game at a time."""

    kind = "engine"

    def __init__(self, variant: Variant, level_number: int = 10, seed: str = "") -> None:
        self.level = level(level_number).number
        self.variant = variant
        self.seed = seed
        self._track = GameTrack(variant)
        self._player = LevelPlayer(variant, self.level, seed)
        self._games = 0

    @property
    def name(self) -> str:
        return f"draughtsboard engine, level {self.level}"

    def start(self, position: Position, opponent_is_white: bool,
              history: tuple[Position, ...] = ()) -> None:
        self._track.begin(position, opponent_is_white, history)
        self._games += 1
        self._player = LevelPlayer(self.variant, self.level, f"{self.seed}-{self._games}")

    def other_side_moved(self, move: Move) -> None:
        self._track.other_side_moved(move)

    def move(self, clocks: Clocks, stop: Callable[[], bool] | None = None) -> Move:
        position = self._track.check_opponents_turn()
        seconds = None if clocks.own is None else clocks.budget()
        choice = self._player.choose(position, tuple(self._track.history[:-1]),
                                     seconds=seconds, stop=stop)
        self._track.play(choice.move)
        return choice.move

    def close(self) -> None:
        pass
