"""The game in play: the one owner of everything a board knows about the game it plays.

`GameInPlay` holds the game id, the tracker and the controller that feeds it, the
records held back by a failed write, the game clock, the arbiter's log, a damaged
journal waiting for the arbiter, the page's notices, the draw the rules offer and, when
the board plays an opponent, its seat (`opponent_seat.OpponentSeat`). It opens the game
(new, resumed, or a damaged journal), records what the tracker reports, and carries out
every change the arbiter's desk, the coach and the puzzles ask for, so that its parts
always agree with each other and with the journal.

Against an opponent, after every change the seat is told the recorded game (`follow`):
the opponent learns the person's moves and is asked for its own on its turn; its answer
becomes the one move the tracker takes on its turn (`Tracker.expect`), shown on the
LEDs until the board shows it carried out, and only then recorded. Its time counts
while it thinks and stands still while the person carries its move out.

It has no thread and no clock of its own. Whoever drives it hands it the snapshots
(`feed`) and tells it when time passes (`tick`): on a board, the play session's
controller thread (`session.PlaySession`); in a test, the test itself, in virtual time.
Every method runs on that one driver. The time it records comes from the ``clock`` and
``wall`` it is given.

Recording a tracker event: the controller hands it to `record` and shows the confirming
LEDs only once `record` returns, when the event is on disk, or held (`HeldRecords`) with
every event after it until it can be written; the board and the page then say "not
recorded". Around the records it runs the game clock (the times before a move, the flag
fall) and offers the draws the rules declare to the arbiter. What each event is in the
journal is `recording.tracker_events`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from draughtsboard.board.game.record import Game
from draughtsboard.board.game.records import CoachSwitch, Setter, Why
from draughtsboard.board.message import Message
from draughtsboard.board.mode import Mode
from draughtsboard.board.ports import LedSink, Snapshot
from draughtsboard.board.rules import DraughtsError, Position, initial_position, parse_fen
from draughtsboard.board.rules.draws import Reason
from draughtsboard.board.tracker import (
    POLICY_TAG,
    RESTORE,
    Controller,
    IrregularityPolicy,
    MoveEvent,
    State,
    TakebackEvent,
    Tracker,
    TrackerEvent,
    policy_for,
    render,
)
from draughtsboard.opponents import BuiltinOpponent, Clocks, OpponentSpec, believed_clocks
from draughtsboard.recording import JournalDamagedError, Recorder
from draughtsboard.recording.reasons import reason_message
from draughtsboard.recording.tracker_events import HeldRecords, LogEntry
from draughtsboard.words import english

from .arbiter_log import ArbiterLog
from .clock import side_to_move_at
from .continuity import resume_refusals
from .errors import ArbiterError
from .game_clock import GameClock
from .leds import RememberingLeds
from .opening import Opening
from .opponent_seat import Answer, OpponentSeat
from .view import build_view, damage_view, plain_reason

log = logging.getLogger("draughtsboard.play")

# Tracker states in which only a snapshot (or a command) can change anything.
RESTING = frozenset({State.SETUP, State.READY, State.GAME_OVER})


class Follower(Protocol):
    """What follows the game in play besides the page: the coach (`coach.Coach`). It is
    told of every change on the driver's thread, adds its intents to the LEDs and its
    part to the page's view."""

    def game_started(self) -> None: ...

    def after_event(self, event: TrackerEvent) -> None: ...

    def game_finished(self) -> None: ...

    def game_resumed(self) -> None: ...

    def journal_caught_up(self) -> None: ...

    def tick(self, now: float) -> bool: ...

    def led_intents(self) -> dict[str, tuple[int, ...]]: ...

    def view(self) -> dict[str, Any] | None: ...

    def close(self) -> None: ...


class GameInPlay:
    """One board's game in play (see the module doc). ``opening`` is what to play
    (`opening.choose_opening`); ``mode``, ``tags`` and ``irregular`` what was asked for
    a new game (a resumed game keeps its own: `open` says what it refused);
    ``irregular_leds`` whether the board's LEDs show irregularities in tournament mode;
    ``say`` puts what it logs for people into the board's language. Nothing is written
    before `open`."""

    def __init__(self, recorder: Recorder, leds: LedSink, opening: Opening, *,
                 mode: Mode | str | None = None, tags: dict[str, str] | None = None,
                 irregular: str | None = None, irregular_leds: bool = True,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time,
                 say: Callable[[Message], str] = english) -> None:
        self.recorder = recorder
        self.say = say
        self.opening = opening
        self.variant = opening.variant
        # ``None``: not asked for (a resumed game keeps its own, a new one is a tournament game)
        self.requested_mode = Mode.parse(mode) if mode is not None else None
        self.mode = opening.game.mode if opening.resumes and opening.game is not None else (
            self.requested_mode or Mode.TOURNAMENT)
        self.initial_tags = dict(tags or {})
        self.irregular = irregular  # the irregularity policy asked for (None: the variant's)
        self.clock = clock
        self.wall = wall
        self.leds = RememberingLeds(leds)
        self.arbiter_log = ArbiterLog(wall)
        self.game_clock = GameClock(clock, wall)
        self.held = HeldRecords(recorder)
        self.damage = opening.damaged  # the arbiter must decide (`resume_damaged`)
        self.game_id = self.damage.game_id if self.damage is not None else (
            opening.resume_id or "")
        self.notices: list[Message] = []  # what the page says until the next game (resume)
        self.moves_recorded = 0  # plies of the recorded game (any thread may read it)
        self.board: Snapshot | None = None  # the switches as last seen
        self.follower: Follower | None = None
        self.opponent: OpponentSeat | None = None
        # the rules' reasons last offered to the arbiter, typed: an offer is made once
        # while the same reasons hold (compared as reasons, never as their words)
        self._draw_offered: tuple[Reason, ...] = ()
        self.policy = self._policy(irregular_leds)
        self.tracker = Tracker(opening.expected_position, self.mode, check_start=True,
                               policy=self.policy)
        self.controller = Controller(
            self.tracker, self.leds, record=self.record,
            dark_irregularities=not self.policy.board_leds and self.mode is Mode.TOURNAMENT)

    @property
    def square_count(self) -> int:
        return self.variant.geometry.square_count

    @property
    def occupied(self) -> int:
        """The switches' occupancy as last seen (0 before the first look)."""
        return self.board.occupied if self.board is not None else 0

    # -- opening ---------------------------------------------------------------------------

    def open(self) -> None:
        """Open the game the opening says: write its start (a new game, the unfinished
        one it replaces closed first), note a resumed one, or wait for the arbiter's
        decision on a damaged journal. Then the follower begins."""
        opening = self.opening
        if self.damage is not None:
            log.error("%s", self.say(Message.of("cli.play.damaged_waits",
                                                problem=self.damage.describe())))
            self.arbiter_log.note("error", self.damage.describe())
        elif opening.resumes:
            assert opening.game is not None  # a resumed opening carries its game
            self.recorder.record_resume(self.game_id, self.clock(), self.wall())
            log.info("%s", self.say(Message.of("cli.play.resuming", game=self.game_id,
                                               ply=opening.game.ply)))
            self._refuse_changes_on_resume(opening.game)
        else:
            if opening.closes is not None:
                self._close_replaced(opening)
            self.game_id = self.recorder.start_game(
                self.variant, self.tags_of_new_game(self.initial_tags), opening.start_fen,
                self.mode, t_monotonic=self.clock(), t_wall=self.wall())
            log.info("%s", self.say(Message.of(
                "cli.play.new_game", game=self.game_id,
                variant=Message.of("board.variant." + self.variant.name.replace("-", "_")),
                mode=Message.of(f"board.mode.{self.mode.value}"))))
        log.info("%s", self.say(Message.of("cli.play.irregularities",
                                           policy=Message.of(f"cli.policy.{self.policy.name}"))))
        self.moves_recorded = self.recorded_game().ply
        if self.follower is not None:
            self.follower.game_started()
        self.follow_opponent()
        self.refresh_leds()

    def tags_of_new_game(self, tags: dict[str, str]) -> dict[str, str]:
        """The tags of a new game, with the irregularity policy it is played under."""
        name = RESTORE.name if self.opponent is not None else \
            policy_for(self.variant.name, self.irregular).name
        tags = {**tags, POLICY_TAG: name}
        if self.opponent is not None:
            tags[self.opponent.side.capitalize()] = self.opponent.name
            if self.opponent.match is not None and not tags.get("Date"):
                # a match between boards: the day in UTC (the black board then records
                # the white board's, so both PDNs are the same text)
                tags["Date"] = time.strftime("%Y.%m.%d", time.gmtime(self.wall()))
        return tags

    def _policy(self, board_leds: bool) -> IrregularityPolicy:
        """The game's irregularity policy: its journal's tag, else the one asked for, else
        the variant's default."""
        recorded = self.opening.game
        if self.damage is not None:
            recorded = self.damage.game
        name = (recorded.tags.get(POLICY_TAG) if recorded is not None else None) \
            or self.irregular
        try:
            return policy_for(self.variant.name, name, board_leds=board_leds)
        except ValueError:
            log.warning("unknown irregularity policy %r in the game's tags: the variant's "
                        "default", name)
            return policy_for(self.variant.name, None, board_leds=board_leds)

    def _refuse_changes_on_resume(self, game: Game) -> None:
        """Options a resumed game does not take (`continuity.resume_refusals`): each is
        a log line, a note in the record and a notice on the page."""
        requested = self.requested_mode.value if self.requested_mode is not None else None
        for text in resume_refusals(self.game_id, self.mode.value, game.tags, requested,
                                    self.initial_tags, self.opening.unused_fen):
            log.warning("%s", english(text))
            self.recorder.record_note(self.game_id, english(text), self.clock(), self.wall())
            self.notices.append(text)
            self.arbiter_log.note("notice", text)

    def _close_replaced(self, opening: Opening) -> None:
        """Close the unfinished game a new one replaces (``--new``, or another variant
        asked for) as unfinished, with a note, so that it is never resumed by surprise."""
        reason = opening.closes_reason or "a new game was started"
        assert opening.closes is not None  # called only for an opening that closes a game
        try:
            try:
                self.recorder.record_result(opening.closes, "*", f"unfinished: {reason}",
                                            self.clock(), self.wall(), by=Setter.BOARD)
            except JournalDamagedError:
                # a damaged journal is closed by the repair, which keeps a copy first
                account, _ = self.recorder.repair(opening.closes, "abandon", self.clock(),
                                                  self.wall())
                log.warning("%s", account)
        except (DraughtsError, OSError) as error:
            log.error("could not close unfinished game %s: %s", opening.closes, error)
            return
        log.info("%s", self.say(Message.of("cli.play.unfinished_closed", game=opening.closes,
                                           reason=reason)))

    def recorded_game(self) -> Game:
        """The recorded game (a read-only copy the recorder keeps until it changes); while
        a damaged journal waits for the arbiter, the part of it that is good."""
        if self.damage is not None:
            if self.damage.game is not None:
                return self.damage.game.read_only_copy()
            return Game(self.variant).read_only_copy()
        return self.recorder.game(self.game_id)

    # -- the board: snapshots and time -------------------------------------------------------

    def see(self, snapshot: Snapshot | None) -> None:
        """The switches as they are, without playing them (the first look at start)."""
        if snapshot is not None:
            self.board = snapshot

    def feed(self, snapshot: Snapshot) -> None:
        """A snapshot of the switches: through the tracker, the journal and the LEDs
        (nothing is played while a damaged journal waits for the arbiter)."""
        self.board = snapshot
        if self.damage is None:
            self.controller.handle(snapshot)
            self.keep_time()

    def tick(self, now: float) -> bool:
        """Time passed with no snapshot (``now`` on the monotonic clock); whether the
        game changed (the page is due)."""
        if self.damage is not None:
            return False
        changed = bool(self.controller.tick(now))
        changed = self._watch_match(now) or changed
        if self.follower is not None and self.follower.tick(now):
            self.refresh_leds()
            changed = True
        return self.keep_time() or changed

    def _watch_match(self, now: float) -> bool:
        """Against another board: pause the clock while it cannot be reached, and go on
        when it can (see `opponent_seat`); whether that changed."""
        seat = self.opponent
        if seat is None or seat.match is None:
            return False
        if seat.check_match():
            return True
        if seat.check_amended():  # its move amended there before it was carried out here
            self.follow_opponent()
            return True
        changed = self._match_result(seat)
        for line in seat.match.take_refusals():  # (each once on the page)
            self.arbiter_log.note("notice", Message.of("match.log.refused",
                                                       name=seat.label(), detail=line))
            changed = True
        reachable = seat.reachable()
        if reachable != self.game_clock.suspended:
            return changed
        if reachable:
            self.game_clock.unsuspend()
            note = Message.of("match.log.resumed", name=seat.label())
        else:
            # the other board's time stands from when it was last heard: a move it made
            # then may be on its way, and the cut is noticed only seconds later
            heard = seat.match.last_heard()
            mine = not seat.is_turn(self.recorded_game().position)
            self.game_clock.suspend(now if mine or heard is None else min(now, heard))
            note = Message.of("match.log.paused", name=seat.label())
        log.warning("%s", english(note))
        self.arbiter_log.note("clock", note)
        return True

    def _match_result(self, seat: OpponentSeat) -> bool:
        """Against another board: its result and its Date, believed as far as they can
        be proved (`match_state.MatchState.result_call`): taken, withdrawn, or shown to
        the arbiter as its claim; whether that changed."""
        match = seat.match
        if match is None or self.damage is not None or self.held.held or seat.failed:
            return False
        game = self.recorded_game()
        changed = False
        date = match.date_to_take(game)
        if date is not None:
            try:
                self.set_tags({"Date": date})
            except (DraughtsError, OSError) as error:
                self._could_not(f"record the Date {date}", error)
            else:
                self.arbiter_log.note("tags", Message.of("match.log.date_taken", date=date,
                                                         name=seat.label()))
                self.follow_opponent()
                game, changed = self.recorded_game(), True
        call = match.result_call(game)
        claim = None
        if call is not None and call.action == "take":
            try:
                self.record_result(call.result, call.reason, by=Setter.MATCH)
            except (DraughtsError, OSError) as error:
                self._could_not(f"record the result {call.result}", error)
            else:
                note = Message.of("match.log.result_taken", result=call.result,
                                  reason=reason_message(call.reason), name=seat.label()) \
                    if call.reason else Message.of("match.log.result_taken_no_reason",
                                                   result=call.result, name=seat.label())
                log.info("%s", english(note))
                self.arbiter_log.note("result", note)
            return True
        if call is not None and call.action == "claim":
            claim = Message.of("match.flag.claim", name=seat.label(), result=call.result,
                               reason=reason_message(call.reason)) if call.reason else \
                Message.of("match.flag.claim_no_reason", name=seat.label(),
                           result=call.result)
        elif call is not None:
            claim = Message.of("match.flag.claim_withdrawal", name=seat.label(),
                               result=call.result)
        if claim != seat.claim:
            seat.claim = claim
            if claim is not None:
                log.warning("%s", english(claim))
                self.arbiter_log.note("notice", claim)
            changed = True
        return changed

    def match_reason(self, result: str) -> str | None:
        """The reason another board of a match gives for ``result``, when it holds it
        (the arbiter accepting its claim records it with the same reason)."""
        seat = self.opponent
        match = seat.match if seat is not None else None
        return match.claimed_reason(result) if match is not None else None

    def at_rest(self) -> bool:
        """Whether only a snapshot or a command can change anything: the board set up,
        waiting to be, or the game over, with no clock running, no record held back and
        no damaged journal waiting (so the driver may wait longer between ticks)."""
        return (self.tracker.state in RESTING and self.damage is None
                and self.game_clock.since is None and not self.held.held)

    def _look_again(self) -> None:
        """Play the switches as last seen again (a new game, a resumed journal)."""
        if self.board is not None:
            self.controller.handle(self.board)

    def attach(self, follower: Follower) -> None:
        """Let a follower (the coach) follow the game and add its LEDs and its part of
        the page. Before `open`."""
        self.follower = follower
        self.leds.tracker_intents = lambda: self.tracker.intents
        self.leds.coach_intents = follower.led_intents

    def attach_opponent(self, seat: OpponentSeat) -> None:
        """Let an opponent play one side: the board then takes only its chosen move on
        its turns, and an irregular move is always put back (it cannot play on from one).
        Before `open`."""
        self.opponent = seat
        if self.policy.stands_when_played_on:
            self.policy = RESTORE
            self.tracker.policy = RESTORE
        self.tracker.set_opponent(seat.white)
        seat.on_answer = self._opponent_answered
        seat.on_named = self._opponent_named
        seat.on_failure = self._opponent_failed

    def close(self) -> None:
        """Stop what follows the game (the coach's worker thread) and the opponent. Safe
        twice."""
        if self.follower is not None:
            self.follower.close()
        if self.opponent is not None:
            self.opponent.close()

    def refresh_leds(self) -> None:
        """Show the LEDs again (the follower's intents changed)."""
        self.leds.show(render(self.tracker.intents, self.square_count))

    # -- recording what the tracker reports ----------------------------------------------------

    def record(self, event: TrackerEvent) -> None:
        """The controller's record callback: it returns once the record is on disk, and
        the controller shows the confirming LEDs only after that; a record that cannot be
        written is held (see the module doc)."""
        held = self.held
        plies = self.recorded_game().ply
        clock = None
        if isinstance(event, MoveEvent) and not held.held:
            # (while records are held the recorded game is behind the board: the clocks
            # of a held move are left to the thinking times)
            try:
                clock = self.game_clock.before_move(self.recorder, self.game_id,
                                                    amends=bool(event.replaces))
            except (DraughtsError, OSError) as error:
                self._could_not("record the clock", error)
            if clock is not None:
                clock = self._agreed_clocks(event, clock)
        entries = held.add(self.game_id, event, self.wall(), self.clock(), clock=clock)
        if not held.held:
            game = self.recorded_game()
            if isinstance(event, MoveEvent) and game.ply >= plies:
                self.game_clock.after_move(game)
            elif isinstance(event, TakebackEvent):
                self.game_clock.after_takeback(game)
        self._after_recording(entries)
        if self.follower is not None and not held.held:
            self.follower.after_event(event)  # (behind held moves it waits for the next one)
        if not held.held:
            self.follow_opponent()

    def _agreed_clocks(self, event: MoveEvent,
                       own: tuple[float, float]) -> tuple[float, float]:
        """The clocks to record with move ``event``, ``own`` being this board's: for the
        opponent's move in a match between boards, its mover's figure as its board
        recorded it (so both journals hold the same), as far as the rules allow
        (`match_state.believed_clocks`); a figure they do not allow is said in the log
        and this board's own is recorded."""
        seat = self.opponent
        pending = seat.pending if seat is not None else None
        if seat is None or pending is None or pending.clocks is None or event.replaces:
            return own
        game = self.recorded_game()
        if tuple(event.path) != tuple(pending.move.path) or game.position != pending.position:
            return own
        reading = self.game_clock.reading(game)
        if reading is None:
            return own
        mover = side_to_move_at(game, game.ply)
        had = reading.left(mover)
        # as this board's own rules add it: not to a fallen flag, not on a stopped clock
        increment = reading.control.increment \
            if had > 0 and mover not in reading.flagged \
            and reading.status in ("running", "waiting") else 0.0
        # the thinking this board measured: the mover's time that went here (link pauses
        # and the hold while its move is carried out not counted), less what this board
        # cannot count as its thinking (`MatchState.unmeasured`)
        left = self.game_clock.left(game, mover)
        spent = max(0.0, had - left) if left is not None else 0.0
        match = seat.match
        unmeasured = match.unmeasured() if match is not None else None
        thought = max(0.0, spent - unmeasured) if unmeasured is not None else 0.0
        believed = believed_clocks(own, pending.clocks, mover, had, increment, thought)
        if believed is None:
            note = Message.of("match.log.clock_refused", name=seat.label(),
                              move=event.notation)
            log.warning("%s (sent %s, had %.3f, thought here %.3f, + %.1f)",
                        english(note), pending.clocks, had, thought,
                        reading.control.increment)
            self.arbiter_log.note("error", note)
            return own
        return believed

    def retry_held(self) -> bool:
        """Try the held records again; whether something changed (the page is due)."""
        held = self.held
        if not held.held:
            return False
        entries = held.retry(self.clock())
        if not entries and held.held:
            return False
        if not held.held:
            self.game_clock.after_move(self.recorded_game())
        self._after_recording(entries)
        if not held.held and self.follower is not None:
            self.follower.journal_caught_up()
        if not held.held:
            self.follow_opponent()
        return True

    def keep_time(self) -> bool:
        """The game clock's turn; whether something changed."""
        seat = self.opponent
        match = seat.match if seat is not None and not seat.failed else None
        heard = (seat.side, match.last_heard()) if seat is not None and match is not None \
            else None
        try:
            note = self.game_clock.tick(
                self.recorder, self.game_id, board_matches=self.tracker.state is State.READY,
                heard=heard)
        except (DraughtsError, OSError) as error:
            self._could_not("record the clock", error)
            return True
        if note is None:
            return False
        log.info("%s", english(note.text))
        self.arbiter_log.note(note.kind, note.text)
        return True

    def _could_not(self, what: str, error: Exception) -> None:
        log.error("could not %s: %s", what, error)
        self.arbiter_log.note("error", f"could not {what}: {error}")

    def _after_recording(self, entries: list[LogEntry]) -> None:
        self.moves_recorded = self.recorded_game().ply
        for entry in entries:
            self.arbiter_log.note(entry.kind, entry.text)
        held = tuple(event.path[-1] for event in self.held.held_moves if event.path)
        self.leds.set_held(held)
        if not self.held.held:
            self._offer_draw()

    def _offer_draw(self) -> None:
        """A draw the rules declare is offered to the arbiter (once, while it holds),
        or recorded at once where the preset says the rule ends the game."""
        game = self.recorded_game()
        reasons = tuple(game.draw_reasons()) if game.result is None else ()
        if reasons == self._draw_offered:
            return
        self._draw_offered = reasons
        if not reasons:
            return
        text = "; ".join(plain_reason(r) for r in reasons)  # the journal's English words
        try:
            if game.rules.automatic:
                reason = f"{text} (the rules end the game: recorded without the arbiter)"
                self.recorder.record_result(self.game_id, game.variant.results[1], reason,
                                            self.clock(), self.wall(), by=Setter.RULES)
                self.arbiter_log.note("result", Message.of(
                    "log.result", result=game.variant.results[1],
                    reason=Message.of("log.draw_automatic",
                                      reasons=[reason_message(r) for r in reasons])))
                return
            self.recorder.record_draw_offer(self.game_id, text, self.clock(), self.wall())
        except (DraughtsError, OSError) as error:
            self._could_not("record the draw", error)
            return
        log.info("draw offered to the arbiter: %s", text)
        self.arbiter_log.note("draw", Message.of(
            "log.draw_offered", reasons=[reason_message(r) for r in reasons]))

    # -- changes asked for: the arbiter's desk, the coach, the puzzles --------------------------

    def begin_game(self, tags: dict[str, str], fen: str | None, why: str) -> str:
        """Close the current game (``*``, ``why``; a damaged journal is closed by the
        recorder's repair) unless it has its result, and begin a new one from ``fen``
        (checked by the caller) in this game's mode; its id. Refused while moves wait to
        be recorded: they would be lost."""
        if self.held.held:
            raise ArbiterError(Message.of("arbiter.refused.held", count=len(self.held.held_moves),
                                          error=self.held.error))
        position = parse_fen(self.variant, fen) if fen else initial_position(self.variant)
        if self.damage is not None:
            text, _ = self.recorder.repair(self.game_id, "abandon", self.clock(), self.wall())
            log.warning("%s", text)
            self.damage = None
        elif self.recorded_game().result is None:
            self.recorder.record_result(self.game_id, "*", why, self.clock(), self.wall(),
                                        by=Setter.BOARD)
        self.game_id = self.recorder.start_game(
            self.variant, tags, fen, self.mode, t_monotonic=self.clock(), t_wall=self.wall())
        self.tracker.reset(position, check_start=True)
        self.moves_recorded = 0
        self.game_clock.reset()
        self.notices.clear()
        self._draw_offered = ()
        self.arbiter_log.clear()
        if self.follower is not None:
            self.follower.game_started()
        self._look_again()
        self.follow_opponent()
        return self.game_id

    def resume_damaged(self) -> str:
        """Resume a damaged journal from its last good record (the recorder keeps a copy
        of the damaged file); what was done. `ArbiterError` when none is waiting or it
        cannot be resumed."""
        damage = self.damage
        if damage is None:
            raise ArbiterError(Message.of("arbiter.refused.no_damage"))
        if not damage.resumable:
            raise ArbiterError(Message.of("arbiter.refused.not_resumable",
                                          damage=damage.describe()))
        text, copy = self.recorder.repair(self.game_id, "resume", self.clock(), self.wall())
        self.damage = None
        game = self.recorded_game()
        self.tracker.reset(game.position, check_start=True)
        self.moves_recorded = game.ply
        if self.follower is not None:
            self.follower.game_started()
        self.arbiter_log.note("note", Message.of(
            "damage.resumed", game_id=self.game_id, ply=game.ply,
            copy=copy.name if copy is not None else ""))
        self._look_again()
        self.follow_opponent()
        return text

    def set_tags(self, tags: dict[str, str]) -> dict[str, str]:
        """Record tags of the game (checked by the caller); every tag afterwards."""
        return self.recorder.record_tags(self.game_id, tags, self.clock(), self.wall())

    def record_result(self, result: str, reason: Why, *,
                      by: Setter = Setter.ARBITER) -> None:
        """Record the result the arbiter declared (or accepted; in a match, ``by`` the
        match: the other board's result taken), and tell the follower."""
        self.recorder.record_result(self.game_id, result, reason, self.clock(), self.wall(),
                                    by=by)
        self.arbiter_log.note("result", Message.of("log.result", result=result,
                                                   reason=reason_message(reason, by))
                              if reason else Message.of("log.result_only", result=result))
        if self.follower is not None:
            self.follower.game_finished()
        self.follow_opponent()

    def withdraw_result(self, text: str) -> None:
        """Take the result back: play goes on once the board shows the recorded position
        again, and a draw the rules declare is offered again."""
        game = self.recorded_game()
        withdrawn = game.result or ""
        self.recorder.record_result_withdrawn(self.game_id, text, self.clock(), self.wall())
        self.arbiter_log.note("result", Message.of("log.result_withdrawn", result=withdrawn))
        self._draw_offered = ()
        self.tracker.reset(self.recorded_game().position, check_start=True)
        if self.follower is not None:
            self.follower.game_resumed()
        self._look_again()
        self.follow_opponent()

    def clock_action(self, action: str) -> str:
        """The arbiter starts, pauses or resumes the game clock; what was done
        (`ClockActionError` when it does not fit the clock)."""
        done = self.game_clock.arbiter(self.recorder, self.game_id, action)
        self.arbiter_log.note("clock", Message.of(f"log.clock.{action}"))
        return done

    def acknowledge(self) -> int:
        """The arbiter has seen the flags: the count is cleared; how many there were."""
        count = self.arbiter_log.take_unacknowledged()
        if count:
            self.arbiter_log.note("acknowledged", Message.of("log.acknowledged", count=count))
        return count

    def accept_position(self, position: Position, text: str) -> None:
        """An arbiter correction: play goes on from ``position``; the LEDs show what
        differs until the board matches."""
        side = "white" if position.white_to_move else "black"
        said = Message.of(f"log.position_accepted.{side}", fen=position.fen())
        self.recorder.record_correction(self.game_id, position.fen(), text, self.clock(),
                                        self.wall(), message=said)
        self.controller.accept(position, self.clock())
        self.arbiter_log.note("correction", said)
        self.follow_opponent()

    def take_back_to(self, ply: int, text: str) -> Position:
        """The game taken back to ``ply``; the position play goes on from."""
        before = self.recorded_game().ply
        said = Message.of("log.taken_back_to", ply=ply, before=before)
        self.recorder.record_takeback_to(self.game_id, ply, text, self.clock(), self.wall(),
                                         message=said)
        game = self.recorded_game()
        self.controller.accept(game.position, self.clock())
        self.moves_recorded = game.ply
        self.arbiter_log.note("takeback", said)
        self.follow_opponent()
        return game.position

    def note_hint(self, text: str) -> None:
        """Journal a hint the coach gave, where it was given."""
        self.recorder.record_hint(self.game_id, text, self.clock(), self.wall())

    def log_note(self, kind: str, text: str) -> None:
        """A line of the arbiter's log on the page (not journalled)."""
        self.arbiter_log.note(kind, text)

    def note_coach(self, text: str, *, switch: CoachSwitch | None = None) -> None:
        """Journal what the coach said or was told (a warning, a solved puzzle; with
        ``switch``, an aid switched on or off, kept as data)."""
        self.recorder.record_coach_note(self.game_id, text, self.clock(), self.wall(),
                                        switch=switch)

    # -- the opponent ----------------------------------------------------------------------------

    def follow_opponent(self) -> None:
        """Tell the opponent's seat the recorded game (see the module doc), and let the
        tracker take only the move it proposes, if it proposes one for the position on
        the board. Nothing while a damaged journal or held records stand in the way."""
        seat = self.opponent
        if seat is None or self.damage is not None or self.held.held:
            return
        game = self.recorded_game()
        side = seat.side
        clocks = Clocks(own=self.game_clock.left(game, side),
                        other=self.game_clock.left(game, "black" if seat.white else "white"),
                        increment=self.game_clock.increment(game))
        owed = self.tracker.takeback_owed is not None
        seat.follow(game, clocks, ask=not owed)
        self._expect(seat.pending)

    def _expect(self, answer: Answer | None) -> None:
        """The tracker takes ``answer``'s move in its position (None: no move of the
        opponent), the LEDs showing it."""
        now = self.clock()
        expectation = self.tracker.expectation
        if answer is None:
            if expectation is not None:
                self.controller.expect(expectation[0], None, now)
                self.game_clock.release()
            return
        if expectation != (answer.position, answer.move):
            self.controller.expect(answer.position, answer.move, now)

    def _opponent_answered(self, answer: Answer) -> None:
        """The opponent proposed its move (the driver's thread): its time stands still
        while the person carries it out, and the board takes only that move."""
        game = self.recorded_game()
        if game.result is not None or game.position != answer.position:
            return
        self.game_clock.hold(answer.at)
        self._expect(answer)
        log.info("%s proposes %s", self.opponent.name if self.opponent else "the opponent",
                 answer.as_json()["notation"])

    def _opponent_named(self, name: str) -> None:
        """The opponent said its name (a Hub engine, a DXP peer): the record's tag."""
        seat = self.opponent
        game = self.recorded_game()
        if seat is None or game.result is not None or self.damage is not None:
            return
        tag = seat.side.capitalize()
        if game.tags.get(tag) != name:
            try:
                self.set_tags({tag: name})
            except (DraughtsError, OSError) as error:
                self._could_not(f"record the opponent's name {name!r}", error)

    def _opponent_failed(self, text: Message | str) -> None:
        """The opponent failed (see `opponent_seat`): its line in the log and on the
        page; nothing is recorded; its clock stands still."""
        self._expect(None)
        self.game_clock.hold(self.clock())
        self.arbiter_log.note("error", Message.of("log.opponent_failed", error=text))

    def continue_with_builtin(self, level: int = 10) -> str:
        """After a failure, the built-in engine at ``level`` (1-10; full strength unless
        the person chose) plays on for the opponent from the same position; what was done
        (journalled). `ArbiterError` when no opponent has failed."""
        seat = self.opponent
        if seat is None or not seat.failed:
            raise ArbiterError(Message.of("arbiter.refused.no_failure"))
        failed = seat.name
        builtin = BuiltinOpponent(self.variant, level, seed=self.game_id)
        seat.replace(builtin, OpponentSpec("engine", level=level))
        text = f"{failed} failed: {builtin.name} plays on from ply {self.recorded_game().ply}"
        self.recorder.record_note(self.game_id, text, self.clock(), self.wall())
        self.arbiter_log.note("note", Message.of("log.builtin_plays_on", failed=failed,
                                                 name=builtin.name,
                                                 ply=self.recorded_game().ply))
        log.info("%s", text)
        self._opponent_named(builtin.name)
        self.game_clock.release()
        self.follow_opponent()
        return text

    # -- the page ------------------------------------------------------------------------------

    def view(self, game: Game | None = None, *, backend: str = "sim",
             switches: int | None = None, error: str | None = None,
             link_problem: str | None = None) -> dict[str, Any]:
        """The page's view of the game (``game``: the recorded game, if the caller has it
        already); what the edge knows is given: the backend's name, a simulated board's
        ``switches``, the driver's ``error``, the board's ``link_problem``."""
        game = self.recorded_game() if game is None else game
        return build_view(
            tracker=self.tracker, game=game, game_id=self.game_id, mode=self.mode.value,
            backend=backend, frame=self.leds.frame, occupied=self.occupied,
            switches=switches, log=self.arbiter_log.entries,
            unacknowledged=self.arbiter_log.unacknowledged, error=error,
            clocks=self.game_clock.view(game), notices=self.notices,
            held=[event.notation for event in self.held.held_moves],
            recording_error=self.held.error or None, damage=damage_view(self.damage),
            link_problem=link_problem,
            coach=self.follower.view() if self.follower is not None else None,
            opponent=self.opponent.view() if self.opponent is not None else None)
