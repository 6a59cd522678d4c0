"""The hall store's journal records, typed: the record model's records of a game with
what is the hall's own beside them, written and read by the model's one codec.

What a record does to a game is the record model's (`draughtsboard.board.game.records`):
the start is its `Start`, the moves its `MoveMade`s (as the hall's wire carries them,
`MoveRecord`), a correction its `Correction`, a result its `Result` (with who set it, a
`Setter`, and a rule's reason typed). What the hall adds is its envelope: when it heard
each (``received``, the hall's clock), the board's change count, what it has confirmed.

Every record goes through the model's codec (`draughtsboard.board.game.codec`): the
start, the correction and the result are the codec's own JSON with the envelope's
fields beside them; the hall's own kinds (``moves``, ``truncate``, ``tags``,
``confirmed``, ``reopen``) are read with the codec's typed `Fields`. So the hall's
journal has the model's versions too: the start carries ``version``, any other record
may carry ``v``, and a record of a newer format is a `NewerRecordError`, one line (the
store leaves that journal as it is). Every field the store wrote before reads as it
did (the result's ``source`` is written too, for the release before); `decode` reads
one, `RecordFormatError` (one line) when it does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from draughtsboard.board.game import codec
from draughtsboard.board.game.codec import Fields, RecordFormatError, check_version
from draughtsboard.board.game.records import Correction, Result, Setter, Start
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
        return {**codec.encode(record.start), "game": record.game,
                "received": record.received}
    if isinstance(record, HallResult):
        return {**codec.encode(record.result), "received": record.received,
                "source": record.result.by.value}
    if isinstance(record, HallCorrection):
        return {**codec.encode(Correction(record.ply, record.fen, "")),
                "received": record.received, "by": record.by}
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
    if isinstance(record, Confirmed):
        return {"type": "confirmed", "count": record.count}
    return {"type": "reopen", "received": record.received}


class _Envelope(Fields):
    """The hall's fields of a record, read by the codec's typed readers."""

    def received(self) -> float:
        value = self.number("received")
        if value is None:
            raise self.fail("received", "a number")
        return value


def _move(data: Any) -> MoveRecord:
    try:
        return MoveRecord.from_dict(data)
    except MessageError as error:
        raise RecordFormatError(f"hall moves record: {error}") from None


def decode_start(data: Mapping[str, Any]) -> HallStart:
    """A store's start record (`RecordFormatError` when it is not one,
    `NewerRecordError` when it is of a newer format)."""
    if not isinstance(data, Mapping) or data.get("type") != "start":
        raise RecordFormatError("no start record")
    start = codec.decode(data)
    assert isinstance(start, Start)  # the codec reads a "start" as its Start
    envelope = _Envelope(data, "hall start")
    return HallStart(envelope.text("game"), start, envelope.received())


def decode(data: Mapping[str, Any]) -> HallRecord:
    """A store's record after its start (`RecordFormatError` when it does not read,
    `NewerRecordError` when it is of a newer format)."""
    if not isinstance(data, Mapping):
        raise RecordFormatError("a record is a JSON object")
    kind = data.get("type")
    check_version(data)
    envelope = _Envelope(data, f"hall {str(kind)[:20]}")
    if kind == "result":
        result = codec.decode(data)
        assert isinstance(result, Result)
        if "by" not in data:  # a store of the release before said only its source
            try:
                result = Result(result.result, result.reason,
                                Setter(envelope.text("source", "board")), result.at)
            except ValueError:
                raise envelope.fail("source", "who set it") from None
        return HallResult(result, envelope.received())
    if kind == "correction":
        correction = codec.decode(data)
        assert isinstance(correction, Correction)
        return HallCorrection(envelope.whole("ply"), correction.fen, envelope.received(),
                              envelope.text("by", "arbiter"))
    if kind == "moves":
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise envelope.fail("moves", "a list")
        return Moves(envelope.whole("first"), tuple(map(_move, moves)),
                     envelope.whole("changes"), envelope.received())
    if kind == "move":  # the format before ``moves``: one move, numbered by file order
        return Moves(None, (_move(data),), envelope.whole("changes"), envelope.received())
    if kind == "truncate":
        return Truncate(envelope.whole("keep"), envelope.whole("changes"),
                        envelope.received(), envelope.text("by", "board"))
    if kind == "tags":
        tags = envelope.tags()
        if tags is None:
            raise envelope.fail("tags", "an object")
        return TagsSet(tags)
    if kind == "confirmed":
        return Confirmed(envelope.whole("count"))
    if kind == "reopen":
        return Reopen(envelope.received())
    raise RecordFormatError(f"unknown record type {str(kind)[:40]!r}")
