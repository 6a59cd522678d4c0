"""The arbiter's actions on a game in play: a new game, a repaired journal, tags, results,
the clock, acknowledged flags, an accepted position, a takeback.

Each action checks what it can on the caller's thread (a bad result, tag or FEN is
refused before anything is queued), then runs where the game in play is driven (``run``:
on a board `PlaySession.call`, the controller thread, the only thread that feeds the
tracker and writes the journal; in a test, at once). The change itself is the game in
play's (`game_in_play.GameInPlay`): the desk decides whether it may be done and says so.
Callers check the arbiter's token first (`PlaySession.check_token`). Every refusal is an
`ArbiterError` saying a message, which the page shows in its reader's language.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from draughtsboard.board.game.reasons import why_words
from draughtsboard.board.game.record import normalise_result
from draughtsboard.board.game.records import Setter, Why
from draughtsboard.board.game.tags import clean_tags
from draughtsboard.board.message import Message
from draughtsboard.board.rules import DraughtsError, parse_fen, parse_start_fen
from draughtsboard.recording.reasons import reason_message

from .clock import TimeControl
from .continuity import carried_tags
from .errors import ArbiterError, ClockActionError, TimeControlError
from .game_in_play import GameInPlay

log = logging.getLogger("draughtsboard.play")

Run = Callable[[Callable[[], Any]], Any]  # runs an action where the game is driven


def check_time_control(tags: dict[str, str]) -> None:
    """A ``TimeControl`` tag the clock cannot run is refused with the reason."""
    text = tags.get("TimeControl", "").strip()
    if text and text not in ("-", "?"):
        try:
            TimeControl.parse(text)
        except TimeControlError as error:
            raise ArbiterError(str(error)) from None


class ArbiterDesk:
    """The arbiter's actions on one game in play (see the module doc); ``run`` runs an
    action where the game is driven and returns its answer (`PlaySession.call`)."""

    def __init__(self, game: GameInPlay, run: Run) -> None:
        self.game = game
        self.run = run

    @property
    def game_id(self) -> str:
        """The id of the game the actions are about now."""
        return self.game.game_id

    def new_game(self, tags: dict[str, str] | None = None, fen: str | None = None) -> str:
        """The arbiter starts a new game (the unfinished one is closed as abandoned); its id."""
        game = self.game
        try:
            if fen:
                parse_start_fen(game.variant, fen)  # refused here, before it is recorded
            merged = {**carried_tags(game.initial_tags), **clean_tags(tags or {})}
            check_time_control(merged)
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> str:
            game_id = game.begin_game(game.tags_of_new_game(merged), fen,
                                      "abandoned: the arbiter started a new game")
            log.info("arbiter: new game %s", game_id)
            return game_id

        return self.run(action)

    def repair(self, action: str) -> str:
        """The arbiter's answer to a damaged journal: ``resume`` from its last good record
        (a copy of the damaged file is kept); a new game is `new_game`. What was done."""
        if action != "resume":
            raise ArbiterError(Message.of("arbiter.refused.repair_action"))

        def run() -> str:
            text = self.game.resume_damaged()
            log.warning("arbiter: %s", text)
            return text

        return self.run(run)

    def set_tags(self, tags: dict[str, str]) -> dict[str, str]:
        """The arbiter sets tags of the game in progress; every tag afterwards."""
        game = self.game
        try:
            cleaned = clean_tags(tags)
            check_time_control(cleaned)
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> dict[str, str]:
            if game.damage is not None:
                raise ArbiterError(Message.of("arbiter.refused.damaged"))
            if game.recorded_game().result is not None:
                raise ArbiterError(Message.of("arbiter.refused.finished_tags"))
            return game.set_tags(cleaned)

        return self.run(action)

    def declare_result(self, result: str, reason: str = "") -> str:
        """The arbiter declares the result; the result as recorded. ``*`` is not a
        result to declare: a new game closes this one as unfinished."""
        game = self.game
        try:
            if normalise_result(game.variant, result) is None:
                raise ArbiterError(Message.of("arbiter.refused.no_result"))
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> str:
            self._refuse_while_unrecorded()
            recorded = game.recorded_game().result
            if recorded is not None:
                raise ArbiterError(Message.of("arbiter.refused.has_result", result=recorded))
            # accepting another board's claim: its reason, so both PDNs say the same
            self._record_result(result, reason or game.match_reason(
                normalise_result(game.variant, result) or result) or "declared by the arbiter")
            return game.recorded_game().result_text()

        return self.run(action)

    def accept_draw(self) -> str:
        """The arbiter accepts the draw the rules declare now; the result recorded."""

        def action() -> str:
            self._refuse_while_unrecorded()
            recorded = self.game.recorded_game()
            if recorded.result is not None:
                raise ArbiterError(Message.of("arbiter.refused.has_result",
                                              result=recorded.result))
            reasons = recorded.draw_reasons()
            if not reasons:
                raise ArbiterError(Message.of("arbiter.refused.no_draw"))
            draw = recorded.variant.results[1]
            # typed: the rules' reasons, the arbiter (the setter) accepted them; PDN's
            # words are rendered from them ("draw: ... (accepted by the arbiter)")
            self._record_result(draw, tuple(reasons))
            return draw

        return self.run(action)

    def _refuse_while_unrecorded(self) -> None:
        """A result needs the recorded game to be the game played: not while moves wait
        to be recorded, nor while the journal is damaged."""
        if self.game.damage is not None or self.game.held.held:
            raise ArbiterError(Message.of("arbiter.refused.unrecorded"))

    def _record_result(self, result: str, reason: Why) -> None:
        self.game.record_result(result, reason, by=Setter.ARBITER)
        log.info("arbiter: result %s (%s)", result, why_words(reason, Setter.ARBITER))

    def withdraw_result(self) -> str:
        """The arbiter takes back the result of the game in progress (until the next
        game starts): play goes on once the board shows the recorded position again.
        A game the rules ended (no legal move) keeps its result."""

        def action() -> str:
            recorded = self.game.recorded_game()
            if recorded.result is None:
                raise ArbiterError(Message.of("arbiter.refused.nothing_to_withdraw"))
            outcome = recorded.outcome()
            if outcome is not None and recorded.position.is_game_over():
                raise ArbiterError(Message.of("arbiter.refused.rules_ended",
                                              reason=reason_message(outcome[1])))
            text = f"result {recorded.result} withdrawn by the arbiter"
            self.game.withdraw_result(text)
            log.info("arbiter: %s", text)
            return text

        return self.run(action)

    def clock_action(self, action: str) -> str:
        """The arbiter starts, pauses or resumes the game clock; what was done."""

        def run() -> str:
            if self.game.recorded_game().result is not None:
                raise ArbiterError(Message.of("arbiter.refused.clock_stopped"))
            try:
                done = self.game.clock_action(action)
            except ClockActionError as error:
                raise ArbiterError(str(error)) from None
            log.info("arbiter: %s", done)
            return done

        return self.run(run)

    def acknowledge(self) -> int:
        """The arbiter has seen the flags: the count is cleared; how many there were."""
        return self.run(self.game.acknowledge)

    def accept_position(self, white_to_move: bool, fen: str | None = None) -> str:
        """The arbiter accepts the position on the board (or the one ``fen`` gives) as the
        current position, with ``white_to_move``: an arbiter correction in the record;
        play goes on from it. Its FEN."""
        game = self.game
        given = None
        if fen:
            try:
                given = parse_fen(game.variant, fen)
            except DraughtsError as error:
                raise ArbiterError(str(error)) from None

        def action() -> str:
            if game.recorded_game().result is not None:
                raise ArbiterError(Message.of("arbiter.refused.finished"))
            position = given
            if position is None:
                position = game.tracker.board_position(bool(white_to_move))
                if position is None:
                    raise ArbiterError(Message.of("arbiter.refused.board_unknown"))
            elif position.white_to_move != bool(white_to_move):
                raise ArbiterError(Message.of("arbiter.refused.fen_side"))
            side = "White" if position.white_to_move else "Black"
            text = f"position accepted by the arbiter, {side} to move: {position.fen()}"
            game.accept_position(position, text)
            log.info("arbiter: %s", text)
            return position.fen()

        return self.run(action)

    def take_back_to(self, ply: int) -> str:
        """The arbiter takes the game back to ``ply`` (0: the start); the board lights
        what differs until it shows that position. The position's FEN."""
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise ArbiterError(Message.of("arbiter.refused.ply_type", ply=repr(ply)[:40]))

        def action() -> str:
            recorded = self.game.recorded_game()
            if recorded.result is not None:
                raise ArbiterError(Message.of("arbiter.refused.finished"))
            if not 0 <= ply <= recorded.ply:
                raise ArbiterError(Message.of("arbiter.refused.no_ply", ply=ply,
                                              at=recorded.ply))
            text = f"taken back by the arbiter to ply {ply} (from ply {recorded.ply})"
            position = self.game.take_back_to(ply, text)
            log.info("arbiter: %s", text)
            return position.fen()

        return self.run(action)
