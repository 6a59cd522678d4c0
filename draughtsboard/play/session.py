"""A play session: the controller thread around the game in play.

The game in play (`game_in_play.GameInPlay`) holds the game and its rules and has no
thread. `PlaySession` is the one thread that drives it, the controller thread: it alone
feeds it snapshots and the time, so the core stays single-threaded. Everybody else talks
to it through a queue: the web page's arbiter actions (`arbiter`, the `ArbiterDesk`), the
coach's answers and the PDN export are callables run on that thread between two
snapshots, their answers handed back through futures once the view they caused is
published (publish, then answer). After each change it builds the page's view and
publishes it when it is new (`publisher`).

The session also keeps what belongs to the edge: the simulated board's switches the
page's hands act on, the arbiter's token, and the board's link problem. It is given its
sensor source, LED sink and switches: it never imports a backend; ``draughtsboard.cli``
chooses them.
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
from draughtsboard.board.mode import Mode
from draughtsboard.board.ports import LedSink, SensorSource
from draughtsboard.recording import Recorder
from draughtsboard.words import SOURCE_LANGUAGE, Words, words_for

from .arbiter import ArbiterDesk
from .game_in_play import GameInPlay
from .opening import Opening, choose_opening
from .publisher import Publisher

REST_AFTER = 10.0  # seconds with nothing happening before a board at rest waits longer
REST_POLL = 1.0  # how long the controller then waits for a snapshot (a command wakes it)

log = logging.getLogger("draughtsboard.play")

# While the opponent thinks the thread looks at its queue this often (its answer is
# shown within that), otherwise every ``poll`` seconds: it waits on the sensors, and an
# answer handed in meanwhile waits for that wait to end.
THINKING_POLL = 0.005

__all__ = ["PlaySession", "SimulatedSwitches"]


class SimulatedSwitches(Protocol):
    """What the page's hands act on: a simulated board's switches."""

    @property
    def occupied(self) -> int: ...

    def set_switch(self, square: int, closed: bool) -> None: ...


class PlaySession:
    """One board in play (see the module doc). ``start()`` opens the game and starts the
    controller thread; ``stop()`` ends it with the journal intact.

    ``opening`` is the decision `draughtsboard play` took (`choose_opening`); without it
    the session takes it itself from ``variant``, ``start_fen`` and ``resume``. ``mode``,
    ``tags``, ``irregular`` and ``irregular_leds`` are for the game in play (`game`).
    ``link_problem`` says what is wrong with the board's link, if anything (a serial
    port that cannot be opened, a silent device): the page shows it. ``language`` is the
    board's (`play --language`): what it logs for people and the comments of the PDN it
    exports are in it (``words``), and so is its page for a browser that asks for none
    of the catalogs' languages."""

    def __init__(self, variant: str, source: SensorSource, leds: LedSink, recorder: Recorder,
                 *, mode: Mode | str | None = None, tags: dict[str, str] | None = None,
                 start_fen: str | None = None, hands: SimulatedSwitches | None = None,
                 backend: str = "sim", token: str | Callable[[], str] | None = None,
                 resume: bool = True, opening: Opening | None = None,
                 link_problem: Callable[[], str | None] | None = None,
                 irregular: str | None = None, irregular_leds: bool = True,
                 language: str = SOURCE_LANGUAGE,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, poll: float = 0.05) -> None:
        self.language = language
        self.words: Words = words_for(language)
        if opening is None:
            opening = choose_opening(recorder, variant=variant, start_fen=start_fen,
                                     resume=resume, say=self.words)
        self.game = GameInPlay(recorder, leds, opening, mode=mode, tags=tags,
                               irregular=irregular, irregular_leds=irregular_leds,
                               clock=clock, wall=wall, say=self.words)
        self.arbiter = ArbiterDesk(self.game, self.call)
        self.source = source
        self.hands = hands
        self.backend = backend
        # a string, or a function giving the current token (the data directory's file,
        # which `draughtsboard token --rotate` may change while the board runs)
        self._token = token if token is not None else secrets.token_urlsafe(12)
        self.link_problem = link_problem
        self.wall = wall  # the board's wall clock, which the page counts the clocks by
        self.poll = poll
        self._last_activity = clock()  # a snapshot or a command, for `_wait`
        self.error: BaseException | None = None
        # called (on the controller thread) if it dies: the server stops, so that systemd
        # restarts the program and the game resumes
        self.on_failure: Callable[[], None] | None = None
        self._commands: queue.SimpleQueue = queue.SimpleQueue()
        self._hands_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._closing = False
        self._publisher = Publisher()

    @property
    def token(self) -> str:
        """The arbiter's token now."""
        return self._token() if callable(self._token) else self._token

    # -- life cycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Open the game and start the controller thread."""
        self.game.see(self.source.latest())
        self.game.open()
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
        self.game.close()

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

    # -- the controller thread -------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                self._run_commands()
                snapshot = self.source.read(timeout=self._wait())
                if self.game.retry_held():
                    self._publish()
                if snapshot is not None:
                    self._last_activity = self.game.clock()
                    self.game.feed(snapshot)
                    self._publish()
                    continue
                changed = self.game.tick(self.game.clock())
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
        """How long the controller may wait for a snapshot: `THINKING_POLL` while the
        opponent thinks; ``poll`` while time itself can change something
        (`GameInPlay.at_rest` says when it cannot) and for the first `REST_AFTER` seconds
        after anything happened; `REST_POLL` once the board is at rest, where waking
        ``poll``-ly was a sixth of an idle board's CPU. A command wakes the thread at
        once (`submit`), so only the page's notice of a link going down can come up to
        `REST_POLL` later."""
        seat = self.game.opponent
        if seat is not None and seat.thinking and seat.match is None:  # (another board's
            # move comes as a command, which wakes the thread)
            return min(self.poll, THINKING_POLL)
        if (not self.game.at_rest()
                or self.game.clock() - self._last_activity < REST_AFTER):
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
            self._last_activity = self.game.clock()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result, error = action(), None
            except BaseException as failure:  # noqa: BLE001 - handed to the caller
                result, error = None, failure
            try:
                self._publish()  # publish, then answer: the caller reads the new view
            finally:
                if error is None:
                    future.set_result(result)
                else:
                    future.set_exception(error)

    # -- requests from other threads ---------------------------------------------------------

    def submit(self, action: Callable[[], Any]) -> concurrent.futures.Future:
        """Run ``action`` on the controller thread; its result through the future, which
        is answered only once the view the action caused is published (publish, then
        answer). Before `start` the action waits for the thread; after `stop` it is
        refused."""
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
        """`submit` and wait: when this returns, `view` shows what ``action`` did."""
        return self.submit(action).result(timeout)

    def export_pdn(self) -> str:
        return self.call(lambda: self.game.recorder.export_pdn(self.game.game_id,
                                                               say=self.words))

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
        count = self.game.square_count
        with self._hands_lock:
            for action, square in actions:
                if action == "setup":
                    self._set_up(hands)
                    continue
                if not isinstance(square, int) or not 1 <= square <= count:
                    raise ValueError(f"no square {square!r} on this board (1-{count})")
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
        wanted = self.game.tracker.position.occupancy()
        for square in range(1, self.game.square_count + 1):
            closed = bool(wanted >> (square - 1) & 1)
            if bool(hands.occupied >> (square - 1) & 1) != closed:
                hands.set_switch(square, closed)

    # -- the view (`publisher.Publisher`) ----------------------------------------------------

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake()`` (from any thread) whenever a new view is ready; returns the
        function that unsubscribes."""
        return self._publisher.subscribe(wake)

    def view(self) -> tuple[int, str]:
        """The latest view as (version, JSON text)."""
        return self._publisher.view()

    def published(self) -> tuple[str, Game | None, dict[str, Any]]:
        """The latest publication's game id, recorded game (a read-only copy: safe to read
        on any thread) and view, all three from the same moment (the hall link reads
        them)."""
        return self._publisher.published()

    def _publish(self) -> None:
        """Build the page's view of the game in play and publish it if it is new."""
        game = self.game.recorded_game()
        view = self.game.view(
            game, backend=self.backend,
            switches=self.hands.occupied if self.hands is not None else None,
            error=str(self.error) if self.error else None,
            link_problem=self.link_problem() if self.link_problem is not None else None)
        self._publisher.publish(self.game.game_id, game, view)
