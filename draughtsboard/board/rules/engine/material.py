"""Forced material within a horizon: what "loses material by force" and "a shot wins
material" mean, decided by exhaustive search on material alone.

The engine's search (`search`) judges positions with a heuristic evaluation and prunes
with a table; a blunder warning and the tactics suite need a plainer, checkable claim:
*against every defence, within the horizon, this move ends at least N pieces behind (or
ahead of) that one*. This module proves such claims by minimax (alpha-beta, which prunes
without changing the value) over every legal move, with no evaluation but material:

* **material** is the number of pieces a side commands: on single-piece boards its
  pieces (a king counts as one piece: the claim is about pieces lost, not promotions);
  in column games the pieces of its colour in the columns it tops (a prisoner is not
  commanded; freeing it is a gain);
* the **horizon** is a number of quiet plies (moves that capture nothing); captures are
  compulsory, so they never use up the horizon, and a line is followed until the side to
  move has no capture at the horizon;
* a side with no legal move has lost: that counts as losing every piece (``LOST``).

Cost grows with the width of the board and the horizon, so every call takes a node
budget and answers ``None`` when it runs out: a claim that is not proved is not made.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..columns import WHITE_PIECE, ColumnMoveGenerator
from ..generators import generator_for
from ..movegen import MoveGenerator, RawMove
from ..position import Move, Position

LOST = 1000  # the material value of a lost game (more than every piece on any board)
DEFAULT_HORIZON = 3  # quiet plies
DEFAULT_NODES = 200_000
# A line longer than this is not proved: in column games captured pieces stay on the
# board, so two columns can capture each other back and forth for as long as they like.
MAX_PLIES = 200
CHECK_EVERY = 1024  # nodes between two calls of the stop callable


class _OutOfNodes(Exception):
    """The node budget ran out (internal)."""


@dataclass(frozen=True)
class MoveOutcome:
    """A legal move and the material it leads to by force: ``gain`` is the change in the
    mover's material lead at the end of the best play of both sides within the horizon
    (negative: pieces lost), ``line`` that play, the move first."""

    move: Move
    gain: int
    line: tuple[Move, ...]


class MaterialProver:
    """Proves forced material outcomes in one variant (see the module doc). One search at
    a time per prover."""

    def __init__(self, variant) -> None:
        generator = generator_for(variant)
        self.variant = variant
        self._legal = generator.legal
        self._columns_game = variant.holds_columns
        self._make_columns = ColumnMoveGenerator.make
        self._play_pieces = MoveGenerator.play_pieces
        self.nodes = 0
        self._limit = 0
        self._stop: Callable[[], bool] | None = None
        self._next_check = CHECK_EVERY
        self._depth = 0
        self._columns: list[str] = []

    # -- material ------------------------------------------------------------------------

    def balance(self, position: Position) -> int:
        """The side to move's material lead (pieces it commands minus the other side's)."""
        # (a position has columns exactly in a column game)
        self._columns = list(position.columns) if position.columns is not None else []
        return self._balance(position.own, position.enemy, position.white_to_move)

    def _balance(self, own: int, enemy: int, white: bool) -> int:
        if not self._columns_game:
            return own.bit_count() - enemy.bit_count()
        lead = 0
        columns = self._columns
        for pieces, sign in ((own, 1), (enemy, -1)):
            while pieces:
                low = pieces & -pieces
                pieces ^= low
                column = columns[low.bit_length() - 1]
                top_white = WHITE_PIECE[column[0]]
                lead += sign * sum(1 for piece in column if WHITE_PIECE[piece] is top_white)
        return lead

    # -- claims -------------------------------------------------------------------------------

    def outcomes(self, position: Position, horizon: int = DEFAULT_HORIZON,
                 nodes: int = DEFAULT_NODES, stop: Callable[[], bool] | None = None
                 ) -> list[MoveOutcome] | None:
        """Every legal move with its forced material gain, best first (ties in the
        order of the legal moves), the forced line of the first one only; ``None`` if the
        node budget runs out (or ``stop()`` says so)."""
        self._start(nodes, stop)
        before = self.balance(position)
        own, enemy, kings = position.own, position.enemy, position.kings
        white = position.white_to_move
        results = []
        try:
            for raw in self._legal(own, enemy, kings, white):
                value = -self._child_value(own, enemy, kings, white, raw, horizon,
                                           -LOST - 1, LOST + 1)
                results.append((value - before, raw))
        except _OutOfNodes:
            self.balance(position)
            return None
        order = sorted(range(len(results)), key=lambda i: -results[i][0])
        out = []
        for rank, i in enumerate(order):
            gain, raw = results[i]
            move = position.move_of_raw(raw)
            line = self._line(position, raw, horizon) if rank == 0 else (move,)
            out.append(MoveOutcome(move, gain, line))
        return out

    def gain(self, position: Position, move: Move, horizon: int = DEFAULT_HORIZON,
             nodes: int = DEFAULT_NODES, stop: Callable[[], bool] | None = None) -> int | None:
        """The forced material gain of one move (``None``: budget ran out)."""
        raw = self._raw(position, move)
        self._start(nodes, stop)
        before = self.balance(position)
        try:
            value = -self._child_value(position.own, position.enemy, position.kings,
                                       position.white_to_move, raw, horizon, -LOST - 1,
                                       LOST + 1)
        except _OutOfNodes:
            self.balance(position)
            return None
        return value - before

    def better_than(self, position: Position, move: Move, horizon: int = DEFAULT_HORIZON,
                    nodes: int = DEFAULT_NODES, stop: Callable[[], bool] | None = None
                    ) -> tuple[int, MoveOutcome | None] | None:
        """(gain of ``move``, the best move that gains more, or ``None`` if none does);
        ``None`` if the node budget runs out. Cheaper than `outcomes`: the other moves
        are only asked whether they beat ``move``."""
        raw = self._raw(position, move)
        self._start(nodes, stop)
        before = self.balance(position)
        own, enemy, kings = position.own, position.enemy, position.kings
        white = position.white_to_move
        try:
            played = -self._child_value(own, enemy, kings, white, raw, horizon, -LOST - 1,
                                        LOST + 1)
            best, best_raw = played, None
            for other in self._legal(own, enemy, kings, white):
                if other == raw:
                    continue
                value = -self._child_value(own, enemy, kings, white, other, horizon,
                                           -LOST - 1, -best)
                if value > best:
                    best, best_raw = value, other
        except _OutOfNodes:
            self.balance(position)
            return None
        if best_raw is None:
            return played - before, None
        better = MoveOutcome(position.move_of_raw(best_raw), best - before,
                             self._line(position, best_raw, horizon))
        return played - before, better

    def _start(self, nodes: int, stop: Callable[[], bool] | None) -> None:
        self.nodes = 0
        self._limit = nodes
        self._stop = stop
        self._next_check = CHECK_EVERY
        self._depth = 0

    def _raw(self, position: Position, move: Move) -> RawMove:
        for raw in self._legal(position.own, position.enemy, position.kings,
                               position.white_to_move):
            if position.move_of_raw(raw) == move:
                return raw
        position.play(move)  # raises IllegalMoveError with the FEN
        raise AssertionError("unreachable")

    # -- the search -------------------------------------------------------------------------

    def _child_value(self, own, enemy, kings, white, raw, horizon, alpha, beta) -> int:
        """The value (for the side to move after ``raw``) of the position it leads to."""
        if not self._columns_game:
            mine, theirs, crowned = self._play_pieces(own, enemy, kings, raw)
            quiet = 0 if raw[5] else 1
            return self._value(theirs, mine, crowned, not white, horizon - quiet, alpha,
                               beta)
        columns = self._columns
        start, end, _, _, _, captured = raw
        saved = [(square, columns[square]) for square in {start, end, *captured}]
        mine, theirs, crowned = self._make_columns(columns, own, enemy, kings, raw)
        try:
            quiet = 0 if captured else 1
            return self._value(theirs, mine, crowned, not white, horizon - quiet, alpha, beta)
        finally:
            for square, column in saved:
                columns[square] = column

    def _value(self, own, enemy, kings, white, horizon, alpha, beta) -> int:
        if self._depth >= MAX_PLIES:
            raise _OutOfNodes  # captures without end (columns taking back and forth)
        self._depth += 1
        try:
            return self._searched_value(own, enemy, kings, white, horizon, alpha, beta)
        finally:
            self._depth -= 1

    def _searched_value(self, own, enemy, kings, white, horizon, alpha, beta) -> int:
        self.nodes += 1
        if self.nodes > self._limit:
            raise _OutOfNodes
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + CHECK_EVERY
            if self._stop is not None and self._stop():
                raise _OutOfNodes
        moves = self._legal(own, enemy, kings, white)
        if not moves:
            return -LOST
        if not moves[0][5] and horizon <= 0:
            return self._balance(own, enemy, white)
        if moves[0][5] and len(moves) > 1:
            moves.sort(key=_captured_count, reverse=True)
        best = -LOST - 1
        for raw in moves:
            value = -self._child_value(own, enemy, kings, white, raw, horizon, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        break
        return best

    def _line(self, position: Position, raw: RawMove, horizon: int) -> tuple[Move, ...]:
        """The forced line after ``raw``: at each step a move that keeps the value
        (found again by search; for messages and puzzle solutions, not the hot path)."""
        line = [position.move_of_raw(raw)]
        current = position.play(line[0])
        left = horizon - (0 if raw[5] else 1)
        saved_limit, saved_nodes = self._limit, self.nodes
        try:
            while True:
                moves = self._legal(current.own, current.enemy, current.kings,
                                    current.white_to_move)
                if not moves or (not moves[0][5] and left <= 0):
                    break
                self.balance(current)
                best, best_raw = -LOST - 2, None
                self._limit = self.nodes + DEFAULT_NODES
                self._stop = None
                for candidate in moves:
                    value = -self._child_value(current.own, current.enemy, current.kings,
                                               current.white_to_move, candidate, left,
                                               -LOST - 1, LOST + 1)
                    if value > best:
                        best, best_raw = value, candidate
                # Every value is above -LOST - 2, so the first candidate always set it.
                assert best_raw is not None
                move = current.move_of_raw(best_raw)
                line.append(move)
                left -= 0 if best_raw[5] else 1
                current = current.play(move)
        except _OutOfNodes:
            pass
        finally:
            self._limit, self.nodes = saved_limit, saved_nodes
        return tuple(line)


def _captured_count(move: RawMove) -> int:
    return len(move[5])


