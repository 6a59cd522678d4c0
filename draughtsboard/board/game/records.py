"""What happened in a game, as typed records: the one model every format is a view of.

A game is told as a start and a list of records: moves, tags, the arbiter's events,
clock events, the coach's switches, results with their reason and who set them,
withdrawals. Each record is a frozen dataclass of one closed union (`Record`), named by
a `RecordKind`; its fields are typed, and what it has to say to a person is its
`Message` (kept beside the English text that PDN comments show, for records written
before messages existed). Nothing of what happened is read back out of words: a coach
switch is `CoachSwitch(aid, on)`, a declined match result a `Declined`, a result's
setter a `Setter`.

`codec` turns a record into JSON and back (bounded, versioned), `apply` turns records
into a `Game`; the board's journal, the hall's store and wire, and PDN are views of these
records (docs/architecture.md, "The record model").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from ..message import Message
from ..mode import Mode
from ..rules.draws import Reason

Clock = tuple[float, float]  # White's and Black's remaining seconds
# Why a game has its result: a rule's typed reason; the rules' reasons of a draw the
# arbiter accepted (every rule that held, the `Result`'s setter says who accepted); or a
# person's words (an arbiter's "resigned")
Why = Reason | tuple[Reason, ...] | str
ABANDONED = "abandoned"  # the reason of a game closed unfinished that gave none


class RecordKind(StrEnum):
    """Every kind of record; the value is the record's ``type`` in the journal."""

    START = "start"
    MOVE = "move"
    IRREGULAR_MOVE = "irregular_move"
    TAKEBACK = "takeback"  # the last move taken back (training) or amended (a slide)
    TAKEBACK_TO = "takeback_to"  # the arbiter takes the game back to a ply
    CORRECTION = "correction"  # the arbiter sets the position
    ILLEGAL = "illegal"
    IRREGULARITY = "irregularity"
    RESUME = "resume"
    NOTE = "note"
    DRAW_OFFER = "draw-offer"
    HINT = "hint"
    COACH = "coach"
    CLOCK_START = "clock-start"
    CLOCK_PAUSE = "clock-pause"
    CLOCK_RESUME = "clock-resume"
    FLAG = "flag"
    RESULT = "result"
    RESULT_WITHDRAWN = "result-withdrawn"
    MATCH_STOP = "match-stop"


# Events that are a note for the arbiter and nothing more (`Event`).
EVENT_KINDS = frozenset({RecordKind.ILLEGAL, RecordKind.IRREGULARITY, RecordKind.RESUME,
                         RecordKind.NOTE, RecordKind.DRAW_OFFER, RecordKind.HINT,
                         RecordKind.COACH})
# Events that carry both clocks: the clock started, paused or resumed, a flag fell.
CLOCK_KINDS = frozenset({RecordKind.CLOCK_START, RecordKind.CLOCK_PAUSE,
                         RecordKind.CLOCK_RESUME, RecordKind.FLAG})


class Setter(StrEnum):
    """Who set a result: the ``rules`` proved it, the ``arbiter`` set it, the ``board``
    closed its game (the hall's word for a result it only heard), a public mirror's
    ``venue``, the other board of a ``match``; ``UNKNOWN`` for records that did not say."""

    UNKNOWN = ""
    RULES = "rules"
    ARBITER = "arbiter"
    BOARD = "board"
    VENUE = "venue"
    MATCH = "match"


class CoachAid(StrEnum):
    """What the coach's switches turn on and off."""

    HINTS = "hints"
    WARNINGS = "warnings"


class TakebackKind(StrEnum):
    TAKEBACK = "takeback"  # taken back in training
    AMENDMENT = "amendment"  # a slid move replaced by the move that follows


@dataclass(frozen=True, slots=True)
class Times:
    """When a record was made: monotonic and wall-clock seconds, each ``None`` when
    unknown (times are inputs; the model reads no clock)."""

    mono: float | None = None
    wall: float | None = None


NO_TIME = Times()


@dataclass(frozen=True, slots=True)
class CoachSwitch:
    """A coach aid switched on or off for the rest of the game (training)."""

    aid: CoachAid
    on: bool


@dataclass(frozen=True, slots=True)
class Declined:
    """A match result this board's arbiter withdrew while the other board (``seat``)
    still held it, with how many results that board had withdrawn then."""

    match: str
    seat: str
    result: str
    withdrawals: int


@dataclass(frozen=True, slots=True)
class Start:
    """The record that begins a game: its variant, tags, start position (``None``: the
    variant's initial one), mode and draw preset."""

    variant: str
    tags: Mapping[str, str] = field(default_factory=dict)
    fen: str | None = None
    mode: Mode = Mode.TOURNAMENT
    draw_preset: str | None = None
    at: Times = NO_TIME
    version: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", MappingProxyType(dict(self.tags)))

    kind = RecordKind.START


@dataclass(frozen=True, slots=True)
class MoveMade:
    """A legal move at ``ply``: its path and captured squares (numbers), its PDN text in
    the position it was played in, and both clocks when recorded."""

    ply: int
    path: tuple[int, ...]
    captures: tuple[int, ...]
    text: str
    at: Times = NO_TIME
    clock: Clock | None = None

    kind = RecordKind.MOVE


@dataclass(frozen=True, slots=True)
class IrregularMove:
    """An irregular move the opponent let stand (FMJD Annex 1, 5.4): the position it
    made (``fen``), its kind of irregularity and its PDN comment."""

    ply: int
    path: tuple[int, ...]
    captures: tuple[int, ...]
    text: str
    irregularity: str
    comment: str
    fen: str
    at: Times = NO_TIME

    kind = RecordKind.IRREGULAR_MOVE


@dataclass(frozen=True, slots=True)
class Takeback:
    """The last move (played at ``ply``) taken back, or amended (``AMENDMENT``)."""

    ply: int | None
    what: TakebackKind
    text: str
    message: Message | None = None
    at: Times = NO_TIME

    kind = RecordKind.TAKEBACK


@dataclass(frozen=True, slots=True)
class TakebackTo:
    """The arbiter takes the game back to ``ply`` (0: the start)."""

    ply: int
    text: str
    message: Message | None = None
    at: Times = NO_TIME

    kind = RecordKind.TAKEBACK_TO


@dataclass(frozen=True, slots=True)
class Correction:
    """The arbiter sets the current position: play goes on from ``fen``. ``message``:
    ``text`` as a message, so the PDN says it in the board's language (a journal written
    before it was kept has none, and reads as before)."""

    ply: int | None
    fen: str
    text: str
    at: Times = NO_TIME
    message: Message | None = None

    kind = RecordKind.CORRECTION


@dataclass(frozen=True, slots=True)
class Event:
    """A note for the arbiter where it happened (`EVENT_KINDS`): an illegal attempt, an
    irregularity of procedure, a resume, a note, a draw offered by the rules, a hint, a
    coach's warning. ``tags``: the tags the arbiter set (a ``note``); ``switch``: the
    coach aid switched (a ``coach``)."""

    what: RecordKind
    ply: int | None
    text: str
    message: Message | None = None
    at: Times = NO_TIME
    tags: Mapping[str, str] | None = None
    switch: CoachSwitch | None = None

    def __post_init__(self) -> None:
        if self.what not in EVENT_KINDS:
            raise ValueError(f"{self.what!r} is not an event kind")
        if self.switch is not None and self.what is not RecordKind.COACH:
            raise ValueError("only a coach record switches a coach aid")
        if self.tags is not None and self.what is not RecordKind.NOTE:
            raise ValueError("only a note sets tags")
        if self.tags is not None:
            object.__setattr__(self, "tags", MappingProxyType(dict(self.tags)))

    @property
    def kind(self) -> RecordKind:
        return self.what


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """The clock started, paused or resumed, or a flag fell (`CLOCK_KINDS`), with both
    clocks then."""

    what: RecordKind
    ply: int | None
    clock: Clock | None
    text: str
    message: Message | None = None
    at: Times = NO_TIME

    def __post_init__(self) -> None:
        if self.what not in CLOCK_KINDS:
            raise ValueError(f"{self.what!r} is not a clock event")

    @property
    def kind(self) -> RecordKind:
        return self.what


@dataclass(frozen=True, slots=True)
class Result:
    """The game's result (any common spelling; ``*`` closes it unfinished), why (a
    rule's typed `Reason`, the typed reasons of a draw the rules declared and the
    setter accepted, or a person's words: an arbiter's "resigned"), and who set it."""

    result: str
    reason: Why = ""
    by: Setter = Setter.UNKNOWN
    at: Times = NO_TIME

    kind = RecordKind.RESULT


@dataclass(frozen=True, slots=True)
class ResultWithdrawn:
    """The arbiter takes the result back: the game is open again. ``declined``: in a
    match, the other board's result withdrawn while it held it."""

    ply: int | None
    text: str
    message: Message | None = None
    at: Times = NO_TIME
    declined: Declined | None = None

    kind = RecordKind.RESULT_WITHDRAWN


@dataclass(frozen=True, slots=True)
class MatchStop:
    """A match between boards stopped (the boards hold different games, a name used up):
    one line for the arbiter; the game itself is unchanged."""

    ply: int | None
    text: str
    message: Message | None = None
    at: Times = NO_TIME

    kind = RecordKind.MATCH_STOP


Record = (MoveMade | IrregularMove | Takeback | TakebackTo | Correction | Event | ClockEvent
          | Result | ResultWithdrawn | MatchStop)
AnyRecord = Start | Record
