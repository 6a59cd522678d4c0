"""The replay harness: games played by a scripted hand through the real drivers and tracker.

For each game a `hand_script.Hand` makes every move physically on a simulated board; the
real reed-matrix driver scans it in virtual time and the real tracker turns the debounced
snapshots into moves, which are compared with the moves played. The board itself is
injected (``open_board``): this module stays free of hardware imports, and the command
line passes the simulated board of `draughtsboard.hardware` (or of the firmware emulator).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from ..ports import Snapshot
from ..rules.position import Move, Position
from ..tracker import FlagEvent, Mode, State, Tracker
from ..tracker.policy import IrregularityPolicy, policy_for
from .hand import NoiseStats, ScriptedHand


class VirtualBoard(Protocol):
    """What the harness needs of a simulated board: switches to set, a scan in virtual time
    and the snapshots it publishes."""

    scan_period: float

    def set_occupied(self, squares: Iterable[int]) -> None: ...

    def schedule(self, at: float, square: int, closed: bool) -> None: ...

    def scan(self, now: float) -> list[Snapshot]: ...

    def close(self) -> None: ...


OpenBoard = Callable[[Position], VirtualBoard]


@dataclass
class GameReport:
    """What the harness saw of one game: plies played and recorded, mismatches, false alarms,
    the tracker's time per snapshot and the hand's noise."""
    name: str
    plies: int
    recorded: int = 0
    mismatches: int = 0  # wrong + missing
    wrong: int = 0  # recorded moves that differ from the one played there, or extra ones
    missing: int = 0  # plies played and never recorded (after a stall, or at the end)
    false_alarms: int = 0
    stalled_at: int | None = None  # the ply from which nothing more was recorded
    asks: int = 0  # ambiguities the hand had to resolve by a touch
    moves: list[Move] = field(default_factory=list)  # what the tracker recorded
    notes: list[str] = field(default_factory=list)
    timings: list[float] = field(default_factory=list)  # tracker seconds per snapshot
    latencies: list[float] = field(default_factory=list)  # move event - completing change
    noise: NoiseStats = field(default_factory=NoiseStats)  # what the noisy hand did

    @property
    def stalls(self) -> int:
        return 0 if self.stalled_at is None else 1

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.false_alarms and not self.stalls

    def line(self) -> str:
        status = "ok" if self.ok else "FAIL"
        stall = f" STALLED at ply {self.stalled_at}" if self.stalled_at is not None else ""
        asks = f" asks {self.asks}" if self.asks else ""
        extra = f" ({'; '.join(self.notes[:3])})" if self.notes else ""
        wrong = f" WRONG {self.wrong}" if self.wrong else ""
        return (f"{self.name}: {status} plies {self.plies} recorded {self.recorded} "
                f"mismatches {self.mismatches}{wrong} false alarms {self.false_alarms}"
                f"{asks}{stall}{extra}")

    def compare(self, recorded: list, played: list) -> None:
        """Set the mismatches from the entries recorded and played, in order: a recorded
        entry that differs from the one played at its place (or one too many) is wrong,
        a played one never recorded is missing; the first difference goes to the notes."""
        self.wrong = sum(1 for a, b in zip(recorded, played, strict=False) if a != b) + \
            max(0, len(recorded) - len(played))
        self.missing = max(0, len(played) - len(recorded))
        self.mismatches = self.wrong + self.missing
        if self.wrong:
            first = next((i for i, (a, b) in enumerate(zip(recorded, played, strict=False))
                          if a != b), min(len(recorded), len(played)))
            self.notes.append(f"first wrong entry at {first + 1}")


def random_game(start: Position, rng: random.Random, max_plies: int = 150) -> list[Move]:
    """A seeded random legal game from ``start`` (until no move or ``max_plies``)."""
    moves = []
    position = start
    for _ in range(max_plies):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        position = position.play(move)
    return moves


def replay_game(name: str, start: Position, moves: list[Move], open_board: OpenBoard, *,
                noise_seed: int | None = None, mode: Mode = Mode.TOURNAMENT,
                policy: IrregularityPolicy | None = None,
                wait_until_ready: float = 0.0) -> GameReport:
    """Play ``moves`` physically and report what the tracker recorded.

    ``wait_until_ready``: virtual seconds the hand waits, at most, for the tracker to see
    the start position before it begins (a board behind a serial link needs the link up
    first); 0 checks the start position for a fixed short while only."""
    report = GameReport(name, len(moves))
    board = open_board(start)
    try:
        replay = GameReplay(report, board, start, noise_seed, mode,
                         policy or policy_for(start.variant.name))
        replay.run(moves, wait_until_ready)
    finally:
        board.close()
    return report


class GameReplay:
    """One game on one board: the hand's actions scheduled, the board scanned, the
    tracker fed and ticked, its events compared with the moves played."""

    def __init__(self, report: GameReport, board: VirtualBoard, start: Position,
                 noise_seed: int | None, mode: Mode, policy: IrregularityPolicy) -> None:
        self.report = report
        self.board = board
        self.rng = random.Random(noise_seed) if noise_seed is not None else None
        self.hand = ScriptedHand(self.rng)
        report.noise = self.hand.stats
        self.tracker = Tracker(start, mode, check_start=True, policy=policy)
        self.period = board.scan_period
        self.now = 0.0
        self.recorded: list[Move] = []
        self.progress: list[int] = []  # moves recorded after each ply played

    def scan_until(self, t_end: float, settle_after: float = 0.0) -> None:
        report, tracker, feed_time = self.report, self.tracker, time.perf_counter
        while self.now < t_end or self.now < settle_after:
            self.now += self.period
            snapshots = self.board.scan(self.now)
            if not snapshots:
                self.handle(tracker.tick(self.now), self.now)
            for snapshot in snapshots:
                started = feed_time()
                events = tracker.feed(snapshot)
                report.timings.append(feed_time() - started)
                self.handle(events, snapshot.timestamp)

    def handle(self, events, at: float) -> None:
        recorded, report = self.recorded, self.report
        for event in events:
            if event.kind == "move":
                if getattr(event, "replaces", None) and recorded:
                    recorded.pop()
                recorded.append(Move(event.path, event.captures))
                report.latencies.append(self.now - at)
            elif event.kind == "irregular_move":  # recorded as played: never one of these
                recorded.append(Move(event.path, event.removed))
            elif event.kind == "takeback" and recorded:
                recorded.pop()
            elif isinstance(event, FlagEvent):
                report.false_alarms += 1
                report.notes.append(f"{event.kind} at ply {len(recorded) + 1}: "
                                    f"{event.description}")

    def perform(self, actions, done: float) -> None:
        """Schedule the hand's switch actions and scan through them (idle time skipped,
        the tracker told that time passed)."""
        board = self.board
        for action in actions:
            board.schedule(action.at, action.square, action.closed)
        period = self.period
        for at in sorted({action.at for action in actions}):
            if at - period > self.now:
                self.handle(self.tracker.tick(at - period), at - period)
                self.now = at - period  # nothing changes on the board until ``at``
            self.scan_until(at, at + 6 * period)
        self.scan_until(done, done)

    def answer_ambiguity(self, position: Position, move: Move) -> None:
        """The board blinks: touch the blinking square the move played lands on, as a
        player would; none of them (the hand cannot tell): leave it."""
        tracker = self.tracker
        blinking = tracker.intents.get("ambiguous", ())
        # a landing of its own; or, for a capture that went straight to its end, its start
        square = next((s for s in (*move.path[1:-1], move.start) if s in blinking), None)
        self.report.asks += 1
        if square is None:
            self.report.notes.append(f"ambiguity at ply {len(self.progress) + 1} "
                                     "the hand could not answer")
            return
        actions, done = self.hand.touch(move.end, square, self.now + 0.3)
        self.perform(actions, done)

    def run(self, moves: list[Move], wait_until_ready: float) -> None:
        tracker = self.tracker
        self.wait_for_the_start(wait_until_ready)
        position = tracker.position
        t = self.now + 0.2
        for move in moves:
            actions, done = self.hand.play(position, move, t)
            self.perform(actions, done)
            if tracker.state is State.AMBIGUOUS:
                self.answer_ambiguity(position, move)
            position = position.play(move)
            self.progress.append(len(self.recorded))
            t = max(done, self.now) + 0.05
        self.scan_until(self.now + 10 * self.period)
        self.wait_for_the_board(wait_until_ready)
        if tracker.state is State.AMBIGUOUS and moves:
            self.answer_ambiguity(position, moves[-1])
            self.scan_until(self.now + 10 * self.period)
        self.finish(moves)

    def wait_for_the_start(self, seconds: float) -> None:
        """The start position is checked first; a board behind a serial link shows it
        only once the link is up: wait for it up to ``seconds`` (0: a short while)."""
        self.scan_until(self.now + 10 * self.period)
        deadline = self.now + seconds
        while self.tracker.state is State.SETUP and self.now < deadline:
            self.scan_until(self.now + 0.05)

    def wait_for_the_board(self, seconds: float) -> None:
        """The hand is done, the board still shows a move under way: give it up to
        ``seconds`` to catch up, as players wait for the board to confirm the last move (a
        board behind a serial link shows a change whose snapshot was lost on the line
        only once the host has asked for it again). A board that is simply stuck stays
        stuck, and is counted as a stall."""
        deadline = self.now + seconds
        while self.tracker.state is State.MOVING and self.now < deadline:
            self.scan_until(self.now + 0.05)

    def finish(self, moves: list[Move]) -> None:
        report, recorded = self.report, self.recorded
        report.recorded = len(recorded)
        report.moves = list(recorded)
        if len(recorded) < len(moves):
            report.stalled_at = len(recorded) + 1
            report.notes.append(f"stopped recording at ply {len(recorded) + 1} "
                                f"(tracker {self.tracker.state.value})")
        report.compare(recorded, moves)


def percentile(values: list[float], fraction: float) -> float:
    """The value at ``fraction`` (0-1) of the sorted values (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))
    return ordered[index]
