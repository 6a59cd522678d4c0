"""Boards at the protocol level, for the hall's benchmarks: each is the real hall link
(`draughtsboard.hall_link.HallLink`: the outbox, retained state, plies with sequence
numbers, answers to the hall's commands, resends from its own record) in front of a
scripted session that plays random legal moves on a `Game` instead of reading switches.
A board costs a thread and a few hundred kilobytes, so hundreds fit in one process and
the hall itself is what is measured.

`ScriptedSession` has what the link needs of a play session (`LinkedSession`): the
published game, a way to be woken, the arbiter's actions (new game, tags, result and
its withdrawal, a takeback, a position, the clock, acknowledge). Its games are the ground
truth the feed is compared with.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from draughtsboard.board.game.record import Game
from draughtsboard.board.game.tags import clean_tags
from draughtsboard.board.rules import get_variant, parse_fen
from draughtsboard.board.rules.fen import parse_start_fen
from draughtsboard.hall_link import HallLink
from draughtsboard.hall_protocol import parse_broker_url


class ScriptedSession:
    """One board's games, played by a script; thread-safe (the link's thread reads, the
    script and the hall's commands change)."""

    def __init__(self, number: int, variant: str = "russian", mode: str = "tournament",
                 tags: dict[str, str] | None = None, wall: Callable[[], float] = time.time):
        self.number = number
        self.variant = get_variant(variant)
        self.mode = mode
        self.wall = wall
        self.lock = threading.RLock()
        self.games: dict[str, Game] = {}
        self.game_id = ""
        self.moved_at: dict[tuple[str, int], float] = {}  # (game, ply) -> wall time
        self._wakes: list[Callable[[], None]] = []
        self._serial = 0
        self.arbiter = self  # the link hands the hall's commands to the session's desk
        self._start(dict(tags or {}), None)

    # -- what the link needs -------------------------------------------------------------------

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        with self.lock:
            self._wakes.append(wake)
        return lambda: self._wakes.remove(wake) if wake in self._wakes else None

    def published(self) -> tuple[str, Game | None, dict[str, Any]]:
        with self.lock:
            return self.game_id, self.games[self.game_id].read_only_copy(), {
                "flags": [], "unacknowledged": 0}

    def call(self, action: Callable[[], Any], timeout: float = 5.0) -> Any:
        with self.lock:
            return action()

    def read_game(self, game_id: str) -> Game:
        with self.lock:
            return self.games[game_id].read_only_copy()

    # -- the arbiter's actions (what the hall's commands do) ---------------------------------

    def new_game(self, tags: dict[str, str] | None = None, fen: str | None = None) -> str:
        with self.lock:
            current = self.games[self.game_id]
            if current.result is None and not current.result_reason:
                current.set_result("*")
                current.result_reason = "abandoned: the arbiter started a new game"
            self._start(clean_tags(tags or {}), fen)
        self._wake()
        return self.game_id

    def set_tags(self, tags: dict[str, str]) -> dict[str, str]:
        with self.lock:
            game = self.games[self.game_id]
            game.set_tags(clean_tags(tags))
            result = dict(game.tags)
        self._wake()
        return result

    def declare_result(self, result: str, reason: str = "") -> str:
        with self.lock:
            game = self.games[self.game_id]
            game.set_result(result, reason)
            text = game.result_text()
        self._wake()
        return text

    def withdraw_result(self) -> str:
        with self.lock:
            game = self.games[self.game_id]
            if game.result is None:
                raise ValueError("the game has no result to withdraw")
            text = f"result {game.result} withdrawn by the arbiter"
            game.set_result("*")
            game.add_event("result-withdrawn", text)
        self._wake()
        return text

    def take_back_to(self, ply: int) -> str:
        with self.lock:
            game = self.games[self.game_id]
            if game.result is not None or not 0 <= ply <= game.ply:
                raise ValueError(f"no ply {ply} to take back to")
            while game.ply > ply:
                game.undo()
            game.add_event("takeback", f"taken back by the arbiter to ply {ply}")
            fen = game.position.fen()
        self._wake()
        return fen

    def accept_position(self, white_to_move: bool, fen: str | None = None) -> str:
        with self.lock:
            game = self.games[self.game_id]
            position = parse_fen(self.variant, fen or "")
            if position.white_to_move != white_to_move:
                raise ValueError("the FEN and the side to move disagree")
            game.correct(position, "position accepted by the arbiter")
        self._wake()
        return position.fen()

    def clock_action(self, action: str) -> str:
        with self.lock:
            self.games[self.game_id].add_event("clock", f"clock {action} by the arbiter")
        self._wake()
        return f"clock {action}"

    def acknowledge(self) -> int:
        return 0

    # -- the script -------------------------------------------------------------------------------

    def play_random(self, rng: random.Random,
                    clock: tuple[float, float] | None = None) -> bool:
        """One random legal move in the current game (``clock``: both clocks after it);
        False when it is over."""
        with self.lock:
            game = self.games[self.game_id]
            if game.result is not None or game.result_reason:
                return False
            now = self.wall()
            game.play(rng.choice(game.position.legal_moves()), time.monotonic(), now, clock)
            self.moved_at[(self.game_id, game.ply)] = now
            if game.position.is_game_over():  # the board notices the end by the rules
                game.set_result(*game.outcome())
        self._wake()
        return True

    def take_back(self) -> None:
        """A takeback (training): the last move taken off the board."""
        with self.lock:
            game = self.games[self.game_id]
            if game.moves and game.result is None:
                game.undo()
                game.add_event("takeback", "taken back")
        self._wake()

    def current(self) -> Game:
        with self.lock:
            return self.games[self.game_id]

    def _start(self, tags: dict[str, str], fen: str | None) -> None:
        self._serial += 1
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(self.wall()))
        self.game_id = f"{self._serial:05d}-{stamp}"
        start = parse_start_fen(self.variant, fen) if fen else None
        game = Game(self.variant, start, tags=tags, mode=self.mode)
        game.start_wall = self.wall()
        self.games[self.game_id] = game

    def _wake(self) -> None:
        for wake in list(self._wakes):
            wake()


class LightBoard:
    """A scripted session and its real hall link."""

    def __init__(self, number: int, broker_url: str, **session_options) -> None:
        self.number = number
        self.session = ScriptedSession(number, **session_options)
        self.link = HallLink(self.session, parse_broker_url(broker_url), number,
                             software="light-board", read_game=self.session.read_game)

    def start(self) -> None:
        self.link.start()

    def stop(self) -> None:
        self.link.stop()
