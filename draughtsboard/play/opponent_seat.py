"""The opponent's seat at the board: one `Opponent` and the worker thread it thinks on.

The game in play (`game_in_play.GameInPlay`) owns the seat and tells it, after every
change, what the recorded game is now (`follow`). The seat keeps the opponent in step
with it: a move of the person is passed on (``other_side_moved``), the opponent's own
move once the board shows it carried out is taken as done, and anything else (a new
game, a takeback, an arbiter's correction, a resumed game) starts the opponent again
from the recorded position, its history with it. On the opponent's turn it asks for a
move (``move``, with the clocks).

Every call to the opponent runs on one worker thread (`analyst.Analyst`, its own), in
the order given: starting a Hub engine, waiting for a DXP peer or thinking may take
seconds, and the board must react to every snapshot meanwhile. The answers come back
through ``post`` (the session's queue) to the driver's thread, where the seat's state
changes; a job of an older game state (a takeback came first) is dropped, and its
thinking is cut short through ``stop``. An answer is only a *pending* move: the tracker
takes it once the board shows it carried out, and the record follows the board.

Whatever fails (`OpponentError`: an engine that does not start, says something that is
not its protocol or an illegal move, exceeds its time, dies; a DXP peer that
disconnects) is one line in the log and on the page, nothing is recorded, and the
person may go on with the built-in engine from the same position (`replace`).

The page reads the seat in messages (docs/languages.md): what it does now (thinking, its
move to carry out, failed) and, after a failure, why, by the error's cause
(`error_message`: the cause in the reader's language, the opponent's own one-line text
as a parameter shown as it is). The log keeps the one line.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from draughtsboard import opponents
from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.rules.notation import format_move
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.words import english

from .analyst import Analyst, Job, JobRunner

log = logging.getLogger("draughtsboard.opponent")

Post = Callable[[Callable[[], None]], object]

# An opponent's failure by its cause, most particular first: the message's id
ERROR_MESSAGES: tuple[tuple[type[opponents.OpponentError], str], ...] = (
    (opponents.OpponentIllegalMoveError, "opponent.error.illegal_move"),
    (opponents.OpponentProtocolError, "opponent.error.protocol"),
    (opponents.OpponentStartError, "opponent.error.start"),
    (opponents.OpponentTimeoutError, "opponent.error.timeout"),
    (opponents.OpponentGoneError, "opponent.error.gone"),
    (opponents.OpponentStoppedError, "opponent.error.stopped"),
    (opponents.OpponentUnsupportedError, "opponent.error.unsupported"),
    (opponents.OpponentSpecError, "opponent.error.spec"),
)


def error_message(error: opponents.OpponentError, name: str) -> Message:
    """What the page says of ``error`` (the opponent ``name``'s): its cause, with the
    error's own one line as ``detail``, shown as it is."""
    detail = " ".join(str(error).split()) or type(error).__name__
    if isinstance(error, opponents.OpponentEndedGameError):  # what it said, not a failure
        return Message.of(f"opponent.ended.{error.kind}", name=name)
    message_id = next((found for cause, found in ERROR_MESSAGES if isinstance(error, cause)),
                      "opponent.error.other")
    return Message.of(message_id, name=name, detail=detail)


class _SeatError(opponents.OpponentError):
    """A failure the seat finds itself: ``message`` is what the page says of it."""

    def __init__(self, message: Message, text: str) -> None:
        super().__init__(text)
        self.message = message


@dataclass(frozen=True)
class Answer:
    """The opponent's move in ``position``, given at ``at`` (the driver's clock);
    ``clocks``: those its mover recorded with it (another board's, in a match)."""

    position: Position
    move: Move
    at: float
    clocks: tuple[float, float] | None = None

    def as_json(self) -> dict[str, Any]:
        return {"notation": format_move(self.position, self.move),
                "path": list(self.move.path), "captures": list(self.move.captures)}


class OpponentSeat:
    """One opponent at the board, playing White (``white``) or Black (see the module
    doc). ``spec`` is what was asked for (``--opponent``); ``post`` runs an answer on
    the driver's thread; ``runner`` runs the opponent's calls in order (default: a
    worker thread of its own); ``clock`` is the driver's monotonic clock;
    ``move_seconds`` the time an external engine is given per move without a clock."""

    def __init__(self, opponent: opponents.Opponent, spec: opponents.OpponentSpec,
                 white: bool, *, post: Post, clock: Callable[[], float],
                 runner: JobRunner | None = None, move_seconds: float = 5.0) -> None:
        self.opponent = opponent
        self.spec = spec
        self.white = white
        self.post = post
        self.clock = clock
        self.runner: JobRunner = runner if runner is not None else Analyst(
            "draughtsboard-opponent")
        self.move_seconds = move_seconds
        self.name = opponent.name
        self.thinking = False
        self.pending: Answer | None = None
        self.error: str | None = None  # the failure's one line (the log's)
        self.error_message: Message | None = None  # and what the page says of it
        self.replaced_by_builtin = False
        # another board's result this board's arbiter may accept (`GameInPlay`'s)
        self.claim: Message | None = None
        # what the owner is told of, on the driver's thread
        self.on_answer: Callable[[Answer], None] | None = None
        self.on_named: Callable[[str], None] | None = None
        # (a match's stop: its message, said in the reader's language; else the line)
        self.on_failure: Callable[[Message | str], None] | None = None
        # the game as the opponent was told it (its positions, the current one last)
        self._known: tuple[Position, ...] = ()
        self._generation = 0
        self._broken = -1  # (worker thread) a generation whose start or call failed

    @property
    def side(self) -> str:
        return "white" if self.white else "black"

    @property
    def level(self) -> int | None:
        return self.spec.level if self.spec.kind == "engine" else None

    @property
    def failed(self) -> bool:
        return self.error is not None

    @property
    def match(self) -> opponents.BoardOpponent | None:
        """The other board of a match between boards (None for any other opponent)."""
        return self.opponent if isinstance(self.opponent, opponents.BoardOpponent) else None

    def check_match(self) -> bool:
        """Against another board: fail (one line, on the page) once its record and ours
        cannot be the same game, even with its move already shown; whether it did."""
        match = self.match
        conflict = match.conflict if match is not None else None
        if conflict is None or self.failed:
            return False
        self._fail(opponents.MatchStoppedError(conflict))
        return True

    def check_amended(self) -> bool:
        """Against another board: the move shown to carry out was amended on its board
        before it was carried out here (a king that slid on past where it first
        stopped): the opponent starts again from the recorded position, and proposes
        the amended move instead; whether it did. (Carried out already, the two boards
        hold different moves: `check_match` stops the match in one line.)"""
        match, pending = self.match, self.pending
        if match is None or pending is None or self.failed or \
                not match.amended(pending.position, pending.move):
            return False
        self._restart(self._known[:-1])
        return True

    def reachable(self) -> bool:
        """Whether the opponent can be reached: another board of a match that is not
        heard from is not (its clock and ours pause); every other opponent is."""
        match = self.match
        return match is None or self.failed or match.reachable()

    def is_turn(self, position: Position) -> bool:
        """Whether the opponent is to move in ``position``."""
        return position.white_to_move == self.white

    # -- keeping in step (the driver's thread) -----------------------------------------------

    def follow(self, game: Game, clocks: opponents.Clocks, *, ask: bool = True) -> None:
        """The recorded game is now ``game``: tell the opponent what changed (see the
        module doc) and, on its turn and with ``ask``, ask for its move with
        ``clocks``. Nothing while it has failed."""
        if self.failed:
            return
        match = self.match
        if match is not None:
            match.game_recorded(game)  # (published from the journal, on this thread)
        positions = tuple(game.positions)
        known = self._known
        if positions == known or (self.pending is not None and positions == known[:-1]):
            if self.pending is not None and positions == known:
                self.pending = None  # carried out: the opponent has played it already
        elif (known and positions[:-1] == known and game.moves and not self.thinking
              and self.pending is None and not self.is_turn(known[-1])):
            move = game.moves[-1].move  # the person's move
            self._known = positions
            self._submit("be told the move", lambda: self.opponent.other_side_moved(move))
        else:
            self._restart(positions)
        if ask and game.result is None and not self.failed:
            self._ask_if_its_turn(positions[-1], clocks)

    def _restart(self, positions: tuple[Position, ...]) -> None:
        """Start the opponent again from the last of ``positions`` (the others its
        history): what it thinks or proposed is dropped."""
        if self._known and self.spec.kind in ("dxp", "dxp-listen"):
            self._fail(_SeatError(
                Message.of("opponent.error.dxp_restart", name=self.name),
                f"{self.name} (DXP) cannot take moves back or begin again: continue with "
                "the built-in engine"))
            return
        self._generation += 1
        self.thinking = False
        self.pending = None
        self._known = positions
        opponent, white = self.opponent, self.white
        position, history = positions[-1], positions[:-1]

        def start() -> str:
            opponent.start(position, white, history)
            return opponent.name

        self._submit("start", start, self._started)

    def _ask_if_its_turn(self, position: Position, clocks: opponents.Clocks) -> None:
        if not self.is_turn(position) or self.thinking or self.pending is not None:
            return
        if not position.legal_moves():
            return
        self.thinking = True
        opponent = self.opponent
        clocks = replace(clocks, move_seconds=self.move_seconds)
        generation = self._generation
        asked_at = position
        ply = len(self._known) - 1

        def answered(move: Any) -> None:
            if generation != self._generation or self.failed:
                return
            self.thinking = False
            match = self.match
            answer = Answer(asked_at, move, self.clock(),
                            match.clocks_of(ply) if match is not None else None)
            if not asked_at.is_legal(move):  # (each opponent checks it already)
                self._fail(opponents.OpponentIllegalMoveError(
                    f"{self.name} proposed {move}, not legal in {asked_at.fen()}"))
                return
            self.pending = answer
            self._known = (*self._known, asked_at.play(move))
            if self.on_answer is not None:
                self.on_answer(answer)

        self._submit("think", lambda stop: opponent.move(clocks, stop), answered,
                     with_stop=True)

    # -- the worker ----------------------------------------------------------------------------

    def _submit(self, what: str, call: Callable[..., Any],
                done: Callable[[Any], None] | None = None, *, with_stop: bool = False) -> None:
        """Run ``call`` on the worker, in order; its answer to ``done`` on the driver's
        thread unless the game state moved on; a failure to `_fail` there."""
        generation = self._generation

        def work(stop: Callable[[], bool]) -> Any:
            if self._broken == generation:
                return None  # a call of this generation failed: the rest would too
            try:
                return call(stop) if with_stop else call()
            except opponents.OpponentError as error:
                self._broken = generation
                return error
            except Exception as error:  # noqa: BLE001 - a bug of the opponent: one line
                self._broken = generation
                log.exception("the opponent failed to %s", what)
                return _SeatError(
                    Message.of("opponent.error.bug", name=self.name,
                               detail=f"{type(error).__name__}: {error}"[:300]),
                    f"{self.name} failed ({type(error).__name__}: {error})")

        def deliver(answer: Any) -> None:
            def on_driver() -> None:
                if generation != self._generation:
                    return
                if isinstance(answer, opponents.OpponentError):
                    self._fail(answer)
                elif done is not None and answer is not None:
                    done(answer)
            self.post(on_driver)

        self.runner.submit(Job(f"opponent: {what}", work, deliver,
                               lambda: generation != self._generation))

    def _started(self, name: str) -> None:
        if name and name != self.name:
            self.name = name
            if self.on_named is not None:
                self.on_named(name)

    def _fail(self, error: opponents.OpponentError) -> None:
        if isinstance(error, opponents.MatchStoppedError):  # (why: a message, in each language)
            self.error_message = Message.of("match.stopped", name=self.name,
                                            detail=error.message)
            text = english(self.error_message)
        else:
            text = " ".join(str(error).split()) or type(error).__name__
            self.error_message = error.message if isinstance(error, _SeatError) else \
                error_message(error, self.name)
        self.error = text
        self.thinking = False
        self.pending = None
        self._generation += 1
        log.error("opponent: %s", text)
        if self.on_failure is not None:
            self.on_failure(self.error_message if isinstance(error, opponents.MatchStoppedError)
                            else text)

    # -- going on with another opponent ----------------------------------------------------------

    def replace(self, opponent: opponents.Opponent, spec: opponents.OpponentSpec) -> None:
        """Go on with ``opponent`` (the built-in engine, after a failure): the failed one
        is closed on the worker, the new one starts at the next `follow`."""
        old = self.opponent
        self._generation += 1
        self.runner.submit(Job("opponent: close the failed one", lambda stop: old.close(),
                               lambda answer: None))
        self.opponent = opponent
        self.spec = spec
        self.name = opponent.name
        self.error = None
        self.error_message = None
        self.thinking = False
        self.pending = None
        self.replaced_by_builtin = True
        self._known = ()

    def close(self) -> None:
        """Stop the worker (what it thinks is cut short) and close the opponent. Safe
        twice. Another board is closed first: its waits (for the other board to come,
        or to move) end at once, and the worker with them."""
        self._generation += 1
        first = self.match is not None
        if first:
            self._close_opponent()
        self.runner.close()
        if not first:
            self._close_opponent()

    def _close_opponent(self) -> None:
        try:
            self.opponent.close()
        except Exception:  # noqa: BLE001 - closing must not stop the board's shutdown
            log.exception("closing the opponent")

    # -- the page ------------------------------------------------------------------------------

    def label(self) -> Message | str:
        """The opponent's name as a person reads it: the built-in engine's in the
        reader's language, another's as it gives it."""
        if type(self.opponent) is opponents.BuiltinOpponent:  # (a subclass may name itself)
            return Message.of("opponent.name.builtin", level=self.opponent.level)
        return self.name

    def status(self) -> Message | None:
        """What the opponent does now, for the page: failed, its move to carry out,
        thinking; None on the other side's turn."""
        if self.error_message is not None:
            return Message.of("opponent.state.failed", name=self.label())
        if not self.reachable():
            return Message.of("match.state.unreachable", name=self.label())
        if self.pending is not None:
            return Message.of("opponent.state.move", name=self.label(),
                              move=self.pending.as_json()["notation"])
        if self.thinking:
            return Message.of("opponent.state.thinking", name=self.label())
        return None

    def view(self) -> dict[str, Any]:
        """The page's and the API's opponent block (docs/opponents.md): ``name`` as the
        record has it, ``label`` as a person reads it, ``status`` and ``error`` as
        messages (``error``: why it failed, None while it plays)."""
        label = self.label()
        status = self.status()
        return {"kind": self.spec.kind, "name": self.name,
                "label": label.as_json() if isinstance(label, Message) else label,
                "side": self.side, "level": self.level, "thinking": self.thinking,
                "pending": self.pending.as_json() if self.pending is not None else None,
                "status": status.as_json() if status is not None else None,
                "error": self.error_message.as_json() if self.error_message is not None
                else None,
                "error_text": self.error,
                "can_continue": self.failed,
                # a match between boards: whether the other board is heard from
                "reachable": self.reachable() if self.match is not None else None,
                # and its result (or withdrawal) to accept or not
                "claim": self.claim.as_json() if self.claim is not None else None}
