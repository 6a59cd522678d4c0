"""The engine's search: iterative deepening principal-variation search on raw moves.

Why each part is here:

* **Iterative deepening** gives an answer at any moment (a hint must come within a
  second, a game move within its time) and orders each iteration by the last one.
* **Principal-variation search** (alpha-beta, the first move with a full window, the
  others with a null window, searched again only when they beat it) with a
  **transposition table** keyed by a Zobrist hash (`hashing`): draughts positions
  transpose a great deal, and the table's move is the best first move to try. The table
  is a fixed list of slots, so its memory is bounded (a Raspberry Pi Zero has 512 MB).
* **Move ordering**: the table's move, captures taking most first, two killer moves per
  ply, then a history score of quiet moves that caused cut-offs.
* **Extensions and reductions**: a position with one legal move, or a capture with at most
  two choices (a capture is compulsory), does not use up depth, so a shot (a sacrifice
  that forces captures so that a multiple capture follows) is seen at a shallow depth;
  late quiet moves are first searched a ply shallower (late move reduction), which buys
  about a ply and a half in the same time.
* **Quiescence over captures**: at the horizon, while the side to move must capture, every
  capture is searched (there is no standing pat when capturing is compulsory); a quiet
  position is judged by the evaluation (`evaluation`).
* **Repetition**: a position met again on the search path or in the game's history scores
  as a draw.
* **Budgets**: a depth, a number of nodes, a time (seconds on an injected clock) and a stop
  callable, whichever comes first. The time is checked every few hundred nodes. For a given
  node or depth budget the result is always the same: every search starts from empty
  tables, and nothing in it depends on a clock or on Python's per-process string hashing.

The engine is pure and single-threaded: whoever wants it off the caller's thread runs it
in a worker and passes ``stop`` to cancel it (`draughtsboard.play.coach` does).
Scores are in hundredths of a man from the side to move's view; a forced win is
``MATE - plies``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..columns import ColumnMoveGenerator
from ..generators import generator_for
from ..movegen import RawMove
from ..position import Move, Position
from ..variants import Variant
from .evaluation import evaluation_for
from .hashing import keys_for

MATE = 30000
MATE_BOUND = MATE - 1000  # scores beyond this are forced wins or losses
INFINITY = 32000
MAX_DEPTH = 64
MAX_PLY = 128  # no extension beyond this ply; quiescence stops here too
EXTENSION_PLY_LIMIT = 48
CHECK_EVERY = 256  # nodes between two looks at the clock and the stop callable
MAX_SECONDS = 86_400  # a time budget beyond a day (or infinite) is a mistake, not a wish
DEFAULT_TABLE_BITS = 16  # 65,536 slots: at most about 10 MB when every slot is filled

EXACT, LOWER, UPPER = 0, 1, 2


class SearchLimitError(ValueError):
    """A search asked for without any limit, or with a limit that is not positive."""


class _Stop(Exception):
    """The budget ran out in the middle of an iteration (internal)."""


@dataclass(frozen=True)
class SearchResult:
    """What a search found. ``move`` is ``None`` only when the side to move has no legal
    move (it has lost). ``score`` is from the side to move's view (hundredths of a man);
    ``mate_in`` the plies to a forced win (positive) or loss (negative) when one was
    found. ``depth`` is the deepest iteration completed (0: none had time to finish, the
    move is the first one ordered)."""

    move: Move | None
    score: int
    depth: int
    pv: tuple[Move, ...]
    nodes: int
    seconds: float
    white_to_move: bool = True
    raw: RawMove | None = field(default=None, repr=False, compare=False)

    @property
    def mate_in(self) -> int | None:
        if self.score > MATE_BOUND:
            return MATE - self.score
        if self.score < -MATE_BOUND:
            return -(MATE + self.score)
        return None

    @property
    def white_score(self) -> int:
        """The score from White's view."""
        return self.score if self.white_to_move else -self.score


class Engine:
    """A search engine for one variant. Not thread-safe: one search at a time per engine.

    ``table_bits`` sets the transposition table's size (2**bits slots); ``clock`` is what
    time budgets are measured on (seconds).
    """

    # A position whose captures offer at most this many choices does not use up depth (a
    # single legal move never does): the answers to a sacrifice are followed to the end.
    capture_extension = 2
    # From this index on in the ordered list, quiet moves at depth 3 or more are first
    # searched one ply shallower (late move reduction), and to the full depth only if
    # they look better than the best so far.
    reduction_from = 3

    def __init__(self, variant: Variant, *, table_bits: int = DEFAULT_TABLE_BITS,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if not 8 <= table_bits <= 24:
            raise SearchLimitError(f"table_bits must be 8-24, got {table_bits}")
        generator = generator_for(variant)
        self.variant = variant
        self.clock = clock
        self._legal = generator.legal
        self._count = generator.count
        self._evaluate = evaluation_for(variant)
        self._keys = keys_for(variant.geometry)
        self._columns_game = variant.holds_columns
        self._make_columns = ColumnMoveGenerator.make
        self._width = len(variant.geometry.number_of_bit)
        self._table_size = 1 << table_bits
        self._table: list = []
        self._history: list[int] = []
        self._killers: list[list] = []
        self._pv: list[tuple] = []
        self._seen: dict[int, int] = {}
        self._columns: list[str] = []
        self._tall = 0
        self.nodes = 0
        # The root's best (move, score, principal variation) in the running iteration.
        self._root_best: tuple[RawMove, int, tuple[RawMove, ...]] | None = None
        self._root_move: RawMove | None = None

    # -- the public search ----------------------------------------------------------------

    def search(self, position: Position, *, depth: int | None = None,
               nodes: int | None = None, seconds: float | None = None,
               history: Iterable[Position] = (),
               stop: Callable[[], bool] | None = None) -> SearchResult:
        """The best move of ``position`` within the limits (at least one of ``depth``,
        ``nodes``, ``seconds``). ``history``: the game's earlier positions, so that the
        engine sees repetitions."""
        if depth is None and nodes is None and seconds is None:
            raise SearchLimitError("give a depth, a node budget or a time budget")
        for name, value in (("depth", depth), ("nodes", nodes), ("seconds", seconds)):
            if value is not None and not value > 0:  # (NaN is not > 0 either)
                raise SearchLimitError(f"{name} must be positive, got {value}")
        if seconds is not None and not seconds <= MAX_SECONDS:
            raise SearchLimitError(f"seconds must be at most {MAX_SECONDS} (a day), got "
                                   f"{seconds}")
        if position.variant is not self.variant:
            raise SearchLimitError(f"this engine plays {self.variant.name}, "
                                   f"not {position.variant.name}")
        started = self.clock()
        self._reset(position, history)
        self._deadline = None if seconds is None else started + seconds
        self._node_limit = nodes
        self._stop_requested = stop
        self._next_check = CHECK_EVERY
        own, enemy, kings = position.own, position.enemy, position.kings
        white = position.white_to_move
        key = self._root_key
        moves = self._legal(own, enemy, kings, white)
        if not moves:
            return SearchResult(None, -MATE, 0, (), 0, 0.0, white)
        best_raw, best_score, best_pv, completed = moves[0], 0, (moves[0],), 0
        max_depth = min(depth or MAX_DEPTH, MAX_DEPTH)
        for iteration in range(1, max_depth + 1):
            self._root_best = None
            self._root_move = best_raw if completed else None
            try:
                score = self._negamax(own, enemy, kings, white, iteration, -INFINITY,
                                      INFINITY, 0, key)
            except _Stop:
                if self._root_best is not None:  # a move beat the last iteration's best
                    best_raw, best_score, best_pv = self._root_best
                self._restore_root(position)
                break
            # A completed iteration has a root best: every root move's score beats -INFINITY.
            assert self._root_best is not None
            best_raw, best_score, best_pv = self._root_best
            completed = iteration
            if abs(score) > MATE_BOUND:
                break  # a forced result: deeper search cannot change it
            if len(moves) == 1 and seconds is not None:
                break  # a forced move in timed play: no need to think
            if seconds is not None and self.clock() - started > seconds * 0.45:
                break  # the next iteration would not finish in time
        return self._result(position, best_raw, best_score, best_pv, completed,
                            self.clock() - started)

    def capture_score(self, position: Position, history: Iterable[Position] = (),
                      nodes: int | None = None) -> int:
        """The score of ``position`` from the side to move's view with only captures played
        out (no quiet move looked at): what is on the board once the pieces that can be
        taken now have been taken. Captures end most lines soon, but in a column game
        exchanges of columns can go on and branch; past ``nodes`` nodes (None: no limit)
        the position is judged as it stands, its captures not played out."""
        self._reset(position, history)
        self._deadline = None
        self._node_limit = nodes
        self._stop_requested = None
        self._next_check = CHECK_EVERY if nodes is None else min(CHECK_EVERY, nodes)
        own, enemy, kings = position.own, position.enemy, position.kings
        try:
            return self._quiesce(own, enemy, kings, position.white_to_move, -INFINITY,
                                 INFINITY, 0, self._root_key)
        except _Stop:
            spent = self.nodes
            score = self.evaluate(position)
            self.nodes = spent
            return score

    def evaluate(self, position: Position) -> int:
        """The static evaluation of a position from the side to move's view."""
        self._reset(position, ())
        own, enemy, kings = position.own, position.enemy, position.kings
        return self._static(own, enemy, kings, position.white_to_move,
                            self._count(own, enemy, kings, position.white_to_move))

    # -- set-up -----------------------------------------------------------------------------

    def _reset(self, position: Position, history: Iterable[Position]) -> None:
        self.nodes = 0
        self._table = [None] * self._table_size
        self._history = [0] * (self._width * self._width)
        self._killers = [[None, None] for _ in range(MAX_PLY + 2)]
        self._pv = [()] * (MAX_PLY + 2)
        keys = self._keys
        self._restore_root(position)
        if self._columns_game:
            self._root_key = keys.of_columns(position.columns, position.white_to_move)
        else:
            self._root_key = keys.of_pieces(position.white, position.black, position.kings,
                                            position.white_to_move)
        seen: dict[int, int] = {}
        for earlier in history:
            if earlier.variant is not self.variant:
                continue
            if self._columns_game:
                k = keys.of_columns(earlier.columns, earlier.white_to_move)
            else:
                k = keys.of_pieces(earlier.white, earlier.black, earlier.kings,
                                   earlier.white_to_move)
            seen[k] = seen.get(k, 0) + 1
        self._history_keys = dict(seen)
        self._seen = seen

    def _restore_root(self, position: Position) -> None:
        """Columns and the repetition counts as at the root (after an aborted iteration)."""
        if position.columns is not None:  # exactly the column games' positions
            self._columns = list(position.columns)
            self._tall = sum(1 << bit for bit, column in enumerate(position.columns)
                             if len(column) > 1)
        if hasattr(self, "_history_keys"):
            self._seen = dict(self._history_keys)

    def _result(self, position: Position, raw: RawMove, score: int, pv: tuple,
                depth: int, seconds: float) -> SearchResult:
        moves = []
        current = position
        for step in pv:
            move = current.move_of_raw(step)
            if not current.is_legal(move):
                break
            moves.append(move)
            current = current.play(move)
        best = position.move_of_raw(raw)
        if not moves or moves[0] != best:
            moves = [best]
        return SearchResult(best, score, depth, tuple(moves), self.nodes, seconds,
                            position.white_to_move, raw)

    # -- budget -----------------------------------------------------------------------------

    def _check(self) -> None:
        self._next_check = self.nodes + CHECK_EVERY
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _Stop
        if self._deadline is not None and self.clock() >= self._deadline:
            raise _Stop
        if self._stop_requested is not None and self._stop_requested():
            raise _Stop

    # -- playing a raw move inside the search -------------------------------------------------

    def _play(self, own: int, enemy: int, kings: int, white: bool, key: int,
              raw: RawMove):
        """(own, enemy, kings, key, undo) of the child position, from its mover's view;
        ``undo`` is None for single-piece games (nothing to restore)."""
        if self._columns_game:
            return self._play_columns(own, enemy, kings, key, raw)
        start, end, mask, promotes, _, captured = raw
        start_bit = 1 << start
        end_bit = 1 << end
        keys = self._keys
        colour = 0 if white else 1
        if kings & start_bit:
            crowned = keys.kings[colour]
            key ^= crowned[start] ^ crowned[end]
            new_kings = (kings & ~(start_bit | mask)) | end_bit
        elif promotes:
            key ^= keys.men[colour][start] ^ keys.kings[colour][end]
            new_kings = (kings & ~(start_bit | mask)) | end_bit
        else:
            men = keys.men[colour]
            key ^= men[start] ^ men[end]
            new_kings = kings & ~(start_bit | mask)
        if captured:
            their_men, their_kings = keys.men[1 - colour], keys.kings[1 - colour]
            for square in captured:
                key ^= their_kings[square] if (kings >> square) & 1 else their_men[square]
        return (enemy & ~mask, (own & ~start_bit) | end_bit, new_kings,
                key ^ keys.black_to_move, None)

    def _play_columns(self, own: int, enemy: int, kings: int, key: int, raw: RawMove):
        columns = self._columns
        keys = self._keys
        column_key = keys.column
        tables = keys.columns_of
        start, end, _, _, _, captured = raw
        # the start and captured squares are occupied before the move; the end square is
        # empty (or the start itself, after a capture that comes back to it)
        saved = [(start, columns[start])]
        if end != start:
            saved.append((end, ""))
        for square in captured:
            saved.append((square, columns[square]))
        for square, column in saved:
            key ^= tables[square].get(column) or column_key(square, column)
        own, enemy, kings = self._make_columns(columns, own, enemy, kings, raw)
        tall = old_tall = self._tall
        for square, _ in saved:
            column = columns[square]
            if column:
                key ^= tables[square].get(column) or column_key(square, column)
                if len(column) > 1:
                    tall |= 1 << square
                    continue
            tall &= ~(1 << square)
        self._tall = tall
        return enemy, own, kings, key ^ keys.black_to_move, (saved, old_tall)

    def _undo(self, undo) -> None:
        saved, tall = undo
        columns = self._columns
        for square, column in saved:
            columns[square] = column
        self._tall = tall

    def _static(self, own: int, enemy: int, kings: int, white: bool, own_moves: int) -> int:
        """The evaluation from the mover's view; ``own_moves``: its legal moves."""
        enemy_moves = self._count(enemy, own, kings, not white)
        if white:
            return self._evaluate(own, enemy, kings, self._columns, self._tall, own_moves,
                                  enemy_moves)
        return -self._evaluate(enemy, own, kings, self._columns, self._tall, enemy_moves,
                               own_moves)

    # -- the search proper ----------------------------------------------------------------------

    def _negamax(self, own: int, enemy: int, kings: int, white: bool, depth: int,
                 alpha: int, beta: int, ply: int, key: int) -> int:
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(own, enemy, kings, white, alpha, beta, ply, key)
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()
        pv = self._pv
        pv[ply] = ()
        seen = self._seen
        if ply and key in seen:
            return 0  # a repetition: a draw
        table = self._table
        slot = key & (self._table_size - 1)
        entry = table[slot]
        table_move = None
        if ply == 0:
            table_move = self._root_move
        elif entry is not None and entry[0] == key:
            table_move = entry[4]
            if entry[1] >= depth:
                score = entry[3]
                if score > MATE_BOUND:
                    score -= ply
                elif score < -MATE_BOUND:
                    score += ply
                flag = entry[2]
                if flag == EXACT or (flag == LOWER and score >= beta) or \
                        (flag == UPPER and score <= alpha):
                    return score
        moves = self._legal(own, enemy, kings, white)
        count = len(moves)
        if not count:
            return ply - MATE
        if count > 1:
            moves = self._ordered(moves, table_move, ply)
        forced = count == 1 or (moves[0][5] and count <= self.capture_extension)
        child_depth = depth if forced and ply < EXTENSION_PLY_LIMIT else depth - 1
        reducible = self.reduction_from if depth >= 3 and not moves[0][5] else count + 1
        seen[key] = seen.get(key, 0) + 1
        best = -INFINITY
        best_move = None
        flag = UPPER
        play = self._play
        first = True
        try:
            for index, move in enumerate(moves):
                child_own, child_enemy, child_kings, child_key, undo = play(
                    own, enemy, kings, white, key, move)
                if first:
                    score = -self._negamax(child_own, child_enemy, child_kings, not white,
                                           child_depth, -beta, -alpha, ply + 1, child_key)
                    first = False
                else:
                    if index >= reducible:
                        # a late quiet move: first a shallower look; only if it beats
                        # the best so far is it searched to the full depth
                        score = -self._negamax(child_own, child_enemy, child_kings,
                                               not white, child_depth - 1, -alpha - 1, -alpha,
                                               ply + 1, child_key)
                    else:
                        score = alpha + 1
                    if score > alpha:
                        score = -self._negamax(child_own, child_enemy, child_kings,
                                               not white, child_depth, -alpha - 1, -alpha,
                                               ply + 1, child_key)
                    if alpha < score < beta:
                        score = -self._negamax(child_own, child_enemy, child_kings,
                                               not white, child_depth, -beta, -alpha,
                                               ply + 1, child_key)
                if undo is not None:
                    self._undo(undo)
                if score > best:
                    best = score
                    best_move = move
                    if score > alpha:
                        alpha = score
                        flag = EXACT
                        pv[ply] = (move,) + pv[ply + 1]
                        if ply == 0:
                            self._root_best = (move, score, pv[0])
                        if score >= beta:
                            flag = LOWER
                            if not move[5]:
                                self._reward(move, depth, ply)
                            break
        finally:
            left = seen[key] - 1
            if left:
                seen[key] = left
            else:
                del seen[key]
        stored = best
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        table[slot] = (key, depth, flag, stored, best_move)
        return best

    def _quiesce(self, own: int, enemy: int, kings: int, white: bool, alpha: int,
                 beta: int, ply: int, key: int) -> int:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()
        pv = self._pv
        pv[ply] = ()
        moves = self._legal(own, enemy, kings, white)
        if not moves:
            return ply - MATE  # blocked (or no piece left): no legal move loses
        if not moves[0][5] or ply >= MAX_PLY:
            return self._static(own, enemy, kings, white, len(moves))
        if len(moves) > 1:
            moves.sort(key=_captured_count, reverse=True)
        best = -INFINITY
        play = self._play
        for move in moves:
            child_own, child_enemy, child_kings, child_key, undo = play(
                own, enemy, kings, white, key, move)
            score = -self._quiesce(child_own, child_enemy, child_kings, not white, -beta,
                                   -alpha, ply + 1, child_key)
            if undo is not None:
                self._undo(undo)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    pv[ply] = (move,) + pv[ply + 1]
                    if score >= beta:
                        break
        return best

    # -- move ordering ----------------------------------------------------------------------------

    def _ordered(self, moves: list[RawMove], table_move, ply: int) -> list[RawMove]:
        killers = self._killers[ply]
        first_killer, second_killer = killers
        if moves[0][5]:  # captures: most pieces taken first
            keyed = [(len(move[5]), -index, move) for index, move in enumerate(moves)]
        else:
            history = self._history
            width = self._width
            keyed = []
            for index, move in enumerate(moves):
                if move == first_killer:
                    weight = 1 << 40
                elif move == second_killer:
                    weight = 1 << 39
                else:
                    weight = history[move[0] * width + move[1]]
                keyed.append((weight, -index, move))
        if table_move is not None:
            keyed = [(1 << 50, 0, m) if m == table_move else item
                     for item in keyed for m in (item[2],)]
        keyed.sort(key=_first_two, reverse=True)
        return [item[2] for item in keyed]

    def _reward(self, move: RawMove, depth: int, ply: int) -> None:
        """A quiet move caused a cut-off: remember it as a killer and in the history."""
        killers = self._killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        index = move[0] * self._width + move[1]
        self._history[index] += depth * depth


def _captured_count(move: RawMove) -> int:
    return len(move[5])


def _first_two(item: tuple) -> tuple:
    return item[0], item[1]
