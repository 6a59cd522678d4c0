"""The JSON messages of the topic tree, each a frozen value with paired ``to_json`` and
``from_json``. ``from_json`` trusts nothing: sizes, types and ranges are checked and a
`MessageError` says what was wrong, so that one bad message is logged with its board's
number and dropped, never a traceback.

Every message carries ``"v": 1``. A game is named by the board's own game id
(``NNNNN-YYYYmmdd-HHMMSS``: the running number orders a board's games). Within a game:

* ``seq`` of a ply message is the move's number in the game as it stands (1 = the first
  move), so the hall sees a gap at once and asks for the missing range;
* ``changes`` counts every change of the move list since the game began (a move adds
  one, a takeback two: the move and its removal), so it only grows; of two messages about
  one game, the one with more changes is the newer, even after a takeback in training.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from draughtsboard.board.game.tags import InvalidTagError, clean_tags
from draughtsboard.board.message import Message
from draughtsboard.board.rules.draws import Reason, ReasonCode

VERSION = 1
MAX_PAYLOAD = 512 * 1024  # a 300-ply game with its PDN is about 80 KB
MAX_MOVES = 2000
MAX_TEXT = 2000
MAX_PDN = 256 * 1024
MAX_CORRECTIONS = 100
MAX_RULES = 8  # the rules' reasons of one result (several counting rules can hold at once)
MAX_RULE_MOVES = 1000  # a counting rule's moves (the rules count 5 to 60)
# the reasons that are a counting rule's (with its moves); the others have no count
FIXED_REASONS = frozenset({ReasonCode.NO_MOVE_WHITE, ReasonCode.NO_MOVE_BLACK,
                           ReasonCode.REPETITION})
GAME_ID = re.compile(r"^[0-9]{5,9}-[0-9]{8}-[0-9]{6}\Z")  # ASCII digits, no newline after
MAX_CLOCK = 10 ** 7  # seconds a clock may show (a board's clock may lie, not overflow PDN)
COMMANDS = ("new_game", "set_tags", "result", "withdraw", "takeback", "position", "clock",
            "acknowledge", "resend")
CLOCK_ACTIONS = ("start", "pause", "resume")
MODES = ("tournament", "training", "free", "puzzle")
FLAGS = ("illegal", "must capture", "restore", "disturbed", "ambiguous")


class MessageError(ValueError):
    """A message that does not follow the protocol: the reason, never the payload."""


def decode_json(payload: bytes) -> dict[str, Any]:
    """The JSON object of a payload, checked for size, encoding and version."""
    if len(payload) > MAX_PAYLOAD:
        raise MessageError(f"payload of {len(payload)} bytes is over {MAX_PAYLOAD}")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise MessageError(f"not JSON ({type(error).__name__})") from None
    if not isinstance(data, dict):
        raise MessageError("not a JSON object")
    if data.get("v") != VERSION:
        raise MessageError(f"protocol version {data.get('v')!r}, expected {VERSION}")
    return data


def encode(data: dict[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, **data}, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


# -- field checks ----------------------------------------------------------------------------

def _int(data: dict, key: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MessageError(f"{key}: expected a whole number in {low}-{high}")
    return value


def _text(data: dict, key: str, limit: int = 200, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > limit:
        raise MessageError(f"{key}: expected text of at most {limit} characters")
    return value


def _optional_text(data: dict, key: str, limit: int = 200) -> str | None:
    return None if data.get(key) is None else _text(data, key, limit)


def _time(data: dict, key: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
            value):
        raise MessageError(f"{key}: expected a number of seconds")
    return float(value)


def _rule(data: dict, key: str = "result_rule") -> Reason | None:
    """A rule's typed reason, ``{"code": ..., "count": N}``: a code the rules know, a
    counting rule's with its moves (1-`MAX_RULE_MOVES`), any other's without. Absent or
    null: the result's reason is no rule's (or a board of the release before sent only
    its words)."""
    value = data.get(key)
    return None if value is None else _rule_of(value, key)


def _rules(data: dict, key: str = "result_rules") -> tuple[Reason, ...]:
    """The rules' typed reasons of a draw a board's arbiter accepted, a list of what
    `_rule` reads (at most `MAX_RULES`); absent or empty: none."""
    value = data.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_RULES:
        raise MessageError(f"{key}: expected a list of at most {MAX_RULES} rules' reasons")
    return tuple(_rule_of(item, key) for item in value)


def _rule_of(item: Any, key: str) -> Reason:
    if not isinstance(item, dict):
        raise MessageError(f"{key}: expected a {{code, count}} object")
    try:
        code = ReasonCode(str(item.get("code")))
    except ValueError:
        raise MessageError(f"{key}: expected a code the rules know") from None
    if code in FIXED_REASONS:
        if item.get("count") is not None:
            raise MessageError(f"{key}: {code.value} has no count of moves")
        return Reason(code)
    try:
        return Reason(code, _int(item, "count", 1, MAX_RULE_MOVES))
    except MessageError as error:
        raise MessageError(f"{key}: {code.value} {error}") from None


def _rule_fields(reason: Reason) -> dict[str, Any]:
    out: dict[str, Any] = {"code": reason.code.value}
    if reason.count is not None:
        out["count"] = reason.count
    return out


def _game_id(data: dict, key: str = "game") -> str:
    value = data.get(key)
    if not isinstance(value, str) or not GAME_ID.match(value):
        raise MessageError(f"{key}: expected a game id NNNNN-YYYYmmdd-HHMMSS")
    return value


def _squares(data: dict, key: str) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) > 64 or not all(
            isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 50 for s in value):
        raise MessageError(f"{key}: expected a list of square numbers")
    return tuple(value)


def _tags(data: dict, key: str = "tags") -> dict[str, str]:
    """Tags as a PDN file may hold them (`clean_tags`, the one check every way into a
    PDN goes through): a tag that could break a PDN line makes the message bad."""
    value = data.get(key, {})
    if not isinstance(value, dict) or len(value) > 50 or not all(
            isinstance(k, str) and isinstance(v, str) and len(k) <= 40 and len(v) <= 200
            for k, v in value.items()):
        raise MessageError(f"{key}: expected at most 50 tags of text")
    try:
        return clean_tags(value)
    except InvalidTagError as error:
        raise MessageError(f"{key}: {error}") from None


# -- values ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class MoveRecord:
    """One move as the board's journal holds it: notation, squares, times, clocks."""

    text: str
    path: tuple[int, ...]
    captures: tuple[int, ...] = ()
    t_mono: float | None = None
    t_wall: float | None = None
    clock: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "path": list(self.path), "captures": list(self.captures),
                "t_mono": self.t_mono, "t_wall": self.t_wall,
                "clock": list(self.clock) if self.clock else None}

    @classmethod
    def from_dict(cls, data: Any) -> MoveRecord:
        if not isinstance(data, dict):
            raise MessageError("move: expected an object")
        path = _squares(data, "path")
        if len(path) < 2:
            raise MessageError("move: a path of at least two squares")
        clock = data.get("clock")
        if clock is not None:
            if not isinstance(clock, list) or len(clock) != 2:
                raise MessageError("move clock: expected [white, black] seconds")
            white, black = _time({"c": clock[0]}, "c"), _time({"c": clock[1]}, "c")
            if white is None or black is None \
                    or not all(0 <= c <= MAX_CLOCK for c in (white, black)):
                raise MessageError(f"move clock: expected [white, black] seconds, 0-{MAX_CLOCK}")
            clock = (white, black)
        return cls(_text(data, "text", 200), path, _squares(data, "captures"),
                   _time(data, "t_mono"), _time(data, "t_wall"), clock)

    def same_move(self, other: MoveRecord) -> bool:
        return self.path == other.path and self.captures == other.captures


@dataclass(frozen=True)
class GameRecord:
    """A whole game: what the retained ``state`` and a ``game`` message carry."""

    game: str
    variant: str
    tags: dict[str, str]
    moves: tuple[MoveRecord, ...]
    changes: int
    fen: str | None = None  # the start position when it is not the initial one
    mode: str = "tournament"
    t_mono: float | None = None  # when the game started
    t_wall: float | None = None
    result: str | None = None
    result_reason: str = ""  # why, in English: what PDN shows and a hall before read
    # the arbiter's corrections in effect: (ply, position text), play went on from it
    corrections: tuple[tuple[int, str], ...] = ()
    # why, typed, when the rules gave the reason (``result_rule``), or the rules'
    # reasons of a draw the board's arbiter accepted (``result_rules``); each absent when
    # there is none, and a hall before ignores both. The hall believes them as far as its
    # own copy of the game proves them (`hall.ingest`), and renders a rule's reason in
    # each reader's language
    result_rule: Reason | None = None
    result_rules: tuple[Reason, ...] = ()

    def fields(self) -> dict[str, Any]:
        out = {"game": self.game, "variant": self.variant, "tags": self.tags,
               "moves": [m.to_dict() for m in self.moves], "changes": self.changes,
               "fen": self.fen, "mode": self.mode, "t_mono": self.t_mono,
               "t_wall": self.t_wall, "result": self.result,
               "result_reason": self.result_reason}
        if self.corrections:
            out["corrections"] = [[ply, fen] for ply, fen in self.corrections]
        if self.result_rule is not None:
            out["result_rule"] = _rule_fields(self.result_rule)
        if self.result_rules:
            out["result_rules"] = [_rule_fields(reason) for reason in self.result_rules]
        return out

    @classmethod
    def from_fields(cls, data: dict) -> GameRecord:
        moves = data.get("moves")
        if not isinstance(moves, list) or len(moves) > MAX_MOVES:
            raise MessageError(f"moves: expected a list of at most {MAX_MOVES} moves")
        records = tuple(MoveRecord.from_dict(m) for m in moves)
        changes = _int(data, "changes", 0, 10 ** 7)
        if changes < len(records):
            raise MessageError("changes: fewer than the moves")
        mode = _text(data, "mode", 20, "tournament")
        if mode not in MODES:
            raise MessageError(f"mode: expected one of {', '.join(MODES)}")
        return cls(_game_id(data), _text(data, "variant", 40), _tags(data), records, changes,
                   _optional_text(data, "fen", 1000), mode,
                   _time(data, "t_mono"), _time(data, "t_wall"),
                   _optional_text(data, "result", 10), _text(data, "result_reason", 500, ""),
                   _corrections(data, len(records)), _rule(data), _rules(data))


def _corrections(data: dict, moves: int) -> tuple[tuple[int, str], ...]:
    """``[[ply, position text], ...]``, in the order they were made, each at a ply of
    the game (0: before the first move)."""
    value = data.get("corrections") or []
    if not isinstance(value, list) or len(value) > MAX_CORRECTIONS:
        raise MessageError(f"corrections: expected a list of at most {MAX_CORRECTIONS}")
    out = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise MessageError("corrections: expected [ply, position] pairs")
        ply = _int({"ply": item[0]}, "ply", 0, moves)
        out.append((ply, _text({"fen": item[1]}, "fen", 1000)))
    if [ply for ply, _ in out] != sorted(ply for ply, _ in out):
        raise MessageError("corrections: expected in the order of the game")
    return tuple(out)


def _event_message(event: dict[str, Any]) -> dict[str, Any]:
    """An event's ``message``, when its board sent one: its ``text`` as a message, so the
    hall's pages say it in their reader's language (``text`` stays, in the board's, for
    an older hall); a message of the wrong shape is refused in one line."""
    if event.get("message") is None:
        return {}
    try:
        return {"message": Message.from_json(event["message"]).as_json()}
    except ValueError as error:
        raise MessageError(f"events: message: {error}") from None


CLOCK_STATUSES = ("waiting", "running", "paused", "stopped")
SIDES = ("white", "black")


@dataclass(frozen=True)
class ClockStatus:
    """The game clock as the board's page shows it, at one stated moment: both clocks'
    seconds left then (``at``: the board's wall clock, for people reading the broker; the
    hall ages a reading by its own clock, from when it received it), ``running`` the side
    whose time goes (None: waiting, paused, held, stopped or that side's flag fallen),
    ``status`` the clock's own word, ``control`` the time control, ``flagged`` the sides
    whose flag fell. An older board sends none: the hall then shows the last move's."""

    white: float
    black: float
    running: str | None = None
    status: str = "waiting"
    control: str = ""
    flagged: tuple[str, ...] = ()
    at: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"white": self.white, "black": self.black, "running": self.running,
                "status": self.status, "control": self.control,
                "flagged": list(self.flagged), "at": self.at}

    @classmethod
    def from_dict(cls, data: Any) -> ClockStatus:
        """Checked at the boundary: bounded seconds, a known status and side, a running
        side only while the clock runs."""
        if not isinstance(data, dict):
            raise MessageError("clock: expected an object")
        left = []
        for side in SIDES:
            value = _time(data, side)
            if value is None or not 0 <= value <= MAX_CLOCK:
                raise MessageError(f"clock {side}: expected seconds, 0-{MAX_CLOCK}")
            left.append(value)
        status = data.get("status", "waiting")
        if status not in CLOCK_STATUSES:
            raise MessageError(f"clock status: expected one of {', '.join(CLOCK_STATUSES)}")
        running = data.get("running")
        if running is not None and (running not in SIDES or status != "running"):
            raise MessageError("clock running: expected white, black or none (only while "
                               "the clock runs)")
        flagged = data.get("flagged") or []
        if not isinstance(flagged, list) or not all(f in SIDES for f in flagged) \
                or len(set(flagged)) != len(flagged):
            raise MessageError("clock flagged: expected some of white, black")
        return cls(left[0], left[1], running, status, _text(data, "control", 40, ""),
                   tuple(flagged), _time(data, "at"))


@dataclass(frozen=True)
class StateMessage:
    """The retained ``state``: the current game whole, what the board flags now, and its
    own PDN of the game (for people reading the broker directly)."""

    record: GameRecord
    flags: tuple[str, ...] = ()
    unacknowledged: int = 0
    events: tuple[dict[str, Any], ...] = ()  # the last few arbiter events
    changed: float | None = None  # wall-clock time of the last change
    pdn: str = ""
    clock: ClockStatus | None = None  # the game clock now (None: none, or an older board)

    def to_json(self) -> bytes:
        return encode({**self.record.fields(), "flags": list(self.flags),
                       "unacknowledged": self.unacknowledged, "events": list(self.events),
                       "changed": self.changed, "pdn": self.pdn,
                       **({"clock": self.clock.to_dict()} if self.clock else {})})

    @classmethod
    def from_json(cls, payload: bytes) -> StateMessage:
        data = decode_json(payload)
        flags = data.get("flags", [])
        if not isinstance(flags, list) or not all(f in FLAGS for f in flags):
            raise MessageError(f"flags: expected some of {', '.join(FLAGS)}")
        events = data.get("events", [])
        if not isinstance(events, list) or len(events) > 50:
            raise MessageError("events: expected a list of at most 50")
        checked = tuple({"kind": _text(e, "kind", 40), "text": _text(e, "text", MAX_TEXT),
                         "ply": _int(e, "ply", 0, MAX_MOVES), "t_wall": _time(e, "t_wall"),
                         **_event_message(e)}
                        for e in events if isinstance(e, dict))
        if len(checked) != len(events):
            raise MessageError("events: expected objects")
        return cls(GameRecord.from_fields(data), tuple(flags),
                   _int(data, "unacknowledged", 0, 10 ** 6, 0), checked,
                   _time(data, "changed"), _text(data, "pdn", MAX_PDN, ""),
                   None if data.get("clock") is None else ClockStatus.from_dict(data["clock"]))


@dataclass(frozen=True)
class PlyMessage:
    """One move, ``seq`` its number in the game, ``changes`` as in the module doc."""

    game: str
    seq: int
    changes: int
    move: MoveRecord

    def to_json(self) -> bytes:
        return encode({"game": self.game, "seq": self.seq, "changes": self.changes,
                       "move": self.move.to_dict()})

    @classmethod
    def from_json(cls, payload: bytes) -> PlyMessage:
        data = decode_json(payload)
        seq = _int(data, "seq", 1, MAX_MOVES)
        changes = _int(data, "changes", 1, 10 ** 7)
        if changes < seq:
            raise MessageError("changes: fewer than seq")
        return cls(_game_id(data), seq, changes, MoveRecord.from_dict(data.get("move")))


@dataclass(frozen=True)
class StatusMessage:
    """The retained ``status`` (its Last Will says ``online: false``)."""

    online: bool
    software: str = ""
    uptime: float | None = None
    game: str | None = None
    health: dict[str, Any] = field(default_factory=dict)
    t_wall: float | None = None

    def to_json(self) -> bytes:
        return encode(asdict(self))

    @classmethod
    def from_json(cls, payload: bytes) -> StatusMessage:
        data = decode_json(payload)
        online = data.get("online")
        if not isinstance(online, bool):
            raise MessageError("online: expected true or false")
        health = data.get("health") or {}
        if not isinstance(health, dict) or len(json.dumps(health)) > 4000:
            raise MessageError("health: expected a small object")
        game = data.get("game")
        return cls(online, _text(data, "software", 40, ""), _time(data, "uptime"),
                   None if game is None else _game_id(data), health, _time(data, "t_wall"))


@dataclass(frozen=True)
class Command:
    """What the hall asks of one board. ``game`` names the game it is about: a board
    refuses a command about a game that is no longer its current one, so a command the
    broker delivers twice (QoS 1 is at least once) does no harm twice; a board answers a
    command it has carried out (an ``id`` it has seen) with the same answer again.

    Per command: ``new_game`` (``tags``, ``fen``), ``set_tags`` (``tags``), ``result``
    (``result``, ``reason``), ``withdraw`` (the result), ``takeback`` (to ``ply``),
    ``position`` (``fen``, with the side to move in it: an arbiter's correction),
    ``clock`` (``action``: start, pause, resume), ``acknowledge``, ``resend``
    (``first``..``last``, none: the whole game). A board that does not know a command
    refuses it (``cmd: expected one of ...``)."""

    id: str
    cmd: str
    game: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    fen: str | None = None
    result: str | None = None
    reason: str = ""
    first: int | None = None  # resend: moves first..last (None: the whole game)
    last: int | None = None
    ply: int | None = None  # takeback: the ply to go back to (0: the start)
    action: str | None = None  # clock: start, pause or resume

    def to_json(self) -> bytes:
        return encode({k: v for k, v in asdict(self).items() if v not in (None, "", {})})

    @classmethod
    def from_json(cls, payload: bytes) -> Command:
        data = decode_json(payload)
        cmd = data.get("cmd")
        if cmd not in COMMANDS:
            raise MessageError(f"cmd: expected one of {', '.join(COMMANDS)}")
        game = None if data.get("game") is None else _game_id(data)
        first = last = None
        if cmd == "resend" and game is None:
            raise MessageError("resend: which game?")
        if cmd == "resend" and data.get("first") is not None:
            first = _int(data, "first", 1, MAX_MOVES)
            last = _int(data, "last", first, MAX_MOVES)
        ply = _int(data, "ply", 0, MAX_MOVES) if cmd == "takeback" else None
        action = _text(data, "action", 10) if cmd == "clock" else None
        if action is not None and action not in CLOCK_ACTIONS:
            raise MessageError(f"action: expected one of {', '.join(CLOCK_ACTIONS)}")
        if cmd == "position" and not data.get("fen"):
            raise MessageError("position: which position (fen)?")
        return cls(_text(data, "id", 64), cmd, game, _tags(data),
                   _optional_text(data, "fen", 1000), _optional_text(data, "result", 10),
                   _text(data, "reason", 500, ""), first, last, ply, action)


@dataclass(frozen=True)
class Reply:
    """A board's answer to a command (``id`` is the command's)."""

    id: str
    ok: bool
    result: Any = None
    error: str = ""

    def to_json(self) -> bytes:
        return encode(asdict(self))

    @classmethod
    def from_json(cls, payload: bytes) -> Reply:
        data = decode_json(payload)
        if not isinstance(data.get("ok"), bool):
            raise MessageError("ok: expected true or false")
        result = data.get("result")
        if len(json.dumps(result)) > 8000:
            raise MessageError("result: too large")
        return cls(_text(data, "id", 64), data["ok"], result, _text(data, "error", 500, ""))
