"""What boards said that the hall cannot prove, for the arbiter to confirm or dismiss.

A board's password can leak, so a result the position does not prove, moves that differ
from the hall's record, changed tags, a game the hall did not expect or another game for
a round are not taken into the record: each is a `Claim`, shown on the board's card
until the arbiter confirms it (the hall follows the board) or dismisses it (the record
stays; the same claim is not raised again). Each claim has an ``id`` that changes with
what it says, so the arbiter confirms the claim they read, not one a board's password
put in its place a moment before.

`ClaimBook` keeps them, bounded: a few per board, and a few unexpected games among them;
its log lines are rate-limited per board.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from draughtsboard.board.message import Message
from draughtsboard.hall_protocol.messages import GameRecord
from draughtsboard.words import english

from .log_limit import LogLimiter
from .said import HallError, said

log = logging.getLogger("draughtsboard.hall")

KINDS = ("result", "moves", "tags", "game", "round")
PER_BOARD = 10  # claims shown per board (the oldest go first)
UNEXPECTED_KEPT = 3  # games the hall did not expect, held per board
DISMISSED_KEPT = 100


class ClaimError(HallError):
    """The arbiter confirmed something that is not (or no longer) there."""


@dataclass(frozen=True)
class Claim:
    """``kind``: ``result`` (a result the position does not prove), ``moves`` (the
    board's moves differ from the hall's), ``tags`` (the board changed a game's tags),
    ``game`` (a game the hall did not expect), ``round`` (another game of the board for a
    round it has a game of). ``record`` is the board's whole game, when it came with
    one (a claim without it cannot be confirmed until it comes). ``message`` is what it
    says (``claim.*``), rendered in the reader's language."""

    kind: str
    game: str
    message: Message
    received: float
    record: GameRecord | None = None

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, self.game

    @property
    def confirmable(self) -> bool:
        return self.record is not None or self.kind == "round"

    @property
    def text(self) -> str:
        """What the claim says in English (the hall's log, tests)."""
        return english(self.message)

    @property
    def id(self) -> str:
        """Changes whenever what the claim says changes (not when the board plays on:
        the arbiter confirms what they read while the players go on playing); the same
        in every language."""
        said_json = json.dumps(self.message.as_json(), sort_keys=True, ensure_ascii=False)
        text = f"{self.kind}\n{self.game}\n{said_json}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "game": self.game,
                "text": self.message.as_json(), "received": self.received,
                "confirmable": self.confirmable}


class ClaimBook:
    """Every board's open claims (``of(board)``: key -> claim, oldest first)."""

    def __init__(self) -> None:
        self._open: dict[int, OrderedDict[tuple[str, str], Claim]] = {}
        self._dismissed: OrderedDict[tuple[int, str, str, Message], None] = OrderedDict()
        self.quiet = LogLimiter()

    def of(self, board: int) -> OrderedDict[tuple[str, str], Claim]:
        return self._open.setdefault(board, OrderedDict())

    def get(self, board: int, kind: str, game: str) -> Claim | None:
        return self.of(board).get((kind, game))

    def raise_(self, board: int, claim: Claim) -> bool:
        """Show ``claim`` (replacing the board's claim of that kind about that game);
        False when nothing changed or the arbiter dismissed this very claim before."""
        if (board, claim.kind, claim.game, claim.message) in self._dismissed:
            return False
        claims = self.of(board)
        known = claims.get(claim.key)
        if known is not None and known.id == claim.id and known.record == claim.record:
            return False
        if known is None:
            quiet = self.quiet.allow(("claim", board))
            if quiet is not None:
                log.warning("board %d: %s%s", board, claim.text, quiet)
        claims[claim.key] = claim
        claims.move_to_end(claim.key)
        games = [k for k in claims if k[0] == "game"]
        for old in games[:-UNEXPECTED_KEPT]:
            del claims[old]
        while len(claims) > PER_BOARD:
            claims.popitem(last=False)
        return True

    def drop(self, board: int, key: tuple[str, str]) -> bool:
        return self.of(board).pop(key, None) is not None

    def settled(self, board: int, kind: str, game: str, claim_id: str) -> Claim:
        """The claim the arbiter read (`ClaimError` if it is gone or changed since)."""
        claim = self.get(board, kind, game)
        if claim is None:
            raise ClaimError(said("claim.error.gone", board=board, game=game,
                                  claim=said(f"claim.kind.{kind}")))
        if claim.id != claim_id:
            raise ClaimError(said("claim.error.changed", board=board, game=game,
                                  claim=said(f"claim.kind.{kind}"), now=claim.message))
        return claim

    def dismiss(self, board: int, claim: Claim) -> None:
        self._dismissed[(board, claim.kind, claim.game, claim.message)] = None
        while len(self._dismissed) > DISMISSED_KEPT:
            self._dismissed.popitem(last=False)
        self.drop(board, claim.key)
