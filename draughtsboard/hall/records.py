"""The hall store's journal records, typed: the record model's records of a game with
what is the hall's own beside them.

What a record does to a game is the record model's (`draughtsboard.board.game.records`):
the start is its `Start`, the moves its `MoveMade`s (as the hall's wire carries them,
`MoveRecord`), a correction its `Correction`, a result its `Result` (with who set it, a
`Setter`). What the hall adds is when it heard each (``received``, the hall's clock), the
board's change count, and what it has confirmed. `encode` writes each as the store has
always written it (so an old store reads and a new one is the same file); `decode` reads
one, `RecordFormatError` (one line) when it does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from draughtsboard.board.game.codec import RecordFormatError, decode_reason, encode_reason
from draughtsboard.board.game.records import Result, Setter, Start, Times
from draughtsboard.board.mode import Mode
from draughtsboard.hall_protocol.messages import MessageError, MoveRecord

# Who may set a hall game's result (the model's `Setter`s the hall takes).
RESULT_SOURCES = (Setter.RULES, Setter.ARBITER, Setter.BOARD, Setter.VENUE)


@dataclass(frozen=True, slots=True)
class HallStart:
    """A game the hall took in: its id, the model's start, when the hall heard it."""

    game: str
    start: Start
    received: float


@dataclass(frozen=True, slots=True)
class Moves:
    """The next moves, from move number ``first`` (a whole game caught up in one record);
    ``legacy``: one ``move`` record of the format before ``moves``, read in file order."""

    first: int | None
    moves: tuple[MoveRecord, ...]
    changes: int
    received: float


@dataclass(frozen=True, slots=True)
class Truncate:
    """A takeback: keep the first ``keep`` moves (``by`` the board or the arbiter)."""

    keep: int
    changes: int
    received: float
    by: str


@dataclass(frozen=True, slots=True)
class TagsSet:
    """Every tag of the game, as the board or the arbiter now has them."""

    tags: Mapping[str, str]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", MappingProxyType(dict(self.tags)))


@dataclass(frozen=True, slots=True)
class HallCorrection:
    """The arbiter's correction: play goes on from ``fen`` at ``ply``."""

    ply: int
    fen: str
    received: float
    by: str


@dataclass(frozen=True, slots=True)
class HallResult:
    """The game closed with the model's `Result` (its ``by``: the hall's source)."""

    result: Result
    received: float


@dataclass(frozen=True, slots=True)
class Confirmed:
    """How many moves the board's whole game or the arbiter confirmed (the feed's)."""

    count: int


@dataclass(frozen=True, slots=True)
class Reopen:
    """The arbiter took the result back: the game is in play again."""

    received: float


HallRecord = (Moves | Truncate | TagsSet | HallCorrection | HallResult | Confirmed
              | Reopen)


def encode(record: HallStart | HallRecord) -> dict[str, Any]:
    """The record as the store's journal holds it (without the journal's ``seq``)."""
    if isinstance(record, HallStart):
        start = record.start
        return {"type": "start", "game": record.game, "variant": start.variant,
                "fen": start.fen, "tags": dict(start.tags), "mode": start.mode.value,
                "t_mono": start.at.mono, "t_wall": start.at.wall,
                "received": record.received}
    if isinstance(record, Moves):
        if record.first is None:
            raise ValueError("a move record of the earlier format is read, never written")
        return {"type": "moves", "first": record.first,
                "moves": [move.to_dict() for move in record.moves],
                "changes": record.changes, "received": record.received}
    if isinstance(record, Truncate):
        return {"type": "truncate", "keep": record.keep, "changes": record.changes,
                "received": record.received, "by": record.by}
    if isinstance(record, TagsSet):
        return {"type": "tags", "tags": dict(record.tags)}
    if isinstance(record, HallCorrection):
        return {"type": "correction", "ply": record.ply, "fen": record.fen,
                "received": record.received, "by": record.by}
    if isinstance(record, HallResult):
        return {"type": "result", "result": record.result.result,
                **encode_reason(record.result.reason), "received": record.received,
                "source": record.result.by.value}
    if isinstance(record, Confirmed):
        return {"type": "confirmed", "count": record.count}
    return {"type": "reopen", "received": record.received}


def _number(data: Mapping[str, Any], key: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RecordFormatError(f"hall {data.get('type')} record: {key}: expected a number")
    return float(value)


def _whole(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordFormatError(f"hall {data.get('type')} record: {key}: expected a whole "
                                "number")
    return value


def _text(data: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise RecordFormatError(f"hall {data.get('type')} record: {key}: expected text")
    return value


def _optional(data: Mapping[str, Any], key: str) -> float | None:
    return None if data.get(key) is None else _number(data, key)


def _move(data: Any) -> MoveRecord:
    try:
        return MoveRecord.from_dict(data)
    except MessageError as error:
        raise RecordFormatError(f"hall moves record: {error}") from None


def decode_start(data: Mapping[str, Any]) -> HallStart:
    """A store's start record (`RecordFormatError` when it is not one)."""
    if data.get("type") != "start":
        raise RecordFormatError("no start record")
    tags = data.get("tags") or {}
    if not isinstance(tags, dict):
        raise RecordFormatError("hall start record: tags: expected an object")
    try:
        mode = Mode.parse(data.get("mode") or "tournament")
    except ValueError as error:
        raise RecordFormatError(f"hall start record: {error}") from None
    fen = data.get("fen")
    start = Start(_text(data, "variant"), {str(k): str(v) for k, v in tags.items()},
                  None if fen is None else _text(data, "fen"), mode, None,
                  Times(_optional(data, "t_mono"), _optional(data, "t_wall")))
    return HallStart(_text(data, "game"), start, _number(data, "received"))


def decode(data: Mapping[str, Any]) -> HallRecord:
    """A store's record after its start (`RecordFormatError` when it does not read)."""
    kind = data.get("type")
    if kind == "moves":
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise RecordFormatError("hall moves record: moves: expected a list")
        return Moves(_whole(data, "first"), tuple(map(_move, moves)),
                     _whole(data, "changes"), _number(data, "received"))
    if kind == "move":  # the format before ``moves``: one move, numbered by file order
        return Moves(None, (_move(data),), _whole(data, "changes"),
                     _number(data, "received"))
    if kind == "truncate":
        return Truncate(_whole(data, "keep"), _whole(data, "changes"),
                        _number(data, "received"), _text(data, "by", "board"))
    if kind == "tags":
        tags = data.get("tags")
        if not isinstance(tags, dict):
            raise RecordFormatError("hall tags record: tags: expected an object")
        return TagsSet({str(k): str(v) for k, v in tags.items()})
    if kind == "correction":
        return HallCorrection(_whole(data, "ply"), _text(data, "fen"),
                              _number(data, "received"), _text(data, "by", "arbiter"))
    if kind == "result":
        try:
            source = Setter(_text(data, "source", "board"))
        except ValueError:
            raise RecordFormatError("hall result record: source: expected who set it") \
                from None
        return HallResult(Result(_text(data, "result"), decode_reason(data, "hall result"),
                                 source),
                          _number(data, "received"))
    if kind == "confirmed":
        return Confirmed(_whole(data, "count"))
    if kind == "reopen":
        return Reopen(_number(data, "received"))
    raise RecordFormatError(f"unknown record type {str(kind)[:40]!r}")
