"""The move tracker: debounced occupancy snapshots in, exact moves and LED intents out.

Reed switches say only which squares are occupied. The tracker knows the position (from
the game record, so colours, kings and columns are known) and, once per position, what
every legal move looks like to the switches (`MoveTable`). Each snapshot is classified
into one *observation* (the board is back as it was, it shows a completed move, a move is
in progress, a piece was put where no move allows, ...) and one transition table says
what state follows. The tracker runs to completion per snapshot and takes time only from
the snapshots (and `tick`), so it is exactly testable.

Its promises (docs/user-guide.md): a move is recorded the moment the board shows exactly the
position after one legal move and the order of lifts and placements does not contradict
it, never on a guess; anything in between is tolerated as long as it can be part of a
legal move; otherwise the offending squares are flagged and the squares to restore lit
until the board is back as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ports import Snapshot, mask_from_squares, squares_from_mask
from ..rules.notation import format_square
from ..rules.position import Position
from .events import (
    FlagEvent,
    GameOverEvent,
    LedEvent,
    MoveEvent,
    TakebackEvent,
    TrackerEvent,
)
from .move_table import MoveShape, MoveTable, MoveTableCache
from .states import (
    Mode,
    Observation,
    State,
    next_state,
)

# -- the tracker ----------------------------------------------------------------------------

@dataclass
class _MoveInProgress:
    """What happened since the board last matched the position."""

    placements: list[int] = field(default_factory=list)  # squares filled, in order
    removals: list[tuple[int, int]] = field(default_factory=list)  # (square, occupancy then)
    started_at: float | None = None
    lifted_since: float | None = None  # when an unexplained lift began
    touched_non_capturing: bool = False


@dataclass(frozen=True, slots=True)
class Seen:
    """One snapshot classified: what it shows (`Observation`) and the evidence the
    tracker acts on. Which fields are set depends on the observation: ``shape`` for a
    move completed, amended or seen with the next one begun; ``candidates`` for a board
    that fits several moves; ``removed`` and ``added`` (occupancy masks relative to the
    position) for a wrong placement or an unexplained change."""

    observation: Observation
    shape: MoveShape | None = None
    candidates: tuple[MoveShape, ...] = ()
    removed: int = 0
    added: int = 0


class Tracker:
    """Turns debounced occupancy snapshots into moves and LED intents (see module doc)."""

    def __init__(self, position: Position, mode: Mode = Mode.TOURNAMENT, *,
                 hold_timeout: float = 3.0, confirm_time: float = 1.0,
                 check_start: bool = True) -> None:
        self.mode = mode
        self.hold_timeout = hold_timeout
        self.confirm_time = confirm_time
        self._tables = MoveTableCache()
        self._history: list[tuple[Position, MoveShape]] = []  # (position before, move)
        self._set_position(position)
        self.state = State.SETUP if check_start else State.READY
        self._observed = self.table.occupancy if not check_start else None
        self._progress = _MoveInProgress()
        self._previous_occupied = self.table.occupancy
        self._slide: MoveShape | None = None  # last quiet move, open to amendment
        self._ambiguous: list[MoveShape] = []
        self._chosen: MoveShape | None = None
        self._last_move: tuple[int, ...] = ()
        self._last_move_at: float | None = None
        self.intents: dict[str, tuple[int, ...]] = {}
        self.moves: list[MoveEvent] = []

    # -- public -------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.table.position

    def feed(self, snapshot: Snapshot) -> list[TrackerEvent]:
        """Process one debounced snapshot; return the events it causes, in order."""
        events: list[TrackerEvent] = []
        self._observed = snapshot.occupied
        seen = self._observe(snapshot)
        target = next_state(self.state, seen.observation)
        self._HANDLERS[seen.observation](self, seen, snapshot.timestamp, events)
        self.state = target
        self._emit_intents(snapshot.timestamp, events)
        return events

    def tick(self, now: float) -> list[TrackerEvent]:
        """Let time pass without a change: hold timeouts and the brief move confirmation."""
        events: list[TrackerEvent] = []
        progress = self._progress
        if (self.state is State.MOVING and progress.lifted_since is not None
                and now - progress.lifted_since >= self.hold_timeout):
            self._flag(State.DISTURBED, now, "pieces lifted and kept off the board", events)
            self.state = next_state(self.state, Observation.HELD_TOO_LONG)
        self._emit_intents(now, events)
        return events

    def reset(self, position: Position, *, check_start: bool = True) -> None:
        """Start again from ``position`` (a new game, or a resumed one)."""
        self._history.clear()
        self._set_position(position)
        self.state = State.SETUP if check_start else State.READY
        self._progress = _MoveInProgress()
        self._slide = None
        self._ambiguous = []
        self._chosen = None
        self._last_move = ()

    # -- classification -------------------------------------------------------------------

    def _set_position(self, position: Position) -> None:
        self.table = self._tables.of(position)

    def _observe(self, snapshot: Snapshot) -> Seen:
        """Classify a snapshot against the position and the move in progress."""
        occupied = snapshot.occupied
        table = self.table
        expected = table.occupancy
        if self.state is State.GAME_OVER:
            amended = self._amendment(occupied)
            if amended is not None:
                return Seen(self._amends(amended), shape=amended)
            if self._can_take_back(occupied):
                return Seen(Observation.TAKES_BACK)
            return Seen(Observation.MATCHES if occupied == expected else Observation.OTHER)
        if occupied == expected:
            return Seen(Observation.MATCHES)
        if self.state in (State.SETUP, State.ILLEGAL, State.DISTURBED):
            return Seen(Observation.OTHER)
        if self.state is State.AMBIGUOUS:
            return Seen(self._observe_ambiguous(occupied))

        self._track_progress(occupied, snapshot.timestamp)
        completed = table.by_occupancy.get(occupied)
        if completed:
            completed = [shape for shape in completed if not self._hand_went_elsewhere(shape)]
        if completed:
            candidates = self._order_consistent(completed)
            if len(candidates) == 1:
                if self._table_of(candidates[0].after).is_game_over:
                    return Seen(Observation.ENDS_GAME, shape=candidates[0])
                return Seen(Observation.COMPLETES_MOVE, shape=candidates[0])
            return Seen(Observation.COMPLETES_AMBIGUOUS, candidates=tuple(candidates or completed))

        amended = self._amendment(occupied)
        if amended is not None:
            return Seen(self._amends(amended), shape=amended)
        if self._can_take_back(occupied):
            return Seen(Observation.TAKES_BACK)

        removed = expected & ~occupied
        added = occupied & ~expected
        if self._slide is not None and not self._slide_still_open(removed, added):
            self._slide = None
        consistent = table.consistent(removed, added)
        if consistent:
            self._progress.lifted_since = None
            return Seen(Observation.IN_PROGRESS, candidates=tuple(consistent))
        if self._slide is not None:
            # The last mover's piece is in the air or sliding: nobody else has acted yet.
            return Seen(Observation.IN_PROGRESS)
        earlier = self._move_seen_with_the_next(occupied) if added else None
        if earlier is not None:
            return Seen(Observation.MOVE_THEN_MORE, shape=earlier)
        if added:
            one_piece_moved = _single(removed) and _single(added)
            if one_piece_moved and self.mode is not Mode.FREE:
                return Seen(Observation.WRONG_PLACEMENT, removed=removed, added=added)
            return Seen(Observation.UNEXPLAINED, removed=removed, added=added)
        if self._progress.lifted_since is None:
            self._progress.lifted_since = snapshot.timestamp
        return Seen(Observation.LIFTED)

    def _move_seen_with_the_next(self, occupied: int) -> MoveShape | None:
        """The one legal move after which this board is the next move in progress or done.

        Fast play (or a snapshot lost on a serial line) can hide the moment a move was
        complete; the board then shows that move plus the start of the reply. Only when
        exactly one legal move explains it is that move taken as played, and only when its
        own squares show it done: its piece down on its end, its start and the pieces it
        took off empty."""
        found = None
        for shape in self.table.shapes:
            if not occupied & shape.end_bit or occupied & (shape.may_empty & ~shape.end_bit):
                continue
            after = self._table_of(shape.after)
            removed = after.occupancy & ~occupied
            added = occupied & ~after.occupancy
            if after.by_occupancy.get(occupied) or after.consistent(removed, added):
                if found is not None:
                    return None
                found = shape
        return found

    def _track_progress(self, occupied: int, now: float) -> None:
        """Remember the order of placements and removals since the position last matched."""
        progress = self._progress
        if progress.started_at is None:
            progress.started_at = now
        previous = self._previous_occupied
        newly_filled = occupied & ~previous
        newly_emptied = previous & ~occupied
        for square in squares_from_mask(newly_filled):
            progress.placements.append(square)
        seen = {square for square, _ in progress.removals}
        for square in squares_from_mask(newly_emptied & self.table.occupancy):
            if square not in seen:
                progress.removals.append((square, occupied))
        self._previous_occupied = occupied

    def _hand_went_elsewhere(self, shape: MoveShape) -> bool:
        """Whether the piece was put down on squares off this move's way, all of them on
        the way of another legal move from the same start: the board then shows a shorter
        capture half-way through a longer one (a column kept its place, a piece not yet
        taken off), and the longer one is still being made."""
        shown = mask_from_squares(self._progress.placements) & ~shape.start_bit
        if not shown & ~shape.passage:
            return False
        return any(not shown & ~other.passage
                   for other in self.table.by_start.get(shape.move.start, ())
                   if other is not shape)

    def _order_consistent(self, candidates: list[MoveShape]) -> list[MoveShape]:
        """Keep the candidates whose landing order fits the placements seen (the lesson on
        captures asks that a capture be shown square by square). Squares landed on by some
        candidate but not by another tell them apart; placements elsewhere (a slide) are
        ignored."""
        if len(candidates) == 1:
            return candidates
        landing_squares = set()
        for shape in candidates:
            landing_squares.update(shape.landings)
        shown = [s for s in self._progress.placements if s in landing_squares]
        fitting = []
        for shape in candidates:
            order = iter(shape.landings)
            if all(any(square == landing for landing in order) for square in
                   _dedupe_consecutive(shown)):
                fitting.append(shape)
        return fitting

    def _observe_ambiguous(self, occupied: int) -> Observation:
        """While candidates blink, a piece put down on the first landing square that only
        one candidate uses picks it; the move is recorded when the board is back."""
        common = self._ambiguous[0].after_occupancy
        previous = self._previous_occupied
        newly_filled = occupied & ~previous
        self._previous_occupied = occupied
        for shape in self._ambiguous:
            if newly_filled & mask_from_squares(self._signature(shape)):
                self._chosen = shape
        if occupied == common and self._chosen is not None:
            return Observation.RESOLVES
        return Observation.OTHER

    def _signature(self, shape: MoveShape) -> tuple[int, ...]:
        """The landing squares that tell ``shape`` apart from the other candidates: the
        first landing where its path leaves every other candidate's."""
        others = [other for other in self._ambiguous if other is not shape]
        for index, square in enumerate(shape.landings[:-1]):
            if all(index >= len(o.landings) - 1 or o.landings[index] != square
                   for o in others):
                return (square,)
        return ()

    def _amends(self, shape: MoveShape) -> Observation:
        if self._table_of(shape.after).is_game_over:
            return Observation.AMENDS_TO_END
        return Observation.AMENDS_MOVE

    def _amendment(self, occupied: int) -> MoveShape | None:
        """The last move's piece slid on along its line before anyone else acted: a king
        passing the squares of a quiet move, or (column games, where a jumped column keeps
        its place) the landing squares of the same capture."""
        slide = self._slide
        if slide is None or not self._history:
            return None
        for shape in self._slide_family():
            if shape is not slide and shape.after_occupancy == occupied:
                return shape
        return None

    def _slide_family(self) -> list[MoveShape]:
        """Moves of the previous position with the last move's start and captures."""
        slide = self._slide
        before, _ = self._history[-1]
        return [shape for shape in self._table_of(before).by_start.get(slide.move.start, ())
                if shape.move.captures == slide.move.captures]

    def _slide_still_open(self, removed: int, added: int) -> bool:
        slide = self._slide
        assert slide is not None
        if removed & ~slide.end_bit:
            return False
        line = 0
        for shape in self._slide_family():
            line |= shape.passage
        return not added & ~line

    def _can_take_back(self, occupied: int) -> bool:
        if self.mode is Mode.TOURNAMENT or not self._history:
            return False
        before, _ = self._history[-1]
        return occupied == self._table_of(before).occupancy

    def _table_of(self, position: Position) -> MoveTable:
        return self._tables.of(position)

    # -- actions ------------------------------------------------------------------------------

    # One handler per observation; ``_HANDLERS`` (after the class) maps them.

    def _on_completed(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._play(seen.shape, now, events)

    def _on_resolved(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        chosen = self._chosen
        self._ambiguous, self._chosen = [], None
        self._play(chosen, now, events, extra_notes=("ambiguous capture resolved by touch",))

    def _on_ambiguous(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._ambiguous = list(seen.candidates)
        self._chosen = None
        self._previous_occupied = seen.candidates[0].after_occupancy

    def _on_move_then_more(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        note = ("move seen complete only with the next one begun",)
        self._play(seen.shape, now, events, extra_notes=note)
        self._slide = None
        follow = self._observe(Snapshot(self._observed, now))
        if follow.observation in (Observation.COMPLETES_MOVE, Observation.ENDS_GAME):
            self._play(follow.shape, now, events, extra_notes=note)

    def _on_amended(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._amend(seen.shape, now, events)

    def _on_taken_back(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._take_back(now, events)

    def _on_wrong_placement(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._flag(State.ILLEGAL, now, self._describe_illegal(seen.removed, seen.added), events)

    def _on_unexplained(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._flag(State.DISTURBED, now, "position disturbed", events)

    def _on_matches(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        if not self._loop_capture_under_way():
            self._clear_progress()

    def _on_touched(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._note_touch()

    def _on_nothing(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        """Nothing to do but change state (if the table says so)."""

    _HANDLERS = {
        Observation.MATCHES: _on_matches,
        Observation.COMPLETES_MOVE: _on_completed,
        Observation.ENDS_GAME: _on_completed,
        Observation.COMPLETES_AMBIGUOUS: _on_ambiguous,
        Observation.AMENDS_MOVE: _on_amended,
        Observation.AMENDS_TO_END: _on_amended,
        Observation.MOVE_THEN_MORE: _on_move_then_more,
        Observation.TAKES_BACK: _on_taken_back,
        Observation.IN_PROGRESS: _on_touched,
        Observation.LIFTED: _on_touched,
        Observation.WRONG_PLACEMENT: _on_wrong_placement,
        Observation.UNEXPLAINED: _on_unexplained,
        Observation.HELD_TOO_LONG: _on_nothing,  # flagged by `tick`, never by a snapshot
        Observation.RESOLVES: _on_resolved,
        Observation.OTHER: _on_nothing,
    }

    def _play(self, shape: MoveShape, now: float, events: list[TrackerEvent],
              extra_notes: tuple[str, ...] = (), replaces: str | None = None) -> None:
        notes = self._procedure_notes(shape) + extra_notes
        before = self.position
        self._history.append((before, shape))
        self._set_position(shape.after)
        event = MoveEvent(now, "move", shape.notation, shape.move.path, shape.move.captures,
                          notes, shape.after, replaces)
        self.moves.append(event)
        events.append(event)
        self._slide = shape
        self._last_move = (shape.move.start, shape.move.end)
        self._last_move_at = now
        self._clear_progress()
        if self.table.is_game_over:
            events.append(GameOverEvent(now, "game_over", shape.after.white_to_move))

    def _amend(self, shape: MoveShape, now: float, events: list[TrackerEvent]) -> None:
        before, replaced = self._history.pop()
        self.moves.pop()
        self._set_position(before)
        self._play(shape, now, events, replaces=replaced.notation)

    def _take_back(self, now: float, events: list[TrackerEvent]) -> None:
        before, shape = self._history.pop()
        if self.moves:
            self.moves.pop()
        self._set_position(before)
        self._slide = None
        self._last_move = ()
        self._clear_progress()
        events.append(TakebackEvent(now, "takeback", shape.notation, before))

    def _flag(self, state: State, now: float, description: str,
              events: list[TrackerEvent]) -> None:
        occupied = self._observed if self._observed is not None else self.table.occupancy
        squares = tuple(squares_from_mask(occupied ^ self.table.occupancy))
        kind = "illegal" if state is State.ILLEGAL else "disturbed"
        events.append(FlagEvent(now, kind, description, squares))
        self._slide = None
        self._clear_progress()

    def _loop_capture_under_way(self) -> bool:
        """The board looks untouched, but a capture that ends on its own start square was
        just shown landing by landing (its prisoners are still on the board): keep the
        landings seen, they tell that capture from the same loop the other way round."""
        placements = self._progress.placements
        if self.state is not State.MOVING or not placements:
            return False
        shown = mask_from_squares(placements)
        return any(shape.start_bit == shape.end_bit and not shown & ~shape.passage
                   for shape in self.table.shapes)

    def _clear_progress(self) -> None:
        self._progress = _MoveInProgress()
        self._previous_occupied = self.table.occupancy

    def _note_touch(self) -> None:
        table = self.table
        if not table.capture_required:
            return
        removed = table.occupancy & ~(self._observed or 0)
        own_lifted = removed & table.own_occupancy
        if own_lifted and not own_lifted & table.starts:
            self._progress.touched_non_capturing = True

    def _describe_illegal(self, removed: int, added: int) -> str:
        variant = self.position.variant
        start = squares_from_mask(removed)[0]
        end = squares_from_mask(added)[0]
        text = f"{format_square(variant, start)}-{format_square(variant, end)}"
        if self.table.capture_required:
            return f"illegal move {text}: a capture is required"
        return f"illegal move {text}"

    def _procedure_notes(self, shape: MoveShape) -> tuple[str, ...]:
        """Irregularities of procedure (the move still counts; the log keeps them)."""
        if not shape.emptied:
            return ()
        removals = [(square, occ) for square, occ in self._progress.removals
                    if square in shape.emptied]
        notes = []
        order = [square for square, _ in removals]
        expected = [square for square in shape.emptied if square in order]
        if order != expected:
            notes.append("captured pieces removed out of the order taken")
        end_bit = shape.end_bit
        if any(not occ & end_bit for _, occ in removals):
            notes.append("captured pieces removed before the capturing piece was put down")
        return tuple(notes)

    # -- LED intents -------------------------------------------------------------------------

    def _emit_intents(self, now: float, events: list[TrackerEvent]) -> None:
        intents = self._intents(now)
        if intents != self.intents:
            self.intents = intents
            events.append(LedEvent(now, "leds", dict(intents)))

    def _intents(self, now: float) -> dict[str, tuple[int, ...]]:
        table = self.table
        occupied = self._observed if self._observed is not None else table.occupancy
        out: dict[str, tuple[int, ...]] = {}
        differ = tuple(squares_from_mask(occupied ^ table.occupancy))
        state = self.state
        if state in (State.SETUP, State.DISTURBED):
            if differ:
                out["restore"] = differ
        elif state is State.ILLEGAL:
            added = occupied & ~table.occupancy
            out["illegal"] = tuple(squares_from_mask(added)) or differ
            out["restore"] = differ
        elif state is State.AMBIGUOUS:
            squares = []
            for shape in self._ambiguous:
                squares.extend(self._signature(shape))
            out["ambiguous"] = tuple(sorted(set(squares)))
        elif state is State.GAME_OVER or table.is_game_over:
            out["game_over"] = tuple(squares_from_mask(table.occupancy))
        capture_starts = tuple(sorted(s.move.start for s in table.shapes if s.move.captures))
        if state in (State.READY, State.MOVING) and table.capture_required:
            if self.mode is Mode.TRAINING or self._progress.touched_non_capturing:
                out["must_capture"] = tuple(sorted(set(capture_starts)))
        if state is State.MOVING and self.mode is Mode.TRAINING:
            self._hints(occupied, out)
        if (self._last_move and self._last_move_at is not None
                and now - self._last_move_at < self.confirm_time and state is State.READY):
            out["last_move"] = self._last_move
        return out

    def _hints(self, occupied: int, out: dict[str, tuple[int, ...]]) -> None:
        """Training: where the lifted piece may go; for a capture, the next landing."""
        table = self.table
        removed = table.occupancy & ~occupied
        lifted = [shape for shape in table.shapes if removed & shape.start_bit]
        if not lifted:
            return
        placed = [s for s in self._progress.placements if (occupied >> (s - 1)) & 1]
        if table.capture_required:
            steps = set()
            for shape in lifted:
                landings = shape.landings
                done = 0
                while done < len(landings) and done < len(placed) and \
                        placed[done] == landings[done]:
                    done += 1
                if done < len(landings):
                    steps.add(landings[done])
            out["path"] = tuple(sorted(steps))
        else:
            out["destination"] = tuple(sorted({shape.move.end for shape in lifted}))


def _single(mask: int) -> bool:
    return mask != 0 and mask & (mask - 1) == 0


def _dedupe_consecutive(squares: list[int]) -> list[int]:
    out: list[int] = []
    for square in squares:
        if not out or out[-1] != square:
            out.append(square)
    return out
