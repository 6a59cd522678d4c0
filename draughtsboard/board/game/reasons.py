"""The rules' reasons rendered: a `Reason`'s message and the English words PDN shows.

The rules give a typed reason (`draughtsboard.board.rules.draws.Reason`: a code and, for
a counting rule, its moves); a record keeps it as that. Words are made from it here, at
the edge, and never read back:

- `message`: what the page, the arbiter's log and the hall render in a reader's
  language (``guide.reason.*`` in the catalogs);
- `words`: the English sentence PDN comments and the journal's ``reason`` text have
  always carried ("draw: 15 moves with kings only, no man moved and no capture",
  "Black has no legal move"), kept word for word so that old games and new export the
  same PDN and the release before reads a new journal;
- `why_words` and `why_message`: the same for a result's whole reason (`records.Why`),
  the draw the arbiter accepted with its rules' reasons included ("draw: threefold
  repetition (accepted by the arbiter)", as the journal has always said it);
- `OLD_WORDS`: those sentences as the journal of the release before the typed reason
  kept them, each with the reason it was. Only the codec reads it, once, for a record
  that has no typed reason (`codec.decode`); nothing in the live path looks a sentence up.
"""

from __future__ import annotations

from types import MappingProxyType

from ..message import Message
from ..rules.draws import FAMILIES, Reason, ReasonCode
from .records import Setter, Why

# The English name of each rule, as the journal and PDN comments have always said it.
_NAMES = {
    ReasonCode.KINGS_ONLY: "moves with kings only, no man moved and no capture",
    ReasonCode.LONE_KING_3_KINGS: "three or more kings against a lone king",
    ReasonCode.KINGS_4_5: "kings on both sides, 4 or 5 pieces",
    ReasonCode.KINGS_6_7: "kings on both sides, 6 or 7 pieces",
    ReasonCode.MAIN_ROAD: "three pieces against a lone king on the main road",
    ReasonCode.TWO_AGAINST_KING: "two pieces or fewer against a lone king",
    ReasonCode.THREE_WITH_KING: "three pieces including a king against a lone king",
    ReasonCode.KING_AND_MEN: "two kings and a man, or a king and two men, against a king",
}
_FIXED = {
    ReasonCode.NO_MOVE_WHITE: "White has no legal move",
    ReasonCode.NO_MOVE_BLACK: "Black has no legal move",
    ReasonCode.REPETITION: "threefold repetition",
}


def message(reason: Reason) -> Message:
    """The reason as a message (``count``: a counting rule's moves, for its plural)."""
    message_id = f"guide.reason.{reason.code.value}"
    if reason.count is None:
        return Message.of(message_id)
    return Message.of(message_id, count=reason.count)


def plain_words(reason: Reason) -> str:
    """The reason in English without the ``draw:`` a draw's words begin with
    ("threefold repetition"), for sentences that already say it is a draw."""
    if reason.code in _FIXED:
        return _FIXED[reason.code]
    return f"{reason.count} {_NAMES[reason.code]}"


def words(reason: Reason) -> str:
    """The reason in English as PDN comments and the journal's text have it."""
    plain = plain_words(reason)
    return f"draw: {plain}" if reason.is_draw else plain


def why_words(why: Why, by: Setter = Setter.UNKNOWN) -> str:
    """A result's reason in the English PDN comments and the journal's text have it:
    the rules' reasons of a draw the arbiter accepted end with who accepted it."""
    if isinstance(why, Reason):
        return words(why)
    if isinstance(why, tuple):
        joined = "; ".join(map(words, why))
        return f"{joined} (accepted by the arbiter)" if by is Setter.ARBITER else joined
    return why


def why_message(why: Why, by: Setter = Setter.UNKNOWN) -> Message | str:
    """A result's reason as a message (a person's words as they are)."""
    if isinstance(why, Reason):
        return message(why)
    if isinstance(why, tuple):
        listed = [message(reason) for reason in why]
        if by is Setter.ARBITER:
            return Message.of("guide.reason.accepted", reasons=listed)
        return Message.of("guide.reason.several", reasons=listed)
    return why


def _old_words() -> dict[str, Reason]:
    """Every sentence a journal of the release before could hold for a rule's reason,
    with and without its ``draw:`` (the page read both)."""
    reasons = [Reason(code) for code in _FIXED]
    reasons += [Reason(rule.code, rule.moves) for presets in FAMILIES.values()
                for rules in presets.values() for rule in rules]
    table = {}
    for reason in reasons:
        table[words(reason)] = reason
        table[plain_words(reason)] = reason
    return table


OLD_WORDS = MappingProxyType(_old_words())
