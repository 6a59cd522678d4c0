"""The broadcast feed: a round's games as the platforms pull them (one PDN file, a JSON
``{"games": [{"pdn": ...}]}``, or one PDN file per board), optionally as they stood
``delay`` seconds ago (anti-cheat), counted on the hall's clock from when each move
reached the hall.

A round's games are, for each board, the game it began when the hall asked it to for
the round's pairing (or the game the arbiter made the round's), else the first game with
the round's tag the hall took in: a later game with the round's tag, which a board's
password can send, does not replace it without the arbiter, and while the arbiter is
asked which game is a board's game for the round, that board is left out.
The feed holds only moves the rules accepted (the hall checks each again), so a bad
message from a board can never stop or spoil it; a result proven by the position or set
by the arbiter closes the game here (a board's claim does not: docs/hall.md); a game shows
its moves up to the last one its board's whole game confirmed (a ply message alone does
not, nor a move two messages of the board dispute).
The arbiter's notes (illegal attempts) stay out of the broadcast.

These are the hall's own files of a round (``hall.pdn``, ``<board>.pdn``): each game as
its board recorded it, column games too. The round as lidraughts is given it (every
paired board in its place on every poll, column games left out) is `hall.broadcast`'s.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.hall_protocol.games import correct_record, corrections

from .store import HallGame, HallStore


@dataclass(frozen=True)
class FeedGame:
    board: int
    pdn: str
    moves: int
    finished: bool
    result: str = "*"  # the PDN's Result: "*" until the game's result is broadcast


def game_at(hall_game: HallGame, cutoff: float | None) -> tuple[Game, bool]:
    """The game as the hall had it at ``cutoff`` (None: now), and whether it was over:
    its moves up to the last the board's whole game confirmed (a move a board's password
    sent alone, or one the board disputes, is not broadcast)."""
    game = hall_game.game
    if cutoff is None and hall_game.confirmed == game.ply:
        return game, hall_game.finished
    shown, finished = cut_at(hall_game, cutoff)
    if shown == game.ply and finished:
        return game, True
    return first_moves(game, shown), False


def cut_at(hall_game: HallGame, cutoff: float | None) -> tuple[int, bool]:
    """How many moves `game_at` shows at ``cutoff``, and whether the game was over: what
    the mirror compares before it builds the game (hall.mirror)."""
    shown = hall_game.ply if cutoff is None else bisect_right(hall_game.received, cutoff)
    finished = hall_game.finished and hall_game.result_received is not None \
        and (cutoff is None or hall_game.result_received <= cutoff)
    return min(shown, hall_game.confirmed), finished


def first_moves(game: Game, count: int) -> Game:
    """The game's first ``count`` moves, with the arbiter's corrections made up to then
    (play went on from them)."""
    fixes = corrections(game)
    copy = Game(game.variant, game.start, dict(game.tags), game.draw_preset,
                mode=game.mode, start_monotonic=game.start_monotonic,
                start_wall=game.start_wall)
    for ply in range(count + 1):
        for at, fen in fixes:
            if at == ply:
                correct_record(copy, fen)
        if ply < count:
            played = game.moves[ply]
            copy.play(played.move, played.t_monotonic, played.t_wall, played.clock)
    return copy


CONTESTED = "?"  # a round's game two answers of a board named differently


def round_game_of(store: HallStore, board: int, round_name: str,
                  paired: Mapping[tuple[int, str], str] | None = None,
                  cutoff: float | None = None) -> HallGame | None:
    """A board's game for a round: the one the round's pairing or the arbiter made the
    round's game (``paired``: (board, round) -> game id), once the hall has it; else the
    first game with the round's tag the hall took in. A later game with the round's tag
    does not replace it (the arbiter is asked: a ``round`` claim); while two answers of
    the board disagree on it (``CONTESTED``) there is none. ``cutoff``: as the hall had
    it then."""
    bound = (paired or {}).get((board, round_name))
    if bound == CONTESTED:
        return None
    games = [g for g in store.board_games(board) if g.round == round_name
             and (cutoff is None or g.started_received <= cutoff)]
    if not games:
        return None
    for hall_game in games:
        if hall_game.game_id == bound:
            return hall_game
    return min(games, key=lambda g: (g.started_received, g.number))


def round_games(store: HallStore, round_name: str, cutoff: float | None,
                paired: Mapping[tuple[int, str], str] | None = None,
                contested: Collection[tuple[int, str]] = ()) -> list[FeedGame]:
    """The round's games, by board number (`round_game_of`; call with the store's lock
    held). A board whose game for the round the arbiter is asked about (``contested``:
    (board, round) pairs) is left out until that is settled."""
    out = []
    for board in sorted(store.games):
        if (board, round_name) in contested:
            continue
        chosen = round_game_of(store, board, round_name, paired, cutoff)
        if chosen is None:
            continue
        game, finished = game_at(chosen, cutoff)
        out.append(FeedGame(board, write_game(game, events=False), game.ply, finished,
                            game.result_text()))
    return out
