"""What the board's play becomes in the journal, on the controller thread.

The controller hands each tracker event to `RecordKeeper.record` and shows the confirming
LEDs only once it returns: the event is then on disk, or held (`HeldRecords`) with every
event after it until it can be written, and the board and the page say "not recorded".
Around the records the keeper runs the game clock (its times before a move, its flag
fall) and offers the draws the rules declare to the arbiter. What each event is in the
journal is `recording.tracker_events`; this module is when and in what order.
"""

from __future__ import annotations

import logging
from typing import Any

from draughtsboard.board.rules import DraughtsError
from draughtsboard.board.tracker import MoveEvent, State, TakebackEvent, TrackerEvent

from .view import plain_reason

log = logging.getLogger("draughtsboard.play")


class RecordKeeper:
    """The session's scribe. ``session`` is the `session.PlaySession` it writes for (not
    imported here: the session imports this module); it reads the session's public parts
    (recorder, game id, held records, game clock, arbiter's log, coach) each time, since
    a new game replaces some of them."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self._draw_offered = ""  # the draw reasons last offered to the arbiter

    def record(self, event: TrackerEvent) -> None:
        """The controller's record callback: it returns once the record is on disk, and
        the controller shows the confirming LEDs only after that. A record that cannot be
        written is held (`HeldRecords`), with every event after it, and the board and the
        page show "not recorded" until it is written."""
        session = self.session
        held = session.held
        now_wall = session.wall()
        plies = session.recorded_game().ply
        clock = None
        if isinstance(event, MoveEvent) and not held.held:
            # (while records are held the recorded game is behind the board: the clocks
            # of a held move are left to the thinking times)
            try:
                clock = session.game_clock.before_move(session.recorder, session.game_id,
                                                       amends=bool(event.replaces))
            except (DraughtsError, OSError) as error:
                log.error("could not record the clock: %s", error)
                session.arbiter_log.note("error", f"could not record the clock: {error}")
        entries = held.add(session.game_id, event, now_wall, session.clock(), clock=clock)
        if not held.held:
            game = session.recorded_game()
            if isinstance(event, MoveEvent) and game.ply >= plies:
                session.game_clock.after_move(game)
            elif isinstance(event, TakebackEvent):
                session.game_clock.after_takeback(game)
        self._after_recording(entries)
        if session.coach is not None and not held.held:
            session.coach.after_event(event)  # (behind held moves it waits for the next one)

    def retry_held(self) -> bool:
        """Try the held records again; whether something changed (the page is due)."""
        session = self.session
        held = session.held
        entries = held.retry(session.clock())
        if entries or not held.held:
            if not held.held:
                session.game_clock.after_move(session.recorded_game())
            self._after_recording(entries)
            if not held.held and session.coach is not None:
                session.coach.journal_caught_up()
            return True
        return False

    def keep_time(self) -> bool:
        """The game clock's turn on the controller thread; whether something changed."""
        session = self.session
        try:
            note = session.game_clock.tick(
                session.recorder, session.game_id,
                board_matches=session.tracker.state is State.READY)
        except (DraughtsError, OSError) as error:
            log.error("could not record the clock: %s", error)
            session.arbiter_log.note("error", f"could not record the clock: {error}")
            return True
        if note is None:
            return False
        log.info("%s", note.text)
        session.arbiter_log.note(note.kind, note.text)
        return True

    def forget_draw_offer(self) -> None:
        """A new game, or a withdrawn result: a draw that holds is offered again."""
        self._draw_offered = ""

    def _after_recording(self, entries) -> None:
        session = self.session
        session.moves_recorded = session.recorded_game().ply
        for entry in entries:
            session.arbiter_log.note(entry.kind, entry.text)
        held = tuple(event.path[-1] for event in session.held.held_moves if event.path)
        session.leds.set_held(held)
        if not session.held.held:
            self._offer_draw()

    def _offer_draw(self) -> None:
        """A draw the rules declare is offered to the arbiter (once, while it holds),
        or recorded at once where the preset says the rule ends the game."""
        session = self.session
        game = session.recorded_game()
        reasons = game.draw_reasons() if game.result is None else []
        text = "; ".join(plain_reason(r) for r in reasons)
        if text == self._draw_offered:
            return
        self._draw_offered = text
        if not reasons:
            return
        try:
            if game.rules.automatic:
                reason = f"{text} (the rules end the game: recorded without the arbiter)"
                session.recorder.record_result(session.game_id, game.variant.results[1],
                                               reason, session.clock(), session.wall())
                session.arbiter_log.note("result", f"{game.variant.results[1]} ({reason})")
                return
            session.recorder.record_draw_offer(session.game_id, text, session.clock(),
                                               session.wall())
        except (DraughtsError, OSError) as error:
            log.error("could not record the draw: %s", error)
            session.arbiter_log.note("error", f"could not record the draw: {error}")
            return
        log.info("draw offered to the arbiter: %s", text)
        session.arbiter_log.note("draw", f"{text}: the rules declare a draw; the arbiter "
                                         "may declare it")
