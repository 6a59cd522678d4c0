"""The one codec of the record model: a record as a JSON object and back.

`encode` writes a record as the journal has always held it (the same ``type`` and
fields, so a journal written now reads in the release before, and every journal written
before reads now); `decode` reads one, trusting nothing: each field's type is checked
and a record that does not read is a `RecordFormatError` (one line, the record's kind
and the field). `to_json` and `from_json` add the bounds of text read from outside: at
most `MAX_BYTES` bytes, checked before parsing, and `MAX_DEPTH` levels of nesting.

Versions: the start record carries ``version``, any other record may carry ``v``
(absent: 1). A record of a newer format than this release reads is a
`NewerRecordError`: one line that says so; nothing is changed or dropped (the journal
reader stops before it and leaves the file as it is).

Records written before the record model said a coach switch only in English ("hints
switched off for this game"); `LEGACY_SWITCHES` reads those four fixed sentences into a
`CoachSwitch` once, here at the edge, and only for a coach record without the
``switch`` field: every coach record written now carries it (``null`` for a coach's
note that switches nothing), so no record written now is ever read by its words.
A result's reason is the same: the rules' reasons are typed (``rule``: a code and its
count, beside the English ``reason`` PDN shows and the release before reads), ``null``
for a person's words; a result record without ``rule`` is the release before's, and
only then are its words looked up among the rules' sentences (`reasons.OLD_WORDS`).
A draw the arbiter accepted keeps every rule's reason that held (``rules``, a list,
with ``rule`` null so that a reader of ``rule`` alone reads its words, the PDN's).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from ..message import Message
from ..mode import Mode
from ..rules.draws import Reason, ReasonCode
from ..rules.errors import DraughtsError
from . import reasons
from .records import (
    CLOCK_KINDS,
    EVENT_KINDS,
    NO_TIME,
    AnyRecord,
    ClockEvent,
    CoachAid,
    CoachSwitch,
    Correction,
    Declined,
    Event,
    IrregularMove,
    MatchStop,
    MoveMade,
    RecordKind,
    Result,
    ResultWithdrawn,
    Setter,
    Start,
    Takeback,
    TakebackKind,
    TakebackTo,
    Times,
    Why,
)

FORMAT_VERSION = 1
MAX_BYTES = 1024 * 1024  # one record's JSON (a hall's whole game in one record fits)
MAX_DEPTH = 16  # nesting of one record (a message nests at most 6 levels)
MAX_PATH = 64  # squares of one move's path or captures
MAX_TAGS = 100
MAX_RULES = 8  # the rules' reasons of one draw accepted

# What format 1 wrote for a coach switch, and the switch it was (see the module doc).
LEGACY_SWITCHES = {
    "hints switched off for this game": CoachSwitch(CoachAid.HINTS, False),
    "hints switched on": CoachSwitch(CoachAid.HINTS, True),
    "blunder warnings switched off for this game": CoachSwitch(CoachAid.WARNINGS, False),
    "blunder warnings switched on": CoachSwitch(CoachAid.WARNINGS, True),
}


class RecordFormatError(DraughtsError):
    """A record that does not read: not JSON, too big or deep, a field missing or of
    the wrong type, an unknown kind."""


class NewerRecordError(RecordFormatError):
    """A record of a newer format than this release reads (one line; nothing is lost)."""


# -- writing ------------------------------------------------------------------------------


def _times(at: Times) -> dict[str, Any]:
    return {"t_mono": at.mono, "t_wall": at.wall}


def _said(message: Message | None) -> dict[str, Any]:
    return {} if message is None else {"message": message.as_json()}


def encode(record: AnyRecord) -> dict[str, Any]:
    """The record as the journal's JSON object (without the journal's ``seq``)."""
    if isinstance(record, Start):
        return {"type": "start", "version": record.version, "variant": record.variant,
                "tags": dict(record.tags), "fen": record.fen, "mode": record.mode.value,
                "draw_preset": record.draw_preset, **_times(record.at)}
    if isinstance(record, MoveMade):
        return {"type": "move", "ply": record.ply, "path": list(record.path),
                "captures": list(record.captures), "text": record.text, **_times(record.at),
                "clock": list(record.clock) if record.clock else None}
    if isinstance(record, Result):
        return encode_result(record)
    if isinstance(record, TakebackTo):
        return {"type": "takeback_to", "ply": record.ply, "text": record.text,
                **_times(record.at), **_said(record.message)}
    data: dict[str, Any] = {"type": record.kind.value}
    if isinstance(record, Takeback):
        data["kind"] = record.what.value
    data.update(ply=record.ply, text=record.text, **_times(record.at))
    if isinstance(record, Event):
        if record.tags is not None:
            data["tags"] = dict(record.tags)
        data.update(_said(record.message))
        if record.what is RecordKind.COACH:  # present, null or not: no words read back
            switch = record.switch
            data["switch"] = None if switch is None else {"aid": switch.aid.value,
                                                          "on": switch.on}
    elif isinstance(record, ClockEvent):
        data["clock"] = list(record.clock) if record.clock is not None else None
        data.update(_said(record.message))
    elif isinstance(record, IrregularMove):
        data.update(path=list(record.path), captures=list(record.captures),
                    irregularity=record.irregularity, comment=record.comment,
                    fen=record.fen)
    elif isinstance(record, Correction):
        data["fen"] = record.fen
        data.update(_said(record.message))
    elif isinstance(record, ResultWithdrawn):
        data.update(_said(record.message))
        if record.declined is not None:
            declined = record.declined
            data["declined"] = {"match": declined.match, "seat": declined.seat,
                                "result": declined.result,
                                "withdrawals": declined.withdrawals}
    else:  # Takeback, MatchStop
        data.update(_said(record.message))
    return data


def _rule(reason: Reason) -> dict[str, Any]:
    rule: dict[str, Any] = {"code": reason.code.value}
    if reason.count is not None:
        rule["count"] = reason.count
    return rule


def encode_reason(reason: Why, by: Setter = Setter.UNKNOWN) -> dict[str, Any]:
    """A result's reason as the journal holds it: ``reason``, the English words (what
    PDN shows and the release before reads), and for a rule's reason ``rule``, the
    typed reason (its code and count) that is read back. The reasons of a draw the
    arbiter accepted are ``rules``, a list, with ``rule`` null: a reader that knows
    only ``rule`` reads the words, which are the PDN's ("draw: threefold repetition
    (accepted by the arbiter)")."""
    if isinstance(reason, str):  # null: words, never looked up (`decode_reason`)
        return {"reason": reason, "rule": None}
    if isinstance(reason, tuple):
        return {"reason": reasons.why_words(reason, by), "rule": None,
                "rules": [_rule(one) for one in reason]}
    return {"reason": reasons.words(reason), "rule": _rule(reason)}


def encode_result(record: Result) -> dict[str, Any]:
    data: dict[str, Any] = {"type": "result", "result": record.result,
                            **encode_reason(record.reason, record.by),
                            **_times(record.at)}
    if record.by is not Setter.UNKNOWN:
        data["by"] = record.by.value
    return data


def to_json(record: AnyRecord) -> str:
    """The record as one line of JSON."""
    return json.dumps(encode(record), ensure_ascii=False, separators=(",", ":"))


# -- reading ------------------------------------------------------------------------------


class Fields:
    """A record's fields read with their types checked (`RecordFormatError` naming the
    record's kind and the field). Public for the views that keep their own fields
    around the model's records (the hall store's envelope: when it heard each record,
    what is confirmed), so every field read from a file is read one way."""

    def __init__(self, data: Mapping[str, Any], kind: str) -> None:
        self.data, self.kind = data, kind

    def fail(self, key: str, expected: str) -> RecordFormatError:
        return RecordFormatError(f"{self.kind} record: {key}: expected {expected}")

    def text(self, key: str, default: str | None = None) -> str:
        value = self.data.get(key, default)
        if not isinstance(value, str):
            raise self.fail(key, "text")
        return value

    def optional_text(self, key: str) -> str | None:
        value = self.data.get(key)
        return None if value is None else self.text(key)

    def number(self, key: str) -> float | None:
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value):
            raise self.fail(key, "a number")
        return float(value)

    def whole(self, key: str, default: int | None = None) -> int:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, "a whole number")
        return value

    def optional_whole(self, key: str) -> int | None:
        return None if self.data.get(key) is None else self.whole(key)

    def squares(self, key: str) -> tuple[int, ...]:
        value = self.data.get(key)
        if not isinstance(value, list) or len(value) > MAX_PATH or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise self.fail(key, "a list of square numbers")
        return tuple(value)

    def clock(self, key: str = "clock") -> tuple[float, float] | None:
        value = self.data.get(key)
        if not value:
            return None
        if not isinstance(value, list) or len(value) != 2 or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                for v in value):
            raise self.fail(key, "two clocks in seconds")
        return float(value[0]), float(value[1])

    def tags(self, key: str = "tags") -> dict[str, str] | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, dict) or len(value) > MAX_TAGS:
            raise self.fail(key, f"at most {MAX_TAGS} tags")
        return {str(k): str(v) for k, v in value.items()}

    def times(self) -> Times:
        mono, wall = self.number("t_mono"), self.number("t_wall")
        return NO_TIME if mono is None and wall is None else Times(mono, wall)

    def message(self) -> Message | None:
        """The record's words as a message, when it kept one that reads (an older
        record, or a damaged message, is read by its text alone)."""
        value = self.data.get("message")
        if value is None:
            return None
        try:
            return Message.from_json(value)
        except ValueError:
            return None


def check_version(data: Mapping[str, Any], key: str = "v") -> int:
    """The record's format (``key``: ``version`` on a start, ``v`` on any other record;
    absent: 1); `NewerRecordError` for a format newer than this release reads."""
    version = data.get(key, 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise RecordFormatError(f"{data.get('type')} record: {key}: expected a version "
                                "number")
    if version > FORMAT_VERSION:
        raise NewerRecordError(f"a {str(data.get('type'))[:20]} record of format {version}, "
                               f"newer than this release reads (format {FORMAT_VERSION}): "
                               "update draughtsboard to read it")
    return version


def _kind(data: Mapping[str, Any]) -> RecordKind:
    kind = data.get("type")
    try:
        return RecordKind(str(kind))
    except ValueError:
        raise RecordFormatError(f"unknown record type {str(kind)[:40]!r}") from None


def _switch(fields: Fields) -> CoachSwitch | None:
    if "switch" not in fields.data:  # a record of the release before the model
        return LEGACY_SWITCHES.get(fields.data.get("text", ""))
    value = fields.data["switch"]
    if value is None:
        return None
    try:
        return CoachSwitch(CoachAid(value["aid"]), bool(value["on"]))
    except (TypeError, KeyError, ValueError):
        raise fields.fail("switch", "an aid and on or off") from None


def decode_reason(data: Mapping[str, Any], kind: str = "result") -> Why:
    """A result's reason: the typed ``rule`` when the record has one, the typed
    ``rules`` of a draw accepted, its words when ``rule`` is null (a person's:
    "resigned"). A record of the release before has no ``rule``: its words are read as
    the rule's reason they were when they are one of the rules' sentences
    (`reasons.OLD_WORDS`; here and only here), else as words."""
    fields = Fields(data, kind)
    text = fields.text("reason", "")
    several = data.get("rules")
    if several is not None:
        if not isinstance(several, list) or not 1 <= len(several) <= MAX_RULES:
            raise fields.fail("rules", f"a list of 1-{MAX_RULES} rules' reasons")
        return tuple(_decode_rule(fields, "rules", rule) for rule in several)
    if "rule" not in data:  # a record of the release before the typed reason
        return reasons.OLD_WORDS.get(text, text)
    rule = data["rule"]
    if rule is None:
        return text
    return _decode_rule(fields, "rule", rule)


def _decode_rule(fields: Fields, key: str, rule: Any) -> Reason:
    if not isinstance(rule, dict):
        raise fields.fail(key, "a rule's reason")
    inner = Fields(rule, fields.kind + " rule")
    try:
        code = ReasonCode(inner.text("code"))
    except ValueError:
        raise fields.fail(key, "a rule's reason") from None
    return Reason(code, inner.optional_whole("count"))


def _declined(fields: Fields) -> Declined | None:
    value = fields.data.get("declined")
    if value is None:
        return None
    if not isinstance(value, dict):
        raise fields.fail("declined", "a match result declined")
    inner = Fields(value, fields.kind + " declined")
    return Declined(inner.text("match"), inner.text("seat"), inner.text("result"),
                    inner.whole("withdrawals"))


def decode(data: Mapping[str, Any]) -> AnyRecord:
    """The record a JSON object holds (what `encode` wrote, or a journal of any earlier
    release); `RecordFormatError` (one line) when it does not read, `NewerRecordError`
    when it is of a newer format."""
    if not isinstance(data, Mapping):
        raise RecordFormatError("a record is a JSON object")
    kind = _kind(data)
    fields = Fields(data, kind.value)
    if kind is RecordKind.START:
        version = check_version(data, "version")
        try:
            mode = Mode.parse(fields.optional_text("mode"))
        except ValueError as error:
            raise RecordFormatError(f"start record: {error}") from None
        return Start(fields.text("variant"), fields.tags() or {}, fields.optional_text("fen"),
                     mode, fields.optional_text("draw_preset"), fields.times(), version)
    check_version(data, "v")
    at = fields.times()
    if kind is RecordKind.MOVE:
        return MoveMade(fields.whole("ply"), fields.squares("path"),
                        fields.squares("captures"), fields.text("text", ""), at,
                        fields.clock())
    if kind is RecordKind.RESULT:
        try:
            by = Setter(fields.text("by", ""))
        except ValueError:
            raise fields.fail("by", "who set the result") from None
        return Result(fields.text("result"), decode_reason(data), by, at)
    if kind is RecordKind.TAKEBACK_TO:
        return TakebackTo(fields.whole("ply"), fields.text("text", ""), fields.message(), at)
    ply = fields.optional_whole("ply")
    if kind is RecordKind.TAKEBACK:
        try:
            what = TakebackKind(fields.text("kind", "takeback"))
        except ValueError:
            raise fields.fail("kind", "takeback or amendment") from None
        return Takeback(ply, what,
                        fields.text("text", "move taken back"), fields.message(), at)
    if kind is RecordKind.IRREGULAR_MOVE:
        return IrregularMove(fields.whole("ply"), fields.squares("path"),
                             fields.squares("captures"), fields.text("text"),
                             fields.text("irregularity", ""), fields.text("comment", ""),
                             fields.text("fen"), at)
    if kind is RecordKind.CORRECTION:
        return Correction(ply, fields.text("fen"), fields.text("text", ""), at,
                          fields.message())
    text = fields.text("text", "")
    if kind in EVENT_KINDS:
        tags = fields.tags() if kind is RecordKind.NOTE else None
        switch = _switch(fields) if kind is RecordKind.COACH else None
        return Event(kind, ply, text, fields.message(), at, tags, switch)
    if kind in CLOCK_KINDS:
        return ClockEvent(kind, ply, fields.clock(), text, fields.message(), at)
    if kind is RecordKind.RESULT_WITHDRAWN:
        return ResultWithdrawn(ply, text, fields.message(), at, _declined(fields))
    return MatchStop(ply, text, fields.message(), at)


def _depth(value: Any, limit: int) -> None:
    """`RecordFormatError` when ``value`` nests deeper than ``limit`` (no recursion)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            raise RecordFormatError(f"a record nested over {limit} levels deep")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)


def load_json(text: str | bytes) -> dict[str, Any]:
    """A record's JSON object read from outside: at most `MAX_BYTES`, checked before it
    is parsed, and `MAX_DEPTH` levels deep (`RecordFormatError`)."""
    size = len(text.encode("utf-8") if isinstance(text, str) else text)
    if size > MAX_BYTES:
        raise RecordFormatError(f"a record of {size} bytes (at most {MAX_BYTES})")
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise RecordFormatError(f"a record that is not JSON ({type(error).__name__})") \
            from None
    if not isinstance(data, dict):
        raise RecordFormatError("a record is a JSON object")
    _depth(data, MAX_DEPTH)
    return data


def from_json(text: str | bytes) -> AnyRecord:
    """The record a line of JSON holds (`load_json`'s bounds, then `decode`)."""
    return decode(load_json(text))
