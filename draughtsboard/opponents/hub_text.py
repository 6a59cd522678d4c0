"""The Hub protocol's text (version 2, as documented with Scan 3.1): lines, positions, moves.

Pure: both sides of the protocol use it, the built-in engine speaking Hub
(`hub_engine`, ``draughtsboard hub``) and the board driving an external Hub engine
(`hub_client`). docs/opponents.md describes the protocol and our additions.

* A line is ``command arg=value arg="a value with spaces" flag``; values are quoted when
  they hold a space or ``=`` or are empty. Unknown commands and arguments are ignored by
  both sides (the protocol says so), but a line that cannot be split is an error.
* A position is the side to move (``W`` or ``B``) and one letter per square in the
  variant's numbering (``w``, ``b`` men, ``W``, ``B`` kings, ``e`` empty): 51 letters for
  10x10, as Scan writes it; 33 for Russian draughts (PDN numbering: 1 = b8, 32 = g1).
  Column games (our addition) write a column of two pieces or more in parentheses, top
  first: ``(wbB)``.
* A move is ``from-to``, or a capture ``fromxto`` followed by ``x`` and each captured
  square: in any order for single-piece games (the set decides, as in Scan), in the order
  taken for column games (the order builds the columns).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import overload

from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import Variant, get_variant

MAX_LINE = 16 * 1024  # a longer line is garbage, not a position or a move list

# The names of the variants on the Hub ``variant`` parameter: Scan's own name for 10x10
# ("normal"), ours for the others. Both sides accept the aliases.
HUB_VARIANT_NAMES = {
    "normal": "international",
    "russian": "russian",
    "lasca": "lasca",
    "column": "column",
    "column-7x7": "column-7x7",
}
HUB_VARIANT_ALIASES = {"international": "normal", "standard": "normal"}

_TOKEN = re.compile(r'\s*([^\s=]+)(?:=("(?:[^"]*)"|[^\s"]*))?')


class HubTextError(DraughtsError):
    """A Hub line, position or move that cannot be read (the message quotes it)."""


@dataclass(frozen=True)
class HubLine:
    """One line of the protocol: its command and its arguments (a flag has value "")."""

    command: str
    args: dict[str, str]

    @overload
    def get(self, name: str) -> str | None: ...
    @overload
    def get(self, name: str, default: str) -> str: ...

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.args.get(name, default)


def parse_line(text: str) -> HubLine | None:
    """The line's command and arguments; None for a blank line; `HubTextError` for a
    line too long or one that cannot be split (an unclosed quote)."""
    if len(text) > MAX_LINE:
        raise HubTextError(f"line of {len(text)} characters (at most {MAX_LINE})")
    text = text.strip()
    if not text:
        return None
    command, _, rest = text.partition(" ")
    args: dict[str, str] = {}
    position = 0
    rest = rest.strip()
    while position < len(rest):
        match = _TOKEN.match(rest, position)
        if not match or match.end() == position:
            raise HubTextError(f"cannot read {text[:80]!r}")
        name, value = match.group(1), match.group(2)
        if value is None:
            value = ""
        elif value.startswith('"'):
            value = value[1:-1]
        args[name] = value
        position = match.end()
        while position < len(rest) and rest[position].isspace():
            position += 1
    if rest.count('"') % 2:
        raise HubTextError(f"unclosed quote in {text[:80]!r}")
    return HubLine(command, args)


def format_line(command: str, *flags: str, **args: object) -> str:
    """A line of the protocol; argument names with ``_`` are written with ``-``
    (``move_time=1`` is ``move-time=1``); values quoted when they need it."""
    parts = [command, *flags]
    for name, value in args.items():
        text = str(value)
        if not text or any(c.isspace() or c == "=" for c in text):
            if '"' in text:
                raise ValueError(f"a Hub value cannot hold a double quote: {text!r}")
            text = f'"{text}"'
        parts.append(f"{name.replace('_', '-')}={text}")
    return " ".join(parts)


def hub_variant(name: str) -> Variant:
    """The variant of a Hub ``variant`` value; `HubTextError` naming the known ones."""
    name = HUB_VARIANT_ALIASES.get(name, name)
    try:
        return get_variant(HUB_VARIANT_NAMES[name])
    except KeyError:
        known = " ".join(HUB_VARIANT_NAMES)
        raise HubTextError(f"unknown variant {name!r} (known: {known})") from None


def hub_variant_name(variant: Variant) -> str:
    return next(hub for hub, ours in HUB_VARIANT_NAMES.items() if ours == variant.name)


# -- positions ------------------------------------------------------------------------------

def format_position(position: Position) -> str:
    """The Hub text of a position (see the module doc)."""
    variant = position.variant
    out = ["W" if position.white_to_move else "B"]
    for square in variant.geometry.numbers:
        column = position.column_at(square)
        if not column:
            out.append("e")
        elif len(column) == 1:
            out.append(column)
        else:
            out.append(f"({column})")
    return "".join(out)


def parse_position(variant: Variant, text: str) -> Position:
    """The position of a Hub position text; `HubTextError` (quoting it) when it is not
    one of this variant, or the position cannot occur."""
    squares = variant.geometry.square_count
    if not text or text[0] not in "WB":
        raise HubTextError(f"position {text[:80]!r}: must start with W or B")
    columns: list[str] = []
    index = 1
    while index < len(text):
        letter = text[index]
        if letter == "(" and variant.holds_columns:
            end = text.find(")", index)
            if end < 0:
                raise HubTextError(f"position {text[:80]!r}: unclosed column")
            column = text[index + 1:end]
            if len(column) < 2 or any(c not in "wbWB" for c in column):
                raise HubTextError(f"position {text[:80]!r}: bad column {column!r}")
            columns.append(column)
            index = end + 1
            continue
        if letter not in "wbWBe":
            raise HubTextError(f"position {text[:80]!r}: unknown square letter {letter!r}")
        columns.append("" if letter == "e" else letter)
        index += 1
    if len(columns) != squares:
        raise HubTextError(f"position {text[:80]!r}: {len(columns)} squares, "
                           f"{variant.title} has {squares}")
    side = text[0]
    try:
        if variant.holds_columns:
            names = variant.geometry.name
            body = ",".join(f"{names(number)}={column}"
                            for number, column in enumerate(columns, 1) if column)
            return parse_fen(variant, f"{side}:{body}")
        white = [("K" if c == "W" else "") + str(n) for n, c in enumerate(columns, 1)
                 if c in ("w", "W")]
        black = [("K" if c == "B" else "") + str(n) for n, c in enumerate(columns, 1)
                 if c in ("b", "B")]
        return parse_fen(variant, f"{side}:W{','.join(white)}:B{','.join(black)}")
    except DraughtsError as error:
        raise HubTextError(f"position {text[:80]!r}: {error}") from None


# -- moves ----------------------------------------------------------------------------------

def format_move(position: Position, move: Move) -> str:
    """The Hub text of a legal move of ``position``."""
    del position  # every variant writes a move the same way; the order is the move's own
    if not move.captures:
        return f"{move.start}-{move.end}"
    return "x".join(str(square) for square in (move.start, move.end, *move.captures))


def parse_move(position: Position, text: str) -> Move:
    """The legal move a Hub move text names; `HubTextError` for a text that is not a
    move, or names no legal move (the message quotes the move and the position)."""
    text = text.strip()
    separator = "x" if "x" in text else "-"
    parts = text.split(separator)
    if len(parts) < 2 or not all(part.isdigit() and len(part) <= 3 for part in parts):
        raise HubTextError(f"move {text[:80]!r} is not a Hub move")
    start, end, *captured = (int(part) for part in parts)
    if separator == "-" and len(parts) != 2:
        raise HubTextError(f"move {text[:80]!r} is not a Hub move")
    columns = position.variant.holds_columns
    fits = [move for move in position.legal_moves()
            if move.start == start and move.end == end
            and (list(move.captures) == captured if columns
                 else sorted(move.captures) == sorted(captured))]
    if not fits:
        raise HubTextError(f"move {text!r} is not legal in {position.fen()}")
    if len({position.play(move) for move in fits}) > 1:
        raise HubTextError(f"move {text!r} is ambiguous in {position.fen()}")
    return fits[0]  # several paths to the same position are the same move
