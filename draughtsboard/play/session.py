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
from draughtsboard.board.ports import LedFrame, LedSink, SensorSource
from draughtsboard.board.rules import DraughtsError, get_variant, initial_position, parse_fen
from draughtsboard.board.tracker import Controller, Mode, Tracker, TrackerEvent, render
from draughtsboard.recording import Recorder
from draughtsboard.recording.tracker_events import LogEntry, record_tracker_event

from .opening import Opening, choose_opening
from .view import build_view

log = logging.getLogger("draughtsboard.play")

LOG_LENGTH = 50  # arbiter log entries kept for the page
FLAGGED_KINDS = ("illegal", "disturbed", "irregularity", "error")  # the arbiter acknowledges


class SimulatedSwitches(Protocol):
    """What the page's hands act on: a simulated board's switches."""

    @property
    def occupied(self) -> int: ...

    def set_switch(self, square: int, closed: bool) -> None: ...


class ArbiterError(ValueError):
    """An arbiter action that cannot be done as asked (bad result, bad tag, bad FEN)."""


class _RememberingLeds:
    """The backend's LED sink, remembering the last frame for the page. With a coach,
    the coach's intents (a hint, a blunder warning) are rendered with the tracker's."""

    def __init__(self, sink: LedSink) -> None:
        self.sink = sink
        self.square_count = sink.square_count
        self.frame = LedFrame.blank(sink.square_count)
        self.tracker_intents: Callable[[], dict] | None = None
        self.coach_intents: Callable[[], dict] | None = None

    def show(self, frame: LedFrame) -> None:
        if self.coach_intents is not None and self.tracker_intents is not None:
            extra = self.coach_intents()
            if extra:
                frame = render({**self.tracker_intents(), **extra}, self.square_count)
        self.sink.show(frame)
        self.frame = frame

    def close(self) -> None:
        self.sink.close()


class PlaySession:
    """One board in play (see the module doc). ``start()`` begins or resumes the game and
    the controller thread; ``stop()`` ends it with the journal intact.

    ``opening`` is the decision `draughtsboard play` took (`choose_opening`); without it
    the session takes it itself from ``variant``, ``start_fen`` and ``resume``."""

    def __init__(self, variant: str, source: SensorSource, leds: LedSink, recorder: Recorder,
                 *, mode: str = "tournament", tags: dict[str, str] | None = None,
                 start_fen: str | None = None, hands: SimulatedSwitches | None = None,
                 backend: str = "sim", token: str | None = None, resume: bool = True,
                 opening: Opening | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, poll: float = 0.05) -> None:
        self.opening = opening
        self._opening_request = dict(variant=variant, start_fen=start_fen, resume=resume)
        self.variant = opening.variant if opening is not None else get_variant(variant)
        self.source = source
        self.recorder = recorder
        self.mode = Mode(mode)
        self.initial_tags = dict(tags or {})
        self.hands = hands
        self.backend = backend
        self.token = token or secrets.token_urlsafe(12)
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
        self._log: deque[dict[str, Any]] = deque(maxlen=LOG_LENGTH)
        self._unacknowledged = 0
        self.game_id = ""
        self.tracker: Tracker | None = None
        self.controller: Controller | None = None
        self._occupied = 0
        self._last_move_wall: float | None = None
        self.moves_recorded = 0
        self.error: BaseException | None = None
        self.coach: Any = None  # a `coach.Coach`, attached with `attach_coach`
        # called (on the controller thread) if it dies: the server stops, so that systemd
        # restarts the program and the game resumes
        self.on_failure: Callable[[], None] | None = None

    @property
    def square_count(self) -> int:
        return self.variant.geometry.square_count

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
        if opening.resumes:
            self.game_id = opening.resume_id
            game = opening.game
            self.recorder.record_resume(self.game_id, self.clock(), self.wall())
            self.mode = Mode(game.mode) if game.mode in {m.value for m in Mode} else self.mode
            log.info("resuming game %s at ply %d: put the pieces as the LEDs show",
                     self.game_id, game.ply)
        else:
            self.game_id = self.recorder.start_game(
                self.variant, self.initial_tags, opening.start_fen, self.mode.value,
                t_monotonic=self.clock(), t_wall=self.wall())
            log.info("new %s game %s (%s mode)", self.variant.name, self.game_id,
                     self.mode.value)
        position = opening.expected_position
        self.tracker = Tracker(position, self.mode, check_start=True)
        self.controller = Controller(self.source, self.tracker, self.leds,
                                     record=self._record_safely)
        self.moves_recorded = self._game().ply

    def _game(self) -> Game:
        """The recorded game (a read-only copy the recorder keeps until it changes)."""
        return self.recorder.game(self.game_id)

    # -- the controller thread -------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                self._run_commands()
                snapshot = self.source.read(timeout=self.poll)
                if snapshot is not None:
                    self._occupied = snapshot.occupied
                    self.controller.handle(snapshot)
                    self._publish()
                elif self.controller.tick(self.clock()):
                    self._publish()
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
        the controller shows the confirming LEDs only after that."""
        now_wall = self.wall()
        try:
            entries = record_tracker_event(self.recorder, self.game_id, event, now_wall)
        except (DraughtsError, OSError) as error:
            log.error("could not record %s: %s", event.kind, error)
            entries = [LogEntry("error", f"could not record {event.kind}: {error}")]
        if event.kind == "move" and not any(e.kind == "error" for e in entries):
            self._last_move_wall = now_wall
        self.moves_recorded = self._game().ply
        for entry in entries:
            self._note_log(entry.kind, entry.text)
        if self.coach is not None:
            self.coach.after_event(event)

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
        return bool(token) and secrets.compare_digest(str(token), self.token)

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
        try:
            if fen:
                parse_fen(self.variant, fen)  # refused here, before anything is recorded
            merged = {**self.initial_tags, **clean_tags(tags or {})}
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> str:
            self.begin_game(merged, fen, "abandoned: the arbiter started a new game")
            log.info("arbiter: new game %s", self.game_id)
            return self.game_id

        return self.call(action)

    def begin_game(self, tags: dict[str, str], fen: str | None, why: str,
                   mode: str | None = None) -> str:
        """Close the current game (``*``, ``why``) unless it has its result, and begin a
        new one from ``fen`` (checked by the caller). Runs on the controller thread (the
        arbiter's new game, the coach's next puzzle); ``mode`` is what the journal
        records (default the session's)."""
        position = parse_fen(self.variant, fen) if fen else initial_position(self.variant)
        if self._game().result is None:
            self.recorder.record_result(self.game_id, "*", why, self.clock(), self.wall())
        self.game_id = self.recorder.start_game(
            self.variant, tags, fen, mode or self.mode.value, t_monotonic=self.clock(),
            t_wall=self.wall())
        self.tracker.reset(position, check_start=True)
        self.moves_recorded = 0
        self._last_move_wall = None
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

    def set_tags(self, tags: dict[str, str]) -> dict[str, str]:
        try:
            cleaned = clean_tags(tags)
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> dict[str, str]:
            if self._game().result is not None:
                raise ArbiterError("the game is finished: start a new game to change tags")
            return self.recorder.record_tags(self.game_id, cleaned, self.clock(), self.wall())

        return self.call(action)

    def declare_result(self, result: str, reason: str = "") -> str:
        try:
            normalise_result(self.variant, result)
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> str:
            if self._game().result is not None:
                raise ArbiterError(f"the game already has a result ({self._game().result})")
            text = reason or "declared by the arbiter"
            self.recorder.record_result(self.game_id, result, text, self.clock(), self.wall())
            self._note_log("result", f"{result} ({text})")
            if self.coach is not None:
                self.coach.game_finished()
            log.info("arbiter: result %s (%s)", result, text)
            return self._game().result_text()

        return self.call(action)

    def acknowledge(self) -> int:
        def action() -> int:
            count, self._unacknowledged = self._unacknowledged, 0
            if count:
                self._note_log("acknowledged", f"the arbiter acknowledged {count} flag(s)")
            return count

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

    def _publish(self) -> None:
        view = build_view(
            tracker=self.tracker, game=self._game(), game_id=self.game_id,
            mode=self.mode.value, backend=self.backend, frame=self.leds.frame,
            occupied=self._occupied,
            switches=self.hands.occupied if self.hands is not None else None,
            log=self._log, unacknowledged=self._unacknowledged,
            error=str(self.error) if self.error else None,
            last_move_wall=self._last_move_wall,
            coach=self.coach.view() if self.coach is not None else None)
        if view == self._view:
            return
        self._view = view
        version = self._current[0] + 1
        self._current = (version, json.dumps(dict(view, version=version),
                                             separators=(",", ":")))
        self._notify()
