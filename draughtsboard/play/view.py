"""The page's view of a board in play: one JSON-ready dict of everything the page shows.

A pure function of the session's parts (the tracker, the recorded game, the last LED
frame, the switches, the arbiter's log), so it can be built and tested without a thread,
a board or a server. The session builds it after every change and publishes it when it
differs from the last one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from draughtsboard.board.game.record import Game
from draughtsboard.board.ports import LedFrame, squares_from_mask
from draughtsboard.board.tracker import State, Tracker

# The tracker's intents that the page shows as flags, and their words.
FLAG_OF_INTENT = {"illegal": "illegal", "must_capture": "must capture", "restore": "restore",
                  "ambiguous": "ambiguous"}


def build_view(*, tracker: Tracker, game: Game, game_id: str, mode: str, backend: str,
               frame: LedFrame, occupied: int, switches: int | None,
               log: Iterable[dict[str, Any]], unacknowledged: int, error: str | None,
               last_move_wall: float | None,
               coach: dict[str, Any] | None = None) -> dict[str, Any]:
    """The view (see the module doc). ``switches`` is the simulated board's switch mask,
    ``None`` on a real board (the page then has no hands); ``coach`` the coach's part
    (hints, warnings, the evaluation curve, a puzzle), ``None`` without a coach."""
    position = tracker.position
    variant = position.variant
    geometry = variant.geometry
    leds = {}
    for index, pattern in enumerate(frame.patterns):
        if pattern:
            colour = frame.colours[index] if frame.colours else None
            leds[str(index + 1)] = [pattern.name.lower(), colour]
    columns = {}
    for square in geometry.numbers:
        column = position.column_at(square)
        if column:
            columns[str(square)] = column
    flags = [FLAG_OF_INTENT[k] for k in FLAG_OF_INTENT if tracker.intents.get(k)]
    if tracker.state is State.DISTURBED:
        flags.append("disturbed")
    outcome = None if game.result is not None else game.outcome()
    return {
        "variant": variant.name,
        "title": variant.title,
        "size": geometry.size,
        "squares": [[n, *geometry.coords(n), geometry.name(n)] for n in geometry.numbers],
        "backend": backend,
        "hands": switches is not None,
        "game_id": game_id,
        "mode": mode,
        "state": tracker.state.value,
        "white_to_move": position.white_to_move,
        "fen": position.fen(),
        "columns": columns,
        "occupied": squares_from_mask(occupied),
        "switches": squares_from_mask(switches) if switches is not None else None,
        "leds": leds,
        "intents": {k: list(v) for k, v in tracker.intents.items()},
        "flags": flags,
        "moves": [played.text for played in game.moves],
        "tags": dict(game.tags),
        "result": game.result_text() if game.result is not None else None,
        "result_reason": game.result_reason,
        "draw_reason": outcome[1] if outcome and outcome[0] == variant.results[1] else None,
        "clocks": clocks_view(game, last_move_wall),
        "log": list(log),
        "unacknowledged": unacknowledged,
        "error": error,
        "coach": coach,
    }


def clocks_view(game: Game, last_move_wall: float | None) -> dict[str, Any] | None:
    """Both clocks when the game has a ``TimeControl`` tag: the seconds left after the
    last move, the side whose clock runs, and since when (wall-clock seconds)."""
    control = game.tags.get("TimeControl", "")
    if not control:
        return None
    clocks = [c for c in game.clocks() if c is not None]
    if game.moves and not clocks:
        return None
    if clocks:
        white, black = clocks[-1]
    else:
        try:
            white = black = float(control.partition("+")[0])
        except ValueError:
            return None
    return {"white": white, "black": black,
            "running": None if game.result is not None else
            ("white" if game.position.white_to_move else "black"),
            "since": last_move_wall or game.start_wall}
