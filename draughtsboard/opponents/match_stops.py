"""Why a match between boards stopped, as messages: an id and typed params, never a
sentence.

A board that stops the match (or refuses it: a name used up) says why in its record, and
the other board stops with the same reason, so both pages say the same thing. The reason
crosses as a `Message` (the catalogs' ``match.stop.*`` ids, docs/hall.md), rendered at
each board's edge in its own language: a Russian board shows it in Russian though the
other board reads English. A seat is part of the id (``...white``, ``...black``), never
a word in the params, so each language says "White's board" in its own grammar.

What comes from the other board is checked here (`check`): only the ids below, each
with exactly its params of their types (a move's text, a tag's value, a count); anything
else is refused in one line. `describe` is the reason's one line for a log or an
exception, in no language (the id and its params): words belong to the edge.
"""

from __future__ import annotations

from typing import Any

from draughtsboard.board.message import Message, Param

SEATS = ("white", "black")
TEXT_LIMIT = 120  # characters of a text param (a FEN: `FEN_LIMIT`)
FEN_LIMIT = 400

# Every reason a match stops, with its params and their types.
PARAMS: dict[str, dict[str, type]] = {
    "match.stop.ply_differs": {"ply": int, "white": str, "black": str},
    "match.stop.variant": {"white": str, "black": str},
    "match.stop.start": {"white": str, "black": str},
    "match.stop.tag": {"tag": str, "white": str, "black": str},
    "match.stop.apart": {"white": int, "black": int},
    # (per seat: whose move, whose board)
    **{f"match.stop.unrecorded.{seat}": {"ply": int, "move": str} for seat in SEATS},
    **{f"match.stop.position.{seat}": {"ply": int, "move": str, "fen": str}
       for seat in SEATS},
    **{f"match.stop.illegal.{seat}": {"ply": int, "move": str} for seat in SEATS},
    **{f"match.stop.name_used.{seat}": {"result": str, "plies": int} for seat in SEATS},
    # a version-1 record's refusal (the release before wrote it in English): kept as it
    # was, shown as it is
    **{f"match.stop.refused_v1.{seat}": {"detail": str} for seat in SEATS},
}


def stop(message_id: str, **params: Param) -> Message:
    """A reason of `PARAMS` (a `ValueError` for any other: a programming error)."""
    message = Message.of(message_id, **params)
    problem = _problem(message)
    if problem is not None:
        raise ValueError(problem)
    return message


def check(data: Any, field: str) -> Message:
    """The reason in ``data`` (a message's JSON from the other board); a `ValueError`
    (one line, naming ``field``) for anything that is not one of `PARAMS`."""
    try:
        message = Message.from_json(data)
    except ValueError as error:
        raise ValueError(f"{field}: {error}") from None
    problem = _problem(message)
    if problem is not None:
        raise ValueError(f"{field}: {problem}")
    return message


def _problem(message: Message) -> str | None:
    expected = PARAMS.get(message.id)
    if expected is None:
        return f"no reason {message.id[:60]!r} (expected a match.stop id)"
    given = message.mapping
    if set(given) != set(expected):
        return (f"{message.id}: params {', '.join(sorted(given))[:80] or 'none'} "
                f"(expected {', '.join(sorted(expected))})")
    for name, kind in expected.items():
        value = given[name]
        if kind is int and not (isinstance(value, int) and 0 <= value <= 100_000):
            return f"{message.id}: {name} is not a count"
        limit = FEN_LIMIT if name == "fen" or message.id == "match.stop.start" \
            else TEXT_LIMIT
        if kind is str and not (isinstance(value, str) and 0 < len(value) <= limit
                                and value.isprintable()):
            return f"{message.id}: {name} is not a text of 1-{limit} printable characters"
    return None


def describe(message: Message) -> str:
    """``message`` as one line for a log or an exception (its id and params)."""
    params = ", ".join(f"{name}={value!r}" for name, value in message.params)
    return f"{message.id}({params})"
