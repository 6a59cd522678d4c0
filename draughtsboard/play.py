"""A play session: the controller, the journal, the LEDs and the people watching, together.

`PlaySession` owns one thread, the controller thread: it alone feeds the tracker and
writes the journal, so the core stays single-threaded. Everybody else talks to it through
a queue: the web page's arbiter actions and PDN export are callables run on that thread
between two snapshots, their answers handed back through futures. Each change (a snapshot,
a move, an LED frame, an arbiter action) produces a new *view*, a JSON-ready dict of
everything the page shows; subscribers (the web app's live streams) are told when a new
one is ready.

The session is given its sensor source, LED sink and, for a simulated board, the *hands*
(anything with ``set_switch(square, closed)`` and an ``occupied`` mask): it never imports
a backend. ``draughtsboard.cli`` chooses them.
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
from draughtsboard.board.ports import LedFrame, LedSink, SensorSource, squares_from_mask
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.fen import format_fen, parse_fen
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import (
    FlagEvent,
    GameOverEvent,
    Mode,
    MoveEvent,
    State,
    TakebackEvent,
    Tracker,
    TrackerEvent,
)
from draughtsboard.board.tracker.controller import Controller
from draughtsboard.board.tracker.leds import render
from draughtsboard.recording import Recorder
from draughtsboard.recording.journal import load_journal

log = logging.getLogger("draughtsboard.play")

FLAG_OF_INTENT = {"illegal": "illegal", "must_capture": "must capture", "restore": "restore",
                  "ambiguous": "ambiguous"}
LOG_LENGTH = 50  # arbiter log entries kept for the page


class SimulatedSwitches(Protocol):
    """What the page's hands act on: a simulated board's switches."""

    @property
    def occupied(self) -> int: ...

    def set_switch(self, square: int, closed: bool) -> None: ...


class ArbiterError(ValueError):
    """An arbiter action that cannot be done as asked (bad result, bad tag, bad FEN)."""


class _RecordingLeds:
    """The backend's LED sink, remembering the last frame for the page."""

    def __init__(self, sink: LedSink, on_frame: Callable[[LedFrame], None]) -> None:
        self.sink = sink
        self.square_count = sink.square_count
        self.on_frame = on_frame

    def show(self, frame: LedFrame) -> None:
        self.sink.show(frame)
        self.on_frame(frame)

    def close(self) -> None:
        self.sink.close()


class PlaySession:
    """One board in play (see the module doc). ``start()`` begins or resumes the game and
    the controller thread; ``stop()`` ends it with the journal intact."""

    def __init__(self, variant: str, source: SensorSource, leds: LedSink, recorder: Recorder,
                 *, mode: str = "tournament", tags: dict[str, str] | None = None,
                 start_fen: str | None = None, hands: SimulatedSwitches | None = None,
                 backend: str = "sim", token: str | None = None, resume: bool = True,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, poll: float = 0.05) -> None:
        self.variant = get_variant(variant)
        self.source = source
        self.recorder = recorder
        self.mode = Mode(mode)
        self.initial_tags = dict(tags or {})
        self.start_fen = start_fen
        self.hands = hands
        self.backend = backend
        self.token = token or secrets.token_urlsafe(12)
        self.resume = resume
        self.clock = clock
        self.wall = wall
        self.poll = poll
        self.square_count = self.variant.geometry.square_count
        self._frame = LedFrame.blank(self.square_count)
        self.leds = _RecordingLeds(leds, self._remember_frame)
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
        # called (on the controller thread) if it dies: the server stops, so that systemd
        # restarts the program and the game resumes
        self.on_failure: Callable[[], None] | None = None

    # -- life cycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Begin (or resume) the game and start the controller thread."""
        self._open_game()
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
        unfinished = self.recorder.unfinished_game() if self.resume else None
        if unfinished is not None and unfinished[1].variant is not self.variant:
            log.warning("unfinished game %s is %s, not %s: starting a new game",
                        unfinished[0], unfinished[1].variant.name, self.variant.name)
            unfinished = None
        if unfinished is not None:
            self.game_id, game = unfinished
            self._apply_tag_notes(game)
            self.recorder.record_resume(self.game_id, self.clock(), self.wall())
            self.mode = Mode(game.mode) if game.mode in {m.value for m in Mode} else self.mode
            log.info("resuming game %s at ply %d: put the pieces as the LEDs show",
                     self.game_id, game.ply)
            position = game.position
        else:
            self.game_id = self.recorder.start_game(
                self.variant, self.initial_tags, self.start_fen, self.mode.value,
                t_monotonic=self.clock(), t_wall=self.wall())
            position = self._game().position
            log.info("new %s game %s (%s mode)", self.variant.name, self.game_id,
                     self.mode.value)
        self.tracker = Tracker(position, self.mode, check_start=True)
        self.controller = Controller(self.source, self.tracker, self.leds,
                                     record=self._record_safely)
        self.moves_recorded = self._game().ply

    def _apply_tag_notes(self, game: Game) -> None:
        """Tags the arbiter set during the game are kept in note records: apply them."""
        records = load_journal(self.recorder.path_of(self.game_id)).records
        for record in records:
            if record.get("type") == "note" and isinstance(record.get("tags"), dict):
                game.tags.update({str(k): str(v) for k, v in record["tags"].items()})

    def _game(self) -> Game:
        return self.recorder.load(self.game_id)

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
        try:
            self._record(event)
        except (DraughtsError, OSError) as error:
            log.error("could not record %s: %s", event.kind, error)
            self._note_log("error", f"could not record {event.kind}: {error}")

    def _record(self, event: TrackerEvent) -> None:
        recorder, game_id = self.recorder, self.game_id
        game = self._game()
        now_wall = self.wall()
        if game.result is not None:
            if isinstance(event, MoveEvent):
                log.warning("move %s after the result: not recorded", event.notation)
                self._note_log("note", f"{event.notation} played after the result: "
                                       "not recorded (start a new game)")
            return
        if isinstance(event, MoveEvent):
            if event.replaces:
                recorder.record_takeback(game_id, event.t, now_wall,
                                         amended_by=event.notation)
            played = recorder.record_move(game_id, Move(event.path, event.captures),
                                          event.t, now_wall)
            self._last_move_wall = now_wall
            self.moves_recorded = game.ply
            log.info("move %d: %s", game.ply, played.text)
            for note in event.notes:
                recorder.record_irregularity(game_id, f"{played.text}: {note}", event.t,
                                             now_wall)
                self._note_log("irregularity", f"{played.text}: {note}")
        elif isinstance(event, TakebackEvent):
            recorder.record_takeback(game_id, event.t, now_wall)
            self.moves_recorded = game.ply
            self._note_log("takeback", f"{event.notation} taken back")
        elif isinstance(event, FlagEvent):
            if event.kind == "illegal":
                recorder.record_illegal(game_id, event.description, t_monotonic=event.t,
                                        t_wall=now_wall)
            else:
                recorder.record_irregularity(game_id, event.description, event.t, now_wall)
            self._note_log(event.kind, event.description)
            log.info("%s: %s", event.kind, event.description)
        elif isinstance(event, GameOverEvent):
            outcome = game.outcome()
            if outcome is not None:
                recorder.record_result(game_id, outcome[0], outcome[1], event.t, now_wall)
                self._note_log("result", f"{outcome[0]} ({outcome[1]})")
                log.info("game over: %s (%s)", *outcome)

    def _note_log(self, kind: str, text: str) -> None:
        self._log.append({"kind": kind, "text": text, "t_wall": self.wall()})
        if kind in ("illegal", "disturbed", "irregularity", "error"):
            self._unacknowledged += 1

    def _remember_frame(self, frame: LedFrame) -> None:
        self._frame = frame

    # -- requests from other threads ---------------------------------------------------------

    def submit(self, action: Callable[[], Any]) -> concurrent.futures.Future:
        """Run ``action`` on the controller thread; its result through the future."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        if not self.running:
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
        def action() -> str:
            position = parse_fen(self.variant, fen) if fen else initial_position(self.variant)
            game = self._game()
            if game.result is None:
                self.recorder.record_result(self.game_id, "*",
                                            "abandoned: the arbiter started a new game",
                                            self.clock(), self.wall())
            merged = {**self.initial_tags, **_clean_tags(tags or {})}
            self.game_id = self.recorder.start_game(
                self.variant, merged, fen, self.mode.value, t_monotonic=self.clock(),
                t_wall=self.wall())
            self.tracker.reset(position, check_start=True)
            self.moves_recorded = 0
            self._last_move_wall = None
            self._log.clear()
            self._unacknowledged = 0
            latest = self.source.latest()
            if latest is not None:
                self.controller.handle(latest)
            log.info("arbiter: new game %s", self.game_id)
            return self.game_id

        if fen:
            try:
                parse_fen(self.variant, fen)
            except DraughtsError as error:
                raise ArbiterError(str(error)) from None
        return self.call(action)

    def set_tags(self, tags: dict[str, str]) -> dict[str, str]:
        cleaned = _clean_tags(tags)

        def action() -> dict[str, str]:
            game = self._game()
            if game.result is not None:
                raise ArbiterError("the game is finished: start a new game to change tags")
            text = "tags set by the arbiter: " + ", ".join(f"{k}={v}" for k, v in
                                                           cleaned.items())
            # The journal keeps the tags in a note record (resume applies them again).
            self.recorder._event(self.game_id, "note", text, self.clock(), self.wall(),
                                 tags=cleaned)
            game.tags.update(cleaned)
            return dict(game.tags)

        return self.call(action)

    def declare_result(self, result: str, reason: str = "") -> str:
        try:
            normalise_result(self.variant, result)
        except DraughtsError as error:
            raise ArbiterError(str(error)) from None

        def action() -> str:
            game = self._game()
            if game.result is not None:
                raise ArbiterError(f"the game already has a result ({game.result})")
            text = reason or "declared by the arbiter"
            self.recorder.record_result(self.game_id, result, text, self.clock(), self.wall())
            self._note_log("result", f"{result} ({text})")
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
        view = self._build_view()
        if view == self._view:
            return
        self._view = view
        version = self._current[0] + 1
        self._current = (version, json.dumps(dict(view, version=version),
                                             separators=(",", ":")))
        self._notify()

    def _build_view(self) -> dict[str, Any]:
        tracker = self.tracker
        position: Position = tracker.position
        geometry = self.variant.geometry
        game = self._game()
        intents = {k: list(v) for k, v in tracker.intents.items()}
        frame = self._frame
        leds = {}
        for index, pattern in enumerate(frame.patterns):
            if pattern:
                colour = frame.colours[index] if frame.colours else None
                leds[str(index + 1)] = [pattern.name.lower(), colour]
        columns = {}
        for square in geometry.numbers:
            column = position.column_at(square)
            if column:
                columns[str(square)] = column
        flags = [FLAG_OF_INTENT[k] for k in FLAG_OF_INTENT if tracker.intents.get(k)]
        if tracker.state is State.DISTURBED:
            flags.append("disturbed")
        outcome = None if game.result is not None else game.outcome()
        hands = self.hands
        return {
            "variant": self.variant.name,
            "title": self.variant.title,
            "size": geometry.size,
            "squares": [[n, *geometry.coords(n), geometry.name(n)] for n in geometry.numbers],
            "backend": self.backend,
            "hands": hands is not None,
            "game_id": self.game_id,
            "mode": self.mode.value,
            "state": tracker.state.value,
            "white_to_move": position.white_to_move,
            "fen": format_fen(position),
            "columns": columns,
            "occupied": squares_from_mask(self._occupied),
            "switches": squares_from_mask(hands.occupied) if hands is not None else None,
            "leds": leds,
            "intents": intents,
            "flags": flags,
            "moves": [played.text for played in game.moves],
            "tags": dict(game.tags),
            "result": game.result_text() if game.result is not None else None,
            "result_reason": game.result_reason,
            "draw_reason": outcome[1] if outcome and outcome[0] == self.variant.results[1]
            else None,
            "clocks": self._clocks(game),
            "log": list(self._log),
            "unacknowledged": self._unacknowledged,
            "error": str(self.error) if self.error else None,
        }

    def _clocks(self, game: Game) -> dict[str, Any] | None:
        control = game.tags.get("TimeControl", "")
        if not control:
            return None
        clocks = [c for c in game.clocks() if c is not None]
        if game.moves and not clocks:
            return None
        if clocks:
            white, black = clocks[-1]
        else:
            try:
                white = black = float(control.partition("+")[0])
            except ValueError:
                return None
        return {"white": white, "black": black,
                "running": None if game.result is not None else
                ("white" if game.position.white_to_move else "black"),
                "since": self._last_move_wall or game.start_wall}


def _clean_tags(tags: dict[str, str]) -> dict[str, str]:
    """Tags as PDN allows them: a name of letters, digits and ``_``; a one-line value."""
    out = {}
    for key, value in tags.items():
        key = str(key).strip()
        if not key or not all(c.isalnum() or c == "_" for c in key) or not key[0].isalpha():
            raise ArbiterError(f"not a tag name: {key!r}")
        if key in ("Result", "FEN", "GameType", "SetUp", "Variant"):
            raise ArbiterError(f"the {key} tag is derived from the game, not set")
        text = str(value)
        if "\n" in text or "\r" in text or len(text) > 200:
            raise ArbiterError(f"tag {key}: one line of at most 200 characters")
        out[key] = text
    return out


def parse_tag_options(items: list[str]) -> dict[str, str]:
    """``KEY=VALUE`` command-line items as tags."""
    tags = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ArbiterError(f"--tag {item!r}: expected KEY=VALUE")
        tags.update(_clean_tags({key: value}))
    return tags
