"""Draw rules by counting: which move-count rules a variant declares, and when they fire.

A variant names its family in ``Variant.draw_rules``; this module is the only place that
reads the name. Threefold repetition belongs to every family and is counted by the game
record (`game.Game`), which keys positions on `Position`; the rules here are the ones
that count moves.

Every rule is a predicate on the position (what material is on the board) plus a reset
condition on the move (a capture, a promotion, a man moved). Its counter is the number of
consecutive plies since the first position in which the predicate held without a reset;
``None`` while the predicate does not hold. docs/rules.md counts "a move" as a move by each
side, so a rule of N moves fires when its counter reaches 2N plies. Counting plies rather
than one side's moves makes the threshold the same whichever side was to move when the
material arose.

Why the rules end a game or allow a draw is typed here (`Reason`: a `ReasonCode` and, for
a counting rule, its moves), never a sentence: the words, in any language and the English
PDN shows, are rendered at the edge (`draughtsboard.board.game.reasons`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from .errors import DraughtsError
from .position import Move, Position


@dataclass(frozen=True, slots=True)
class Material:
    """Men and kings of each side (top pieces for column games)."""

    white_men: int
    white_kings: int
    black_men: int
    black_kings: int

    @classmethod
    def of(cls, position: Position) -> Material:
        kings = position.kings
        return cls((position.white & ~kings).bit_count(), (position.white & kings).bit_count(),
                   (position.black & ~kings).bit_count(), (position.black & kings).bit_count())

    @property
    def white(self) -> int:
        return self.white_men + self.white_kings

    @property
    def black(self) -> int:
        return self.black_men + self.black_kings

    @property
    def total(self) -> int:
        return self.white + self.black

    def sides(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """((men, kings) of the stronger side, (men, kings) of the other), by piece count."""
        white, black = (self.white_men, self.white_kings), (self.black_men, self.black_kings)
        return (white, black) if self.white >= self.black else (black, white)


Predicate = Callable[[Position, Material], bool]


class ReasonCode(StrEnum):
    """Why the rules end a game or let it be drawn. The value names the reason's message
    (``guide.reason.<value>`` in the catalogs); the words are rendered at the edge
    (`draughtsboard.board.game.reasons`), never kept or compared here."""

    NO_MOVE_WHITE = "no_move.white"  # White has no legal move: Black wins
    NO_MOVE_BLACK = "no_move.black"
    REPETITION = "repetition"  # threefold, counted by the game record
    KINGS_ONLY = "kings_only"
    LONE_KING_3_KINGS = "lone_king_3_kings"
    KINGS_4_5 = "kings_4_5"
    KINGS_6_7 = "kings_6_7"
    MAIN_ROAD = "main_road"
    TWO_AGAINST_KING = "two_against_king"
    THREE_WITH_KING = "three_with_king"
    KING_AND_MEN = "king_and_men"


@dataclass(frozen=True, slots=True)
class Reason:
    """A rule's reason, typed: its code and, for a counting rule, its count of moves."""

    code: ReasonCode
    count: int | None = None

    @property
    def is_draw(self) -> bool:
        return self.code not in (ReasonCode.NO_MOVE_WHITE, ReasonCode.NO_MOVE_BLACK)


NO_MOVE = {True: Reason(ReasonCode.NO_MOVE_WHITE), False: Reason(ReasonCode.NO_MOVE_BLACK)}
REPETITION = Reason(ReasonCode.REPETITION)


@dataclass(frozen=True, slots=True)
class DrawRule:
    """One counting rule: it fires after ``moves`` moves by each side (2N plies)."""

    code: ReasonCode
    moves: int
    applies: Predicate
    resets_on_man_move: bool = False  # the kings-only rule; material rules reset on captures

    @property
    def plies(self) -> int:
        return 2 * self.moves


# -- predicates -------------------------------------------------------------------------


def _always(position: Position, material: Material) -> bool:
    return True


def _lone_king_against(count: int, *, kings_only: bool = False,
                       needs_king: bool = False) -> Predicate:
    """The weaker side has one king; the stronger exactly ``count`` pieces (or at least,
    when ``count`` is negative: ``-count`` or more)."""

    def predicate(position: Position, material: Material) -> bool:
        (men, kings), (weak_men, weak_kings) = material.sides()
        if (weak_men, weak_kings) != (0, 1):
            return False
        pieces = men + kings
        if (pieces < -count) if count < 0 else pieces != count:
            return False
        if kings_only and men:
            return False
        return not needs_king or kings > 0

    return predicate


def _up_to_two_against_lone_king(needs_king: bool) -> Predicate:
    def predicate(position: Position, material: Material) -> bool:
        (men, kings), weak = material.sides()
        return weak == (0, 1) and 1 <= men + kings <= 2 and (kings > 0 or not needs_king)

    return predicate


def _kings_on_both_sides(totals: tuple[int, ...]) -> Predicate:
    def predicate(position: Position, material: Material) -> bool:
        return (material.white_kings > 0 and material.black_kings > 0
                and material.total in totals)

    return predicate


def _on_main_road(position: Position, material: Material) -> bool:
    """Three pieces against a lone king that stands on the long diagonal a1-h8."""
    if not _lone_king_against(3)(position, material):
        return False
    weak = position.black if material.white >= material.black else position.white
    geometry = position.variant.geometry
    square = geometry.number_of_bit[weak.bit_length() - 1]
    file, rank = geometry.coords(square)
    return file == rank


def _seed_2008_endings(position: Position, material: Material) -> bool:
    """Two kings and a man, or a king and two men, against a king (the 2008
    differences article, 40.9: docs/rules.md)."""
    (men, kings), weak = material.sides()
    return weak == (0, 1) and (men, kings) in ((1, 2), (2, 1))


# -- families ---------------------------------------------------------------------------

_KINGS_ONLY = ReasonCode.KINGS_ONLY

FAMILIES: dict[str, dict[str, tuple[DrawRule, ...]]] = {
    "russian": {"fmjd-64": (
        DrawRule(_KINGS_ONLY, 15, _always, resets_on_man_move=True),  # 7.2.5
        DrawRule(ReasonCode.LONE_KING_3_KINGS, 15,
                 _lone_king_against(-3, kings_only=True)),  # 7.2.4
        DrawRule(ReasonCode.KINGS_4_5, 30, _kings_on_both_sides((4, 5))),
        DrawRule(ReasonCode.KINGS_6_7, 60, _kings_on_both_sides((6, 7))),
        DrawRule(ReasonCode.MAIN_ROAD, 5, _on_main_road),
        DrawRule(ReasonCode.TWO_AGAINST_KING, 5,
                 _up_to_two_against_lone_king(needs_king=True)),  # 7.2.8
    )},
    "international": {
        "fmjd": (
            DrawRule(_KINGS_ONLY, 25, _always, resets_on_man_move=True),
            DrawRule(ReasonCode.THREE_WITH_KING, 16,
                     _lone_king_against(3, needs_king=True)),
            DrawRule(ReasonCode.TWO_AGAINST_KING, 5,
                     _up_to_two_against_lone_king(needs_king=True)),
        ),
        "seed-2008": (
            DrawRule(_KINGS_ONLY, 15, _always, resets_on_man_move=True),
            DrawRule(ReasonCode.KING_AND_MEN, 20,
                     _seed_2008_endings),
        ),
    },
    "repetition": {"threefold": ()},
}

DEFAULT_PRESETS = {"russian": "fmjd-64", "international": "fmjd", "repetition": "threefold"}


class UnknownDrawRulesError(DraughtsError):
    """A draw-rule family or preset that does not exist."""


Counters = tuple[int | None, ...]


@dataclass(frozen=True)
class DrawRules:
    """The counting rules of one family and preset, and how to advance their counters."""

    family: str
    preset: str
    rules: tuple[DrawRule, ...]
    # Whether a draw these rules declare ends the game by itself. None of the presets
    # does: the rules say when a draw *may* be declared, the arbiter declares it (a
    # board that misread a position must not end a game); a preset that should end the
    # game on its own would set this, and the record then carries the draw with a comment.
    automatic: bool = False

    def initial(self, position: Position) -> Counters:
        material = Material.of(position)
        return tuple(0 if rule.applies(position, material) else None for rule in self.rules)

    def advance(self, counters: Counters, before: Position, move: Move,
                after: Position) -> Counters:
        """The counters after ``move`` took ``before`` to ``after``."""
        material = Material.of(after)
        changed = move.is_capture or material != Material.of(before)
        man_moved = (before.piece_at(move.start) or "").islower()
        out: list[int | None] = []
        for rule, count in zip(self.rules, counters, strict=True):
            if not rule.applies(after, material):
                out.append(None)
            elif count is None or changed or (rule.resets_on_man_move and man_moved):
                out.append(0)
            else:
                out.append(count + 1)
        return tuple(out)

    def reasons(self, counters: Counters) -> list[Reason]:
        """Every rule whose count is reached, each a typed reason with its moves (several
        rules can fire together: three kings against one is also a kings-only ending)."""
        return [Reason(rule.code, rule.moves)
                for rule, count in zip(self.rules, counters, strict=True)
                if count is not None and count >= rule.plies]

    def reason(self, counters: Counters) -> Reason | None:
        """The first rule whose count is reached."""
        fired = self.reasons(counters)
        return fired[0] if fired else None


def presets(family: str) -> list[str]:
    """The preset names of a draw-rule family (empty for an unknown family)."""
    return sorted(FAMILIES.get(family, {}))


def draw_rules(family: str, preset: str | None = None) -> DrawRules:
    """The rules of a family (``Variant.draw_rules``) and preset (default per family)."""
    if family not in FAMILIES:
        raise UnknownDrawRulesError(
            f"unknown draw-rule family {family!r} (known: {', '.join(sorted(FAMILIES))})")
    preset = preset or DEFAULT_PRESETS[family]
    try:
        rules = FAMILIES[family][preset]
    except KeyError:
        raise UnknownDrawRulesError(
            f"unknown draw-rule preset {preset!r} for {family} "
            f"(known: {', '.join(presets(family))})") from None
    return DrawRules(family, preset, rules)
