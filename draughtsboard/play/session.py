"""A play session: the controller thread and the people watching, together.

`PlaySession` owns one thread, the controller thread: it alone feeds the tracker and
writes the journal, so the core stays single-threaded. Everybody else talks to it through
a queue: the web page's arbiter actions and PDN export are callables run on that thread
between two snapshots, their answers handed back through futures. After each change (a
snapshot, a move, an LED frame, an arbiter action) the session builds the page's view
(`view.build_view`) and tells its subscribers (the web app's live streams) when it is new.

The parts it joins live elsewhere: which game to open (`opening.choose_opening`), what a
tracker event becomes in the journal (`recording.tracker_events`), what the page shows
(`view`). The session is given its sensor source, LED sink and, for a simulated board,
the switches the page's hands act on: it never imports a backend; ``draughtsboard.cli``
chooses them.
"""

from __future__ import annotations

import concurrent.futures
import json
import logging
import queue
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from draughtsboard.board.game.record import Game, normalise_result
from draughtsboard.board.game.tags import clean_tags
from draughtsboard.board.ports import LedFrame, LedPattern, LedSink, SensorSource
from draughtsboard.board.rules import DraughtsError, get_variant, initial_position, parse_fen
from draughtsboard.board.tracker import (
    POLICY_TAG,
    Controller,
    IrregularityPolicy,
    Mode,
    MoveEvent,
    State,
    TakebackEvent,
    Tracker,
    TrackerEvent,
    policy_for,
    render,
)
from draughtsboard.recording import DamagedGame, JournalDamagedError, Recorder
from draughtsboard.recording.tracker_events import HeldRecords

from .clock import TimeControl, TimeControlError
from .continuity import carried_tags, resume_refusals
from .game_clock import ClockActionError, GameClock
from .opening import Opening, choose_opening
from .view import build_view, plain_reason

log = logging.getLogger("draughtsboard.play")

LOG_LENGTH = 50  # arbiter log entries kept for the page
# the log entries the arbiter acknowledges
FLAGGED_KINDS = ("illegal", "disturbed", "irregularity", "error", "flag", "draw", "notice")


class SimulatedSwitches(Protocol):
    """What the page's hands act on: a simulated board's switches."""

    @property
    def occupied(self) -> int: ...

    def set_switch(self, square: int, closed: bool) -> None: ...


class ArbiterError(ValueError):
    """An arbiter action that cannot be done as asked (bad result, bad tag, bad FEN)."""


class _RememberingLeds:
    """The backend's LED sink, remembering the last frame for the page. With a coach, the
    coach's intents (a hint, a blunder warning) are rendered with the tracker's; the
    squares of moves not yet recorded (``held``) blink fast in red on top of everything:
    the board's own "not recorded" flag."""

    def __init__(self, sink: LedSink) -> None:
        self.sink = sink
        self.square_count = sink.square_count
        self.frame = LedFrame.blank(sink.square_count)
        self._base = self.frame
        self.held: tuple[int, ...] = ()
        self.tracker_intents: Callable[[], dict] | None = None
        self.coach_intents: Callable[[], dict] | None = None

    def show(self, frame: LedFrame) -> None:
        if self.coach_intents is not None and self.tracker_intents is not None:
            extra = self.coach_intents()
            if extra:
                frame = render({**self.tracker_intents(), **extra}, self.square_count)
        self._base = frame
        frame = self._with_held(frame)
        self.sink.show(frame)
        self.frame = frame

    def set_held(self, squares: tuple[int, ...]) -> None:
        """Change the "not recorded" squares and show the frame again if they changed."""
        if squares != self.held:
            self.held = squares
            self.show(self._base)

    def _with_held(self, frame: LedFrame) -> LedFrame:
        if not self.held:
            return frame
        patterns = list(frame.patterns)
        colours = list(frame.colours or (None,) * len(patterns))
        for square in self.held:
            if 1 <= square <= len(patterns):
                patterns[square - 1] = LedPattern.FAST_BLINK
                colours[square - 1] = "red"
        return LedFrame(tuple(patterns), tuple(colours))

    def close(self) -> None:
        self.sink.close()


class PlaySession:
    """One board in play (see the module doc). ``start()`` begins or resumes the game and
    the controller thread; ``stop()`` ends it with the journal intact.

    ``opening`` is the decision `draughtsboard play` took (`choose_opening`); without it
    the session takes it itself from ``variant``, ``start_fen`` and ``resume``.
    ``link_problem`` says what is wrong with the board's link, if anything (a serial
    port that cannot be opened, a silent device): the page shows it."""

    def __init__(self, variant: str, source: SensorSource, leds: LedSink, recorder: Recorder,
                 *, mode: str | None = None, tags: dict[str, str] | None = None,
                 start_fen: str | None = None, hands: SimulatedSwitches | None = None,
                 backend: str = "sim", token: str | Callable[[], str] | None = None,
                 resume: bool = True, opening: Opening | None = None,
                 link_problem: Callable[[], str | None] | None = None,
                 irregular: str | None = None, irregular_leds: bool = True,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, poll: float = 0.05) -> None:
        self.opening = opening
        self._opening_request = dict(variant=variant, start_fen=start_fen, resume=resume)
        self.variant = opening.variant if opening is not None else get_variant(variant)
        self.source = source
        self.recorder = recorder
        # ``None``: not asked for (a resumed game keeps its own, a new one is a tournament game)
        self.requested_mode = Mode(mode) if mode is not None else None
        self.mode = self.requested_mode or Mode.TOURNAMENT
        self.initial_tags = dict(tags or {})
        self.irregular = irregular  # the irregularity policy asked for (None: the variant's)
        self.irregular_leds = irregular_leds
        self.hands = hands
        self.backend = backend
        # a string, or a function giving the current token (the data directory's file,
        # which `draughtsboard token --rotate` may change while the board runs)
        self._token = token if token is not None else secrets.token_urlsafe(12)
        self.clock = clock
        self.wall = wall
        self.poll = poll
        self.leds = _RememberingLeds(leds)
        self._commands: queue.SimpleQueue = queue.SimpleQueue()
        self._hands_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._closing = False
        self._subscribers: list[Callable[[], None]] = []
        self._subscribers_lock = threading.Lock()
        self._view: dict[str, Any] = {}
        self._current = (0, "{}")  # (version, JSON text), replaced whole
        self._published: tuple[str, Game | None, dict[str, Any]] = ("", None, {})
        self._log: deque[dict[str, Any]] = deque(maxlen=LOG_LENGTH)
        self._unacknowledged = 0
        self.game_id = ""
        self.tracker: Tracker | None = None
        self.controller: Controller | None = None
        self._occupied = 0
        self.game_clock = GameClock(clock, wall)
        self._notices: list[str] = []  # what the page says until the next game (resume)
        self._draw_offered = ""  # the draw reasons last offered to the arbiter
        self.moves_recorded = 0
        self.held = HeldRecords(recorder)
        self.damage: DamagedGame | None = None  # the arbiter must decide (see `repair`)
        self.link_problem = link_problem
        self.error: BaseException | None = None
        self.coach: Any = None  # a `coach.Coach`, attached with `attach_coach`
        # called (on the controller thread) if it dies: the server stops, so that systemd
        # restarts the program and the game resumes
        self.on_failure: Callable[[], None] | None = None

    @property
    def square_count(self) -> int:
        return self.variant.geometry.square_count

    @property
    def token(self) -> str:
        """The arbiter's token now."""
        return self._token() if callable(self._token) else self._token

    # -- life cycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Begin (or resume) the game and start the controller thread."""
        self._open_game()
        if self.coach is not None:
            self.coach.game_started()  # before the thread: nothing else runs yet
        latest = self.source.latest()
        self._occupied = latest.occupied if latest is not None else 0
        self.leds.show(render(self.tracker.intents, self.square_count))
        self._publish()
        self._thread = threading.Thread(target=self._run, name="draughtsboard-controller",
                                        daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the controller thread (after the snapshot it is handling). Safe twice."""
        self.begin_shutdown()
        self._stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        if self.coach is not None:
            self.coach.close()

    def begin_shutdown(self) -> None:
        """Tell live streams to end (the server is going down)."""
        self._closing = True
        self._notify()

    @property
    def closing(self) -> bool:
        return self._closing

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _open_game(self) -> None:
        opening = self.opening
        if opening is None:
            opening = self.opening = choose_opening(self.recorder, **self._opening_request)
        self.variant = opening.variant
        if opening.damaged is not None:
            self.damage = opening.damaged
            self.game_id = self.damage.game_id
            log.error("%s: play waits for the arbiter (resume from the last good record, or "
                      "a new game)", self.damage.describe())
            self._note_log("error", self.damage.describe())
        elif opening.resumes:
            self.game_id = opening.resume_id
            game = opening.game
            self.recorder.record_resume(self.game_id, self.clock(), self.wall())
            self.mode = Mode(game.mode) if game.mode in {m.value for m in Mode} else self.mode
            log.info("resuming game %s at ply %d: put the pieces as the LEDs show",
                     self.game_id, game.ply)
            self._refuse_changes_on_resume(game)
        else:
            if opening.closes is not None:
                self._close_replaced(opening)
            self.game_id = self.recorder.start_game(
                self.variant, self._tags_of_new_game(self.initial_tags), opening.start_fen,
                self.mode.value, t_monotonic=self.clock(), t_wall=self.wall())
            log.info("new %s game %s (%s mode)", self.variant.name, self.game_id,
                     self.mode.value)
        position = opening.expected_position
        policy = self._policy()
        self.tracker = Tracker(position, self.mode, check_start=True, policy=policy)
        self.controller = Controller(
            self.source, self.tracker, self.leds, record=self._record_safely,
            dark_irregularities=not policy.board_leds and self.mode is Mode.TOURNAMENT)
        log.info("irregularities: %s", policy.name)
        self.moves_recorded = self._game().ply

    def _tags_of_new_game(self, tags: dict[str, str]) -> dict[str, str]:
        """The tags of a new game, with the irregularity policy it is played under."""
        name = policy_for(self.variant.name, self.irregular).name
        return {**tags, POLICY_TAG: name}

    def _policy(self) -> IrregularityPolicy:
        """The game's irregularity policy: its journal's tag, else the one asked for, else
        the variant's default."""
        name = self._game().tags.get(POLICY_TAG) or self.irregular
        try:
            return policy_for(self.variant.name, name, board_leds=self.irregular_leds)
        except ValueError:
            log.warning("unknown irregularity policy %r in the game's tags: the variant's "
                        "default", name)
            return policy_for(self.variant.name, None, board_leds=self.irregular_leds)

    def _refuse_changes_on_resume(self, game: Game) -> None:
        """Options a resumed game does not take (`continuity.resume_refusals`): each is
        a log line, a note in the record and a notice on the page."""
        requested = self.requested_mode.value if self.requested_mode is not None else None
        unused_fen = self.opening.unused_fen if self.opening is not None else None
        for text in resume_refusals(self.game_id, self.mode.value, game.tags, requested,
                                    self.initial_tags, unused_fen):
            log.warning("%s", text)
            self.recorder.record_note(self.game_id, text, self.clock(), self.wall())
            self._notices.append(text)
            self._note_log("notice", text)

    def _close_replaced(self, opening: Opening) -> None:
        """Close the unfinished game a new one replaces (``--new``, or another variant
        asked for) as unfinished, with a note, so that it is never resumed by surprise."""
        reason = opening.closes_reason or "a new game was started"
        try:
            try:
                self.recorder.record_result(opening.closes, "*", f"unfinished: {reason}",
                                            self.clock(), self.wall())
            except JournalDamagedError:
                # a damaged journal is closed by the repair, which keeps a copy first
                account, _ = self.recorder.repair(opening.closes, "abandon", self.clock(),
                                                  self.wall())
                log.warning("%s", account)
        except (DraughtsError, OSError) as error:
            log.error("could not close unfinished game %s: %s", opening.closes, error)
            return
        log.info("unfinished game %s closed (%s)", opening.closes, reason)

    def recorded_game(self) -> Game:
        """The game as recorded (read-only); see `_game`. For the coach."""
        return self._game()

    def _game(self) -> Game:
        """The recorded game (a read-only copy the recorder keeps until it changes); while
        a damaged journal waits for the arbiter, the part of it that is good."""
        if self.damage is not None:
            if self.damage.game is not None:
                return self.damage.game.read_only_copy()
            return Game(self.variant).read_only_copy()
        return self.recorder.game(self.game_id)

    # -- the controller thread -------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                self._run_commands()
                snapshot = self.source.read(timeout=self.poll)
                if self.held.held:
                    self._retry_held()
                if snapshot is not None:
                    self._occupied = snapshot.occupied
                    if self.damage is None:  # nothing is played until the arbiter decides
                        self.controller.handle(snapshot)
                        self._keep_time()
                    self._publish()
                    continue
                changed = False
                if self.damage is None:
                    changed = bool(self.controller.tick(self.clock()))
                    changed = self._keep_time() or changed
                if changed or (self.link_problem is not None
                               and self.link_problem() != self._view.get("link_problem")):
                    self._publish()  # time passed, or the link's state changed
        except BaseException as error:  # noqa: BLE001 - reported, then the thread ends
            self.error = error
            log.exception("controller stopped by an error")
            try:
                self._publish()  # the page shows the error
            except Exception:  # noqa: BLE001 - the view itself may be what failed
                self._notify()
            if self.on_failure is not None:
                self.on_failure()

    def _run_commands(self) -> None:
        while True:
            try:
                action, future = self._commands.get_nowait()
            except queue.Empty:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(action())
            except BaseException as error:  # noqa: BLE001 - handed to the caller
                future.set_exception(error)
            self._publish()

    def _record_safely(self, event: TrackerEvent) -> None:
        """The controller's record callback: it returns once the record is on disk, and
        the controller shows the confirming LEDs only after that. A record that cannot be
        written is held (`HeldRecords`), with every event after it, and the board and the
        page show "not recorded" until it is written."""
        now_wall = self.wall()
        plies = self._game().ply
        clock = None
        if isinstance(event, MoveEvent) and not self.held.held:
            # (while records are held the recorded game is behind the board: the clocks
            # of a held move are left to the thinking times)
            try:
                clock = self.game_clock.before_move(self.recorder, self.game_id,
                                                    amends=bool(event.replaces))
            except (DraughtsError, OSError) as error:
                log.error("could not record the clock: %s", error)
                self._note_log("error", f"could not record the clock: {error}")
        entries = self.held.add(self.game_id, event, now_wall, self.clock(), clock=clock)
        if not self.held.held:
            game = self._game()
            if isinstance(event, MoveEvent) and game.ply >= plies:
                self.game_clock.after_move(game)
            elif isinstance(event, TakebackEvent):
                self.game_clock.after_takeback(game)
        self._after_recording(entries)
        if self.coach is not None and not self.held.held:
            self.coach.after_event(event)  # (behind held moves it waits for the next one)

    def _retry_held(self) -> None:
        entries = self.held.retry(self.clock())
        if entries or not self.held.held:
            if not self.held.held:
                self.game_clock.after_move(self._game())
            self._after_recording(entries)
            self._publish()

    def _after_recording(self, entries) -> None:
        self.moves_recorded = self._game().ply
        for entry in entries:
            self._note_log(entry.kind, entry.text)
        held = tuple(event.path[-1] for event in self.held.held_moves if event.path)
        self.leds.set_held(held)
        if not self.held.held:
            self._offer_draw()

    def _offer_draw(self) -> None:
        """A draw the rules declare is offered to the arbiter (once, while it holds),
        or recorded at once where the preset says the rule ends the game."""
        game = self._game()
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
                self.recorder.record_result(self.game_id, game.variant.results[1], reason,
                                            self.clock(), self.wall())
                self._note_log("result", f"{game.variant.results[1]} ({reason})")
                return
            self.recorder.record_draw_offer(self.game_id, text, self.clock(), self.wall())
        except (DraughtsError, OSError) as error:
            log.error("could not record the draw: %s", error)
            self._note_log("error", f"could not record the draw: {error}")
            return
        log.info("draw offered to the arbiter: %s", text)
        self._note_log("draw", f"{text}: the rules declare a draw; the arbiter may "
                               "declare it")

    def _keep_time(self) -> bool:
        """The game clock's turn on the controller thread; whether something changed."""
        try:
            note = self.game_clock.tick(
                self.recorder, self.game_id,
                board_matches=self.tracker.state is State.READY)
        except (DraughtsError, OSError) as error:
            log.error("could not record the clock: %s", error)
            self._note_log("error", f"could not record the clock: {error}")
            return True
        if note is None:
            return False
        log.info("%s", note.text)
        self._note_log(note.kind, note.text)
        return True

    def _note_log(self, kind: str, text: str) -> None:
        self._log.append({"kind": kind, "text": text, "t_wall": self.wall()})
        if kind in FLAGGED_KINDS:
            self._unacknowledged += 1

    # -- requests from other threads ---------------------------------------------------------

    def submit(self, action: Callable[[], Any]) -> concurrent.futures.Future:
        """Run ``action`` on the controller thread; its result through the future.
        Before `start` the action waits for the thread; after `stop` it is refused."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        thread = self._thread
        if self._stopping.is_set() or (thread is not None and thread.ident is not None
                                       and not thread.is_alive()):
            future.set_exception(RuntimeError("the session is not running"))
            return future
        self._commands.put((action, future))
        return future

    def call(self, action: Callable[[], Any], timeout: float = 5.0) -> Any:
        return self.submit(action).result(timeout)

    def check_token(self, token: str | None) -> bool:
        """Whether ``token`` is the arbiter's token now (a token file that cannot be
        read refuses every token, with a log line). Compared as UTF-8 bytes, so any
        string (non-ASCII included) is an answer, never an error."""
        if not token or not isinstance(token, str):
            return False
        try:
            current = self.token
        except OSError as error:
            log.error("arbiter token: %s", error)
            return False
        return secrets.compare_digest(token.encode("utf-8", "replace"),
                                      current.encode("utf-8", "replace"))

    # hands (simulator only): they act at once, as a hand does; the sensors see it next scan

    def hand(self, actions: list[tuple[str, int]]) -> None:
        """Lift (``lift``), put down (``place``) or flip (``toggle``) pieces, in order;
        ``setup`` puts the board as the game expects it (``square`` ignored)."""
        hands = self.hands
        if hands is None:
            raise PermissionError("this board has real hands: the page is read-only")
        with self._hands_lock:
            for action, square in actions:
                if action == "setup":
                    self._set_up(hands)
                    continue
                if not isinstance(square, int) or not 1 <= square <= self.square_count:
                    raise ValueError(f"no square {square!r} on this board "
                                     f"(1-{self.square_count})")
                closed = bool(hands.occupied >> (square - 1) & 1)
                if action == "lift":
                    hands.set_switch(square, False)
                elif action == "place":
                    hands.set_switch(square, True)
                elif action == "toggle":
                    hands.set_switch(square, not closed)
                else:
                    raise ValueError(f"unknown hand action {action!r}")

    def _set_up(self, hands: SimulatedSwitches) -> None:
        wanted = self.tracker.position.occupancy() if self.tracker else 0
        for square in range(1, self.square_count + 1):
            closed = bool(wanted >> (square - 1) & 1)
            if bool(hands.occupied >> (square - 1) & 1) != closed:
                hands.set_switch(square, closed)

    # arbiter actions: run on the controller thread (callers check the token first)

    def new_game(self, tags: dict[str, str] | None = None, fen: str | None = None) -> str:
        """The arbiter starts a new game (the unfinished one is closed as abandoned); its id."""
        try:
            if fen:
                parse_fen(self.variant, fen)  # refused here, before anything is recorded
            merged = {**carried_tags(self.initial_tags), **clean_tags(tags or {})}
            _check_time_control(merged)
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> str:
            self.begin_game(self._tags_of_new_game(merged), fen,
                            "abandoned: the arbiter started a new game")
            log.info("arbiter: new game %s", self.game_id)
            return self.game_id

        return self.call(action)

    def begin_game(self, tags: dict[str, str], fen: str | None, why: str,
                   mode: str | None = None) -> str:
        """Close the current game (``*``, ``why``; a damaged journal is closed by the
        recorder's repair) unless it has its result, and begin a new one from ``fen``
        (checked by the caller). Runs on the controller thread (the arbiter's new game,
        the coach's next puzzle); ``mode`` is what the journal records (default the
        session's). Refused while moves wait to be recorded: they would be lost."""
        if self.held.held:
            raise ArbiterError(f"{len(self.held.held_moves)} move(s) are not recorded yet "
                               f"({self.held.error}): a new game would lose them")
        position = parse_fen(self.variant, fen) if fen else initial_position(self.variant)
        if self.damage is not None:
            text, _ = self.recorder.repair(self.game_id, "abandon", self.clock(), self.wall())
            log.warning("%s", text)
            self.damage = None
        elif self._game().result is None:
            self.recorder.record_result(self.game_id, "*", why, self.clock(), self.wall())
        self.game_id = self.recorder.start_game(
            self.variant, tags, fen, mode or self.mode.value, t_monotonic=self.clock(),
            t_wall=self.wall())
        self.tracker.reset(position, check_start=True)
        self.moves_recorded = 0
        self.game_clock.reset()
        self._notices.clear()
        self._draw_offered = ""
        self._log.clear()
        self._unacknowledged = 0
        if self.coach is not None:
            self.coach.game_started()
        latest = self.source.latest()
        if latest is not None:
            self.controller.handle(latest)
        return self.game_id

    def attach_coach(self, coach: Any) -> None:
        """Let a coach (hints, blunder warnings, puzzles: `coach.Coach`) follow the game
        and add its LEDs and its part of the page. Before `start`."""
        self.coach = coach
        self.leds.tracker_intents = lambda: self.tracker.intents if self.tracker else {}
        self.leds.coach_intents = coach.led_intents

    def refresh_leds(self) -> None:
        """Show the LEDs again (the coach's intents changed). Controller thread."""
        if self.tracker is not None:
            self.leds.show(render(self.tracker.intents, self.square_count))

    def repair(self, action: str) -> str:
        """The arbiter's answer to a damaged journal: ``resume`` from its last good record
        (a copy of the damaged file is kept); a new game is `new_game`. What was done."""
        if action != "resume":
            raise ArbiterError("repair: 'resume' (a new game is the new-game action)")

        def run() -> str:
            damage = self.damage
            if damage is None:
                raise ArbiterError("no damaged journal is waiting")
            if not damage.resumable:
                raise ArbiterError(f"{damage.describe()}: it cannot be resumed, start a new "
                                   "game")
            text, _ = self.recorder.repair(self.game_id, "resume", self.clock(), self.wall())
            self.damage = None
            game = self._game()
            self.tracker.reset(game.position, check_start=True)
            self.moves_recorded = game.ply
            if self.coach is not None:
                self.coach.game_started()
            self._note_log("note", text)
            log.warning("arbiter: %s", text)
            latest = self.source.latest()
            if latest is not None:
                self.controller.handle(latest)
            return text

        return self.call(run)

    def set_tags(self, tags: dict[str, str]) -> dict[str, str]:
        """The arbiter sets tags of the game in progress; every tag afterwards."""
        try:
            cleaned = clean_tags(tags)
            _check_time_control(cleaned)
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> dict[str, str]:
            if self.damage is not None:
                raise ArbiterError("the journal is damaged: resume it or start a new game first")
            if self._game().result is not None:
                raise ArbiterError("the game is finished: start a new game to change tags")
            return self.recorder.record_tags(self.game_id, cleaned, self.clock(), self.wall())

        return self.call(action)

    def declare_result(self, result: str, reason: str = "") -> str:
        """The arbiter declares the result; the result as recorded. ``*`` is not a
        result to declare: a new game closes this one as unfinished."""
        try:
            if normalise_result(self.variant, result) is None:
                raise ArbiterError("choose a result: '*' is no result (to abandon the game, "
                                   "start a new one)")
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> str:
            if self.damage is not None or self.held.held:
                raise ArbiterError("moves are not recorded yet, or the journal is damaged: "
                                   "no result can be recorded now")
            if self._game().result is not None:
                raise ArbiterError(f"the game already has a result ({self._game().result}): "
                                   "withdraw it first")
            text = reason or "declared by the arbiter"
            self.recorder.record_result(self.game_id, result, text, self.clock(), self.wall())
            self._note_log("result", f"{result} ({text})")
            if self.coach is not None:
                self.coach.game_finished()
            log.info("arbiter: result %s (%s)", result, text)
            return self._game().result_text()

        return self.call(action)

    def accept_draw(self) -> str:
        """The arbiter accepts the draw the rules declare now; the result recorded."""
        def action() -> str:
            game = self._game()
            if game.result is not None:
                raise ArbiterError(f"the game already has a result ({game.result})")
            reasons = game.draw_reasons()
            if not reasons:
                raise ArbiterError("the rules declare no draw in this position")
            text = "; ".join(reasons) + " (accepted by the arbiter)"
            draw = game.variant.results[1]
            self.recorder.record_result(self.game_id, draw, text, self.clock(), self.wall())
            self._note_log("result", f"{draw} ({text})")
            log.info("arbiter: result %s (%s)", draw, text)
            return draw

        return self.call(action)

    def withdraw_result(self) -> str:
        """The arbiter takes back the result of the game in progress (until the next
        game starts): play goes on once the board shows the recorded position again.
        A game the rules ended (no legal move) keeps its result."""
        def action() -> str:
            game = self._game()
            if game.result is None:
                raise ArbiterError("the game has no result to withdraw")
            outcome = game.outcome()
            if outcome is not None and game.position.is_game_over():
                raise ArbiterError(f"the rules ended this game ({outcome[1]}): its result "
                                   "stands")
            text = f"result {game.result} withdrawn by the arbiter"
            self.recorder.record_result_withdrawn(self.game_id, text, self.clock(),
                                                  self.wall())
            self._note_log("result", text)
            log.info("arbiter: %s", text)
            self._draw_offered = ""
            self.tracker.reset(self._game().position, check_start=True)
            latest = self.source.latest()
            if latest is not None:
                self.controller.handle(latest)
            return text

        return self.call(action)

    def clock_action(self, action: str) -> str:
        """The arbiter starts, pauses or resumes the game clock; what was done."""
        def run() -> str:
            if self._game().result is not None:
                raise ArbiterError("the game has its result: the clock has stopped")
            try:
                done = self.game_clock.arbiter(self.recorder, self.game_id, action)
            except ClockActionError as error:
                raise ArbiterError(str(error)) from None
            self._note_log("clock", done + " by the arbiter")
            log.info("arbiter: %s", done)
            return done

        return self.call(run)

    def acknowledge(self) -> int:
        """The arbiter has seen the flags: the count is cleared; how many there were."""
        def action() -> int:
            count, self._unacknowledged = self._unacknowledged, 0
            if count:
                self._note_log("acknowledged", f"the arbiter acknowledged {count} flag(s)")
            return count

        return self.call(action)

    def accept_position(self, white_to_move: bool, fen: str | None = None) -> str:
        """The arbiter accepts the position on the board (or the one ``fen`` gives) as the
        current position, with ``white_to_move``: an arbiter correction in the record;
        play goes on from it. Its FEN."""
        given = None
        if fen:
            try:
                given = parse_fen(self.variant, fen)
            except DraughtsError as error:
                raise ArbiterError(str(error)) from None

        def action() -> str:
            if self._game().result is not None:
                raise ArbiterError("the game is finished: start a new game")
            position = given
            if position is None:
                position = self.tracker.board_position(bool(white_to_move))
                if position is None:
                    raise ArbiterError("the switches alone cannot tell this position (a "
                                       "piece appeared where none was): give it as FEN")
            elif position.white_to_move != bool(white_to_move):
                raise ArbiterError("the FEN and the side to move disagree")
            side = "White" if position.white_to_move else "Black"
            text = f"position accepted by the arbiter, {side} to move: {position.fen()}"
            self.recorder.record_correction(self.game_id, position.fen(), text, self.clock(),
                                            self.wall())
            self.controller.accept(position, self.clock())
            self._note_log("correction", text)
            log.info("arbiter: %s", text)
            return position.fen()

        return self.call(action)

    def take_back_to(self, ply: int) -> str:
        """The arbiter takes the game back to ``ply`` (0: the start); the board lights
        what differs until it shows that position. The position's FEN."""
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise ArbiterError(f"ply: expected a whole number, got {ply!r}")

        def action() -> str:
            game = self._game()
            if game.result is not None:
                raise ArbiterError("the game is finished: start a new game")
            if not 0 <= ply <= game.ply:
                raise ArbiterError(f"no ply {ply}: the game is at ply {game.ply}")
            text = f"taken back by the arbiter to ply {ply} (from ply {game.ply})"
            self.recorder.record_takeback_to(self.game_id, ply, text, self.clock(),
                                             self.wall())
            position = self._game().position
            self.controller.accept(position, self.clock())
            self.moves_recorded = ply
            self._note_log("takeback", text)
            log.info("arbiter: %s", text)
            return position.fen()

        return self.call(action)

    def export_pdn(self) -> str:
        return self.call(lambda: self.recorder.export_pdn(self.game_id))

    # -- the view ---------------------------------------------------------------------------------

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake()`` (from any thread) whenever a new view is ready; returns the
        function that unsubscribes."""
        with self._subscribers_lock:
            self._subscribers.append(wake)

        def unsubscribe() -> None:
            with self._subscribers_lock:
                if wake in self._subscribers:
                    self._subscribers.remove(wake)

        return unsubscribe

    def view(self) -> tuple[int, str]:
        """The latest view as (version, JSON text)."""
        return self._current

    @property
    def version(self) -> int:
        return self._current[0]

    def _notify(self) -> None:
        with self._subscribers_lock:
            wakes = list(self._subscribers)
        for wake in wakes:
            try:
                wake()
            except RuntimeError:  # an event loop that has closed
                pass

    def published(self) -> tuple[str, Game | None, dict[str, Any]]:
        """The latest publication's game id, recorded game (a read-only copy: safe to read
        on any thread) and view, all three from the same moment (the hall link reads
        them)."""
        return self._published

    def _damage_view(self) -> dict[str, Any] | None:
        if self.damage is None:
            return None
        return {"game_id": self.damage.game_id, "text": self.damage.describe(),
                "good_records": self.damage.good, "resumable": self.damage.resumable}

    def _publish(self) -> None:
        game = self._game()
        view = build_view(
            tracker=self.tracker, game=game, game_id=self.game_id,
            mode=self.mode.value, backend=self.backend, frame=self.leds.frame,
            occupied=self._occupied,
            switches=self.hands.occupied if self.hands is not None else None,
            log=self._log, unacknowledged=self._unacknowledged,
            error=str(self.error) if self.error else None,
            clocks=self.game_clock.view(game), notices=self._notices,
            held=[event.notation for event in self.held.held_moves],
            recording_error=self.held.error or None,
            damage=self._damage_view(),
            link_problem=self.link_problem() if self.link_problem is not None else None,
            coach=self.coach.view() if self.coach is not None else None)
        if view == self._view:
            return
        self._view = view
        self._published = (self.game_id, game, view)
        version = self._current[0] + 1
        self._current = (version, json.dumps(dict(view, version=version),
                                             separators=(",", ":")))
        self._notify()


def _check_time_control(tags: dict[str, str]) -> None:
    """A ``TimeControl`` tag the clock cannot run is refused with the reason."""
    text = tags.get("TimeControl", "").strip()
    if text and text not in ("-", "?"):
        try:
            TimeControl.parse(text)
        except TimeControlError as error:
            raise ArbiterError(str(error)) from None
