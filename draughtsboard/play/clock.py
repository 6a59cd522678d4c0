"""The game clock: when it runs, how much time each side has, and when a flag falls.

Read from the recorded game only, so that a restarted board shows the same clocks as
before the restart: the ``TimeControl`` tag gives the time (``base`` or
``base+increment``, seconds), every move recorded while the clock runs carries both
clocks, and the clock's own events (``clock-start``, ``clock-pause``, ``clock-resume``,
``flag``) carry them too. `read_clock` turns that into a `ClockReading`; the session
keeps only *since when* the running side's time has been going, with its own clock (time
is an input here, as everywhere in the core).

When the clock runs:

* it waits while the board is set up; it starts with the first move (that move is not
  charged) or when the arbiter starts it;
* after a restart, or after the arbiter withdraws a result, it is paused and goes on by
  itself when the board shows the recorded position again: the time of the turn that a
  power cut interrupted is not charged (monotonic time restarts with the program);
* the arbiter may pause and resume it; it stops at the result.

A clock never shows less than zero. When the running side's time is up its flag falls:
that is recorded (and written into the PDN) and shown, the clock stays at 0:00, and the
game goes on; the board does not decide the game, the arbiter does.
"""

from __future__ import annotations

from dataclasses import dataclass

from draughtsboard.board.game.record import Game

from .errors import TimeControlError

# Pauses that end by themselves once the board shows the recorded position again.
AUTO_RESUMED = ("resume", "result-withdrawn")
TAKEBACK_KINDS = ("takeback", "amendment")


@dataclass(frozen=True)
class TimeControl:
    """Seconds for the game and seconds added after each move (Fischer increment)."""

    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``300`` or ``300+5`` (seconds); `TimeControlError` otherwise."""
        base, plus, increment = text.strip().partition("+")
        try:
            control = cls(float(base), float(increment) if plus else 0.0)
        except ValueError:
            raise TimeControlError(
                f"TimeControl {text!r}: expected seconds, or seconds+increment "
                "(e.g. 300+5)") from None
        if not control.base > 0 or control.increment < 0 or control.base > 86400 * 7:
            raise TimeControlError(f"TimeControl {text!r}: the time must be positive")
        return control

    def __str__(self) -> str:
        base = f"{self.base:g}"
        return base + (f"+{self.increment:g}" if self.increment else "")


def time_control_of(game: Game) -> TimeControl | None:
    """The game's time control, ``None`` without a usable ``TimeControl`` tag."""
    text = game.tags.get("TimeControl", "").strip()
    if not text or text in ("-", "?"):
        return None
    try:
        return TimeControl.parse(text)
    except TimeControlError:
        return None


def side_to_move_at(game: Game, ply: int) -> str:
    """``"white"`` or ``"black"``: who was to move after ``ply`` moves."""
    white = game.start.white_to_move == (ply % 2 == 0)
    return "white" if white else "black"


@dataclass(frozen=True)
class ClockReading:
    """Both clocks as last recorded (``white``, ``black``: seconds left then) and what
    the clock is doing: ``waiting`` (not started), ``running`` (for the side to move),
    ``paused`` or ``stopped`` (the game has its result). ``resumes_by_itself``: paused by
    a restart or a withdrawn result, it goes on when the board matches again."""

    control: TimeControl
    white: float
    black: float
    status: str
    running: str | None  # the side whose time goes, when running
    flagged: tuple[str, ...] = ()
    resumes_by_itself: bool = False

    def left(self, side: str) -> float:
        return self.white if side == "white" else self.black

    def with_left(self, side: str, seconds: float) -> tuple[float, float]:
        """Both clocks with ``side``'s set to ``seconds`` (never below zero)."""
        seconds = max(0.0, seconds)
        return (seconds, self.black) if side == "white" else (self.white, seconds)

    def after_move(self, spent: float) -> tuple[float, float]:
        """Both clocks after the side to move moved, having thought ``spent`` seconds
        (plus the increment, unless its flag has fallen: then it stays at zero)."""
        side = self.running
        if side is None:
            return self.white, self.black
        left = self.left(side) - spent
        if side in self.flagged or left <= 0:
            return self.with_left(side, 0.0)
        return self.with_left(side, left + self.control.increment)


def read_clock(game: Game) -> ClockReading | None:
    """The clock of a recorded game (see the module doc); ``None`` when the game has
    no time control."""
    control = time_control_of(game)
    if control is None:
        return None
    status = "waiting"
    auto = False
    flagged: set[str] = set()
    for event in game.events:
        if event.kind in ("clock-start", "clock-resume"):
            status, auto = "running", False
        elif event.kind == "clock-pause" and status != "waiting":
            status, auto = "paused", False
        elif event.kind in AUTO_RESUMED and status == "running":
            status, auto = "paused", True
        elif event.kind == "flag":
            flagged.add(side_to_move_at(game, event.ply))
    white, black = _last_clocks(game, control)
    if game.result is not None:
        status, auto = "stopped", False
    running = side_to_move_at(game, game.ply) if status == "running" else None
    return ClockReading(control, white, black, status, running,
                        tuple(sorted(flagged)), auto)


def _last_clocks(game: Game, control: TimeControl) -> tuple[float, float]:
    """Both clocks as last recorded at the current ply: a clock event after the last
    move (and after the last takeback), else the last move's clocks, else full time."""
    events = list(game.events)
    cut = max((i for i, e in enumerate(events) if e.kind in TAKEBACK_KINDS), default=-1)
    for event in reversed(events[cut + 1:]):
        if event.clock is not None and event.ply == game.ply:
            return event.clock
    if game.moves and game.moves[-1].clock is not None:
        return game.moves[-1].clock
    return control.base, control.base
