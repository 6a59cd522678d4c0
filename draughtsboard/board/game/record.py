"""The game record: moves with their times, tags, events for the arbiter, result, draws.

A `Game` is what the controller fills while the board is played on and what the PDN
reader builds from a file; the journal (`draughtsboard.recording`) replays its records
into one. It is pure: times are inputs (monotonic and wall-clock seconds given by the
caller), nothing here reads a clock or a file.

Illegal attempts and irregularities of procedure are *events*, not moves: the arbiter
needs them, the move list must not contain them (docs/user-guide.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import cast

from ..message import Message
from ..mode import Mode
from ..rules.draws import NO_MOVE, REPETITION, Counters, DrawRules, Reason, draw_rules
from ..rules.errors import DraughtsError
from ..rules.fen import format_fen, initial_position, parse_fen
from ..rules.notation import format_move, parse_move
from ..rules.position import Move, Position
from ..rules.variants import Variant
from .reasons import why_words
from .records import CoachSwitch, Declined, Setter, Why

# Tags in the order the writer puts them (PDN's seven-tag roster, then ours).
STANDARD_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Board", "TimeControl")
# Tags that the record derives from its own data, never stored in `Game.tags`.
DERIVED_TAGS = frozenset({"GameType", "Variant", "FEN", "SetUp", "Result"})

RESULT_ALIASES = {
    "1-0": 0, "2-0": 0, "0-1": 2, "0-2": 2, "1/2-1/2": 1, "1-1": 1, "½-½": 1,
}


class InvalidResultError(DraughtsError):
    """A result text that is not a result."""


class GameFinishedError(DraughtsError):
    """A change asked of a game that has its result (a move, a takeback, a correction,
    a tag): the result must be withdrawn first."""


class ReadOnlyGameError(DraughtsError):
    """A change asked of a read-only copy of a game (the recorder's copies are read-only:
    changes go through the recorder, which journals them first)."""


def normalise_result(variant: Variant, text: str) -> str | None:
    """The variant's own string for a result written in any common form (``1-0`` for an
    international game becomes ``2-0``); ``None`` for ``*`` (unknown, game goes on)."""
    text = text.strip()
    if text == "*":
        return None
    if text == "0-0":
        return "0-0"  # both lose (double forfeit)
    try:
        return variant.results[RESULT_ALIASES[text]]
    except KeyError:
        raise InvalidResultError(
            f"{text!r} is not a result (expected {', '.join(variant.results)}, 0-0 or *)"
        ) from None


def move_number(white_starts: bool, ply: int) -> int:
    """PDN move number of the move at 0-based ``ply`` from a start with this side to move."""
    return (ply + (0 if white_starts else 1)) // 2 + 1


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """A move of the record. ``text`` is its PDN form in the position it was played in."""

    move: Move
    text: str
    t_monotonic: float | None = None
    t_wall: float | None = None
    clock: tuple[float, float] | None = None  # White's and Black's remaining seconds
    annotation: str = ""  # strength marks and NAGs as read (``!``, ``$3``)
    comment: str = ""
    variations: tuple[str, ...] = ()  # alternatives to this move, as PDN text
    # An irregular move that stood (FMJD Annex 1, 5.4): the position it made (the rules
    # cannot replay it) and the kind of irregularity; None and "" for a legal move.
    after: Position | None = None
    irregularity: str = ""


# Events about the move just played (the coach's comments): a takeback moves them back
# with it (`Game.undo`).
ABOUT_THE_MOVE = ("coach",)


@dataclass(frozen=True, slots=True)
class GameEvent:
    """Something the arbiter must see that is not a move: an illegal attempt, an
    irregularity of procedure, a takeback in training, a resume after a power cut.
    ``ply`` is the number of moves played when it happened."""

    kind: str
    ply: int
    text: str
    t_monotonic: float | None = None
    t_wall: float | None = None
    clock: tuple[float, float] | None = None  # both clocks then (clock events, flag fall)
    # An arbiter correction still in effect: the position play went on from (None once
    # a take-back past its ply has taken it back; the arbiter's log keeps the event).
    position: Position | None = None
    # ``text`` as a message, when the journal kept one: a comment in any language (a
    # record written before messages has none; two events differing only here are equal)
    message: Message | None = field(default=None, compare=False)
    # what the event says as data (words are never read back): the coach aid switched,
    # a match result declined by this board's arbiter
    switch: CoachSwitch | None = None
    declined: Declined | None = None


@dataclass
class Game:
    """A game from its start position: moves, tags, events and result.

    ``draw_preset`` picks a preset of the variant's draw-rule family (international:
    ``fmjd``, the default, or ``seed-2008``).
    """

    variant: Variant
    # None is read as the variant's initial position (`__post_init__`): once built, a game's
    # start is always a Position, which is the type every reader relies on.
    start: Position = None  # type: ignore[assignment]  # None means initial, see above
    tags: dict[str, str] = field(default_factory=dict)
    draw_preset: str | None = None
    moves: list[PlayedMove] = field(default_factory=list)
    events: list[GameEvent] = field(default_factory=list)
    result: str | None = None
    # why the game has its result: a rule's typed reason, or a person's words (an
    # arbiter's "resigned"); ``result_reason`` renders it in English for PDN
    result_why: Why = ""
    result_by: Setter = Setter.UNKNOWN  # who set the result (how an accepted draw reads)
    comment: str = ""  # comment before the first move
    mode: Mode = Mode.TOURNAMENT  # a name is read as the mode it names (`Mode.parse`)
    start_monotonic: float | None = None  # when the game started (thinking time of move 1)
    start_wall: float | None = None

    def __post_init__(self) -> None:
        self._read_only = False
        self.mode = Mode.parse(self.mode)
        self.taken_back = 0  # moves taken back so far (a takeback to a ply counts each)
        self.result_by = Setter.UNKNOWN  # who set the result (`apply` of its record)
        if self.start is None:
            self.start = initial_position(self.variant)
        self.rules: DrawRules = draw_rules(self.variant.draw_rules, self.draw_preset)
        self._positions: list[Position] = [self.start]
        self._counters: list[Counters] = [self.rules.initial(self.start)]
        self._seen: Counter[Position] = Counter([self.start])
        moves, self.moves = self.moves, []
        for played in moves:
            self._push(played)

    def read_only_copy(self) -> Game:
        """A copy that refuses every change (`ReadOnlyGameError`) and shares nothing that
        changes with this game; its ``tags`` is a read-only mapping, its ``moves`` and
        ``events`` are tuples. Cheap: nothing is replayed."""
        copy = object.__new__(Game)
        copy.__dict__.update(self.__dict__)
        # The copy's containers refuse change at run time; they keep the game's declared
        # types, since a read-only copy is read exactly like a game (cast, not converted).
        copy.tags = cast(dict[str, str], MappingProxyType(dict(self.tags)))
        copy.moves = cast(list[PlayedMove], tuple(self.moves))
        copy.events = cast(list[GameEvent], tuple(self.events))
        copy._positions = cast(list[Position], tuple(self._positions))
        copy._counters = cast(list[Counters], tuple(self._counters))
        copy._seen = Counter(self._seen)
        copy._read_only = True
        return copy

    def __setattr__(self, name: str, value) -> None:
        if self.__dict__.get("_read_only"):
            raise ReadOnlyGameError(f"this game is a read-only copy: {name} cannot be set")
        super().__setattr__(name, value)

    def _check_writable(self) -> None:
        if self._read_only:
            raise ReadOnlyGameError("this game is a read-only copy: change it through its "
                                    "recorder")

    @classmethod
    def from_fen(cls, variant: Variant, fen: str | None, **kwargs) -> Game:
        if fen is None:
            return cls(variant, **kwargs)
        return cls(variant, parse_fen(variant, fen), **kwargs)

    # -- state ------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def positions(self) -> tuple[Position, ...]:
        """The start and the position after every move."""
        return tuple(self._positions)

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def starts_from_initial(self) -> bool:
        return self.start == initial_position(self.variant)

    @property
    def start_fen(self) -> str:
        return format_fen(self.start)

    def repetitions(self, position: Position | None = None) -> int:
        """How often a position (default: the current one) has occurred, side to move
        included."""
        return self._seen[self.position if position is None else position]

    def draw_reasons(self) -> list[Reason]:
        """Every reason the rules declare the current position drawn (often none)."""
        repeated = [REPETITION] if self.repetitions() >= 3 else []
        return repeated + self.rules.reasons(self._counters[-1])

    def draw_reason(self) -> Reason | None:
        """Why the rules declare the current position drawn, or ``None``."""
        reasons = self.draw_reasons()
        return reasons[0] if reasons else None

    @property
    def draw_counters(self) -> tuple[int | None, ...]:
        """Plies counted so far by each counting rule (``None``: rule not applicable)."""
        return self._counters[-1]

    def outcome(self) -> tuple[str, Reason] | None:
        """The result the rules impose now (no legal move, a draw rule) and why."""
        if self.position.is_game_over():
            white_lost = self.position.white_to_move
            return self.variant.results[2 if white_lost else 0], NO_MOVE[white_lost]
        reason = self.draw_reason()
        if reason is not None:
            return self.variant.results[1], reason
        return None

    @property
    def is_over(self) -> bool:
        return self.result is not None or self.outcome() is not None

    def result_text(self) -> str:
        """The result as PDN writes it: recorded, else imposed by the rules, else ``*``.

        A side without a legal move has lost: the rules end the game. A draw the rules
        declare ends it only where the preset says so (`DrawRules.automatic`); otherwise
        it is the arbiter's to declare, and until then the game has no result."""
        if self.result is not None:
            return self.result
        outcome = self.outcome()
        if outcome is None:
            return "*"
        if outcome[0] == self.variant.results[1] and not self.rules.automatic:
            return "*"
        return outcome[0]

    # -- changes ----------------------------------------------------------------------

    def play(self, move: Move | str, t_monotonic: float | None = None,
             t_wall: float | None = None, clock: tuple[float, float] | None = None,
             **extra) -> PlayedMove:
        """Add a legal move (a `Move` or its text); the rules' errors otherwise.

        A finished game takes no more moves: `IllegalMoveError` would be wrong (the move
        may be legal on the board), so it is a plain `DraughtsError`.
        """
        self._check_writable()
        if self.result is not None:
            raise GameFinishedError(f"the game is over ({self.result}); no move {move!s} "
                                    "after it")
        position = self.position
        if isinstance(move, str):
            move = parse_move(position, move)
        elif not position.is_legal(move):
            position.play(move)  # raises IllegalMoveError with the FEN
        played = PlayedMove(move, format_move(position, move), t_monotonic, t_wall, clock,
                            **extra)
        self._push(played)
        return played

    def _push(self, played: PlayedMove) -> None:
        before = self.position
        if played.after is not None:
            after = played.after
            counters = self.rules.initial(after)  # the counts start again from it
        else:
            after = before.play(played.move)
            counters = self.rules.advance(self._counters[-1], before, played.move, after)
        self.moves.append(played)
        self._positions.append(after)
        self._counters.append(counters)
        self._seen[after] += 1

    def play_irregular(self, move: Move, after: Position, text: str, irregularity: str,
                       comment: str, t_monotonic: float | None = None,
                       t_wall: float | None = None) -> PlayedMove:
        """Add an irregular move that the opponent let stand (FMJD Annex 1, 5.4): not a
        legal move, so it carries the position it made; ``comment`` names the
        irregularity in the PDN."""
        self._check_writable()
        if self.result is not None:
            raise GameFinishedError(f"the game is over ({self.result}); no move {text} after it")
        if after.variant is not self.variant:
            raise DraughtsError(f"irregular move {text}: a position of another variant")
        played = PlayedMove(move, text, t_monotonic, t_wall, comment=comment, after=after,
                            irregularity=irregularity)
        self._push(played)
        return played

    def correct(self, position: Position, text: str, t_monotonic: float | None = None,
                t_wall: float | None = None, *, message: Message | None = None) -> GameEvent:
        """The arbiter sets the current position (an arbiter correction): play goes on
        from ``position``; the event keeps what was done (``message``: ``text`` as a
        message, as `add_event`). A take-back past this ply takes the correction back
        with it."""
        self._check_writable()
        if self.result is not None:
            raise GameFinishedError(f"the game is over ({self.result}); no correction")
        if position.variant is not self.variant:
            raise DraughtsError("a correction to a position of another variant")
        self._seen[self._positions[-1]] -= 1
        self._positions[-1] = position
        self._counters[-1] = self.rules.initial(position)
        self._seen[position] += 1
        event = GameEvent("correction", self.ply, text, t_monotonic, t_wall,
                          position=position, message=message)
        self.events.append(event)
        return event

    def replace_last(self, **changes) -> None:
        """Amend the last move's annotations (comment, variations) after reading them."""
        self._check_writable()
        self.moves[-1] = replace(self.moves[-1], **changes)

    def undo(self) -> PlayedMove:
        """Take the last move back (training mode); `DraughtsError` at the start."""
        self._check_writable()
        if not self.moves:
            raise DraughtsError("no move to take back")
        if self.result is not None:
            raise GameFinishedError(f"the game is over ({self.result}); no takeback")
        played = self.moves.pop()
        self.taken_back += 1
        after = self._positions.pop()
        self._counters.pop()
        self._seen[after] -= 1
        # the corrections made after this move are taken back with it; what the coach
        # said about it stays with it: before the takeback's own note, where it is read
        # together with the move it names (not after the move played instead)
        self.events[:] = [self._after_undo(event) for event in self.events]
        return played

    def _after_undo(self, event: GameEvent) -> GameEvent:
        if event.ply <= self.ply:
            return event
        if event.position is not None:
            return replace(event, position=None)
        if event.kind in ABOUT_THE_MOVE:
            return replace(event, ply=self.ply)
        return event

    def add_event(self, kind: str, text: str, t_monotonic: float | None = None,
                  t_wall: float | None = None,
                  clock: tuple[float, float] | None = None,
                  message: Message | None = None, *, switch: CoachSwitch | None = None,
                  declined: Declined | None = None) -> GameEvent:
        """Note something for the arbiter (not a move) at the current ply; ``clock``:
        both clocks at that moment, for the events that start, stop or flag them;
        ``message``: ``text`` as a message (for comments in the reader's language);
        ``switch`` and ``declined``: what it says as data (`GameEvent`)."""
        self._check_writable()
        event = GameEvent(kind, self.ply, text, t_monotonic, t_wall, clock,
                          message=message, switch=switch, declined=declined)
        self.events.append(event)
        return event

    def set_tags(self, tags: dict[str, str]) -> None:
        """Add or change tags (already checked: `tags.clean_tags`)."""
        self._check_writable()
        self.tags.update(tags)

    def set_result(self, result: str, reason: Why = "",
                   by: Setter = Setter.UNKNOWN) -> None:
        """Record the result (any common spelling), why (a rule's `Reason`, the reasons
        of a draw accepted, or a person's words) and who set it; ``*`` clears it."""
        self._check_writable()
        self.result = normalise_result(self.variant, result)
        self.result_why = reason if self.result is not None else ""
        self.result_by = by if self.result is not None else Setter.UNKNOWN

    def close_unfinished(self, reason: Why, by: Setter = Setter.UNKNOWN) -> None:
        """Close the game without a result (``*``), saying why (`apply.close`)."""
        self._check_writable()
        self.result, self.result_why, self.result_by = None, reason, by

    @property
    def result_reason(self) -> str:
        """Why the game has its result, in the English PDN comments show (a rule's
        reason rendered, a person's words as they are)."""
        return why_words(self.result_why, self.result_by)

    @result_reason.setter
    def result_reason(self, text: str) -> None:
        """A person's words as the reason (what a board's wire record said)."""
        self.result_why = text
        self.result_by = Setter.UNKNOWN

    # -- times ------------------------------------------------------------------------

    def thinking_times(self) -> list[float | None]:
        """Seconds each move took, from the previous move (the first from the start
        record, when ``start_monotonic`` is known); ``None`` where the monotonic clock
        is unknown or went backwards (a restart after a power cut)."""
        out: list[float | None] = []
        previous = self.start_monotonic
        for played in self.moves:
            now = played.t_monotonic
            if now is None or previous is None or now < previous:
                out.append(None)
            else:
                out.append(now - previous)
            previous = now
        return out

    def clocks(self) -> list[tuple[float, float] | None]:
        """Each move's clock (White's and Black's remaining seconds): the recorded one,
        else one computed from a ``TimeControl`` tag of the form ``base`` or
        ``base+increment`` (seconds) and the thinking times."""
        control = _parse_time_control(self.tags.get("TimeControl", ""))
        times = self.thinking_times()
        out: list[tuple[float, float] | None] = []
        remaining = [control[0], control[0]] if control else None
        white_moves = self.start.white_to_move
        for played, spent in zip(self.moves, times, strict=True):
            side = 0 if white_moves else 1
            if played.clock is not None:
                out.append(played.clock)
                remaining = list(played.clock)
            elif remaining is not None and spent is not None:
                # a clock shows no time below zero: a flag that fell stays at 0:00:00
                # (no increment known when the clock came from a move, not a TimeControl)
                remaining[side] = max(0.0, remaining[side] - spent) + (
                    control[1] if control and remaining[side] > spent else 0.0)
                out.append((remaining[0], remaining[1]))
            else:
                remaining = None
                out.append(None)
            white_moves = not white_moves
        return out


def _parse_time_control(text: str) -> tuple[float, float] | None:
    text = text.strip()
    base, _, increment = text.partition("+")
    try:
        return float(base), float(increment or 0)
    except ValueError:
        return None
