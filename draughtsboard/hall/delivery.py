"""When the hall sends a board the pairing it owes it (`arbiter_log.Promise`), and what the
arbiter is told meanwhile: the decisions alone, apart from MQTT and threads, with time as
an input.

A pairing is the hall's promise to a board, kept until the board answers the pairing's
``new_game`` with its game:

* a board that is offline gets it when it comes back: its ``status`` (online, naming its
  current game), sent on every connection, is its request for what the hall owes it, and
  the hall decides again on each of its messages;
* the command names the game the board plays now, so a copy delivered twice or late is
  refused by the board; it is sent again under the same id (a board answers a command it
  has carried out with the same answer) after 5, 10, 20, 40, then every 60 s while the
  board is online and has not answered;
* a game with moves and no result, or a round's game not finished (a pairing delivered
  before), is never closed for a pairing unless the arbiter confirmed that game
  (`Promise.close`); the promise waits, says so, and goes once the game has its result;
* a board that refuses it keeps the refusal on its card until its game changes (it is
  then sent again) or the arbiter acts.
"""

from __future__ import annotations

from dataclasses import dataclass

from draughtsboard.board.message import Message

from .arbiter_log import Promise
from .said import said

RETRY_AFTER = (5.0, 10.0, 20.0, 40.0, 60.0)  # seconds before each sending again


@dataclass(frozen=True)
class BoardFacts:
    """What the hall knows of a board now: ``online``; ``current``, the game it says it
    plays (None: not said yet); ``moves`` of that game as the hall has it (None: the
    hall does not have it yet), whether it is ``finished``, and ``round_game``, the
    round it is the game of (a pairing delivered before)."""

    online: bool
    current: str | None
    moves: int | None
    finished: bool = False
    round_game: str | None = None  # the round whose pairing the current game is


@dataclass(frozen=True)
class Decision:
    """``send``: a new ``new_game`` for the promise, naming game ``game``; ``again``: the
    promise's command once more; ``state`` and ``note`` for the page (``state``: sent,
    waiting, held, refused, a code; ``note``: a message, ``hall.pairing.note.*``)."""

    state: str
    note: Message | None
    send: bool = False
    again: bool = False
    game: str | None = None


@dataclass
class _Tries:
    sent: float
    attempts: int


class Delivery:
    """Decides for each promise (see the module doc); remembers when each command went
    out (in memory: after a restart of the hall a command waiting for its answer goes out
    again at once, under its own id)."""

    def __init__(self) -> None:
        self._tries: dict[str, _Tries] = {}

    def decide(self, promise: Promise, sent_game: str | None, facts: BoardFacts,
               now: float) -> Decision:
        """What to do about ``promise`` now; ``sent_game`` is the game its command named
        (when one waits for its answer)."""
        if promise.command is not None:
            return self._waiting_answer(promise, promise.command, sent_game, facts, now)
        if promise.refused is not None and promise.refused[0] == facts.current:
            return Decision("refused", said("hall.pairing.note.refused",
                                               error=promise.refused[1][:300]))
        if not facts.online:
            return Decision("waiting", said("hall.pairing.note.offline"))
        if facts.current is None or facts.moves is None:
            return Decision("waiting", said("hall.pairing.note.waits_game"))
        if not facts.finished and promise.close != facts.current:
            if facts.moves:
                return Decision("held", said("hall.pairing.note.held_moves",
                                             game=facts.current, count=facts.moves))
            if facts.round_game is not None:
                return Decision("held", said("hall.pairing.note.held_round",
                                             game=facts.current, round=facts.round_game))
        return Decision("sent", said("hall.pairing.note.sent"), send=True, game=facts.current)

    def _waiting_answer(self, promise: Promise, command: str, sent_game: str | None,
                        facts: BoardFacts, now: float) -> Decision:
        """``command``: the promise's command, sent and not yet answered."""
        tries = self._tries.get(command)
        if tries is None:  # sent before a restart of the hall: again at once
            tries = self._tries[command] = _Tries(now - RETRY_AFTER[-1], 0)
        if not facts.online:
            return Decision("sent", said("hall.pairing.note.sent_offline"))
        if facts.current is not None and sent_game is not None and facts.current != sent_game \
                and now - tries.sent >= RETRY_AFTER[0]:
            # the board plays another game than the command names: it will refuse it (or
            # never got it); a new command names the game it plays now
            self.forget(command)
            promise.command = None
            return self.decide(promise, None, facts, now)
        wait = RETRY_AFTER[min(tries.attempts, len(RETRY_AFTER) - 1)]
        if now - tries.sent >= wait:
            tries.sent, tries.attempts = now, tries.attempts + 1
            return Decision("sent", said("hall.pairing.note.sent_again"), again=True)
        return Decision("sent", said("hall.pairing.note.no_answer") if tries.attempts else
                        None)

    def sent(self, command_id: str, now: float) -> None:
        self._tries[command_id] = _Tries(now, 0)

    def forget(self, command_id: str | None) -> None:
        if command_id is not None:
            self._tries.pop(command_id, None)
