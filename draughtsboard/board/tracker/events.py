"""What the tracker tells the rest of the product: moves, takebacks, flags, LED intents."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..message import Message
from ..rules.position import Position

INTENTS = ("illegal", "must_capture", "restore", "destination", "path", "last_move",
           "ambiguous", "game_over", "take_off", "opponent_from", "opponent_path",
           "opponent_take")
# The intents of a flagged irregular move: an organiser may keep them off a tournament
# board (the arbiter's page shows them all the same).
IRREGULARITY_INTENTS = ("illegal", "restore")


@dataclass(frozen=True)
class TrackerEvent:
    """Something the tracker reports, at snapshot time ``t``; ``kind`` names it for logs and
    JSON."""
    t: float
    kind: str


@dataclass(frozen=True)
class MoveEvent(TrackerEvent):
    """A move recognised and played; ``replaces`` names a move it amends (a slide)."""

    notation: str = ""
    path: tuple[int, ...] = ()
    captures: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()
    position: Position | None = field(default=None, compare=False, repr=False)
    replaces: str | None = None


@dataclass(frozen=True)
class TakebackEvent(TrackerEvent):
    """The last move taken back (training and free modes): the board is back as before it.
    ``irregularity`` is set when a takeback in tournament play was allowed to stand (FMJD
    Annex 1, 5.4): the comment the record keeps."""
    notation: str = ""
    position: Position | None = field(default=None, compare=False, repr=False)
    irregularity: str = ""


@dataclass(frozen=True)
class IrregularMoveEvent(TrackerEvent):
    """An irregular move the opponent played on from (FMJD Annex 1, 5.4): it stands and is
    recorded as played, ``comment`` naming the irregularity; the game goes on from
    ``position`` (the opponent to move)."""

    notation: str = ""
    path: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    irregularity: str = ""
    comment: str = ""
    position: Position | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class FlagEvent(TrackerEvent):
    """An illegal move or a disturbed position: ``description`` for the record (its
    English text, as PDN comments keep it), ``message`` the same said as a message for
    the page and the arbiter's log; ``irregularity`` names the kind of an irregular move
    (FMJD Annex 1, 5.4), empty for a disturbed position."""

    description: str = ""
    squares: tuple[int, ...] = ()
    irregularity: str = ""
    message: Message | None = field(default=None, compare=False)


@dataclass(frozen=True)
class LedEvent(TrackerEvent):
    """The LED intents changed: square numbers by intent (see `INTENTS`)."""
    intents: dict[str, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class GameOverEvent(TrackerEvent):
    """The move just played leaves the side to move without a legal move."""
    loser_is_white: bool = True
