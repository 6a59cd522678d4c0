"""A play session: the controller thread, and the game it plays.

`PlaySession` owns one thread, the controller thread: it alone feeds the tracker and
writes the journal, so the core stays single-threaded. Everybody else talks to it through
a queue: the web page's arbiter actions and PDN export are callables run on that thread
between two snapshots, their answers handed back through futures. The session opens the
game (a new one, a resumed one, a damaged journal waiting for the arbiter) and begins the
next; after each change (a snapshot, a move, an LED frame, an arbiter action) it builds
the page's view (`view.build_view`) and publishes it when it is new.

The parts it joins live elsewhere: which game to open (`opening.choose_opening`), what
the board's play becomes in the journal (`record_keeper`, with the held records, the
draw offers and the game clock), the arbiter's actions (`arbiter`), the arbiter's log
(`arbiter_log`), the LEDs (`leds`), the published view and its subscribers
(`publisher`), what the page shows (`view`). The session is given its sensor source, LED
sink and, for a simulated board, the switches the page's hands act on: it never imports
a backend; ``draughtsboard.cli`` chooses them.
"""

from __future__ import annotations

import concurrent.futures
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from draughtsboard.board.game.record import Game
from draughtsboard.board.ports import LedSink, SensorSource
from draughtsboard.board.rules import DraughtsError, get_variant, initial_position, parse_fen
from draughtsboard.board.tracker import (
    POLICY_TAG,
    Controller,
    IrregularityPolicy,
    Mode,
    State,
    Tracker,
    policy_for,
    render,
)
from draughtsboard.recording import DamagedGame, JournalDamagedError, Recorder
from draughtsboard.recording.tracker_events import HeldRecords

from .arbiter import ArbiterDesk, ArbiterError
from .arbiter_log import ArbiterLog
from .continuity import resume_refusals
from .game_clock import GameClock
from .leds import RememberingLeds
from .opening import Opening, choose_opening
from .publisher import Publisher
from .record_keeper import RecordKeeper
from .view import build_view, damage_view

REST_AFTER = 10.0  # seconds with nothing happening before a ready board is at rest
# Tracker states in which only a snapshot (or a command) can change anything.
RESTING = frozenset({State.SETUP, State.READY, State.GAME_OVER})
REST_POLL = 1.0  # how long the controller then waits for a snapshot (a command wakes it)

log = logging.getLogger("draughtsboard.play")

__all__ = ["ArbiterError", "PlaySession", "SimulatedSwitches"]


class SimulatedSwitches(Protocol):
    """What the page's hands act on: a simulated board's switches."""

    @property
    def occupied(self) -> int: ...

    def set_switch(self, square: int, closed: bool) -> None: ...


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
        self._last_activity = clock()  # a snapshot or a command, for `_wait`
        self.leds = RememberingLeds(leds)
        self._commands: queue.SimpleQueue = queue.SimpleQueue()
        self._hands_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._closing = False
        self._publisher = Publisher()
        self.arbiter_log = ArbiterLog(wall)
        self.game_id = ""
        self.tracker: Tracker | None = None
        self.controller: Controller | None = None
        self._occupied = 0
        self.game_clock = GameClock(clock, wall)
        self._notices: list[str] = []  # what the page says until the next game (resume)
        self.moves_recorded = 0
        self.held = HeldRecords(recorder)
        self.damage: DamagedGame | None = None  # the arbiter must decide (see `repair`)
        self.link_problem = link_problem
        self.error: BaseException | None = None
        self.coach: Any = None  # a `coach.Coach`, attached with `attach_coach`
        # called (on the controller thread) if it dies: the server stops, so that systemd
        # restarts the program and the game resumes
        self.on_failure: Callable[[], None] | None = None
        self.record_keeper = RecordKeeper(self)
        self.arbiter_desk = ArbiterDesk(self)

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
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        if self.coach is not None:
            self.coach.close()

    def begin_shutdown(self) -> None:
        """Tell live streams to end (the server is going down)."""
        self._closing = True
        self._publisher.notify()

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
            self.arbiter_log.note("error", self.damage.describe())
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
                self.variant, self.tags_of_new_game(self.initial_tags), opening.start_fen,
                self.mode.value, t_monotonic=self.clock(), t_wall=self.wall())
            log.info("new %s game %s (%s mode)", self.variant.name, self.game_id,
                     self.mode.value)
        position = opening.expected_position
        policy = self._policy()
        self.tracker = Tracker(position, self.mode, check_start=True, policy=policy)
        self.controller = Controller(
            self.source, self.tracker, self.leds, record=self.record_keeper.record,
            dark_irregularities=not policy.board_leds and self.mode is Mode.TOURNAMENT)
        log.info("irregularities: %s", policy.name)
        self.moves_recorded = self.recorded_game().ply

    def tags_of_new_game(self, tags: dict[str, str]) -> dict[str, str]:
        """The tags of a new game, with the irregularity policy it is played under (public:
        the arbiter's new game (`arbiter.ArbiterDesk.new_game`) takes them too)."""
        name = policy_for(self.variant.name, self.irregular).name
        return {**tags, POLICY_TAG: name}

    def _policy(self) -> IrregularityPolicy:
        """The game's irregularity policy: its journal's tag, else the one asked for, else
        the variant's default."""
        name = self.recorded_game().tags.get(POLICY_TAG) or self.irregular
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
            self.arbiter_log.note("notice", text)

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
        """The recorded game (a read-only copy the recorder keeps until it changes); while
        a damaged journal waits for the arbiter, the part of it that is good. For the
        session's parts (the record keeper, the arbiter's desk) and the coach."""
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
                snapshot = self.source.read(timeout=self._wait())
                if self.held.held and self.record_keeper.retry_held():
                    self._publish()
                if snapshot is not None:
                    self._last_activity = self.clock()
                    self._occupied = snapshot.occupied
                    if self.damage is None:  # nothing is played until the arbiter decides
                        self.controller.handle(snapshot)
                        self.record_keeper.keep_time()
                    self._publish()
                    continue
                changed = False
                if self.damage is None:
                    changed = bool(self.controller.tick(self.clock()))
                    changed = self.record_keeper.keep_time() or changed
                shown = self._publisher.published()[2].get("link_problem")
                if changed or (self.link_problem is not None
                               and self.link_problem() != shown):
                    self._publish()  # time passed, or the link's state changed
        except BaseException as error:  # noqa: BLE001 - reported, then the thread ends
            self.error = error
            log.exception("controller stopped by an error")
            try:
                self._publish()  # the page shows the error
            except Exception:  # noqa: BLE001 - the view itself may be what failed
                self._publisher.notify()
            if self.on_failure is not None:
                self.on_failure()

    def _wait(self) -> float:
        """How long the controller may wait for a snapshot: ``poll`` while time itself can
        change something (a move under way, a clock, held records, the first
        `REST_AFTER` seconds after anything happened); `REST_POLL` once the board is at
        rest (set up or waiting to be, or the game over), where waking `poll`-ly was a
        sixth of an idle board's CPU. A command wakes the
        thread at once (`submit`), so only the page's notice of a link going down can
        come up to `REST_POLL` later."""
        tracker = self.tracker
        if (tracker is None or tracker.state not in RESTING or self.damage is not None
                or self.game_clock.since is not None or self.held.held
                or self.clock() - self._last_activity < REST_AFTER):
            return self.poll
        return max(self.poll, REST_POLL)

    def _wake(self) -> None:
        """Wake the controller thread from its wait for a snapshot, if the source can."""
        wake = getattr(self.source, "wake", None)
        if wake is not None:
            wake()

    def _run_commands(self) -> None:
        while True:
            try:
                action, future = self._commands.get_nowait()
            except queue.Empty:
                return
            self._last_activity = self.clock()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(action())
            except BaseException as error:  # noqa: BLE001 - handed to the caller
                future.set_exception(error)
            self._publish()

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
        self._wake()
        return future

    def call(self, action: Callable[[], Any], timeout: float = 5.0) -> Any:
        return self.submit(action).result(timeout)

    def export_pdn(self) -> str:
        return self.call(lambda: self.recorder.export_pdn(self.game_id))

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

    # -- a new game, a coach ---------------------------------------------------------------

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
        elif self.recorded_game().result is None:
            self.recorder.record_result(self.game_id, "*", why, self.clock(), self.wall())
        self.game_id = self.recorder.start_game(
            self.variant, tags, fen, mode or self.mode.value, t_monotonic=self.clock(),
            t_wall=self.wall())
        self.tracker.reset(position, check_start=True)
        self.moves_recorded = 0
        self.game_clock.reset()
        self._notices.clear()
        self.record_keeper.forget_draw_offer()
        self.arbiter_log.clear()
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


    # -- arbiter actions (`arbiter.ArbiterDesk`; callers check the token first) ------------

    def new_game(self, tags: dict[str, str] | None = None, fen: str | None = None) -> str:
        """See `ArbiterDesk.new_game`."""
        return self.arbiter_desk.new_game(tags, fen)

    def repair(self, action: str) -> str:
        """See `ArbiterDesk.repair`."""
        return self.arbiter_desk.repair(action)

    def set_tags(self, tags: dict[str, str]) -> dict[str, str]:
        """See `ArbiterDesk.set_tags`."""
        return self.arbiter_desk.set_tags(tags)

    def declare_result(self, result: str, reason: str = "") -> str:
        """See `ArbiterDesk.declare_result`."""
        return self.arbiter_desk.declare_result(result, reason)

    def accept_draw(self) -> str:
        """See `ArbiterDesk.accept_draw`."""
        return self.arbiter_desk.accept_draw()

    def withdraw_result(self) -> str:
        """See `ArbiterDesk.withdraw_result`."""
        return self.arbiter_desk.withdraw_result()

    def clock_action(self, action: str) -> str:
        """See `ArbiterDesk.clock_action`."""
        return self.arbiter_desk.clock_action(action)

    def acknowledge(self) -> int:
        """See `ArbiterDesk.acknowledge`."""
        return self.arbiter_desk.acknowledge()

    def accept_position(self, white_to_move: bool, fen: str | None = None) -> str:
        """See `ArbiterDesk.accept_position`."""
        return self.arbiter_desk.accept_position(white_to_move, fen)

    def take_back_to(self, ply: int) -> str:
        """See `ArbiterDesk.take_back_to`."""
        return self.arbiter_desk.take_back_to(ply)

    # -- the view (`publisher.Publisher`) ----------------------------------------------------

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake()`` (from any thread) whenever a new view is ready; returns the
        function that unsubscribes."""
        return self._publisher.subscribe(wake)

    def view(self) -> tuple[int, str]:
        """The latest view as (version, JSON text)."""
        return self._publisher.view()

    @property
    def version(self) -> int:
        return self._publisher.version

    def published(self) -> tuple[str, Game | None, dict[str, Any]]:
        """The latest publication's game id, recorded game (a read-only copy: safe to read
        on any thread) and view, all three from the same moment (the hall link reads
        them)."""
        return self._publisher.published()

    def _publish(self) -> None:
        """Build the page's view from the session's parts and publish it if it is new."""
        game = self.recorded_game()
        view = build_view(
            tracker=self.tracker, game=game, game_id=self.game_id,
            mode=self.mode.value, backend=self.backend, frame=self.leds.frame,
            occupied=self._occupied,
            switches=self.hands.occupied if self.hands is not None else None,
            log=self.arbiter_log.entries, unacknowledged=self.arbiter_log.unacknowledged,
            error=str(self.error) if self.error else None,
            clocks=self.game_clock.view(game), notices=self._notices,
            held=[event.notation for event in self.held.held_moves],
            recording_error=self.held.error or None,
            damage=damage_view(self.damage),
            link_problem=self.link_problem() if self.link_problem is not None else None,
            coach=self.coach.view() if self.coach is not None else None)
        self._publisher.publish(self.game_id, game, view)
