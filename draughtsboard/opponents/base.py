"""What a play session needs of an opponent, and how an opponent fails.

An opponent plays one side of one game: it starts from a position with its colour, is
told each move of the other side, and is asked for its move with the clocks. It answers
with a legal move of the position it was asked in, or raises one `OpponentError` whose
message is one line a person can act on ("the Hub engine 'scan hub' stopped (exit status
1) while thinking"). Whatever comes from outside (a Hub engine, a DXP peer) is believed
only as far as the rules prove it: its move is matched against the legal moves of our own
position, never applied as it says.

The session runs ``move`` on a worker thread (it may take the engine's whole time) and
passes ``stop`` to cut it short (a takeback, a new game); every other call returns at
once or within the opponent's own time-out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import Variant


class OpponentError(RuntimeError):
    """An opponent that cannot go on; the message is one line."""

    #: the message already names the opponent, so whoever passes it on adds no name
    names_the_opponent: bool = False


class OpponentUnsupportedError(OpponentError, ValueError):
    """An opponent kind asked for a variant (or a feature) it does not support."""


class OpponentSpecError(OpponentError, ValueError):
    """An ``--opponent`` text that names no opponent (``engine:11``, ``hub:``)."""


class OpponentStartError(OpponentError):
    """The opponent could not be started or reached (no such program, connection
    refused, the handshake failed or was refused)."""


class OpponentProtocolError(OpponentError):
    """The opponent said something that is not its protocol (a malformed line or
    message, an answer out of turn)."""


class OpponentIllegalMoveError(OpponentProtocolError):
    """The opponent's move is not legal in the position (checked by our rules)."""


class OpponentTimeoutError(OpponentError):
    """The opponent did not answer within its time."""


class OpponentStoppedError(OpponentError):
    """``stop`` was asked before the opponent had a move to give (a DXP peer cannot be
    told to stop thinking; the engines answer with their best move so far instead)."""


class OpponentGoneError(OpponentError):
    """The opponent went away mid-game: its process ended, its connection closed, or it
    ended the game."""


END_KINDS = ("resigns", "claims_draw", "claims_win", "ends")


class OpponentEndedGameError(OpponentGoneError):
    """The opponent ended the game itself, saying why (``kind``, one of `END_KINDS`: it
    resigns, claims a draw or a win by its own rules, or gives no reason). Not a failure
    of the opponent: the page says what it said, and the result is the arbiter's (or the
    player's) to record, as the rules here decide."""

    def __init__(self, text: str, kind: str) -> None:
        super().__init__(text)
        self.kind = kind if kind in END_KINDS else "ends"


@dataclass(frozen=True)
class Clocks:
    """The clocks when a move is asked for: the opponent's and the other side's
    remaining seconds (None: no clock), the increment per move, and a time to answer
    within when there is no clock (``move_seconds``)."""

    own: float | None = None
    other: float | None = None
    increment: float = 0.0
    move_seconds: float = 5.0

    def budget(self) -> float:
        """The seconds to think this move: the clock's share, or ``move_seconds``."""
        if self.own is None:
            return self.move_seconds
        share = self.own / 30 + self.increment
        return max(0.05, min(share, self.own * 0.5 + self.increment, self.move_seconds * 4))


class Opponent(Protocol):
    """One side of one game, played by something other than the person at the board."""

    @property
    def name(self) -> str:
        """The name for the record's ``White``/``Black`` tag (engine name and level)."""
        ...

    def start(self, position: Position, opponent_is_white: bool,
              history: tuple[Position, ...] = ()) -> None:
        """Begin a game from ``position`` (``history``: the positions before it), the
        opponent playing White or Black; `OpponentError` when it cannot."""
        ...

    def other_side_moved(self, move: Move) -> None:
        """The other side played ``move`` (legal in the current position)."""
        ...

    def move(self, clocks: Clocks, stop: Callable[[], bool] | None = None) -> Move:
        """The opponent's move in the current position (its turn), already applied to
        the opponent's own record of the game; `OpponentError` when it fails.
        ``stop`` cuts the thinking short: an engine answers its best move so far, a DXP
        peer raises `OpponentStoppedError`."""
        ...

    def close(self) -> None:
        """End the game and free what it holds (a process, a socket); safe twice."""
        ...


class GameTrack:
    """The game as an opponent follows it: the position and the positions before it,
    moved on only by legal moves. Every opponent keeps one."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.start: Position | None = None
        self.history: list[Position] = []
        self.moves: list[Move] = []
        self.opponent_is_white = False

    def begin(self, position: Position, opponent_is_white: bool,
              history: tuple[Position, ...] = ()) -> None:
        if position.variant is not self.variant:
            raise OpponentUnsupportedError(
                f"this opponent was set up for {self.variant.title}, "
                f"not {position.variant.title}")
        self.start = position
        self.history = [*history, position]
        self.moves = []
        self.opponent_is_white = opponent_is_white

    @property
    def position(self) -> Position:
        if not self.history:
            raise OpponentError("the game has not started")
        return self.history[-1]

    @property
    def opponents_turn(self) -> bool:
        return self.position.white_to_move == self.opponent_is_white

    def play(self, move: Move) -> None:
        """Move on by a legal move; `OpponentError` for one that is not (a caller's
        mistake, or an outside move not checked yet)."""
        position = self.position
        if not position.is_legal(move):
            raise OpponentIllegalMoveError(f"{move} is not legal in {position.fen()}")
        self.history.append(position.play(move))
        self.moves.append(move)

    def other_side_moved(self, move: Move) -> None:
        if self.opponents_turn:
            raise OpponentError("told a move of the other side on the opponent's turn")
        self.play(move)

    def check_opponents_turn(self) -> Position:
        if not self.opponents_turn:
            raise OpponentError("asked for a move on the other side's turn")
        position = self.position
        if not position.legal_moves():
            raise OpponentError(f"no legal move for the opponent in {position.fen()}")
        return position
