"""What the LEDs should say, as intents: a pure function of the tracker's state.

The tracker says *why* squares draw attention (`events.INTENTS`); the renderer (`leds`)
says how. Kept apart from the state machine: given the state, the move table, the board
and the move in progress, the intents follow, with nothing remembered here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..mode import Mode
from ..ports import squares_from_mask
from .move_table import MoveTable
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
    if state in (State.READY, State.MOVING) and table.capture_required:
        if s.mode.shows_moves or s.progress.touched_non_capturing:
            out["must_capture"] = tuple(sorted({shape.move.start for shape in table.shapes
                                                if shape.move.captures}))
    if state is State.MOVING and s.mode.shows_moves:
        _hints(table, occupied, s.progress, now, out)
    if s.last_move and state is State.READY:
        out["last_move"] = s.last_move
    return out


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
