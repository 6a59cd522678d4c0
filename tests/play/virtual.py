"""A game in play driven by the test, in virtual time: the test is the controller thread.

`VirtualPlay` builds a `GameInPlay` as `draughtsboard play` does (the opening chosen from
the data directory, a recorder, an LED sink, the arbiter's desk, a coach when asked for),
keeps the board's switches as a mask that the test's hands change, and feeds the game one
snapshot per hand action, the virtual clock a step further each time. The coach's
searches run when the test settles (after every step), most urgent first as the analyst
thread would run them, and their answers come back as they would through the session's
queue. No thread and no sleep: every assertion reads the state the test made.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from collections.abc import Callable
from typing import Any

from draughtsboard.board.ports import LedFrame, Snapshot
from draughtsboard.opponents import Opponent, open_opponent, parse_opponent
from draughtsboard.play import ArbiterDesk, GameInPlay, Opening, choose_opening
from draughtsboard.play.analyst import Job
from draughtsboard.play.coach import Coach
from draughtsboard.play.opponent_seat import OpponentSeat
from draughtsboard.play.puzzles import PuzzleRunner
from draughtsboard.recording import Recorder

STEP = 0.05  # virtual seconds between two snapshots
WALL_START = 1_700_000_000.0  # the wall clock when the virtual clock reads 0
FAST_SEARCHES = {"hint_depth": 4, "hint_nodes": 20_000, "blunder_nodes": 50_000}


class RememberedLeds:
    """An LED sink that keeps every frame it was shown."""

    def __init__(self, square_count: int) -> None:
        self.square_count = square_count
        self.frames: list[LedFrame] = []

    def show(self, frame: LedFrame) -> None:
        self.frames.append(frame)

    def close(self) -> None:
        pass


class DeferredAnalyst:
    """The coach's jobs, held until the test settles, then run most urgent first (the
    analyst thread's order); a job gone stale is dropped, as the thread drops it. While
    ``paused`` (a search still under way) no job runs."""

    def __init__(self) -> None:
        self.jobs: list[tuple[tuple, int, Job]] = []
        self.paused = False
        self._order = itertools.count()

    def submit(self, job: Job) -> None:
        self.jobs.append((job.priority, next(self._order), job))

    def run_one(self) -> bool:
        """Run the most urgent job; whether there was one."""
        if not self.jobs or self.paused:
            return False
        self.jobs.sort(key=lambda entry: entry[:2])
        _, _, job = self.jobs.pop(0)
        if not job.stale():
            answer = job.work(job.stale)
            if not job.stale():
                job.done(answer)
        return True

    def close(self, timeout: float = 5.0) -> None:
        self.jobs.clear()


class VirtualPlay:
    """One game in play in virtual time (see the module doc). ``coach``: the coach's
    options (``{}`` for the defaults of these tests), ``None`` for no coach; ``setup``:
    whether the board shows the expected position at the start."""

    def __init__(self, data, variant: str = "russian", *, fen: str | None = None,
                 mode: str | None = None, tags: dict[str, str] | None = None,
                 resume: bool = True, opening: Opening | None = None,
                 irregular: str | None = None, irregular_leds: bool = True,
                 coach: dict[str, Any] | None = None, puzzles: PuzzleRunner | None = None,
                 switches: int | None = None, opponent: str | Opponent | None = None,
                 opponent_side: str = "black", move_seconds: float = 5.0,
                 thinker: DeferredAnalyst | None = None) -> None:
        self.now = 0.0
        self.recorder = Recorder(data, sync=False)
        if opening is None:
            opening = choose_opening(self.recorder, variant=variant, start_fen=fen,
                                     resume=resume)
        self.leds = RememberedLeds(opening.variant.geometry.square_count)
        self.game = GameInPlay(self.recorder, self.leds, opening, mode=mode, tags=tags,
                               irregular=irregular, irregular_leds=irregular_leds,
                               clock=self.clock, wall=self.wall)
        self.arbiter = ArbiterDesk(self.game, self.call)
        self.posted: deque[Callable[[], Any]] = deque()
        self.analyst = DeferredAnalyst()
        self.thinker = thinker or DeferredAnalyst()  # the opponent's worker
        self.seat: OpponentSeat | None = None
        if opponent is not None:
            spec = parse_opponent(opponent if isinstance(opponent, str) else "engine")
            if isinstance(opponent, str):
                opponent = open_opponent(spec, opening.variant, seed="virtual")
            self.seat = OpponentSeat(opponent, spec, opponent_side == "white",
                                     post=self.post, clock=self.clock, runner=self.thinker,
                                     move_seconds=move_seconds)
            self.game.attach_opponent(self.seat)
        self.coach: Coach | None = None
        if coach is not None or puzzles is not None:
            self.coach = Coach(self.game, post=self.post, analyst=self.analyst,
                               puzzles=puzzles, **{**FAST_SEARCHES, **(coach or {})})
            self.game.attach(self.coach)
        self.switches = opening.expected_position.occupancy() if switches is None \
            else switches
        self.game.see(Snapshot(self.switches, self.now))
        self.game.open()
        self.settle()
        self.feed()  # the first scan

    # -- time and the driver's queue ---------------------------------------------------------

    def clock(self) -> float:
        return self.now

    def wall(self) -> float:
        return WALL_START + self.now

    def post(self, action: Callable[[], Any]) -> None:
        """An answer for the controller thread (the coach's), run when the test settles."""
        self.posted.append(action)

    def settle(self) -> None:
        """Run what waits: the answers posted back, then the analyst's and the
        opponent's jobs, until none is left."""
        while True:
            while self.posted:
                self.posted.popleft()()
            if not self.analyst.run_one() and not self.thinker.run_one():
                if not self.posted:
                    return

    def call(self, action: Callable[[], Any]) -> Any:
        """What `PlaySession.call` does: run ``action`` on the driver; its answer."""
        try:
            return action()
        finally:
            self.settle()

    def feed(self) -> None:
        """The next scan: the switches as they are now (held records are tried again
        first, as the controller thread does)."""
        self.now += STEP
        self.game.retry_held()
        self.game.feed(Snapshot(self.switches, self.now))
        self.settle()

    def wait(self, seconds: float) -> dict:
        """Time passes without a change on the board; the view afterwards."""
        self.now += seconds
        self.game.retry_held()
        self.game.tick(self.now)
        self.settle()
        return self.view()

    # -- the hands ------------------------------------------------------------------------------

    def set_switch(self, square: int, closed: bool) -> None:
        bit = 1 << (square - 1)
        self.switches = self.switches | bit if closed else self.switches & ~bit
        self.feed()

    def hand(self, *actions: tuple[str, int | None]) -> dict:
        """``("lift", 22)``, ``("place", 18)``, ``("toggle", 5)``, ``("setup", None)``:
        each one scan; the view afterwards."""
        for action, square in actions:
            if action == "setup":
                self.switches = self.game.tracker.position.occupancy()
                self.feed()
            elif action == "lift":
                self.set_switch(square, False)
            elif action == "place":
                self.set_switch(square, True)
            elif action == "toggle":
                self.set_switch(square, not self.switches >> (square - 1) & 1)
            else:
                raise ValueError(f"unknown hand action {action!r}")
        return self.view()

    def move(self, start: int, end: int, *captured: int) -> dict:
        """A move by hand: the piece lifted and put down, the captured pieces taken off
        last; the view afterwards."""
        return self.hand(("lift", start), ("place", end), *[("lift", c) for c in captured])

    def carry_out(self, path, captures=()) -> dict:
        """A move by hand along ``path``, resting on each landing, the captured pieces
        taken off last (the opponent's pending move: ``carry_out(**pending)``-like)."""
        self.set_switch(path[0], False)
        for index, square in enumerate(path[1:], start=1):
            self.set_switch(square, True)
            if index < len(path) - 1:
                self.now += 0.15
                self.set_switch(square, False)
        for square in captures:
            self.set_switch(square, False)
        return self.view()

    def carry_out_pending(self) -> dict:
        """The opponent's proposed move, carried out as the page shows it."""
        pending = self.view()["opponent"]["pending"]
        assert pending is not None, "the opponent proposes no move"
        return self.carry_out(pending["path"], pending["captures"])

    # -- what it shows --------------------------------------------------------------------------

    def view(self) -> dict:
        """The page's view, as the page receives it (JSON)."""
        return json.loads(json.dumps(self.game.view(backend="sim", switches=self.switches)))

    def export_pdn(self) -> str:
        return self.recorder.export_pdn(self.game.game_id)

    def close(self) -> None:
        self.game.close()
        self.recorder.close()
