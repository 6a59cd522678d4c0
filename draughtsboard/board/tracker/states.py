"""The tracker's states, what a snapshot can show, and the one table between them.

Kept apart from the tracker's logic so that the table can be read (and printed with
``draughtsboard track --print-table``) on its own: each snapshot is classified into one
`Observation`, and `next_state` looks the pair (state, observation) up here.
"""

from __future__ import annotations

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
    """What one snapshot shows, relative to the position and the move in progress."""

    MATCHES = "board matches the position"
    COMPLETES_MOVE = "board shows the position after one legal move"
    ENDS_GAME = "board shows a move after which the side to move has none"
    COMPLETES_AMBIGUOUS = "board shows the position after several legal moves"
    AMENDS_MOVE = "the last moved piece slid on to another legal square"
    AMENDS_TO_END = "the last moved piece slid on, and that move ends the game"
    MOVE_THEN_MORE = "a legal move completed, then the next one began (seen together)"
    TAKES_BACK = "board is back in the position before the last move"
    IN_PROGRESS = "in-between state of a legal move"
    LIFTED = "pieces lifted that no legal move starts with"
    WRONG_PLACEMENT = "a piece put where no legal move allows"
    UNEXPLAINED = "a change that no move explains"
    HELD_TOO_LONG = "pieces kept off the board that no legal move explains"
    RESOLVES = "a touch picked one of the ambiguous moves"
    PLAYED_ON = "the opponent played on from an irregular move: it stands (fmjd)"
    OTHER = "anything else"


_ANY = None  # wildcard state in the table

# (state, observation) -> next state. Checked in order: the first matching row wins.
TRANSITIONS: tuple[tuple[State | None, Observation, State], ...] = (
    (State.GAME_OVER, Observation.TAKES_BACK, State.READY),
    (State.GAME_OVER, Observation.AMENDS_MOVE, State.READY),
    (State.GAME_OVER, Observation.AMENDS_TO_END, State.GAME_OVER),
    (State.GAME_OVER, Observation.MATCHES, State.GAME_OVER),
    (State.GAME_OVER, Observation.OTHER, State.GAME_OVER),
    (State.SETUP, Observation.MATCHES, State.READY),
    (State.SETUP, Observation.OTHER, State.SETUP),
    (State.ILLEGAL, Observation.MATCHES, State.READY),
    (State.ILLEGAL, Observation.PLAYED_ON, State.READY),
    (State.ILLEGAL, Observation.OTHER, State.ILLEGAL),
    (State.DISTURBED, Observation.MATCHES, State.READY),
    (State.DISTURBED, Observation.OTHER, State.DISTURBED),
    (State.AMBIGUOUS, Observation.MATCHES, State.READY),
    (State.AMBIGUOUS, Observation.RESOLVES, State.READY),
    (State.AMBIGUOUS, Observation.OTHER, State.AMBIGUOUS),
    (_ANY, Observation.MATCHES, State.READY),
    (_ANY, Observation.COMPLETES_MOVE, State.READY),
    (_ANY, Observation.ENDS_GAME, State.GAME_OVER),
    (_ANY, Observation.COMPLETES_AMBIGUOUS, State.AMBIGUOUS),
    (_ANY, Observation.AMENDS_MOVE, State.READY),
    (_ANY, Observation.AMENDS_TO_END, State.GAME_OVER),
    (_ANY, Observation.MOVE_THEN_MORE, State.MOVING),
    (_ANY, Observation.TAKES_BACK, State.READY),
    (_ANY, Observation.IN_PROGRESS, State.MOVING),
    (_ANY, Observation.LIFTED, State.MOVING),
    (_ANY, Observation.WRONG_PLACEMENT, State.ILLEGAL),
    (_ANY, Observation.UNEXPLAINED, State.DISTURBED),
    (_ANY, Observation.HELD_TOO_LONG, State.DISTURBED),
    (_ANY, Observation.OTHER, State.MOVING),
)


# A move played by an observation that leads to READY but leaves the side to move without
# a legal move leads to GAME_OVER instead (the tracker applies this after the table).


def next_state(state: State, observation: Observation) -> State:
    """The state that follows ``state`` when a snapshot shows ``observation`` (the first
    matching row of `TRANSITIONS`; an unlisted pair falls back to the OTHER row)."""
    for row_state, row_observation, target in TRANSITIONS:
        if row_state in (state, _ANY) and row_observation is observation:
            return target
    for row_state, row_observation, target in TRANSITIONS:
        if row_state in (state, _ANY) and row_observation is Observation.OTHER:
            return target
    return state


def format_transition_table() -> str:
    """The transition table as text (``draughtsboard track --print-table``)."""
    lines = [f"{'state':<11} {'observation':<52} next"]
    for state, observation, target in TRANSITIONS:
        name = state.value if state else "*"
        lines.append(f"{name:<11} {observation.value:<52} {target.value}")
    return "\n".join(lines)
