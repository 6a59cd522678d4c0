"""The move tracker: debounced occupancy snapshots in, exact moves and LED intents out.

Reed switches say only which squares are occupied. The tracker knows the position (from
the game record, so colours, kings and columns are known) and, once per position, what
every legal move looks like to the switches (`MoveTable`). Each snapshot goes through two
steps. First a *classification* (`_classify`), which changes nothing: the board, read
against the position and the move in progress, is one observation (the board is back as
it was, it shows a completed move, a move is in progress, a piece was put where no move
allows, ...) with its evidence (`Seen`: the move, the candidates, the move in progress
as this snapshot leaves it). Then one *step* (`_take`): the transition table (`states`)
row for the state and the observation names the action and the next state; the step
makes the evidence the tracker's own, takes the action and moves to that state. Nothing
else changes the state (only `reset`, a new game), and time passing (`tick`) is
classified and stepped the same way. The tracker runs to completion per snapshot and
takes time only from the snapshots (and `tick`), so it is exactly testable.

Its promises (docs/user-guide.md): a move is recorded the moment the board shows exactly the
position after one legal move and the order of landings does not contradict it, never on
a guess; anything in between is tolerated as long as it can be part of a legal move;
otherwise the offending squares are flagged. What follows a flag is the game's
irregularity policy (`policy`): under ``restore`` the board waits until it is put back;
under ``fmjd`` the opponent may instead play on, and then the irregular move stands.
Whatever the policy, `accept` and `restart_from` (the arbiter) end any wait.

Against an opponent (`set_opponent`: the side a program plays, its moves carried out on
the board by the person), the opponent's turn is a constraint (`opponent.OpponentTurns`,
which the tracker is given): the board takes only the move the opponent chose
(`expect`), and none while it thinks; anything else is flagged like an illegal move,
with what to put right, and an irregular move never stands (the opponent cannot play on
from it). Its LED intents show the move to carry out. Where takebacks are allowed,
taking the opponent's move back takes back the person's move before it too: the board
then takes nothing until that move is taken back as well (its squares light as
``restore``), so the opponent is not asked again in between.

Time matters in two places, both measured from snapshot times: a piece *rests* on a
square when it stays there `REST_TIME` or longer (slides and brushes are shorter), and
only rests tell capture paths apart; a *touch* that answers a blinking ambiguity is a
contact of at least `TOUCH_TIME`. A move just released may be *amended* (a king slid on
along its line) only within `AMEND_WINDOW` (`slide.SlideWindow`, which the tracker is
given too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..message import Message
from ..mode import Mode
from ..ports import Snapshot, mask_from_squares, squares_from_mask
from ..rules.position import Move, Position
from .ambiguity import START_TOUCH_LIMIT, Ambiguity
from .events import (
    FlagEvent,
    GameOverEvent,
    IrregularMoveEvent,
    LedEvent,
    MoveEvent,
    TakebackEvent,
    TrackerEvent,
)
from .intents import Situation, intents_of
from .irregular import (
    IrregularAction,
    Irregularity,
    explain,
    takeback,
    with_side,
    without,
)
from .move_table import MoveShape, MoveTable, MoveTableCache
from .opponent import OpponentTurns, TurnConstraint
from .pending import PendingIrregularity
from .policy import RESTORE, IrregularityPolicy
from .progress import REST_TIME, MoveInProgress, dedupe_consecutive, followed
from .slide import AMEND_WINDOW, Amendment, SlideWindow
from .states import Action, Observation, State, transition

__all__ = ["AMEND_WINDOW", "ASK_AFTER", "Seen", "Tracker"]

# -- the tracker ----------------------------------------------------------------------------

# REST_TIME (progress): a piece rests on a square when its switch stays closed at least
# this long; a slide or a brush is shorter. Only rests tell capture paths apart, and only a
# contact of TOUCH_TIME (ambiguity) answers a blinking ambiguity (docs/user-guide.md).
# When the end a piece rests on is also a landing of a longer way (or the seen landings fit
# no move yet), the tracker waits this long with the piece at rest before it asks: the
# capture may still be going on.
ASK_AFTER = 1.0

# The observation of a move that leads to READY, and the one when it leaves the side to
# move without a legal move (then GAME_OVER).
_AT_END = {
    Observation.MATCHES: Observation.MATCHES_AT_END,
    Observation.COMPLETES_MOVE: Observation.ENDS_GAME,
    Observation.AMENDS_MOVE: Observation.AMENDS_TO_END,
    Observation.TAKES_BACK: Observation.TAKES_BACK_TO_END,
    Observation.RESOLVES: Observation.RESOLVES_TO_END,
    Observation.PLAYED_ON: Observation.PLAYED_ON_TO_END,
    Observation.PLACED_AND_PLAYED_ON: Observation.PLACED_AND_PLAYED_ON_TO_END,
}


class Seen(NamedTuple):
    """One snapshot (or time passing) classified: what it shows (`Observation`) and the
    evidence the tracker acts on. Which fields are set depends on the observation:
    ``shape`` for a move completed, amended, chosen, played on or seen with the next one
    begun; ``candidates`` for a board that fits several moves; ``action`` (and
    ``alternatives``, other readings of the same board) for an irregular move; ``removed``
    and ``added`` (occupancy masks relative to the position) for an unexplained change.

    What the snapshot changes, the step makes the tracker's own: ``progress`` the move in
    progress as this board leaves it, ``ambiguity`` a blinking ambiguity with the contacts
    noted, ``pending`` a flagged irregular move after this board, ``closes_slide`` the
    last move no longer open to amendment (None/False: unchanged); ``kept`` the readings
    a flag of this board keeps for the opponent's decision (fmjd), installed by the flag.
    (An immutable named tuple: built for every snapshot, it must be cheap.)
    """

    observation: Observation
    shape: MoveShape | None = None
    candidates: tuple[MoveShape, ...] = ()
    removed: int = 0
    added: int = 0
    action: IrregularAction | None = None
    alternatives: tuple[IrregularAction, ...] = ()
    progress: MoveInProgress | None = None
    ambiguity: Ambiguity | None = None
    pending: PendingIrregularity | None = None
    kept: PendingIrregularity | None = None
    closes_slide: bool = False

    @property
    def move(self) -> MoveShape:
        """The move the observation names (only for those that name one)."""
        assert self.shape is not None, self.observation
        return self.shape

    @property
    def irregular(self) -> IrregularAction:
        """The irregular move the observation names (only for a flag)."""
        assert self.action is not None, self.observation
        return self.action


class Tracker:
    """Turns debounced occupancy snapshots into moves and LED intents (see module doc).

    ``turns`` (the opponent constraint, `opponent.TurnConstraint`) and ``amendment`` (the
    slide amendment, `slide.Amendment`, built from the move tables it is given) may be
    given; by default the tracker makes its own."""

    def __init__(self, position: Position, mode: Mode = Mode.TOURNAMENT, *,
                 hold_timeout: float = 3.0, confirm_time: float = 1.0,
                 check_start: bool = True, policy: IrregularityPolicy = RESTORE,
                 turns: TurnConstraint | None = None,
                 amendment: Callable[[TurnConstraint], Amendment] = SlideWindow) -> None:
        self.mode = mode
        self.policy = policy
        self.hold_timeout = hold_timeout
        self.confirm_time = confirm_time
        self._turns: TurnConstraint = turns if turns is not None \
            else OpponentTurns(MoveTableCache())
        self._slides: Amendment = amendment(self._turns)  # the last move, open to amendment
        # (position before, move): a MoveShape, or an IrregularAction that stood
        self._history: list[tuple[Position, MoveShape | IrregularAction]] = []
        self.table: MoveTable = self._turns.table_of(position)
        self.state = State.SETUP if check_start else State.READY
        self._observed: int | None = self.table.occupancy if not check_start else None
        self._progress = MoveInProgress()
        self._previous_occupied = self.table.occupancy
        self._ambiguity: Ambiguity | None = None
        self._pending: PendingIrregularity | None = None
        self._last_move: tuple[int, ...] = ()
        self._last_move_at: float | None = None
        self.intents: dict[str, tuple[int, ...]] = {}
        self.moves: list[MoveEvent] = []
        self.asks = 0  # ambiguities the players had to resolve

    # -- public -------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.table.position

    @property
    def opponent_is_white(self) -> bool | None:
        """The side an opponent plays (None: people play both sides)."""
        return self._turns.side

    @property
    def is_opponents_turn(self) -> bool:
        """Whether the position has the opponent to move."""
        return self._turns.is_turn(self.position)

    @property
    def expectation(self) -> tuple[Position, Move] | None:
        """The opponent's chosen move and the position it was chosen in, as given to
        `expect` (None: none)."""
        return self._turns.expected

    @property
    def takeback_owed(self) -> Position | None:
        """After the opponent's move was taken back, the position before the person's
        move, which the board must show next (None: nothing owed)."""
        if not self._turns.takeback_owed or not self._history:
            return None
        return self._history[-1][0]

    @property
    def expected_move(self) -> MoveShape | None:
        """The opponent's move to carry out in the current position (None: not the
        opponent's turn, or it has not chosen yet)."""
        return self._turns.expected_shape(self.table)

    def set_opponent(self, white: bool | None) -> None:
        """An opponent plays White (True) or Black (False), or nobody (None): on its turns
        the board takes only the move given to `expect`, none before."""
        self._turns.set_side(white)
        self._set_position(self.position)

    def expect(self, position: Position, move: Move | None,
               now: float | None = None) -> list[TrackerEvent]:
        """The opponent chose ``move`` in ``position`` (its turn); None forgets a choice
        (it thinks again). The LED intents change at once (at ``now``: the events say
        so). `DraughtsError` for a move that is not legal there, or a position that is
        not the opponent's turn."""
        self._turns.expect(position, move)
        self._set_position(self.position)
        events: list[TrackerEvent] = []
        if now is not None:
            self._emit_intents(now, events)
        return events

    @property
    def pending_irregularity(self) -> IrregularAction | None:
        """The irregular move flagged and not yet put back or played on (fmjd)."""
        return self._pending.action if self._pending is not None else None

    def feed(self, snapshot: Snapshot) -> list[TrackerEvent]:
        """Process one debounced snapshot; return the events it causes, in order."""
        events: list[TrackerEvent] = []
        self._observed = snapshot.occupied
        self._step(snapshot.occupied, snapshot.timestamp, events)
        self._emit_intents(snapshot.timestamp, events)
        return events

    def classify(self, snapshot: Snapshot) -> Seen:
        """What ``snapshot`` shows in the tracker's state, with its evidence, changing
        nothing (`feed` takes the table's transition for it)."""
        return self._classify(snapshot.occupied, snapshot.timestamp)

    def tick(self, now: float) -> list[TrackerEvent]:
        """Let time pass without a change: hold timeouts, rests and touches that have
        lasted long enough, the window of amendment, the brief move confirmation."""
        events: list[TrackerEvent] = []
        progress = self._progress
        if (self.state is State.MOVING and progress.lifted_since is not None
                and now - progress.lifted_since >= self.hold_timeout):
            self._take(self._classify_held(), now, events)
        elif (self.state is State.MOVING and self._observed is not None
              and self.table.by_occupancy.get(self._observed)):
            self._step(self._observed, now, events)  # a move waiting for its piece to rest
        elif self.state is State.AMBIGUOUS and self._ambiguity is not None:
            self._ambiguity.note_held(now)  # a contact that has lasted: a touch
            if self._observed == self.table.occupancy:
                self._step(self._observed, now, events)  # back as it was, or a touch
        self._slides.close_if_due(now, self._last_move_at, self._board())
        self._emit_intents(now, events)
        return events

    def reset(self, position: Position, *, check_start: bool = True) -> None:
        """Start again from ``position`` (a new game, or a resumed one); the opponent
        chooses its move again. The one change of state outside the table: a new game."""
        self._history.clear()
        self._turns.reset()
        self._set_position(position)
        self.state = State.SETUP if check_start else State.READY
        self._progress = MoveInProgress()
        self._previous_occupied = self.table.occupancy
        self._slides.close()
        self._ambiguity = None
        self._pending = None
        self._last_move = ()

    # -- the arbiter ------------------------------------------------------------------------

    def board_position(self, white_to_move: bool) -> Position | None:
        """The position the board shows, with ``white_to_move``: the position itself, the
        irregular move's, or one a single piece moved (and pieces taken off) explains;
        None when the switches alone cannot tell (a piece appeared from nowhere: give the
        position as FEN)."""
        occupied = self._board()
        table = self.table
        if occupied == table.occupancy:
            return with_side(table.position, white_to_move)
        pending = self._pending
        if pending is not None and occupied == pending.action.after.occupancy():
            return with_side(pending.action.after, white_to_move)
        removed = table.occupancy & ~occupied
        added = occupied & ~table.occupancy
        if not added:
            return with_side(without(table.position, removed), white_to_move)
        order = self._progress.removal_order()
        action = explain(table, removed, added, order)
        return with_side(action.after, white_to_move) if action is not None else None

    def accept(self, position: Position, now: float) -> list[TrackerEvent]:
        """The arbiter accepts ``position`` as the current position (an arbiter
        correction, or a take-back to an earlier ply): play goes on from it once the board
        shows it; until then the squares that differ light."""
        self.reset(position, check_start=True)
        events: list[TrackerEvent] = []
        if self._observed is not None:
            self._step(self._observed, now, events)
        self._emit_intents(now, events)
        return events

    # -- one step ---------------------------------------------------------------------------

    def _step(self, occupied: int, now: float, events: list[TrackerEvent]) -> None:
        """One board: classify it, then take the table's transition."""
        self._slides.close_if_due(now, self._last_move_at, occupied)
        self._take(self._classify(occupied, now), now, events)

    def _take(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        """The one step that changes the tracker: the table's row for the state and what
        was seen (`UnlistedTransition` when there is none), the evidence made the
        tracker's own, the row's action taken, the row's state entered."""
        row = transition(self.state, seen.observation)
        self._commit(seen)
        self._ACTIONS[row.action](self, seen, now, events)
        self.state = row.target

    def _commit(self, seen: Seen) -> None:
        """What the classification found changed (the move in progress, the contacts
        of an ambiguity, a flagged move's readings, the slide window) becomes the
        tracker's."""
        if seen.progress is not None:
            self._progress = seen.progress
            self._previous_occupied = self._board()
        if seen.ambiguity is not None:
            self._ambiguity = seen.ambiguity
        if seen.pending is not None:
            self._pending = seen.pending
        if seen.closes_slide:
            self._slides.close()

    # -- classification (reads the tracker, changes nothing) -------------------------------

    def _set_position(self, position: Position) -> None:
        self.table = self._table_of(position)

    def _table_of(self, position: Position) -> MoveTable:
        """The move table of ``position`` (on the opponent's turn, limited to its move)."""
        return self._turns.table_of(position)

    def _board(self) -> int:
        """The board last seen (the position's occupancy before any)."""
        return self._observed if self._observed is not None else self.table.occupancy

    def _tracked(self, occupied: int, now: float) -> MoveInProgress:
        """The move in progress with this board remembered (placements with their
        times, removals since the position last matched): a new value."""
        progress = self._progress.copy()
        progress.track(occupied, self._previous_occupied, self.table.occupancy, now)
        return progress

    def _at_end(self, observation: Observation, after: Position) -> Observation:
        """``observation``, or its game-ending twin when ``after`` has no legal move."""
        if self._table_of(after).is_game_over:
            return _AT_END[observation]
        return observation

    def _matches(self) -> Observation:
        """The board matches the position: MATCHES, or MATCHES_AT_END when its side to
        move has no legal move."""
        if self.table.is_game_over:
            return Observation.MATCHES_AT_END
        return Observation.MATCHES

    def _classify_held(self) -> Seen:
        """Time passed with pieces kept off `hold_timeout`: an irregular move seen so
        far only by lifts, or pieces nobody's move explains."""
        readings = self._progress.readings
        if readings:
            return Seen(Observation.HELD_IRREGULAR, action=readings[0],
                        alternatives=readings[1:], kept=self._kept(readings, self._board()))
        return Seen(Observation.HELD_TOO_LONG)

    def _kept(self, readings: tuple[IrregularAction, ...],
              flagged: int) -> PendingIrregularity | None:
        """The readings a flag of the board ``flagged`` keeps for the opponent's decision
        (fmjd, no program playing)."""
        if not self.policy.stands_when_played_on or self._turns.side is not None:
            return None
        return PendingIrregularity(list(readings), self.table, self._table_of, flagged)

    def _wrong_placement(self, readings: tuple[IrregularAction, ...], occupied: int,
                         progress: MoveInProgress | None, closes_slide: bool) -> Seen:
        """A piece put where no legal move allows (``readings``: the ways the board can
        be read, the one named first); under fmjd, the opponent's move may be seen played
        on from it in this very board (its last step showed the move for what it was)."""
        kept = self._kept(readings, occupied)
        if kept is not None:
            shape = kept.observe(occupied, [])
            if shape is not None:
                return Seen(self._at_end(Observation.PLACED_AND_PLAYED_ON, shape.after),
                            shape=shape, action=readings[0], alternatives=readings[1:],
                            progress=progress, kept=kept, closes_slide=closes_slide)
        return Seen(Observation.WRONG_PLACEMENT, action=readings[0],
                    alternatives=readings[1:], progress=progress, kept=kept,
                    closes_slide=closes_slide)

    def _classify(self, occupied: int, now: float) -> Seen:
        """Classify a board against the position and the move in progress."""
        table = self.table
        expected = table.occupancy
        state = self.state
        if state is State.GAME_OVER:
            amended = self._slides.amendment(occupied)
            if amended is not None:
                return Seen(self._at_end(Observation.AMENDS_MOVE, amended.after),
                            shape=amended)
            if self._can_take_back(occupied):
                return Seen(self._takes_back())
            return Seen(Observation.MATCHES if occupied == expected else Observation.OTHER)
        if occupied == expected:
            ambiguity = self._ambiguity
            if (state is State.AMBIGUOUS and ambiguity is not None
                    and ambiguity.start_square is not None):
                # the piece back on its start: a touch if it leaves again soon, else the
                # board is back as it was
                seen = self._classify_ambiguous(ambiguity, occupied, now)
                assert seen.ambiguity is not None
                if seen.ambiguity.held_on_start(now) < START_TOUCH_LIMIT:
                    return seen
                return Seen(self._matches(), progress=seen.progress,
                            ambiguity=seen.ambiguity)
            if state is State.MOVING:
                progress = self._tracked(occupied, now)
                loop = self._loop_shown(progress, now)
                if loop is not None:
                    return loop
                return Seen(self._matches(), progress=progress)
            return Seen(self._matches())
        if state in (State.SETUP, State.DISTURBED):
            return Seen(Observation.OTHER)
        if state is State.ILLEGAL:
            return self._classify_flagged(occupied)
        if state is State.AMBIGUOUS:
            assert self._ambiguity is not None  # set with the state
            return self._classify_ambiguous(self._ambiguity, occupied, now)
        return self._classify_playing(occupied, now)

    def _classify_playing(self, occupied: int, now: float) -> Seen:
        """READY or MOVING, the board not the position: what the hands are doing."""
        table = self.table
        expected = table.occupancy
        progress = self._tracked(occupied, now)
        completed = table.by_occupancy.get(occupied)
        if completed:
            lifted = progress.lifted_at
            completed = [shape for shape in completed
                         if not self._hand_went_elsewhere(shape, progress, now)
                         # a capture that ends where it started: its piece was lifted
                         and (shape.start_bit != shape.end_bit or shape.move.start in lifted)]
        if completed:
            done = self._completion(completed, progress, now)
            if done is not None:
                return done

        amended = self._slides.amendment(occupied)
        if amended is not None:
            return Seen(self._at_end(Observation.AMENDS_MOVE, amended.after),
                        shape=amended, progress=progress)
        if self._can_take_back(occupied):
            return Seen(self._takes_back(), progress=progress)
        if self._history and self.mode is Mode.TOURNAMENT and occupied == \
                self._table_of(self._history[-1][0]).occupancy:
            before, last = self._history[-1]
            return self._wrong_placement((takeback(before, last.notation),), occupied,
                                         progress, False)

        removed = expected & ~occupied
        added = occupied & ~expected
        slide_open = self._slides.is_open
        closes_slide = slide_open and not self._slides.still_open(removed, added)
        slide_open = slide_open and not closes_slide
        consistent = table.consistent(removed, added)
        if consistent or completed:
            progress.lifted_since = None
            progress.settle(occupied)
            return Seen(Observation.IN_PROGRESS, candidates=tuple(consistent),
                        progress=progress, closes_slide=closes_slide)
        if slide_open:
            # The last mover's piece is in the air or sliding: nobody else has acted yet.
            progress.settle(occupied)
            return Seen(Observation.IN_PROGRESS, progress=progress)
        if self._takeback_under_way(removed, added):
            if progress.lifted_since is None:
                progress.lifted_since = now
            return Seen(Observation.IN_PROGRESS, progress=progress,
                        closes_slide=closes_slide)
        # (nothing put down where the position had no piece: only two complete moves,
        # the reply taking the piece the first put down, can show that)
        earlier = self._move_seen_with_the_next(occupied, progress, complete_only=not added)
        if earlier is not None:
            return Seen(Observation.MOVE_THEN_MORE, shape=earlier, progress=progress,
                        closes_slide=closes_slide)
        if self.mode is not Mode.FREE or table.limited:
            # Two readings may fit the same board: one action of the mover (a piece moved,
            # pieces taken off), or his move left unfinished and the opponent's reply
            # begun. Both are kept; the opponent's playing on tells which it was.
            readings: list[IrregularAction] = []
            if added:
                direct = explain(table, removed, added, progress.removal_order())
                if direct is not None:
                    readings.append(direct)
            unfinished = self._unfinished(occupied, progress)
            if unfinished is not None:
                readings.insert(0, unfinished)
            if readings:
                if progress.last_filled:
                    return self._wrong_placement(tuple(readings), occupied, progress,
                                                 closes_slide)
                # Only lifted so far: a piece may yet be put back (a hand adjusting, an
                # unrelated piece lifted). Flagged when a piece is put down, or when
                # the lift lasts `hold_timeout`.
                progress.readings = tuple(readings)
                progress.settle(occupied)  # the opponent may play on from it
                if progress.lifted_since is None:
                    progress.lifted_since = now
                return Seen(Observation.LIFTED, progress=progress, closes_slide=closes_slide)
        if added:
            return Seen(Observation.UNEXPLAINED, removed=removed, added=added,
                        progress=progress, closes_slide=closes_slide)
        if progress.lifted_since is None:
            progress.lifted_since = now
        return Seen(Observation.LIFTED, progress=progress, closes_slide=closes_slide)

    def _completion(self, completed: list[MoveShape], progress: MoveInProgress,
                    now: float) -> Seen | None:
        """The board shows the position after one or more legal moves: which one, once
        the seen landings decide (with ``progress``, the move in progress as it leaves
        it); None while the capture may still be going on."""
        candidates = self._order_consistent(completed, progress, now)
        if (len(candidates) == 1 and self._other_fully_shown(candidates[0], progress, now)
                and progress.rest_at(candidates[0].move.end, now) < ASK_AFTER):
            return None  # another capture was shown landing by landing: the board is on
            # its way to it (its prisoners still being taken off), for a while
        if len(candidates) == 1:
            shape = candidates[0]
            if shape.move.captures and progress.last_filled & shape.end_bit:
                # a capture that the piece's arrival completes is done when the piece
                # rests there, not when it slides over it; and if another way goes on
                # from the landings seen so far, when it has rested long enough not to
                occupancy, start = self.table.occupancy, shape.move.start
                seen = tuple(dedupe_consecutive([
                    s for s in progress.rests(now)
                    if s == start or not occupancy >> (s - 1) & 1]))
                longer = any(len(other.landings) > len(seen)
                             and other.landings[:len(seen)] == seen
                             for other in self.table.by_start.get(start, ()))
                if progress.rest_at(shape.move.end, now) < (ASK_AFTER if longer
                                                           else REST_TIME):
                    return None
            return Seen(self._at_end(Observation.COMPLETES_MOVE, shape.after), shape=shape,
                        progress=progress)
        end = completed[0].move.end
        goes_on = not candidates or any(end in shape.landings[:-1] for shape in completed)
        if progress.rest_at(end, now) < (ASK_AFTER if goes_on else REST_TIME):
            return None  # not at rest yet; or the piece may go on (the end is a landing
            # of a longer way, or the landings seen fit none yet)
        return Seen(Observation.COMPLETES_AMBIGUOUS, candidates=tuple(candidates or completed),
                    progress=progress)

    def _other_fully_shown(self, shape: MoveShape, progress: MoveInProgress,
                           now: float) -> bool:
        """Whether another capture from the same start, and not ``shape``, had every
        landing shown in order."""
        if not shape.move.captures:
            return False
        occupancy, start = self.table.occupancy, shape.move.start
        seen = [s for s in progress.rests(now)
                if s == start or not occupancy >> (s - 1) & 1]

        def shown(other: MoveShape) -> bool:
            return followed(other.landings, [s for s in seen if s in other.landings]) == \
                len(other.landings)

        return not shown(shape) and any(
            other is not shape and other.move.captures and shown(other)
            for other in self.table.by_start.get(start, ()))

    def _loop_shown(self, progress: MoveInProgress, now: float) -> Seen | None:
        """A capture that ends where it started and empties no square (every column it
        jumps keeps a piece) leaves the occupancy as it was: it is seen only by its
        landings. Played when the piece has rested on each of them, in order, and rests
        back on its start; waiting (in progress) while it may still come to rest. (The
        Seen carries ``progress``.)"""
        loops = [shape for shape in self.table.by_occupancy.get(self.table.occupancy, ())
                 if shape.start_bit == shape.end_bit]
        if not loops or not progress.placements:
            return None
        rests = progress.rests(now)
        if not rests or rests[-1] != loops[0].move.end:
            return None
        shown = [shape for shape in loops
                 if followed(shape.landings, [s for s in rests if s in shape.landings])
                 == len(shape.landings)]
        if len(shown) != 1:
            return None
        if progress.rest_at(shown[0].move.end, now) < REST_TIME:
            return Seen(Observation.IN_PROGRESS, progress=progress)
        return Seen(self._at_end(Observation.COMPLETES_MOVE, shown[0].after), shape=shown[0],
                    progress=progress)

    def _classify_flagged(self, occupied: int) -> Seen:
        """After a flag: under fmjd, the opponent playing on from the irregular position
        makes it stand, and a legal move from the position itself corrects it; anything
        else waits for the restore (or the arbiter)."""
        if self._pending is None:
            return Seen(Observation.OTHER)
        pending = self._pending.copy()
        shape = pending.observe(occupied, self._progress.removal_order())
        if shape is not None:
            return Seen(self._at_end(Observation.PLAYED_ON, shape.after), shape=shape,
                        pending=pending)
        shape = pending.corrected(occupied)
        if shape is not None:
            return Seen(self._at_end(Observation.COMPLETES_MOVE, shape.after), shape=shape,
                        pending=pending)
        return Seen(Observation.OTHER, pending=pending)

    def _unfinished(self, occupied: int, progress: MoveInProgress) -> IrregularAction | None:
        """A move left unfinished, and the opponent playing on from it: the last legal
        in-between board showed the moving piece down (a multiple capture stopped, or
        captured pieces left on the board) and the change since is the reply from the
        position that left. Seen only then: until the opponent acts, the move may still
        be finished."""
        table = self.table
        order = progress.removal_order()
        # the newest legal in-between boards first: the opponent's first lift may itself
        # have looked like part of the move (a piece it could still take)
        for settled in reversed(progress.settled_boards):
            if settled == occupied:
                continue
            action = explain(table, table.occupancy & ~settled, settled & ~table.occupancy,
                             order)
            if action is None:
                continue
            after = self._table_of(action.after)
            removed = after.occupancy & ~occupied
            added = occupied & ~after.occupancy
            if after.by_occupancy.get(occupied) or after.consistent(removed, added):
                return action
        return None

    def _move_seen_with_the_next(self, occupied: int, progress: MoveInProgress, *,
                                 complete_only: bool = False) -> MoveShape | None:
        """The one legal move after which this board is the next move in progress or done.

        Fast play (or a snapshot lost on a serial line) can hide the moment a move was
        complete; the board then shows that move plus the start of the reply. Only when
        exactly one legal move explains it is that move taken as played, and only when its
        own squares show it done: its piece down on its end, its start and the pieces it
        took off empty. When only lifts follow it (no reply seen begun), it is taken only
        if no other plies explain the board (`_other_plies_show`)."""
        found = None
        lifts_only = False  # ``found`` is seen done only with pieces lifted after it
        lifted_at = progress.lifted_at
        placed: dict[int, float] = {}  # square: when a piece was last put down there
        for placement in progress.placements:
            placed[placement.square] = placement.at
        for shape in self.table.shapes:
            after = self._table_of(shape.after)
            # this move's own squares show it done, its piece down on its end; or its
            # piece was seen put down there, after it had left its start, and the reply,
            # complete, took it (the board is exactly the two moves). A piece put down
            # there while the start was still full came from elsewhere: a column game's
            # capture may leave the same board as a man of the side not on turn moved
            start_left = lifted_at.get(shape.move.start)
            took_it = (shape.move.end in placed and start_left is not None
                       and start_left <= placed[shape.move.end] and any(
                shape.move.end in reply.move.captures
                for reply in after.by_occupancy.get(occupied, ())))
            if complete_only and not took_it:
                continue
            # a square this move empties may be full again only if it was seen empty
            # during it: the reply's piece has landed there (checked below: the reply
            # in progress or done must explain it)
            refilled = occupied & shape.may_empty & ~shape.end_bit
            if not took_it and (not occupied & shape.end_bit or any(
                    square not in lifted_at for square in squares_from_mask(refilled))):
                continue
            removed = after.occupancy & ~occupied
            added = occupied & ~after.occupancy
            done_at = max((lifted_at[s] for s in (shape.move.start, *shape.emptied)
                           if s in lifted_at), default=None)
            if done_at is not None and any(lifted_at[s] < done_at
                                           for s in squares_from_mask(removed)
                                           if s in lifted_at):
                continue  # the "reply" began before this move was done: not what happened
            # the next player's move begun, or any piece just lifted (a hand adjusting)
            if after.by_occupancy.get(occupied) or after.consistent(removed, added):
                if found is not None:
                    return None
                found = shape
            elif removed and not added:
                if found is not None:
                    return None
                found = shape
                lifts_only = True
        if found is not None and lifts_only and self._other_plies_show(found, occupied):
            return None  # the lifts prove nothing: other moves leave the same board
        return found

    def _other_plies_show(self, shape: MoveShape, occupied: int) -> bool:
        """Whether up to three plies that do not begin with ``shape`` (another move, the
        reply, a recapture), with pieces lifted after them, also leave this board: then
        ``shape`` followed by lifts is one reading among others, not proven. (Snapshots
        lost on a line can hide a move, its reply taking the piece it put down and the
        recapture landing where ``shape`` would have ended.)"""

        for first in self.table.shapes:
            if first is shape:
                continue
            # squares full on the board and empty after the plies so far: each ply
            # still to come fills one (its end); the rest of the board is pieces lifted
            missing = occupied & ~first.after_occupancy
            if not missing:
                return True
            if missing.bit_count() > 2:
                continue
            for reply in self._table_of(first.after).shapes:
                missing = occupied & ~reply.after_occupancy
                if not missing:
                    return True
                if missing & (missing - 1):
                    continue
                if any(not occupied & ~third.after_occupancy
                       for third in MoveTable(reply.after).shapes if third.end_bit == missing):
                    return True
        return False

    def _hand_went_elsewhere(self, shape: MoveShape, progress: MoveInProgress,
                             now: float) -> bool:
        """Whether the piece rested on squares this move does not land on, all of them
        landings of another legal move from the same start: the board then shows a
        shorter (or other) capture half-way through that one (a column kept its place, a
        piece not yet taken off), and that one is still being made. (A rest on a square
        the move only passes over is not this move: a slide is shorter than a rest.)"""
        occupied = self.table.occupancy
        shown = mask_from_squares(progress.rests(now)) & ~shape.start_bit & ~occupied
        if not shown & ~shape.landing_mask:
            return False
        return any(not shown & ~other.landing_mask
                   for other in self.table.by_start.get(shape.move.start, ())
                   if other is not shape)

    @staticmethod
    def _order_consistent(candidates: list[MoveShape], progress: MoveInProgress,
                          now: float) -> list[MoveShape]:
        """Keep the candidates whose landing order fits the rests seen (the lesson on
        captures asks that a capture be shown square by square). Squares landed on by some
        candidate but not by another tell them apart; rests elsewhere are ignored."""
        if len(candidates) == 1:
            return candidates
        landing_squares: set[int] = set()
        for shape in candidates:
            landing_squares.update(shape.landings)
        shown = dedupe_consecutive([s for s in progress.rests(now) if s in landing_squares])
        fitting = []
        for shape in candidates:
            order = iter(shape.landings)
            if all(any(square == landing for landing in order) for square in shown):
                fitting.append(shape)
        return fitting

    def _classify_ambiguous(self, ambiguity: Ambiguity, occupied: int, now: float) -> Seen:
        """While candidates blink, a touch on a square that only one candidate lands on
        picks it (`Ambiguity`); the move is recorded when the board is back."""
        changed = occupied ^ self._previous_occupied
        progress = self._tracked(occupied, now)
        ambiguity = ambiguity.copy()
        if ambiguity.observe(changed, occupied, now):
            chosen = ambiguity.chosen
            assert chosen is not None
            return Seen(self._at_end(Observation.RESOLVES, chosen.after), shape=chosen,
                        progress=progress, ambiguity=ambiguity)
        if occupied == ambiguity.common:
            # the capture shown on after the blinking began: its landings may decide
            fitting = self._order_consistent(ambiguity.candidates, progress, now)
            if len(fitting) == 1:
                ambiguity.chosen = fitting[0]
                return Seen(self._at_end(Observation.RESOLVES, fitting[0].after),
                            shape=fitting[0], progress=progress, ambiguity=ambiguity)
        return Seen(Observation.OTHER, progress=progress, ambiguity=ambiguity)

    def _can_take_back(self, occupied: int) -> bool:
        if self.mode is Mode.TOURNAMENT or not self._history:
            return False
        before, _ = self._history[-1]
        return occupied == self._table_of(before).occupancy

    def _takes_back(self) -> Observation:
        return self._at_end(Observation.TAKES_BACK, self._history[-1][0])

    def _takeback_under_way(self, removed: int, added: int) -> bool:
        """The last move being put back, piece by piece, in any order: its piece lifted
        from its end, its start and the squares it emptied filled again."""
        if not self._history or not (removed or added):
            return False
        last = self._history[-1][1]
        if not isinstance(last, MoveShape):
            return False
        return not removed & ~last.end_bit and not added & ~last.may_empty

    # -- actions (one per `Action`; ``_ACTIONS`` after them maps them) ---------------------

    def _do_nothing(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        """Nothing to do but change state (if the table says so)."""

    def _clear(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._pending = None
        self._ambiguity = None
        if not self._loop_capture_under_way(now):
            self._clear_progress()

    def _note_touch(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        table = self.table
        if not table.capture_required:
            return
        removed = table.occupancy & ~(self._observed or 0)
        own_lifted = removed & table.own_occupancy
        if own_lifted and not own_lifted & table.starts:
            self._progress.touched_non_capturing = True

    def _play_seen(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._pending = None
        self._play(seen.move, now, events)

    def _play_chosen(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._ambiguity = None
        self._play(seen.move, now, events, extra_notes=("ambiguous capture resolved by touch",))

    def _ask(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._ambiguity = Ambiguity(list(seen.candidates))
        self._previous_occupied = seen.candidates[0].after_occupancy
        self.asks += 1

    def _play_both(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        """The earlier move, then the board read again from the position it left: the
        next move, if it is complete already, is recorded too (its evidence is kept
        either way; the state the table names follows)."""
        self._pending = None
        note = ("move seen complete only with the next one begun",)
        self._play(seen.move, now, events, extra_notes=note)
        self._slides.close()
        follow = self._classify(self._board(), now)
        self._commit(follow)
        if follow.observation in (Observation.COMPLETES_MOVE, Observation.ENDS_GAME):
            self._play(follow.move, now, events, extra_notes=note)

    def _amend(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        before, replaced = self._history.pop()
        self.moves.pop()
        self._set_position(before)
        last_move_at = self._last_move_at
        self._play(seen.move, now, events, replaces=replaced.notation)
        self._last_move_at = last_move_at  # the window runs from the first release

    def _take_back(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        before, shape = self._history.pop()
        if self.moves:
            self.moves.pop()
        # the opponent's move taken back: the person's move before it is owed too
        self._turns.took_back(self._turns.is_turn(before) and bool(self._history))
        self._set_position(before)
        self._slides.close()
        self._last_move = ()
        self._clear_progress()
        events.append(TakebackEvent(now, "takeback", shape.notation, before))

    def _flag_illegal(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        action = seen.irregular
        kind = action.kind
        if kind is Irregularity.TAKEBACK:
            text = f"{action.notation} taken back: takebacks are not allowed in tournament play"
            message = Message.of("log.takeback_refused", move=action.notation)
        elif kind is Irregularity.CAPTURE_REQUIRED:
            text = f"illegal move {action.notation}: a capture is required"
            message = Message.of("log.capture_required", move=action.notation)
        elif self.table.limited:
            text, message = self._not_the_opponents_move(action)
        else:
            text = f"illegal move {action.description}"
            message = Message.of("log.illegal_move", move=action.message)
        if not self.table.limited:
            for other in seen.alternatives:  # the same board read another way
                text += f"; or {other.description}"
                message = Message.of("log.or_reading", flag=message, other=other.message)
        self._flag(State.ILLEGAL, now, text, events,
                   irregularity="" if self.table.limited else kind.name.lower(),
                   message=message)
        self._pending = seen.kept

    def _not_the_opponents_move(self, action: IrregularAction) -> tuple[str, Message]:
        """The flag's text and message when the board shows something else than the
        opponent's move on its turn."""
        expected = self.expected_move
        shown = action.notation
        if expected is None:
            return (f"{shown} played for the opponent before it chose its move",
                    Message.of("log.before_opponent", move=shown))
        return (f"{shown} is not the opponent's move: it plays {expected.notation}",
                Message.of("log.not_opponents", move=shown, expected=expected.notation))

    def _flag_and_stand(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._flag_illegal(seen, now, events)
        self._stand(seen, now, events)

    def _stand(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        pending = self._pending
        assert pending is not None  # the flagged move (kept by the flag)
        self._pending = None
        action = pending.action
        if action.kind is Irregularity.TAKEBACK:
            before, shape = self._history.pop()
            if self.moves:
                self.moves.pop()
            events.append(TakebackEvent(now, "takeback", shape.notation, before,
                                        irregularity=action.kind.comment))
        else:
            self._history.append((self.position, action))
            events.append(IrregularMoveEvent(
                now, "irregular_move", action.notation, action.path, action.removed,
                action.kind.name.lower(), action.kind.comment, action.after))
        self._set_position(action.after)
        self._clear_progress()
        self._play(seen.move, now, events)

    def _flag_disturbed(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._flag(State.DISTURBED, now, "position disturbed", events,
                   message=Message.of("log.disturbed"))

    def _flag_kept_off(self, seen: Seen, now: float, events: list[TrackerEvent]) -> None:
        self._flag(State.DISTURBED, now, "pieces lifted and kept off the board",
                   events, message=Message.of("log.kept_off"))

    _ACTIONS: dict[Action, Callable[[Tracker, Seen, float, list[TrackerEvent]], None]] = {
        Action.NOTHING: _do_nothing,
        Action.CLEAR: _clear,
        Action.NOTE_TOUCH: _note_touch,
        Action.PLAY: _play_seen,
        Action.PLAY_CHOSEN: _play_chosen,
        Action.PLAY_BOTH: _play_both,
        Action.ASK: _ask,
        Action.AMEND: _amend,
        Action.TAKE_BACK: _take_back,
        Action.FLAG_ILLEGAL: _flag_illegal,
        Action.FLAG_AND_STAND: _flag_and_stand,
        Action.STAND: _stand,
        Action.FLAG_DISTURBED: _flag_disturbed,
        Action.FLAG_KEPT_OFF: _flag_kept_off,
    }

    # -- what the actions share ----------------------------------------------------------

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
        self._slides.open(before, shape)
        self._last_move = (shape.move.start, shape.move.end)
        self._last_move_at = now
        self._clear_progress()
        if self.table.is_game_over:
            events.append(GameOverEvent(now, "game_over", shape.after.white_to_move))

    def _flag(self, state: State, now: float, description: str,
              events: list[TrackerEvent], irregularity: str = "", *,
              message: Message) -> None:
        squares = tuple(squares_from_mask(self._board() ^ self.table.occupancy))
        kind = "illegal" if state is State.ILLEGAL else "disturbed"
        events.append(FlagEvent(now, kind, description, squares, irregularity, message))
        self._slides.close()
        self._pending = None
        self._clear_progress()

    def _loop_capture_under_way(self, now: float) -> bool:
        """The board looks untouched, but a capture that comes back to its own start
        square (to end there, or to go on from it) was just shown landing by landing, its
        prisoners still on the board: keep the landings seen, they tell that capture from
        the same loop the other way round, and from a shorter capture that goes on from
        the start the same way. Pieces put back where they stood (an unrelated piece
        lifted and replaced) are not landings."""
        if self.state is not State.MOVING or not self._progress.placements:
            return False
        occupied = self.table.occupancy
        rests = mask_from_squares(self._progress.rests(now))
        return any(shape.move.start in shape.landings and rests & shape.passage
                   and not rests & ~shape.passage & ~occupied
                   for shape in self.table.shapes)

    def _clear_progress(self) -> None:
        self._progress = MoveInProgress()
        self._previous_occupied = self.table.occupancy

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
        confirming = (self._last_move and self._last_move_at is not None
                      and now - self._last_move_at < self.confirm_time)
        ambiguity = self._ambiguity
        owed = self.takeback_owed
        return intents_of(Situation(
            self.state, self.mode, self.table, self._board(),
            self._progress, tuple(sorted(ambiguity.squares())) if ambiguity else (),
            self._last_move if confirming else (), self.table.limited,
            self.expected_move, owed.occupancy() if owed is not None else None), now)


if set(Tracker._ACTIONS) != set(Action):  # pragma: no cover - a row names no method
    raise ImportError("the tracker has no method for some action of its table")
