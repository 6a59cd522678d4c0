"""DamExchange (DXP) messages: each one a frozen value with its parse and format.

DXP (layer 2) is fixed-width ASCII text, one message per frame (layer 1 over TCP ends each
frame with ``\\0``), at most 127 characters. The first letter is the kind:

=======  ====================================================================
``R``    GAMEREQ: version ``01``, initiator's name (32), follower's colour (``W`` or
         ``Z``), minutes (3), moves (3), ``A`` (the initial position) or ``B`` with the
         colour to move and 50 squares (``e``, ``w``, ``z``, ``W``, ``Z``)
``A``    GAMEACC: follower's name (32), code (``0`` accepted, ``1`` wrong version,
         ``2`` not this game, ``3`` no game at all)
``M``    MOVE: seconds used (4), from (2), to (2), number captured (2), each captured (2)
``E``    GAMEEND: reason (``0`` none, ``1`` I lose, ``2`` draw, ``3`` I win), stop code
``C``    CHAT: free text
``B``    BACKREQ: move number (3), colour to move (``W`` or ``Z``)
``K``    BACKACC: code (``0`` yes, ``1`` no, ``2`` go on)
=======  ====================================================================

DXP is a 10x10 protocol: 50 squares, numbered as in international draughts. Everything
received is checked here for its shape (`DxpMessageError` quotes it); whether a move is
legal is the rules' business (`move_of`).
"""

from __future__ import annotations

from dataclasses import dataclass

from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.fen import initial_position, parse_fen
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import Variant

MAX_MESSAGE = 127
NAME_WIDTH = 32
SQUARES = 50


class DxpMessageError(DraughtsError):
    """A DXP message that cannot be read (the message quotes it)."""


@dataclass(frozen=True)
class GameRequest:
    name: str
    follower_white: bool
    minutes: int
    moves: int
    position: Position | None  # None: the initial position, White to move
    version: str = "01"

    def format(self) -> str:
        head = (f"R{self.version}{_name(self.name)}{'W' if self.follower_white else 'Z'}"
                f"{_digits(self.minutes, 3)}{_digits(self.moves, 3)}")
        if self.position is None:
            return head + "A"
        return head + "B" + ("W" if self.position.white_to_move else "Z") + \
            format_squares(self.position)


@dataclass(frozen=True)
class GameAccept:
    name: str
    code: int

    def format(self) -> str:
        return f"A{_name(self.name)}{self.code}"


@dataclass(frozen=True)
class MoveMessage:
    seconds: int
    start: int
    end: int
    captures: tuple[int, ...]

    def format(self) -> str:
        return (f"M{_digits(min(self.seconds, 9999), 4)}{_digits(self.start, 2)}"
                f"{_digits(self.end, 2)}{_digits(len(self.captures), 2)}"
                + "".join(_digits(square, 2) for square in self.captures))


@dataclass(frozen=True)
class GameEnd:
    reason: int
    stop: int

    def format(self) -> str:
        return f"E{self.reason}{self.stop}"


@dataclass(frozen=True)
class Chat:
    text: str

    def format(self) -> str:
        return "C" + self.text[:MAX_MESSAGE - 1]


@dataclass(frozen=True)
class BackRequest:
    move_number: int
    white_to_move: bool

    def format(self) -> str:
        return f"B{_digits(self.move_number, 3)}{'W' if self.white_to_move else 'Z'}"


@dataclass(frozen=True)
class BackAccept:
    code: int

    def format(self) -> str:
        return f"K{self.code}"


Message = GameRequest | GameAccept | MoveMessage | GameEnd | Chat | BackRequest | BackAccept

ACCEPT_REASONS = {1: "it expects another protocol version",
                  2: "it does not want this game", 3: "it wants no game at all"}
END_KINDS_BY_REASON = {0: "ends", 1: "resigns", 2: "claims_draw", 3: "claims_win"}
END_REASONS = {0: "no reason given", 1: "it gives up", 2: "it claims a draw",
               3: "it claims a win"}


def _name(name: str) -> str:
    name = "".join(c if 32 <= ord(c) < 127 else "?" for c in name).strip() or "?"
    return name[:NAME_WIDTH].ljust(NAME_WIDTH)


def _digits(value: int, width: int) -> str:
    if not 0 <= value < 10 ** width:
        raise ValueError(f"{value} does not fit {width} digits")
    return str(value).zfill(width)


def _number(text: str, field: str, message: str) -> int:
    if len(text) == 0 or not text.isdigit() or not text.isascii():
        raise DxpMessageError(f"DXP message {message[:60]!r}: {field} {text!r} is not a number")
    return int(text)


def parse_message(variant: Variant, text: str) -> Message:
    """The message a frame holds; `DxpMessageError` for anything that is not one."""
    if not text or len(text) > MAX_MESSAGE or not all(1 <= ord(c) <= 127 for c in text):
        raise DxpMessageError(f"DXP message {text[:60]!r}: empty, too long or not ASCII")
    kind = text[0]
    if kind == "R":
        if len(text) < 43:
            raise DxpMessageError(f"DXP message {text[:60]!r}: GAMEREQ too short")
        colour = text[35]
        if colour not in "WZ":
            raise DxpMessageError(f"DXP message {text[:60]!r}: follower colour {colour!r}")
        minutes = _number(text[36:39], "minutes", text)
        moves = _number(text[39:42], "moves", text)
        start = text[42]
        position = None
        if start == "B":
            if len(text) != 44 + SQUARES or text[43] not in "WZ":
                raise DxpMessageError(f"DXP message {text[:60]!r}: GAMEREQ position")
            position = parse_squares(variant, text[44:], text[43] == "W")
        elif start != "A" or len(text) != 43:
            raise DxpMessageError(f"DXP message {text[:60]!r}: starting position {start!r}")
        return GameRequest(text[3:35].strip(), colour == "W", minutes, moves, position,
                           text[1:3])
    if kind == "A":
        if len(text) != 34:
            raise DxpMessageError(f"DXP message {text[:60]!r}: GAMEACC of {len(text)} "
                                  f"characters (34)")
        return GameAccept(text[1:33].strip(), _number(text[33], "code", text))
    if kind == "M":
        if len(text) < 11:
            raise DxpMessageError(f"DXP message {text[:60]!r}: MOVE too short")
        count = _number(text[9:11], "number captured", text)
        if len(text) != 11 + 2 * count:
            raise DxpMessageError(f"DXP message {text[:60]!r}: {count} captures announced, "
                                  f"{(len(text) - 11) / 2:g} given")
        captures = tuple(_number(text[11 + 2 * i:13 + 2 * i], "captured square", text)
                         for i in range(count))
        return MoveMessage(_number(text[1:5], "time", text), _number(text[5:7], "from", text),
                           _number(text[7:9], "to", text), captures)
    if kind == "E":
        if len(text) != 3:
            raise DxpMessageError(f"DXP message {text[:60]!r}: GAMEEND of {len(text)} "
                                  f"characters (3)")
        return GameEnd(_number(text[1], "reason", text), _number(text[2], "stop code", text))
    if kind == "C":
        return Chat(text[1:])
    if kind == "B":
        if len(text) != 5 or text[4] not in "WZ":
            raise DxpMessageError(f"DXP message {text[:60]!r}: BACKREQ")
        return BackRequest(_number(text[1:4], "move number", text), text[4] == "W")
    if kind == "K":
        if len(text) != 2:
            raise DxpMessageError(f"DXP message {text[:60]!r}: BACKACC")
        return BackAccept(_number(text[1], "code", text))
    raise DxpMessageError(f"DXP message {text[:60]!r}: unknown kind {kind!r}")


# -- positions and moves ----------------------------------------------------------------

def format_squares(position: Position) -> str:
    letters = {"w": "w", "b": "z", "W": "W", "B": "Z", None: "e"}
    return "".join(letters[position.piece_at(square)] for square in range(1, SQUARES + 1))


def parse_squares(variant: Variant, text: str, white_to_move: bool) -> Position:
    if len(text) != SQUARES or any(c not in "ewzWZ" for c in text):
        raise DxpMessageError(f"DXP position {text!r}: 50 of e, w, z, W, Z expected")
    white = [("K" if c == "W" else "") + str(n) for n, c in enumerate(text, 1) if c in "wW"]
    black = [("K" if c == "Z" else "") + str(n) for n, c in enumerate(text, 1) if c in "zZ"]
    side = "W" if white_to_move else "B"
    try:
        return parse_fen(variant, f"{side}:W{','.join(white)}:B{','.join(black)}")
    except DraughtsError as error:
        raise DxpMessageError(f"DXP position {text!r}: {error}") from None


def start_position(variant: Variant, request: GameRequest) -> Position:
    return request.position or initial_position(variant)


def move_message(move: Move, seconds: int = 0) -> MoveMessage:
    return MoveMessage(seconds, move.start, move.end, tuple(move.captures))


def move_of(position: Position, message: MoveMessage) -> Move | None:
    """The legal move of ``position`` a MOVE message names (start, end and the set of
    captured squares), or None when there is none."""
    wanted = sorted(message.captures)
    for move in position.legal_moves():
        if move.start == message.start and move.end == message.end and \
                sorted(move.captures) == wanted:
            return move
    return None
