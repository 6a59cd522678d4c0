"""What the LEDs should say, as intents: a pure function of the tracker's state.

The tracker says *why* squares draw attention (`events.INTENTS`); the renderer (`leds`)
says how. Kept apart from the state machine: given the state, the move table, the board
and the move in progress, the intents follow, with nothing remembered here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..mode import Mode
from ..ports import squares_from_mask
from .move_table import MoveShape, MoveTable
from .progress import MoveInProgress, followed
from .states import State

Intents = dict[str, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything the intents depend on, at one moment."""

    state: State
    mode: Mode
    table: MoveTable
    occupied: int
    progress: MoveInProgress
    ambiguous: tuple[int, ...]  # the blinking squares of an ambiguity
    last_move: tuple[int, ...]  # start and end of the move just recorded, while confirmed
    opponents_turn: bool = False  # the board takes only the opponent's move
    expected: MoveShape | None = None  # the opponent's move to carry out, once chosen
    owed: int | None = None  # the board the person's takeback must show (its occupancy)


def intents_of(s: Situation, now: float) -> Intents:
    """The LED intents of a situation (see the module doc)."""
    table, occupied, state = s.table, s.occupied, s.state
    out: Intents = {}
    differ = tuple(squares_from_mask(occupied ^ table.occupancy))
    if state in (State.SETUP, State.DISTURBED):
        if differ:
            out["restore"] = differ
    elif state is State.ILLEGAL:
        added = occupied & ~table.occupancy
        out["illegal"] = tuple(squares_from_mask(added)) or differ
        out["restore"] = differ
    elif state is State.AMBIGUOUS:
        out["ambiguous"] = s.ambiguous
    elif state is State.GAME_OVER or table.is_game_over:
        out["game_over"] = tuple(squares_from_mask(table.occupancy))
    playing = state in (State.READY, State.MOVING)
    if s.opponents_turn:
        if playing and s.owed is not None:
            differ = tuple(squares_from_mask(occupied ^ s.owed))
            if differ:
                out["restore"] = differ  # the person's own move, to take back too
        elif playing and s.expected is not None:
            _opponent(s.expected, occupied, s.progress, now, out)
    else:
        landed = _landed(table, occupied, s.progress) if state is State.MOVING else ()
        if landed and s.mode is not Mode.TOURNAMENT:
            out["take_off"] = landed  # the capture is down: only its prisoners are left
        elif playing and table.capture_required and (
                s.mode.shows_moves or s.progress.touched_non_capturing):
            out["must_capture"] = tuple(sorted({shape.move.start for shape in table.shapes
                                                if shape.move.captures}))
        if state is State.MOVING and s.mode.shows_moves and not landed:
            _hints(table, occupied, s.progress, now, out)
    if s.last_move and state is State.READY:
        out["last_move"] = s.last_move
    return out


def _opponent(shape: MoveShape, occupied: int, progress: MoveInProgress, now: float,
              out: Intents) -> None:
    """The opponent's move as the person carries it out: the piece to move (until it is
    lifted), the landing squares still to come (until it is down on its end), and each
    captured piece still to take off."""
    start = shape.move.start
    lifted = start in progress.lifted_at or not occupied & shape.start_bit
    if not lifted:
        out["opponent_from"] = (start,)
    down = lifted and occupied & shape.end_bit and (
        shape.start_bit != shape.end_bit or start in progress.lifted_at)
    if not down:
        rests = [s for s in progress.rests(now) if s != start]
        done = followed(shape.landings, rests) or 0
        ahead = tuple(dict.fromkeys(s for s in shape.landings[done:] if s != start))
        if ahead:
            out["opponent_path"] = ahead
    take = tuple(s for s in shape.emptied if occupied >> (s - 1) & 1)
    if take:
        out["opponent_take"] = take


def _landed(table: MoveTable, occupied: int, progress: MoveInProgress) -> tuple[int, ...]:
    """A capture whose piece is down on its end while pieces it took are still on the
    board: those pieces, when every capture that fits the board agrees on them."""
    removed = table.occupancy & ~occupied
    added = occupied & ~table.occupancy
    left: set[tuple[int, ...]] = set()
    for shape in table.consistent(removed, added):
        if not shape.move.captures or not occupied & shape.end_bit:
            continue
        if shape.start_bit == shape.end_bit and shape.move.start not in progress.lifted_at:
            continue
        if shape.start_bit != shape.end_bit and not added & shape.end_bit:
            continue
        left.add(tuple(s for s in shape.emptied if occupied >> (s - 1) & 1))
    if len(left) != 1:
        return ()
    return next(iter(left))


def _hints(table: MoveTable, occupied: int, progress: MoveInProgress, now: float,
           out: Intents) -> None:
    """Training: where the lifted piece may go; for a capture, the next landing of the
    path it has followed so far (through every landing it rested on), none once it is
    down on the capture's end."""
    removed = table.occupancy & ~occupied
    lifted = [shape for shape in table.shapes if removed & shape.start_bit]
    if not lifted:
        return
    if table.capture_required:
        rests = [s for s in progress.rests(now) if not table.occupancy >> (s - 1) & 1]
        steps = set()
        for shape in lifted:
            if occupied & shape.end_bit and rests and rests[-1] == shape.move.end:
                continue  # down on its end: this capture is done
            done = followed(shape.landings, rests)
            if done is not None and done < len(shape.landings):
                steps.add(shape.landings[done])
        if steps:
            out["path"] = tuple(sorted(steps))
    else:
        out["destination"] = tuple(sorted({shape.move.end for shape in lifted}))
