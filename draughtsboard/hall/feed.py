"""The broadcast feed: a round's games as the platforms pull them (one PDN file, a JSON
``{"games": [{"pdn": ...}]}``, or one PDN file per board), optionally as they stood
``delay`` seconds ago (anti-cheat), counted on the hall's clock from when each move
reached the hall.

A round's games are, for each board, the game it started when the hall asked it to for
the round's pairing, or (a board the hall did not start the round on) its latest game
whose ``Round`` tag is the round.
The feed holds only moves the rules accepted (the hall checks each again), so a bad
message from a board can never stop or spoil it; a result proven by the position or set
by the arbiter closes the game here (a board's claim does not: docs/hall.md); a game shows
its moves up to the last one its board's whole game confirmed (a ply message alone does
not, nor a move two messages of the board dispute).
The arbiter's notes (illegal attempts) stay out of the broadcast.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass

from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game

from .store import HallGame, HallStore


@dataclass(frozen=True)
class FeedGame:
    board: int
    pdn: str
    moves: int
    finished: bool


def game_at(hall_game: HallGame, cutoff: float | None) -> tuple[Game, bool]:
    """The game as the hall had it at ``cutoff`` (None: now), and whether it was over:
    its moves up to the last the board's whole game confirmed (a move a board's password
    sent alone, or one the board disputes, is not broadcast)."""
    game = hall_game.game
    if cutoff is None and hall_game.confirmed == game.ply:
        return game, hall_game.finished
    shown = game.ply if cutoff is None else bisect_right(hall_game.received, cutoff)
    shown = min(shown, hall_game.confirmed)
    finished = hall_game.finished and hall_game.result_received is not None \
        and (cutoff is None or hall_game.result_received <= cutoff)
    if shown == game.ply and finished:
        return game, True
    copy = Game(game.variant, game.start, dict(game.tags), game.draw_preset,
                list(game.moves[:shown]), mode=game.mode,
                start_monotonic=game.start_monotonic, start_wall=game.start_wall)
    return copy, False


def round_games(store: HallStore, round_name: str, cutoff: float | None,
                paired: Mapping[tuple[int, str], str] | None = None) -> list[FeedGame]:
    """The round's games, by board number (call with the store's lock held): on a board
    the hall started the round's game on (``paired``: (board, round) -> the game id the
    board answered with), that game; on another, its latest game with the round's tag."""
    out = []
    for board in sorted(store.games):
        chosen = None
        bound = (paired or {}).get((board, round_name))
        for hall_game in store.board_games(board):
            if hall_game.round == round_name and (bound is None or hall_game.game_id == bound) \
                    and (cutoff is None or hall_game.started_received <= cutoff):
                chosen = hall_game
        if chosen is None:
            continue
        game, finished = game_at(chosen, cutoff)
        out.append(FeedGame(board, write_game(game, events=False), game.ply, finished))
    return out
