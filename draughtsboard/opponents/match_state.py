"""A match between two boards, the pure part: what each board says of the game, and what
it believes of what the other board says.

Each board publishes its *record*: the whole game as its journal holds it (every ply with
its index, its move, the digest of the position before it, and the clocks recorded with
it), its player's name, and the tags both must agree on. A record is published again
whole after every change, retained (a board that comes back reads the latest at once),
so a record received twice, late or after a cut changes nothing: it is compared with
what this board holds, never applied as it says.

What a record from the other board may do (`MatchState.receive`, `MatchState.next_move`):

- the plies both hold must be the same move in the same position (the digest): a ply
  that differs is a *conflict*, one line, and the match stops there (never played
  twice). Each ply's clock is its mover's: the other board records the move with the
  mover's figure (never more than the mover had plus the increment: `believed_clocks`)
  and its own for its own player, so both journals hold the same clocks too;
- a shorter record that agrees is an old one (ignored); a longer one may hold one ply
  more, the other side's own move, which is believed only if it is legal in this board's
  own position and was played in the same position (the digest): the rules prove it. A
  ply more that is this board's own seat's move (which it never recorded) stops the
  match at once, as a ply that differs does;
- anything that is not a record (not JSON, a field missing or out of bounds, another
  match or seat) is refused in one line and changes nothing.

A record is a view of the record model (docs/architecture.md, "The record model"): it is
written from the game the one `apply` built from the journal's records, and the other
board's is read back into them (`MatchRecord.as_records`, `MatchRecord.game`). It also
holds the game's *result* (with its reason and who set it, the `Setter` of its `Result`
record: ``rules``, the board's ``arbiter``, the ``match``, taken from the other board)
and the plies at which its arbiter withdrew a result (``withdrawn``, typed: never read
out of a sentence). The
other board believes a result only as far as it can prove it (`MatchState.result_call`),
once both hold the same moves (`same_plies`: number, move and position digest; the
clocks are not part of what makes a ply the same):

- a result the rules prove in its own position is taken;
- a loss of the publishing board's own seat (a resignation, its arbiter's ruling against
  its own player) is taken: a side can concede only for itself;
- anything else (a win for the publishing board's seat, a draw the rules do not prove, a
  result other than this board's) is a *claim*: shown to this board's arbiter, who
  accepts it by recording the same result (an agreed draw: offered on one board,
  recorded on the other, both have it), and never recorded by itself;
- results go one way: a finished game reopens only when both arbiters withdraw its
  result, each with its key on its own board. A withdrawal the other board made is a
  claim here (``claim-withdrawal``), never carried out by itself; and a result this
  board's arbiter withdrew at these plies while the other board held it (it withdrew
  fewer results there than this one) is not taken again by itself (a claim). Until both
  agree, both boards show the disagreement; once both withdrew, a new result is taken
  as ever.

A board that *stops* the match (the two records cannot be the same game: a ply that
differs, a move of this board's seat it never recorded) says so in its record
(``stop``: why, a message of `match_stops`, never a sentence); the other board stops
too, with the same reason, so both pages say the same, each in its own language. When
both find a reason at once, the white board's reason stands on both.

Nothing of this is kept in memory only: a board restarted at any point decides as one
that never stopped (its journal and the other board's retained record say it all).

Each ply's clocks are written at one precision by every writer (`CLOCK_RESOLUTION`,
milliseconds: `plies_of` rounds them) and compared at it.

The ``Date`` is White's (`date_to_take`): the black board records the date the white
board's record holds (the day its game began, in UTC), so both PDNs are the same text.
A match's records stay retained: a board beginning a new game that finds the other's
finished game with moves under the match's name refuses in one line (the name is used
up), and says so in its own record, so the other board refuses too.

Clocks: the other board's figure for its mover is bounded by what this board saw
(`believed_clocks`): the mover's time before the move, less the thinking this board
measured (its clock ran here from when the other board was known to hold our move until
its move came, link pauses and the silence just before its move not counted: see
`unmeasured`) less `LINK_TOLERANCE`, plus the increment.

Presence: each board sends a *beat* every second or so with how many of the other's plies
it holds; a board not heard for `LOST_AFTER` seconds (or whose last word was its Will,
``offline``) is unreachable, and both pause the match clock (`reachable`). A beat that
shows the other board holds fewer of our plies than we recorded asks for the record
again (`needs_resend`): nothing published during a cut is lost.

No I/O, no thread, no clock: messages and the time are inputs.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from draughtsboard.board.game.apply import rebuild, start_of
from draughtsboard.board.game.record import Game
from draughtsboard.board.game.records import (
    NO_TIME,
    Declined,
    MatchStop,
    MoveMade,
    Record,
    Result,
    Setter,
    Start,
)
from draughtsboard.board.message import Message
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.notation import parse_move
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import get_variant

from .match_stops import check, describe, stop

SEATS = ("white", "black")
KINDS = ("record", "beat", "presence")  # what a board publishes under its seat
AGREED_TAGS = ("Event", "Round", "Site", "TimeControl")  # both boards' must be the same
RECORD_LIMIT = 256 * 1024  # bytes of one record
PLY_LIMIT = 2000
NAME_LIMIT = 80
LOST_AFTER = 3.5  # seconds without a beat: the other board is unreachable
VERSION = 2  # what this release writes (version 1, the release before's, is read: `_v1`)
CLOCK_RESOLUTION = 0.001  # seconds: every ply's clocks are written and compared at it
LINK_TOLERANCE = 2.0  # seconds of the link's delay the clock bound allows the other board
SETTERS = ("rules", "arbiter", "match")  # who set a version-1 record's result
REASON_LIMIT = 200
WITHDRAWN_LIMIT = 1000
DATE_RE = re.compile(r"(\d{4}|\?{4})\.(\d\d|\?\?)\.(\d\d|\?\?)")


class MatchMessageError(ValueError):
    """A message that is not the match protocol (one line)."""


class NewerMatchRecordError(MatchMessageError):
    """A record of a newer version than this release reads (one line; nothing is taken,
    and the record stays retained on the broker as it was)."""


class MatchConflict(ValueError):
    """The two boards do not hold the same game, or cannot play this match: ``message``
    says why (`match_stops`), its one line for a log is the exception's text."""

    def __init__(self, message: Message) -> None:
        super().__init__(describe(message))
        self.message = message


def digest(position: Position) -> str:
    """A short name of a position (its FEN's SHA-256, 16 hex digits)."""
    return hashlib.sha256(position.fen().encode()).hexdigest()[:16]


def other_seat(seat: str) -> str:
    return "black" if seat == "white" else "white"


def at_resolution(clock: tuple[float, float] | None) -> tuple[float, float] | None:
    """``clock`` at `CLOCK_RESOLUTION` (milliseconds), as every writer writes it."""
    if clock is None:
        return None
    return (round(float(clock[0]), 3), round(float(clock[1]), 3))


@dataclass(frozen=True)
class Ply:
    """One move of the game: its index (0: the first move), its text, the digest of the
    position it was played in, and the clocks (White's, Black's seconds) recorded with it
    by the board of the side that played it."""

    index: int
    move: str
    before: str
    clock: tuple[float, float] | None = None

    def same_move(self, other: Ply) -> bool:
        """The same ply: the same move in the same position (the clocks aside)."""
        return (self.index, self.move, self.before) == (other.index, other.move, other.before)

    def same_clock(self, other: Ply) -> bool:
        """The same clocks at `CLOCK_RESOLUTION`."""
        return at_resolution(self.clock) == at_resolution(other.clock)

    def as_json(self) -> dict[str, Any]:
        clock = at_resolution(self.clock)
        return {"ply": self.index, "move": self.move, "before": self.before,
                "clock": list(clock) if clock is not None else None}


def same_plies(ours: tuple[Ply, ...], theirs: tuple[Ply, ...]) -> bool:
    """Whether two records hold the same plies: number, move, position digest (whatever
    the precision of their clocks)."""
    return len(ours) == len(theirs) and all(
        mine.same_move(other) for mine, other in zip(ours, theirs, strict=True))


@dataclass(frozen=True)
class MatchRecord:
    """What one board holds of the match (see the module doc). Version 2 on the wire:
    ``withdrawn`` the plies at which its arbiter withdrew a result (typed, in order),
    ``stop`` why a board stopped the match and ``refused`` why it refuses it (messages:
    `match_stops`); ``unplaced`` and ``declined`` only from a version-1 record (`_v1`)."""

    match: str
    seat: str
    name: str
    variant: str
    start: str  # the start position's FEN
    tags: dict[str, str] = field(default_factory=dict)
    plies: tuple[Ply, ...] = ()
    result: str | None = None  # the game's result as its journal holds it
    reason: str = ""
    by: Setter = Setter.UNKNOWN  # who set it (its record's, in the journal)
    withdrawn: tuple[int, ...] = ()  # the plies at which its arbiter withdrew a result
    date: str = ""  # its Date tag
    # why this board refuses the match (a name used up), and why it stopped the match (or
    # the other board's reason): messages (`match_stops`), never sentences
    refused: Message | None = None
    stop: Message | None = None
    # read from a version-1 record (`_v1`): withdrawals at plies it does not say, and
    # the other board's result its arbiter last withdrew while that board held it
    unplaced: int = 0
    declined: Declined | None = None

    @property
    def withdrawals(self) -> int:
        """How many results its arbiter withdrew (at plies known or not)."""
        return len(self.withdrawn) + self.unplaced

    def as_records(self) -> tuple[Start, tuple[Record, ...]]:
        """The record read into the record model: a `Start`, a `MoveMade` per ply (its
        path as the rules read its text in the position before it, its clocks), its
        `Result` with its `Setter`, and a `MatchStop` with its reason. Read as far as
        the rules follow it: a ply they refuse, or played in another position than its
        digest says, ends the reading there (the match stops at that ply: `next_move`).
        Withdrawals stay the record's plies: the wire does not say which result each
        took back, so they are no `ResultWithdrawn` (none is invented)."""
        variant = get_variant(self.variant)
        start = start_of(variant, {}, self.start, "tournament", None, NO_TIME)
        position = parse_fen(variant, self.start)
        records: list[Record] = []
        complete = True
        for ply in self.plies:
            try:
                move = parse_move(position, ply.move)
            except DraughtsError:
                complete = False
                break
            if ply.before != digest(position):
                complete = False
                break
            records.append(MoveMade(ply.index, move.path, move.captures, ply.move,
                                    clock=ply.clock))
            position = position.play(move)
        moves = len(records)
        if complete and self.result is not None:
            records.append(Result(self.result, self.reason, self.by))
        if self.stop is not None:
            records.append(MatchStop(moves, "", self.stop))
        return start, tuple(records)

    def game(self) -> Game:
        """The other board's game as the one `apply` builds it from `as_records`."""
        start, records = self.as_records()
        return rebuild(start, records)

    def legacy_note(self) -> str | None:
        """What a version-1 record cannot say that version 2 needs (one line; None:
        nothing): the plies of its withdrawals, which are then never counted as at any
        ply (a result they bear on is a claim, never taken by itself)."""
        if not self.unplaced:
            return None
        return (f"match {self.match}: {self.seat}'s record (version 1) says "
                f"{self.unplaced} result(s) withdrawn but not at which plies: a result "
                f"they bear on is shown as a claim")

    def to_json(self) -> bytes:
        data: dict[str, Any] = {
            "v": VERSION, "match": self.match, "seat": self.seat, "name": self.name,
            "variant": self.variant, "start": self.start, "tags": self.tags,
            "plies": [p.as_json() for p in self.plies]}
        if self.result is not None:
            data.update(result=self.result, reason=self.reason, by=self.by)
        if self.withdrawn:
            data["withdrawn"] = list(self.withdrawn)
        if self.date:
            data["date"] = self.date
        if self.refused is not None:
            data["refused"] = self.refused.as_json()
        if self.stop is not None:
            data["stop"] = self.stop.as_json()
        return json.dumps(data, separators=(",", ":")).encode()

    @classmethod
    def from_json(cls, payload: bytes) -> MatchRecord:
        """The record in ``payload``; `MatchMessageError` (one line) for anything else
        (a record of version 1, from an older release, included)."""
        if len(payload) > RECORD_LIMIT:
            raise MatchMessageError(f"a record of {len(payload)} bytes (at most "
                                    f"{RECORD_LIMIT})")
        data = _json_object(payload)
        version = data.get("v")
        if isinstance(version, int) and not isinstance(version, bool) and \
                version > VERSION:
            raise NewerMatchRecordError(
                f"a record of version {str(version)[:20]}, newer than this release reads "
                f"({VERSION}): nothing taken (update this board)")
        if version not in (1, VERSION):
            raise MatchMessageError(f"version {str(version)[:20]!r}, not {VERSION}")
        texts = {key: _text(data, key, limit) for key, limit in
                 (("match", 40), ("seat", 5), ("name", NAME_LIMIT), ("variant", 20),
                  ("start", 400))}
        if texts["seat"] not in SEATS:
            raise MatchMessageError(f"seat {texts['seat']!r}: expected white or black")
        tags = data.get("tags")
        if not isinstance(tags, dict) or len(tags) > len(AGREED_TAGS) or not all(
                key in AGREED_TAGS and isinstance(value, str) and len(value) <= 200
                for key, value in tags.items()):
            raise MatchMessageError(f"tags: expected texts of {', '.join(AGREED_TAGS)}")
        plies = data.get("plies")
        if not isinstance(plies, list) or len(plies) > PLY_LIMIT:
            raise MatchMessageError(f"plies: expected a list of at most {PLY_LIMIT}")
        result = data.get("result")
        reason, by = "", Setter.UNKNOWN
        if result is not None:
            result = _text(data, "result", 10)
            reason = _text(data, "reason", REASON_LIMIT) if data.get("reason") else ""
            # (version 2: the record model's `Setter`, "" for a journal that did not say)
            setters = SETTERS if version == 1 else tuple(setter.value for setter in Setter)
            setter = data.get("by")
            if not isinstance(setter, str) or setter not in setters:
                raise MatchMessageError(f"by: expected one of {', '.join(setters)}")
            by = Setter(setter)
        if version == 1:
            return _v1(data, texts, dict(tags), plies, result, reason, by)
        withdrawn = data.get("withdrawn", [])
        if not isinstance(withdrawn, list) or len(withdrawn) > WITHDRAWN_LIMIT or not all(
                isinstance(ply, int) and not isinstance(ply, bool) and 0 <= ply <= PLY_LIMIT
                for ply in withdrawn) or withdrawn != sorted(withdrawn):
            raise MatchMessageError(f"withdrawn: expected at most {WITHDRAWN_LIMIT} plies "
                                    f"(0-{PLY_LIMIT}) in order")
        date = _date(data)
        refused, stopped = _reason(data, "refused"), _reason(data, "stop")
        return cls(texts["match"], texts["seat"], texts["name"], texts["variant"],
                   texts["start"], dict(tags),
                   tuple(_ply(item, index) for index, item in enumerate(plies)),
                   result, reason, by, tuple(withdrawn), date, refused, stopped)


def _date(data: dict[str, Any]) -> str:
    date = _text(data, "date", 10) if "date" in data else ""
    if date and not DATE_RE.fullmatch(date):
        raise MatchMessageError(f"date {date!r}: expected YYYY.MM.DD")
    return date


def _reason(data: dict[str, Any], key: str) -> Message | None:
    """A record's ``refused`` or ``stop``: a reason of `match_stops` (None: absent)."""
    if data.get(key) is None:
        return None
    try:
        return check(data[key], key)
    except ValueError as error:
        raise MatchMessageError(str(error)) from None


def _v1(data: dict[str, Any], texts: dict[str, str], tags: dict[str, str],
        plies: list[Any], result: str | None, reason: str, by: Setter) -> MatchRecord:
    """A version-1 record (the release before's) in version 2's meaning, read once here:
    its clocks at `CLOCK_RESOLUTION`; ``withdrawn``, a count there, kept as a count
    (`MatchRecord.unplaced`: version 1 never said at which plies, and none is invented);
    ``declined`` (the other board's result its arbiter withdrew, with that board's
    withdrawals then) as the typed `Declined`; ``refused``, English there, kept as it
    was in a reason of its own (``match.stop.refused_v1``). Version 1 had no stop."""
    withdrawn = data.get("withdrawn", 0)
    if not isinstance(withdrawn, int) or isinstance(withdrawn, bool) or \
            not 0 <= withdrawn <= WITHDRAWN_LIMIT:
        raise MatchMessageError(f"withdrawn: expected 0-{WITHDRAWN_LIMIT}")
    raw = data.get("declined")
    declined = None
    if raw is not None:
        if not (isinstance(raw, list) and len(raw) == 2 and isinstance(raw[0], str)
                and 0 < len(raw[0]) <= 10 and raw[0].isprintable()
                and isinstance(raw[1], int) and not isinstance(raw[1], bool)
                and 0 <= raw[1] <= WITHDRAWN_LIMIT):
            raise MatchMessageError(f"declined: expected [result, 0-{WITHDRAWN_LIMIT}]")
        declined = Declined(texts["match"], other_seat(texts["seat"]), raw[0], raw[1])
    read = tuple(_ply(item, index) for index, item in enumerate(plies))
    refused_text = _text(data, "refused", 300) if data.get("refused") else ""
    refused = stop(f"match.stop.refused_v1.{texts['seat']}", detail=refused_text[:120]) \
        if refused_text else None
    return MatchRecord(
        texts["match"], texts["seat"], texts["name"], texts["variant"], texts["start"],
        tags, tuple(Ply(ply.index, ply.move, ply.before, at_resolution(ply.clock))
                    for ply in read),
        result, reason, by, (), _date(data), refused, None, withdrawn, declined)


def _json_object(payload: bytes) -> dict[str, Any]:
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise MatchMessageError(f"not JSON ({type(error).__name__})") from None
    if not isinstance(data, dict):
        raise MatchMessageError("not a JSON object")
    return data


def _text(data: dict[str, Any], key: str, limit: int) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= limit or not value.isprintable():
        raise MatchMessageError(f"{key}: expected a text of 1-{limit} printable characters")
    return value


def _ply(item: Any, index: int) -> Ply:
    if not isinstance(item, dict) or item.get("ply") != index or isinstance(
            item.get("ply"), bool):
        raise MatchMessageError(f"ply {index}: expected {{'ply': {index}, ...}} in order")
    move, before, clock = item.get("move"), item.get("before"), item.get("clock")
    if not isinstance(move, str) or not 0 < len(move) <= 64 or not move.isprintable():
        raise MatchMessageError(f"ply {index}: the move is not a move's text")
    if not isinstance(before, str) or len(before) != 16 or not all(
            c in "0123456789abcdef" for c in before):
        raise MatchMessageError(f"ply {index}: the position's digest is not 16 hex digits")
    if clock is not None:
        if not (isinstance(clock, list) and len(clock) == 2 and all(
                isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c)
                and 0 <= c < 1e7 for c in clock)):
            raise MatchMessageError(f"ply {index}: the clock is not two seconds counts")
        clock = (float(clock[0]), float(clock[1]))
    return Ply(index, move, before, clock)


def plies_of(game: Game) -> tuple[Ply, ...]:
    """The plies of a recorded game, as a record holds them."""
    positions = game.positions
    return tuple(Ply(index, played.text, digest(positions[index]),
                     at_resolution(played.clock))
                 for index, played in enumerate(game.moves))


def withdrawals_of(game: Game) -> tuple[int, ...]:
    """The plies at which ``game``'s arbiter withdrew a result (the journal's events,
    by their kind and ply: typed, never their text)."""
    return tuple(event.ply for event in game.events
                 if event.kind == "result-withdrawn")[-WITHDRAWN_LIMIT:]


def declined_here(theirs: MatchRecord, game: Game, peer: str) -> bool:
    """Whether a version-1 record (``theirs``, from ``peer``) proves its arbiter
    withdrew ``game``'s result at its last ply: it says it declined that result while
    this board held it with as many withdrawals as ``game`` has (version 1 wrote it
    only when both held the same plies, as both still do)."""
    declined = theirs.declined
    return declined is not None and game.result is not None and declined == Declined(
        theirs.match, other_seat(peer), game.result, len(withdrawals_of(game)))


def encode_beat(holds: int) -> bytes:
    return json.dumps({"v": VERSION, "holds": holds}).encode()


def decode_beat(payload: bytes) -> int:
    """How many of our plies the other board holds, from its beat."""
    if len(payload) > 200:
        raise MatchMessageError("a beat longer than 200 bytes")
    holds = _json_object(payload).get("holds")
    if not isinstance(holds, int) or isinstance(holds, bool) or not 0 <= holds <= PLY_LIMIT:
        raise MatchMessageError(f"a beat: holds is not 0-{PLY_LIMIT}")
    return holds


@dataclass(frozen=True)
class ResultCall:
    """What this board does of the other board's result (`MatchState.result_call`):
    ``take`` it (record ``result`` with ``reason``), or show the arbiter a ``claim``
    (the other board says ``result``, ``reason``, set by ``by``) or a
    ``claim-withdrawal`` (the other board withdrew ``result``, this board's: the game
    reopens only once this board's arbiter withdraws it too)."""

    action: str
    result: str
    reason: str = ""
    by: Setter = Setter.UNKNOWN


def believed_clocks(own: tuple[float, float], sent: tuple[float, float], mover: str,
                    had: float, increment: float, thought: float = 0.0
                    ) -> tuple[float, float] | None:
    """The clocks to record with the other board's move: its mover's figure as that board
    measured it (its player's thinking), this board's own ``own`` figure for the other
    side (this board's player, whose time the other board only repeats). None when the
    mover's figure is more than the mover ``had`` before the move, less the ``thought``
    this board measured it think (less `LINK_TOLERANCE` for the link's delay), plus the
    ``increment``: a password of the other seat can say anything ("no time used"), and
    what it may change is bounded by what this board saw; beyond that it is refused and
    this board's own measurement stands (nothing once the mover's flag fell: ``had``
    0). Both figures at `CLOCK_RESOLUTION`."""
    side = 0 if mover == "white" else 1
    figure = round(sent[side], 3)
    seen = max(0.0, thought - LINK_TOLERANCE)
    allowed = max(0.0, had - seen) + increment if had > 0 else 0.0  # (a fallen flag: 0)
    if figure > allowed + CLOCK_RESOLUTION:
        return None
    mine = (round(own[0], 3), round(own[1], 3))
    return (figure, mine[1]) if side == 0 else (mine[0], figure)


def loss_of(variant_results: tuple[str, ...], seat: str) -> str:
    """The result that is a loss for ``seat`` (the variant's results: White's win, the
    draw, Black's win)."""
    return variant_results[2] if seat == "white" else variant_results[0]


def proven(game: Game, result: str) -> bool:
    """Whether the rules prove ``result`` in ``game``'s position (no move left, a draw
    rule holds)."""
    outcome = game.outcome()
    return outcome is not None and outcome[0] == result


def one_line(text: str, limit: int = REASON_LIMIT) -> str:
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())[:limit]


class MatchState:
    """This board's side of match ``match``, playing ``seat`` (see the module doc):
    ``name`` its player's, ``variant`` and ``start`` the game's, ``tags`` those of
    `AGREED_TAGS` it was started with."""

    def __init__(self, match: str, seat: str, name: str, variant: str, start: str,
                 tags: dict[str, str], *, lost_after: float = LOST_AFTER) -> None:
        if seat not in SEATS:
            raise ValueError(f"seat {seat!r}: expected white or black")
        self.match, self.seat, self.name = match, seat, name[:NAME_LIMIT] or seat
        self.variant, self.start = variant, start
        self._white_first = parse_fen(get_variant(variant), start).white_to_move
        self.tags = {key: tags[key] for key in AGREED_TAGS if tags.get(key)}
        self.lost_after = lost_after
        self.ours: tuple[Ply, ...] = ()
        self.theirs: MatchRecord | None = None
        self.they_hold = 0  # of our plies, as the other board's last beat said
        self.heard_at: float | None = None
        self.offline = False  # the other board's last word was its Will
        # the line the match stopped with (this board's own, or the other board's: its
        # record's ``stop``), for good
        self.conflict: Message | None = None
        self.refused = 0  # messages refused (not the protocol)
        # why this board refuses the match (said in its record)
        self.refusal: Message | None = None
        self.note: str | None = None  # what the other's record could not say (once)
        self.result: str | None = None  # this board's game's, as last recorded
        self.reason, self.date = "", ""
        self.by = Setter.UNKNOWN
        self.withdrawn: tuple[int, ...] = ()  # (see `MatchRecord`)
        self._published: bytes | None = None  # the record we last published
        # this board's clock: when our last ply was recorded here, and when the other
        # board was first known to hold it (`carry_time`)
        self._ours_at: float | None = None
        self._caught_up_at: float | None = None
        # how long the other board had been silent when its next move arrived
        self._silence: float | None = None

    @property
    def peer(self) -> str:
        return other_seat(self.seat)

    def record(self) -> MatchRecord:
        return MatchRecord(self.match, self.seat, self.name, self.variant, self.start,
                           dict(self.tags), self.ours, self.result, self.reason,
                           self.by if self.result is not None else Setter.UNKNOWN,
                           self.withdrawn,
                           self.date, self.refusal, self.conflict)

    # -- what this board recorded ---------------------------------------------------------

    def recorded(self, game: Game, now: float | None = None) -> bytes | None:
        """The journal's game is now ``game`` (at ``now``, this board's clock): the record
        to publish (None: unchanged)."""
        plies = plies_of(game)
        if len(plies) != len(self.ours) or self._ours_at is None:
            self._ours_at, self._caught_up_at, self._silence = now, None, None
        self.ours = plies
        self.result = game.result
        self.reason = one_line(game.result_reason) if game.result is not None else ""
        # who set it, as its record in the journal says (`apply`): never guessed here
        self.by = game.result_by if game.result is not None else Setter.UNKNOWN
        self.withdrawn = withdrawals_of(game)
        date = game.tags.get("Date", "")
        self.date = date if DATE_RE.fullmatch(date) else ""
        self._check()
        self._note_caught_up(now)
        return self.unpublished()

    def unpublished(self) -> bytes | None:
        """The record, if it changed since it was last published (None: unchanged)."""
        payload = self.record().to_json()
        if payload == self._published:
            return None
        self._published = payload
        return payload

    def needs_resend(self) -> bool:
        """The other board's beat says it holds fewer of our plies than we recorded."""
        return self.heard_at is not None and self.they_hold < len(self.ours) \
            and not self.offline

    def beat(self) -> bytes:
        return encode_beat(len(self.theirs.plies) if self.theirs is not None else 0)

    def unmeasured(self) -> float | None:
        """Seconds of the other side's turn, on this board's clock since our last ply
        was recorded, that this board cannot count as its thinking: until the other
        board was known to hold our ply (it carries it out on a clock that stands), and
        the silence before its move arrived (it may have been made any time then: a
        link slow or cut for less than `lost_after` pauses nothing). None when not
        known (the other board's move has not come)."""
        if self._ours_at is None or self._caught_up_at is None or self._silence is None:
            return None
        return max(0.0, self._caught_up_at - self._ours_at) + self._silence

    def _note_caught_up(self, now: float | None) -> None:
        if now is None or self._caught_up_at is not None or not self.ours or \
                self.mover_of(len(self.ours)) != self.peer:
            return
        # (its record, not its beat: a beat counts what it received, not what it recorded)
        if self.theirs is not None and len(self.theirs.plies) >= len(self.ours):
            self._caught_up_at = now

    # -- what the other board says ------------------------------------------------------

    def receive(self, kind: str, payload: bytes, now: float) -> str | None:
        """A message from the other board's seat; a one-line refusal (None: taken).
        Never raises."""
        try:
            if kind == "presence":
                self.offline = payload.strip() == b"offline"
                if not self.offline:
                    self.heard_at = now
                return None
            if kind == "beat":
                self.they_hold = decode_beat(payload)
                self.heard_at, self.offline = now, False
                return None
            if kind != "record":
                raise MatchMessageError(f"no message kind {kind[:20]!r}")
            record = MatchRecord.from_json(payload)
        except MatchMessageError as error:
            self.refused += 1
            return f"match {self.match}: a message from {self.peer} refused: {error}"
        silent = now - self.heard_at if self.heard_at is not None else 0.0
        self.heard_at, self.offline = now, False
        refusal = self._take(record)
        self._note_caught_up(now)
        if self._silence is None and self.theirs is not None and \
                len(self.theirs.plies) > len(self.ours):
            self._silence = max(0.0, silent)  # (its move came: how long it had been quiet)
        return refusal

    def _take(self, record: MatchRecord) -> str | None:
        if (record.match, record.seat) != (self.match, self.peer):
            self.refused += 1
            return (f"match {self.match}: a record of {record.match}/{record.seat} on "
                    f"{self.peer}'s topic refused")
        results = get_variant(self.variant).results
        if record.result is not None and record.result not in results:
            self.refused += 1
            return (f"match {self.match}: a record from {self.peer} refused: result "
                    f"{record.result!r} (expected {', '.join(results)})")
        held = self.theirs
        if held is not None and record.stop is None and len(record.plies) < len(held.plies) \
                and same_plies(held.plies[:len(record.plies)], record.plies):
            return None  # an older record: what it says we hold already
        if held is not None and record.stop is None and same_plies(record.plies, held.plies) \
                and (record.withdrawals, record.result is not None) < (
                    held.withdrawals, held.result is not None):
            return None  # an older record: before a result, or before its withdrawal
        if record.unplaced and (held is None or held.unplaced != record.unplaced):
            self.note = record.legacy_note()  # (said once: `take_note`)
        self.theirs = record
        self._check()
        return describe(self.conflict) if self.conflict is not None else None

    def take_note(self) -> str | None:
        """What the other board's record could not say (a version-1 record's withdrawals
        at unknown plies: `MatchRecord.legacy_note`), once; None: nothing new."""
        note, self.note = self.note, None
        return note

    def _check(self) -> None:
        """Whether the two records can be the same game (sets `conflict`, for good; the
        other board's stop is taken as its line says, see the module doc)."""
        theirs = self.theirs
        if theirs is None:
            return
        if theirs.stop is not None and theirs.stop != self.conflict and (
                self.conflict is None or self.peer == "white"):
            self.conflict = theirs.stop
            return
        if self.conflict is not None:
            return
        if theirs.refused is not None:
            self.conflict = theirs.refused  # (the same reason on both pages)
            return
        if theirs.result is not None and theirs.plies and not self.ours \
                and self.result is None:
            # a match's records stay on both brokers: a new game takes a new match name
            self.refusal = stop(f"match.stop.name_used.{self.peer}", result=theirs.result,
                                plies=len(theirs.plies))
            self.conflict = self.refusal
            return
        mine = self.record()
        boards = {self.seat: mine, self.peer: theirs}
        white, black = boards["white"], boards["black"]
        for what in ("variant", "start"):
            if getattr(white, what) != getattr(black, what):
                self.conflict = stop(f"match.stop.{what}", white=getattr(white, what),
                                     black=getattr(black, what))
                return
        for tag in AGREED_TAGS:
            if white.tags.get(tag, "") != black.tags.get(tag, ""):
                self.conflict = stop("match.stop.tag", tag=tag,
                                     white=white.tags.get(tag, "")[:120] or "-",
                                     black=black.tags.get(tag, "")[:120] or "-")
                return
        for ply_w, ply_b in zip(white.plies, black.plies, strict=False):
            if not ply_w.same_move(ply_b):
                self.conflict = stop("match.stop.ply_differs", ply=ply_w.index + 1,
                                     white=ply_w.move, black=ply_b.move)
                return
        if len(theirs.plies) > len(self.ours) + 1:
            self.conflict = stop("match.stop.apart", white=len(white.plies),
                                 black=len(black.plies))
        elif len(theirs.plies) == len(self.ours) + 1 and \
                self.mover_of(len(self.ours)) == self.seat:
            # (a move of this board's seat that this board never recorded)
            ply = theirs.plies[-1]
            self.conflict = stop(f"match.stop.unrecorded.{self.seat}", ply=ply.index + 1,
                                 move=ply.move)

    def mover_of(self, index: int) -> str:
        """The seat that plays ply ``index`` (0: the first) from the start position."""
        return "white" if self._white_first == (index % 2 == 0) else "black"

    def next_move(self, position: Position) -> tuple[Move, Ply] | None:
        """The other side's next move in ``position`` (this board's own position after
        every recorded ply), if its record holds it; `MatchConflict` (one line) when it
        cannot be believed (the match stops: our record says so once published)."""
        if self.conflict is not None:
            raise MatchConflict(self.conflict)
        theirs = self.theirs
        index = len(self.ours)
        if theirs is None or len(theirs.plies) <= index:
            return None
        ply = theirs.plies[index]
        if ply.before != digest(position):
            self.conflict = stop(f"match.stop.position.{self.peer}", ply=index + 1,
                                 move=ply.move, fen=position.fen())
            raise MatchConflict(self.conflict)
        try:
            move = parse_move(position, ply.move)
        except DraughtsError:
            self.conflict = stop(f"match.stop.illegal.{self.peer}", ply=index + 1,
                                 move=ply.move)
            raise MatchConflict(self.conflict) from None
        return move, ply

    # -- the result and the date ------------------------------------------------------------

    def result_call(self, game: Game) -> ResultCall | None:
        """What this board does of the other board's result, its own game being ``game``
        (the journal's, as last `recorded`): see the module doc. None: nothing (no
        result, the same result, or the boards do not hold the same moves yet)."""
        theirs = self.theirs
        if theirs is None or self.conflict is not None or \
                not same_plies(plies_of(game), theirs.plies):
            return None
        mine, claimed = game.result, theirs.result
        if claimed == mine:
            return None
        if claimed is None:
            if mine is None or not (game.ply in theirs.withdrawn
                                    or declined_here(theirs, game, self.peer)):
                return None  # ours not taken there yet (or shown there as a claim)
            return ResultCall("claim-withdrawal", mine)  # (results go one way only)
        # a result this board withdrew at these plies that the other board still held
        # (it withdrew fewer there) is not taken again by itself
        ours_withdrawn = withdrawals_of(game).count(game.ply)
        if mine is None and theirs.withdrawn.count(game.ply) >= ours_withdrawn \
                and (proven(theirs.game(), claimed)  # (its game, read into the model)
                     or claimed == loss_of(game.variant.results, self.peer)):
            return ResultCall("take", claimed, theirs.reason, theirs.by)
        return ResultCall("claim", claimed, theirs.reason, theirs.by)

    def claimed_reason(self, result: str) -> str | None:
        """The reason the other board gives for ``result``, if it holds that result."""
        theirs = self.theirs
        if theirs is None or theirs.result != result:
            return None
        return theirs.reason

    def date_to_take(self, game: Game) -> str | None:
        """The ``Date`` the black board records: the white board's, when it differs
        (None: nothing to change)."""
        theirs = self.theirs
        if self.seat != "black" or theirs is None or not theirs.date or \
                self.conflict is not None or game.result is not None or \
                game.tags.get("Date") == theirs.date:
            return None
        return theirs.date

    def reachable(self, now: float) -> bool:
        """Whether the other board was heard from lately (see the module doc)."""
        return (not self.offline and self.heard_at is not None
                and now - self.heard_at <= self.lost_after)
