"""The game clock as the session runs it: what to record when, and since when it runs.

`clock.read_clock` says, from the record alone, how much time each side had and whether
the clock runs. This keeps the one thing the record cannot: the moment (on the
session's monotonic clock, and on the wall clock for the page) since which the running
side's time has been going. It is told about moves before they are recorded (and
answers with the clocks to record with them), is ticked by the controller thread (a
paused clock goes on when the board matches again; a flag falls), and carries out the
arbiter's start, pause and resume. It writes only through the `Recorder`'s public
``record_*`` methods and runs on the controller thread only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from draughtsboard.board.game.record import Game, move_number
from draughtsboard.board.message import Message
from draughtsboard.recording import Recorder

from .clock import ClockReading, read_clock, side_to_move_at
from .errors import ClockActionError


@dataclass(frozen=True)
class ClockNote:
    """What the arbiter's log says about the clock (``kind`` ``clock`` or ``flag``)."""

    kind: str
    text: Message


class GameClock:
    """See the module doc. ``clock`` and ``wall`` are the session's time sources."""

    def __init__(self, clock: Callable[[], float], wall: Callable[[], float]) -> None:
        self.clock = clock
        self.wall = wall
        self.since: tuple[float, float] | None = None  # (monotonic, wall) the time goes from
        self.held_at: float | None = None  # the running side's time stands still since
        self.suspended = False  # a match's link is cut: nobody's time goes (`suspend`)
        self._carrying_out = False  # an opponent's move is being carried out (`hold`)
        self._cached: tuple[Game | None, ClockReading | None] = (None, None)

    def reading(self, game: Game) -> ClockReading | None:
        """The clock of ``game`` (cached per read-only copy: the recorder hands out a
        new copy after every change)."""
        if self._cached[0] is not game:
            self._cached = (game, read_clock(game))
        return self._cached[1]

    def reset(self) -> None:
        """A new game: nothing runs yet."""
        self.since = None
        self.held_at = None
        self._carrying_out = False
        self._cached = (None, None)

    def _spent(self, now: float) -> float:
        if self.since is None:
            return 0.0
        until = now if self.held_at is None else min(now, self.held_at)
        return max(0.0, until - self.since[0])

    def _start_now(self, now: float) -> None:
        """The running side's time goes from ``now``, unless a reason to stand still
        holds (an opponent's move being carried out, a match's link down)."""
        self.since = (now, self.wall())
        self.held_at = now if self.suspended or self._carrying_out else None

    def hold(self, at: float) -> None:
        """The running side stopped thinking at ``at`` (an opponent answered, and the
        person now carries its move out on the board): its time stands still until its
        move is recorded (or `release`). Before the clock goes (a session just started
        or restarted) it is remembered, and the clock starts standing."""
        self._carrying_out = True
        if self.since is not None and self.held_at is None:
            self.held_at = at

    def release(self) -> None:
        """The running side's time goes on again; the standstill is not charged (the
        move it stood for was dropped). While `suspended` it still stands."""
        self._carrying_out = False
        if not self.suspended:
            self._go_on()

    def suspend(self, at: float) -> None:
        """A match between boards lost its link at ``at``: the running side's time
        stands still (on both boards) until `unsuspend`; nothing is recorded, so both
        journals stay the same game."""
        self.suspended = True
        if self.since is not None and self.held_at is None:
            self.held_at = max(at, self.since[0])  # (never before the time went)

    def unsuspend(self) -> None:
        """The link is back: the time goes on, the standstill not charged, unless an
        opponent's move is still being carried out (`hold`: it stands until recorded)."""
        if self.suspended:
            self.suspended = False
            if not self._carrying_out:
                self._go_on()

    def _go_on(self) -> None:
        """Neither reason to stand still holds any more: the time goes on from now, the
        standstill not charged. The two reasons (an opponent's move being carried out,
        a match's link being down) are kept apart, so ending one never ends the other
        and a move recorded during a pause leaves only the pause standing."""
        held, since = self.held_at, self.since
        if held is not None and since is not None:
            shift = max(0.0, self.clock() - held)
            self.since = (since[0] + shift, since[1] + shift)
        self.held_at = None

    def left(self, game: Game, side: str) -> float | None:
        """Seconds ``side`` has now (its running time taken off); None without a time
        control."""
        reading = self.reading(game)
        if reading is None:
            return None
        left = reading.left(side)
        if reading.status == "running" and reading.running == side:
            left -= self._spent(self.clock())
        return max(0.0, left)

    def increment(self, game: Game) -> float:
        reading = self.reading(game)
        return reading.control.increment if reading is not None else 0.0

    # -- moves ------------------------------------------------------------------------

    def before_move(self, recorder: Recorder, game_id: str, *,
                    amends: bool = False) -> tuple[float, float] | None:
        """Both clocks to record with the move about to be recorded (``None``: the game
        has no time control), in milliseconds as the clock events are written (every
        writer of a clock writes it at one precision: two boards of a match compare
        them). The first move starts a waiting clock (and is not charged); an amended
        move (a slid piece) charges its mover the extra time."""
        clocks = self._before_move(recorder, game_id, amends=amends)
        return None if clocks is None else (round(clocks[0], 3), round(clocks[1], 3))

    def _before_move(self, recorder: Recorder, game_id: str, *,
                     amends: bool) -> tuple[float, float] | None:
        game = recorder.game(game_id)
        reading = self.reading(game)
        if reading is None or game.result is not None:
            return None
        now = self.clock()
        if amends and game.moves:
            mover = side_to_move_at(game, game.ply - 1)
            if reading.status != "running":
                return reading.white, reading.black
            return reading.with_left(mover, reading.left(mover) - self._spent(now))
        if reading.status == "waiting":
            recorder.record_clock(game_id, "start", (reading.white, reading.black),
                                  "clock started with the first move", now, self.wall(),
                                  message=Message.of("pdn.text.clock_first_move"))
            self._start_now(now)
            started = self.reading(recorder.game(game_id))
            assert started is not None  # the game had a clock a moment ago; it still has
            return started.after_move(0.0)
        if reading.status == "running":
            return reading.after_move(self._spent(now))
        return reading.white, reading.black

    def after_move(self, game: Game) -> None:
        """A move was recorded: the other side's time goes from now (what stood for the
        move being carried out is done)."""
        self._carrying_out = False
        reading = self.reading(game)
        if reading is not None and reading.status == "running":
            self._start_now(self.clock())

    def after_takeback(self, game: Game) -> None:
        """A move was taken back (training): the clocks of the position before it, the
        side to move's time going from now."""
        self.after_move(game)

    # -- time passing -------------------------------------------------------------------

    def tick(self, recorder: Recorder, game_id: str, *, board_matches: bool,
             heard: tuple[str, float | None] | None = None) -> ClockNote | None:
        """Let time pass: a clock paused by a restart (or a withdrawn result) goes on
        once ``board_matches``; the running side's flag falls when its time is up.
        ``heard``: in a match between boards, the other board's side and when it was
        last heard from (monotonic). That side's flag falls here only once its board was
        heard from after its time ran out: a move it made in time may still be on its
        way through a link that just dropped (the pause is noticed only seconds later)."""
        game = recorder.game(game_id)
        reading = self.reading(game)
        if reading is None:
            return None
        now = self.clock()
        if reading.status == "paused" and reading.resumes_by_itself and board_matches:
            text = "clock resumed: the board shows the recorded position"
            recorder.record_clock(game_id, "resume", (reading.white, reading.black), text,
                                  now, self.wall(),
                                  message=Message.of("clock.resumed_by_board"))
            self._start_now(now)
            return ClockNote("clock", Message.of("clock.resumed_by_board"))
        side = reading.running
        if side is None or side in reading.flagged:
            return None
        if self.since is None:
            self._start_now(now)
            return None
        if reading.left(side) - self._spent(now) > 0:
            return None
        if heard is not None and heard[0] == side and (
                heard[1] is None or heard[1] < self.since[0] + reading.left(side)):
            return None  # (not heard from since its time ran out: its move may be coming)
        number = move_number(game.start.white_to_move, game.ply)
        text = (f"{side.capitalize()}'s flag fell: time ({reading.control}) ran out at "
                f"move {number}; play goes on until the arbiter rules")
        said = Message.of(f"clock.flag_fell.{side}", control=str(reading.control),
                          number=number)
        recorder.record_flag_fall(game_id, reading.with_left(side, 0.0), text, now,
                                  self.wall(), message=said)
        return ClockNote("flag", said)

    # -- the arbiter ------------------------------------------------------------------------

    def arbiter(self, recorder: Recorder, game_id: str, action: str) -> str:
        """Start, pause or resume the clock for the arbiter; what was done."""
        game = recorder.game(game_id)
        reading = self.reading(game)
        if reading is None:
            raise ClockActionError("this game has no time control: set a TimeControl tag "
                                   "(seconds, or seconds+increment, e.g. 300+5) first")
        now = self.clock()
        if action == "start":
            if reading.status != "waiting":
                raise ClockActionError(f"the clock has already started ({reading.status})")
            return self._run_for_arbiter(recorder, game_id, reading, now, "start",
                                         "clock started", Message.of("log.clock.start"))
        if action == "pause":
            if reading.status != "running":
                raise ClockActionError(f"the clock is not running ({reading.status})")
            side = reading.running
            assert side is not None  # a running clock runs for a side
            clocks = reading.with_left(side, reading.left(side) - self._spent(now))
            recorder.record_clock(game_id, "pause", clocks, "clock paused by the arbiter",
                                  now, self.wall(), message=Message.of("log.clock.pause"))
            self.since = None
            return "clock paused"
        if action == "resume":
            if reading.status != "paused":
                raise ClockActionError(f"the clock is not paused ({reading.status})")
            return self._run_for_arbiter(recorder, game_id, reading, now, "resume",
                                         "clock resumed", Message.of("log.clock.resume"))
        raise ClockActionError(f"clock action {action!r}: expected start, pause or resume")

    def _run_for_arbiter(self, recorder: Recorder, game_id: str, reading: ClockReading,
                         now: float, action: str, done: str, message: Message) -> str:
        """Start or resume: both record the times left as they stand (nothing was spent
        while the clock stood) and set it running from ``now``; ``done`` is said."""
        recorder.record_clock(game_id, action, (reading.white, reading.black),
                              f"{done} by the arbiter", now, self.wall(), message=message)
        self._start_now(now)
        return done

    # -- the page -------------------------------------------------------------------------

    def view(self, game: Game) -> dict | None:
        """The clocks for the page: seconds left as last recorded, the side whose time
        goes and since when (wall-clock seconds), the flags fallen."""
        reading = self.reading(game)
        if reading is None:
            return None
        running = reading.running
        held = running is not None and self.held_at is not None
        white, black = reading.white, reading.black
        if held and running is not None:  # frozen where it stood: nothing counts down
            white, black = reading.with_left(running, reading.left(running)
                                             - self._spent(self.clock()))
        return {
            "control": str(reading.control),
            "white": round(white, 3),
            "black": round(black, 3),
            "status": reading.status,
            "running": running,
            "since": self.since[1] if running and self.since and not held else None,
            "held": held,
            "suspended": self.suspended,
            "flagged": list(reading.flagged),
        }
