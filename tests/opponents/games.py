"""What the opponents' tests share: a whole game of an opponent against the board's own
engine (the person at the board), and a clock that moves on each time it is read."""

from __future__ import annotations

from collections.abc import Callable

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import Variant
from draughtsboard.opponents import BuiltinOpponent, Clocks, Opponent

MAX_PLIES = 300


def play_whole_game(opponent: Opponent, variant: Variant, *, opponent_is_white: bool,
                    clocks: Clocks, level: int, seed: str) -> Game:
    """Start ``opponent`` and play it against the built-in engine at ``level`` until the
    game is over or `MAX_PLIES` plies are played, asking it for each move with
    ``clocks``. The caller closes the opponent (in a ``finally``)."""
    board_side = BuiltinOpponent(variant, level, seed=seed)
    game = Game(variant)
    opponent.start(game.position, opponent_is_white=opponent_is_white)
    board_side.start(game.position, opponent_is_white=not opponent_is_white)
    while game.outcome() is None and game.ply < MAX_PLIES:
        if game.position.white_to_move == opponent_is_white:
            move = opponent.move(clocks)
            board_side.other_side_moved(move)
        else:
            move = board_side.move(Clocks())
            opponent.other_side_moved(move)
        game.play(move)
    return game


def ticking_clock(step: float) -> Callable[[], float]:
    """A monotonic clock for a test: each look at it moves it on by ``step`` seconds
    (time is an input; nothing sleeps)."""
    now = 0.0

    def look() -> float:
        nonlocal now
        now += step
        return now
    return look
