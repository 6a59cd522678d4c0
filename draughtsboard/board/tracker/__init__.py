"""The move tracker: occupancy snapshots in, exact moves and LED intents out.

`tracker` (the state machine), `states` (its states, observations, actions and the one
transition table), `events` (what it tells the rest of the product), `opponent` (the
opponent constraint) and `slide` (the slide amendment), the collaborators the tracker is
given, `policy` (what follows an irregular move), `irregular` (irregular moves in the
words of the rules), `move_table` (what each legal move looks like to the switches),
`leds` (intents to LED patterns) and `controller` (sensors to tracker to record and LEDs).
Pure: time comes from the snapshots.
"""

from ..mode import Mode
from .controller import Controller, RecordCallback
from .events import (
    INTENTS,
    FlagEvent,
    GameOverEvent,
    IrregularMoveEvent,
    LedEvent,
    MoveEvent,
    TakebackEvent,
    TrackerEvent,
)
from .leds import STYLE, render
from .move_table import MoveShape, MoveTable
from .policy import FMJD, POLICIES, POLICY_TAG, RESTORE, IrregularityPolicy, policy_for
from .states import (
    TRANSITIONS,
    Action,
    Observation,
    State,
    Transition,
    UnlistedTransition,
    format_transition_table,
    next_state,
    transition,
)
from .tracker import Tracker

__all__ = [
    "FMJD", "INTENTS", "POLICIES", "POLICY_TAG", "RESTORE", "STYLE", "TRANSITIONS", "Action",
    "Controller", "FlagEvent", "GameOverEvent", "IrregularMoveEvent", "IrregularityPolicy",
    "LedEvent", "Mode", "MoveEvent", "MoveShape", "MoveTable", "Observation", "RecordCallback",
    "State", "TakebackEvent", "Tracker", "TrackerEvent", "Transition", "UnlistedTransition",
    "format_transition_table", "next_state", "policy_for", "render", "transition",
]
