"""The rules' reasons as records keep them, read back as messages.

A game's record keeps why it ended in the words the rules give (``Game.outcome``,
``DrawRules.reasons``: "Black has no legal move", "draw: threefold repetition", "draw: 15
moves with kings only, ..."), the same text old records hold and PDN comments show.
`reason_message` turns such a text into a message the page renders in its reader's
language; a text it does not know (what an arbiter typed: "resigned") stays as it is.
"""

from __future__ import annotations

import re

from draughtsboard.board.message import Message

# A draw rule's name (draws.py) and its message; the count is its moves.
DRAW_RULES = {
    "moves with kings only, no man moved and no capture": "guide.reason.kings_only",
    "three or more kings against a lone king": "guide.reason.lone_king_3_kings",
    "kings on both sides, 4 or 5 pieces": "guide.reason.kings_4_5",
    "kings on both sides, 6 or 7 pieces": "guide.reason.kings_6_7",
    "three pieces against a lone king on the main road": "guide.reason.main_road",
    "two pieces or fewer against a lone king": "guide.reason.two_against_king",
    "three pieces including a king against a lone king": "guide.reason.three_with_king",
    "two kings and a man, or a king and two men, against a king":
        "guide.reason.king_and_men",
}
RULE = re.compile(r"(\d+) (.+)")
NO_MOVE = {"White has no legal move": "guide.reason.no_move.white",
           "Black has no legal move": "guide.reason.no_move.black"}


def reason_message(text: str) -> Message | str:
    """The message a rule's reason says (with or without its ``draw:`` prefix), or the
    text itself when it is not one of the rules' (an arbiter's words)."""
    plain = text.removeprefix("draw: ")
    if plain == "threefold repetition":
        return Message.of("guide.reason.repetition")
    if plain in NO_MOVE:
        return Message.of(NO_MOVE[plain])
    match = RULE.fullmatch(plain)
    if match and match.group(2) in DRAW_RULES:
        return Message.of(DRAW_RULES[match.group(2)], count=int(match.group(1)))
    return text
