"""The arbiter's actions on a game in play: a new game, a repaired journal, tags, results,
the clock, acknowledged flags, an accepted position, a takeback.

Each action checks what it can on the caller's thread (a bad result, tag or FEN is
refused before anything is queued), then runs on the session's controller thread
(`PlaySession.call`), the only thread that feeds the tracker and writes the journal.
Callers check the arbiter's token first (`PlaySession.check_token`). Every refusal is an
`ArbiterError`, whose text the page shows as it is.
"""

from __future__ import annotations

import logging
from typing import Any

from draughtsboard.board.game.record import normalise_result
from draughtsboard.board.game.tags import clean_tags
from draughtsboard.board.rules import DraughtsError, parse_fen, parse_start_fen

from .clock import TimeControl, TimeControlError
from .continuity import carried_tags
from .game_clock import ClockActionError

log = logging.getLogger("draughtsboard.play")


class ArbiterError(ValueError):
    """An arbiter action that cannot be done as asked (bad result, bad tag, bad FEN)."""


def check_time_control(tags: dict[str, str]) -> None:
    """A ``TimeControl`` tag the clock cannot run is refused with the reason."""
    text = tags.get("TimeControl", "").strip()
    if text and text not in ("-", "?"):
        try:
            TimeControl.parse(text)
        except TimeControlError as error:
            raise ArbiterError(str(error)) from None


class ArbiterDesk:
    """The arbiter's actions on one session (see the module doc). ``session`` is the
    `session.PlaySession` they act on (not imported here: the session imports this
    module); the session's methods of the same names delegate here."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def new_game(self, tags: dict[str, str] | None = None, fen: str | None = None) -> str:
        """The arbiter starts a new game (the unfinished one is closed as abandoned); its id."""
        session = self.session
        try:
            if fen:
                parse_start_fen(session.variant, fen)  # refused here, before it is recorded
            merged = {**carried_tags(session.initial_tags), **clean_tags(tags or {})}
            check_time_control(merged)
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> str:
            session.begin_game(session.tags_of_new_game(merged), fen,
                               "abandoned: the arbiter started a new game")
            log.info("arbiter: new game %s", session.game_id)
            return session.game_id

        return session.call(action)

    def repair(self, action: str) -> str:
        """The arbiter's answer to a damaged journal: ``resume`` from its last good record
        (a copy of the damaged file is kept); a new game is `new_game`. What was done."""
        if action != "resume":
            raise ArbiterError("repair: 'resume' (a new game is the new-game action)")
        session = self.session

        def run() -> str:
            damage = session.damage
            if damage is None:
                raise ArbiterError("no damaged journal is waiting")
            if not damage.resumable:
                raise ArbiterError(f"{damage.describe()}: it cannot be resumed, start a new "
                                   "game")
            text, _ = session.recorder.repair(session.game_id, "resume", session.clock(),
                                              session.wall())
            session.damage = None
            game = session.recorded_game()
            session.tracker.reset(game.position, check_start=True)
            session.moves_recorded = game.ply
            if session.coach is not None:
                session.coach.game_started()
            session.arbiter_log.note("note", text)
            log.warning("arbiter: %s", text)
            latest = session.source.latest()
            if latest is not None:
                session.controller.handle(latest)
            return text

        return session.call(run)

    def set_tags(self, tags: dict[str, str]) -> dict[str, str]:
        """The arbiter sets tags of the game in progress; every tag afterwards."""
        session = self.session
        try:
            cleaned = clean_tags(tags)
            check_time_control(cleaned)
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> dict[str, str]:
            if session.damage is not None:
                raise ArbiterError("the journal is damaged: resume it or start a new game first")
            if session.recorded_game().result is not None:
                raise ArbiterError("the game is finished: start a new game to change tags")
            return session.recorder.record_tags(session.game_id, cleaned, session.clock(),
                                                session.wall())

        return session.call(action)

    def declare_result(self, result: str, reason: str = "") -> str:
        """The arbiter declares the result; the result as recorded. ``*`` is not a
        result to declare: a new game closes this one as unfinished."""
        session = self.session
        try:
            if normalise_result(session.variant, result) is None:
                raise ArbiterError("choose a result: '*' is no result (to abandon the game, "
                                   "start a new one)")
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> str:
            self._refuse_while_unrecorded()
            if session.recorded_game().result is not None:
                raise ArbiterError(f"the game already has a result "
                                   f"({session.recorded_game().result}): withdraw it first")
            self._record_result(result, reason or "declared by the arbiter")
            return session.recorded_game().result_text()

        return session.call(action)

    def accept_draw(self) -> str:
        """The arbiter accepts the draw the rules declare now; the result recorded."""
        session = self.session

        def action() -> str:
            self._refuse_while_unrecorded()
            game = session.recorded_game()
            if game.result is not None:
                raise ArbiterError(f"the game already has a result ({game.result})")
            reasons = game.draw_reasons()
            if not reasons:
                raise ArbiterError("the rules declare no draw in this position")
            draw = game.variant.results[1]
            self._record_result(draw, "; ".join(reasons) + " (accepted by the arbiter)")
            return draw

        return session.call(action)

    def _refuse_while_unrecorded(self) -> None:
        """A result needs the recorded game to be the game played: not while moves wait
        to be recorded, nor while the journal is damaged (controller thread)."""
        if self.session.damage is not None or self.session.held.held:
            raise ArbiterError("moves are not recorded yet, or the journal is damaged: "
                               "no result can be recorded now")

    def _record_result(self, result: str, reason: str) -> None:
        """Record the result with its reason, log it and tell the coach (controller
        thread)."""
        session = self.session
        session.recorder.record_result(session.game_id, result, reason, session.clock(),
                                       session.wall())
        session.arbiter_log.note("result", f"{result} ({reason})")
        if session.coach is not None:
            session.coach.game_finished()
        log.info("arbiter: result %s (%s)", result, reason)

    def withdraw_result(self) -> str:
        """The arbiter takes back the result of the game in progress (until the next
        game starts): play goes on once the board shows the recorded position again.
        A game the rules ended (no legal move) keeps its result."""
        session = self.session

        def action() -> str:
            game = session.recorded_game()
            if game.result is None:
                raise ArbiterError("the game has no result to withdraw")
            outcome = game.outcome()
            if outcome is not None and game.position.is_game_over():
                raise ArbiterError(f"the rules ended this game ({outcome[1]}): its result "
                                   "stands")
            text = f"result {game.result} withdrawn by the arbiter"
            session.recorder.record_result_withdrawn(session.game_id, text, session.clock(),
                                                     session.wall())
            session.arbiter_log.note("result", text)
            log.info("arbiter: %s", text)
            session.record_keeper.forget_draw_offer()
            session.tracker.reset(session.recorded_game().position, check_start=True)
            if session.coach is not None:
                session.coach.game_resumed()
            latest = session.source.latest()
            if latest is not None:
                session.controller.handle(latest)
            return text

        return session.call(action)

    def clock_action(self, action: str) -> str:
        """The arbiter starts, pauses or resumes the game clock; what was done."""
        session = self.session

        def run() -> str:
            if session.recorded_game().result is not None:
                raise ArbiterError("the game has its result: the clock has stopped")
            try:
                done = session.game_clock.arbiter(session.recorder, session.game_id, action)
            except ClockActionError as error:
                raise ArbiterError(str(error)) from None
            session.arbiter_log.note("clock", done + " by the arbiter")
            log.info("arbiter: %s", done)
            return done

        return session.call(run)

    def acknowledge(self) -> int:
        """The arbiter has seen the flags: the count is cleared; how many there were."""
        session = self.session

        def action() -> int:
            count = session.arbiter_log.take_unacknowledged()
            if count:
                session.arbiter_log.note("acknowledged",
                                         f"the arbiter acknowledged {count} flag(s)")
            return count

        return session.call(action)

    def accept_position(self, white_to_move: bool, fen: str | None = None) -> str:
        """The arbiter accepts the position on the board (or the one ``fen`` gives) as the
        current position, with ``white_to_move``: an arbiter correction in the record;
        play goes on from it. Its FEN."""
        session = self.session
        given = None
        if fen:
            try:
                given = parse_fen(session.variant, fen)
            except DraughtsError as error:
                raise ArbiterError(str(error)) from None

        def action() -> str:
            if session.recorded_game().result is not None:
                raise ArbiterError("the game is finished: start a new game")
            position = given
            if position is None:
                position = session.tracker.board_position(bool(white_to_move))
                if position is None:
                    raise ArbiterError("the switches alone cannot tell this position (a "
                                       "piece appeared where none was): give it as FEN")
            elif position.white_to_move != bool(white_to_move):
                raise ArbiterError("the FEN and the side to move disagree")
            side = "White" if position.white_to_move else "Black"
            text = f"position accepted by the arbiter, {side} to move: {position.fen()}"
            session.recorder.record_correction(session.game_id, position.fen(), text,
                                               session.clock(), session.wall())
            session.controller.accept(position, session.clock())
            session.arbiter_log.note("correction", text)
            log.info("arbiter: %s", text)
            return position.fen()

        return session.call(action)

    def take_back_to(self, ply: int) -> str:
        """The arbiter takes the game back to ``ply`` (0: the start); the board lights
        what differs until it shows that position. The position's FEN."""
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise ArbiterError(f"ply: expected a whole number, got {ply!r}")
        session = self.session

        def action() -> str:
            game = session.recorded_game()
            if game.result is not None:
                raise ArbiterError("the game is finished: start a new game")
            if not 0 <= ply <= game.ply:
                raise ArbiterError(f"no ply {ply}: the game is at ply {game.ply}")
            text = f"taken back by the arbiter to ply {ply} (from ply {game.ply})"
            session.recorder.record_takeback_to(session.game_id, ply, text, session.clock(),
                                                session.wall())
            position = session.recorded_game().position
            session.controller.accept(position, session.clock())
            session.moves_recorded = ply
            session.arbiter_log.note("takeback", text)
            log.info("arbiter: %s", text)
            return position.fen()

        return session.call(action)
