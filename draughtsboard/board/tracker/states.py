"""The tracker's states, what a snapshot (or time passing) can show, and the one table
between them.

The table is the whole of the tracker's behaviour between snapshots, as h11's state
table is for a connection: each snapshot is classified into one `Observation` (with its
evidence), and the row for the pair (state, observation) names the one `Action` the
tracker takes and the state that follows. Nothing changes the state outside this table
(only `Tracker.reset`, a new game, starts it afresh), and a pair the table does not list
raises `UnlistedTransition`: every pair the classification can return is a row, so the
table printed with ``draughtsboard track --print-table`` is every transition the tracker
can take. Kept apart from the tracker's logic so that it can be read on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class State(Enum):
    """Where the tracker is between two snapshots."""
    SETUP = "setup"  # waiting for the board to match the expected position
    READY = "ready"  # the board matches the position; nobody is moving
    MOVING = "moving"  # in-between states of a move being made
    AMBIGUOUS = "ambiguous"  # the board shows a move the order of actions did not settle
    ILLEGAL = "illegal"  # an illegal move was made: waiting for the restore (or, under the
    # fmjd policy, for the opponent to play on from it)
    DISTURBED = "disturbed"  # a piece fell or was moved by nobody's move: waiting
    GAME_OVER = "game_over"


class Observation(Enum):
    """What one snapshot (or time passing, for the last two) shows, relative to the
    position and the move in progress. A move that leaves the side to move without a
    legal move is its own observation (``..._TO_END``): where the game ends is part of
    what the board shows, not a rule applied after the table."""

    MATCHES = "board matches the position"
    MATCHES_AT_END = "board matches a position whose side to move has no move"
    COMPLETES_MOVE = "board shows the position after one legal move"
    ENDS_GAME = "board shows a move after which the side to move has none"
    COMPLETES_AMBIGUOUS = "board shows the position after several legal moves"
    AMENDS_MOVE = "the last moved piece slid on to another legal square"
    AMENDS_TO_END = "the last moved piece slid on, and that move ends the game"
    MOVE_THEN_MORE = "a legal move completed, then the next one began (seen together)"
    TAKES_BACK = "board is back in the position before the last move"
    TAKES_BACK_TO_END = "board is back before the last move, a position with no move"
    IN_PROGRESS = "in-between state of a legal move"
    LIFTED = "pieces lifted that no legal move starts with"
    WRONG_PLACEMENT = "a piece put where no legal move allows"
    PLACED_AND_PLAYED_ON = "an irregular move and the reply on it, seen together (fmjd)"
    PLACED_AND_PLAYED_ON_TO_END = "an irregular move and a reply on it that ends the game"
    UNEXPLAINED = "a change that no move explains"
    RESOLVES = "a touch picked one of the ambiguous moves"
    RESOLVES_TO_END = "a touch picked an ambiguous move that ends the game"
    PLAYED_ON = "the opponent played on from an irregular move: it stands (fmjd)"
    PLAYED_ON_TO_END = "the opponent played on from an irregular move and ended the game"
    OTHER = "anything else"
    HELD_TOO_LONG = "(time) pieces kept off the board that no legal move explains"
    HELD_IRREGULAR = "(time) an irregular move shown only by lifts, kept so"


class Action(Enum):
    """What the tracker does on a transition (one method of the tracker each)."""

    NOTHING = "nothing (the state may change)"
    CLEAR = "forget the move in progress (unless a capture back to its start is shown)"
    NOTE_TOUCH = "note a touched piece that cannot capture (when one must)"
    PLAY = "record the move"
    PLAY_CHOSEN = "record the move the touch picked"
    PLAY_BOTH = "record the move, then the next one if it is complete already"
    ASK = "blink the squares that tell the moves apart"
    AMEND = "replace the last move by the one slid on to"
    TAKE_BACK = "take the last move back"
    FLAG_ILLEGAL = "flag the irregular move (fmjd: keep its readings)"
    FLAG_AND_STAND = "flag the irregular move, then let it stand and record the reply"
    STAND = "let the irregular move stand, record the reply"
    FLAG_DISTURBED = "flag the squares that differ"
    FLAG_KEPT_OFF = "flag the pieces kept off the board"


@dataclass(frozen=True, slots=True)
class Transition:
    """One row of the table: in ``state``, a snapshot showing ``observation`` makes the
    tracker take ``action`` and go to ``target``."""

    state: State
    observation: Observation
    action: Action
    target: State


class UnlistedTransition(LookupError):
    """A snapshot showed something the table has no row for in the tracker's state: a
    bug in the tracker (the classification returned a pair the table does not know)."""

    def __init__(self, state: State, observation: Observation) -> None:
        super().__init__(f"the tracker's table has no row for {observation.name} "
                         f"in state {state.name}")
        self.state = state
        self.observation = observation


O, A, S = Observation, Action, State

# What any move from the board's position does: the rows of READY and MOVING (the two
# states in which moves are made), and the ways out of a flag or an ambiguity.
_PLAYING: tuple[tuple[Observation, Action, State], ...] = (
    (O.MATCHES, A.CLEAR, S.READY),
    (O.MATCHES_AT_END, A.CLEAR, S.GAME_OVER),
    (O.COMPLETES_MOVE, A.PLAY, S.READY),
    (O.ENDS_GAME, A.PLAY, S.GAME_OVER),
    (O.COMPLETES_AMBIGUOUS, A.ASK, S.AMBIGUOUS),
    (O.AMENDS_MOVE, A.AMEND, S.READY),
    (O.AMENDS_TO_END, A.AMEND, S.GAME_OVER),
    (O.MOVE_THEN_MORE, A.PLAY_BOTH, S.MOVING),
    (O.TAKES_BACK, A.TAKE_BACK, S.READY),
    (O.TAKES_BACK_TO_END, A.TAKE_BACK, S.GAME_OVER),
    (O.IN_PROGRESS, A.NOTE_TOUCH, S.MOVING),
    (O.LIFTED, A.NOTE_TOUCH, S.MOVING),
    (O.WRONG_PLACEMENT, A.FLAG_ILLEGAL, S.ILLEGAL),
    (O.PLACED_AND_PLAYED_ON, A.FLAG_AND_STAND, S.READY),
    (O.PLACED_AND_PLAYED_ON_TO_END, A.FLAG_AND_STAND, S.GAME_OVER),
    (O.UNEXPLAINED, A.FLAG_DISTURBED, S.DISTURBED),
)

_ROWS: tuple[tuple[State, Observation, Action, State], ...] = (
    # waiting for the start position: only the board matching it counts
    (S.SETUP, O.MATCHES, A.CLEAR, S.READY),
    (S.SETUP, O.MATCHES_AT_END, A.CLEAR, S.GAME_OVER),
    (S.SETUP, O.OTHER, A.NOTHING, S.SETUP),
    *((S.READY, o, a, t) for o, a, t in _PLAYING),
    *((S.MOVING, o, a, t) for o, a, t in _PLAYING),
    # time passing with pieces kept off the board (`Tracker.tick`)
    (S.MOVING, O.HELD_TOO_LONG, A.FLAG_KEPT_OFF, S.DISTURBED),
    (S.MOVING, O.HELD_IRREGULAR, A.FLAG_ILLEGAL, S.ILLEGAL),
    # candidates blink: a touch picks one; the board back as it was ends the question
    (S.AMBIGUOUS, O.MATCHES, A.CLEAR, S.READY),
    (S.AMBIGUOUS, O.MATCHES_AT_END, A.CLEAR, S.GAME_OVER),
    (S.AMBIGUOUS, O.RESOLVES, A.PLAY_CHOSEN, S.READY),
    (S.AMBIGUOUS, O.RESOLVES_TO_END, A.PLAY_CHOSEN, S.GAME_OVER),
    (S.AMBIGUOUS, O.OTHER, A.NOTHING, S.AMBIGUOUS),
    # flagged: the restore, the opponent playing on (fmjd) or the move corrected
    (S.ILLEGAL, O.MATCHES, A.CLEAR, S.READY),
    (S.ILLEGAL, O.MATCHES_AT_END, A.CLEAR, S.GAME_OVER),
    (S.ILLEGAL, O.PLAYED_ON, A.STAND, S.READY),
    (S.ILLEGAL, O.PLAYED_ON_TO_END, A.STAND, S.GAME_OVER),
    (S.ILLEGAL, O.COMPLETES_MOVE, A.PLAY, S.READY),
    (S.ILLEGAL, O.ENDS_GAME, A.PLAY, S.GAME_OVER),
    (S.ILLEGAL, O.OTHER, A.NOTHING, S.ILLEGAL),
    # disturbed: only the restore
    (S.DISTURBED, O.MATCHES, A.CLEAR, S.READY),
    (S.DISTURBED, O.MATCHES_AT_END, A.CLEAR, S.GAME_OVER),
    (S.DISTURBED, O.OTHER, A.NOTHING, S.DISTURBED),
    # the game is over: the last move may still be amended or (not in tournaments)
    # taken back
    (S.GAME_OVER, O.TAKES_BACK, A.TAKE_BACK, S.READY),
    (S.GAME_OVER, O.TAKES_BACK_TO_END, A.TAKE_BACK, S.GAME_OVER),
    (S.GAME_OVER, O.AMENDS_MOVE, A.AMEND, S.READY),
    (S.GAME_OVER, O.AMENDS_TO_END, A.AMEND, S.GAME_OVER),
    (S.GAME_OVER, O.MATCHES, A.CLEAR, S.GAME_OVER),
    (S.GAME_OVER, O.OTHER, A.NOTHING, S.GAME_OVER),
)

del O, A, S

# The table: every transition the tracker can take, in the order printed.
TRANSITIONS: tuple[Transition, ...] = tuple(Transition(*row) for row in _ROWS)

_BY_PAIR: dict[tuple[State, Observation], Transition] = {
    (row.state, row.observation): row for row in TRANSITIONS}
if len(_BY_PAIR) != len(TRANSITIONS):  # pragma: no cover - the table itself is wrong
    raise ImportError("the tracker's table lists a (state, observation) pair twice")


def transition(state: State, observation: Observation) -> Transition:
    """The row for ``state`` and ``observation``; `UnlistedTransition` when there is none."""
    row = _BY_PAIR.get((state, observation))
    if row is None:
        raise UnlistedTransition(state, observation)
    return row


def next_state(state: State, observation: Observation) -> State:
    """The state that follows ``state`` when a snapshot shows ``observation``
    (`UnlistedTransition` for a pair the table does not list)."""
    return transition(state, observation).target


def format_transition_table() -> str:
    """The transition table as text (``draughtsboard track --print-table``): one line per
    transition, every one the tracker can take."""
    width = max(len(o.value) for o in Observation)
    lines = [f"{'state':<11} {'observation':<{width}} {'next':<11} action"]
    for row in TRANSITIONS:
        lines.append(f"{row.state.value:<11} {row.observation.value:<{width}} "
                     f"{row.target.value:<11} {row.action.value}")
    return "\n".join(lines)
