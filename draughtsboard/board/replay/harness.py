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
from ..tracker import FlagEvent, Mode, Tracker
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
    mismatches: int = 0
    false_alarms: int = 0
    notes: list[str] = field(default_factory=list)
    timings: list[float] = field(default_factory=list)  # tracker seconds per snapshot
    latencies: list[float] = field(default_factory=list)  # move event - completing change
    noise: NoiseStats = field(default_factory=NoiseStats)  # what the noisy hand did

    def line(self) -> str:
        status = "ok" if not self.mismatches and not self.false_alarms else "FAIL"
        extra = f" ({'; '.join(self.notes[:3])})" if self.notes else ""
        return (f"{self.name}: {status} plies {self.plies} recorded {self.recorded} "
                f"mismatches {self.mismatches} false alarms {self.false_alarms}{extra}")


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
                noise_seed: int | None = None, mode: Mode = Mode.TOURNAMENT) -> GameReport:
    """Play ``moves`` physically and report what the tracker recorded."""
    report = GameReport(name, len(moves))
    board = open_board(start)
    try:
        _run(report, board, start, moves, noise_seed, mode)
    finally:
        board.close()
    return report


def _run(report: GameReport, board: VirtualBoard, start: Position, moves: list[Move],
         noise_seed: int | None, mode: Mode) -> None:
    rng = random.Random(noise_seed) if noise_seed is not None else None
    hand = ScriptedHand(rng)
    report.noise = hand.stats
    tracker = Tracker(start, mode, check_start=True)
    period = board.scan_period
    now = 0.0
    recorded: list[Move] = []
    feed_time = time.perf_counter

    def scan_until(t_end: float, settle_after: float) -> None:
        nonlocal now
        while now < t_end or now < settle_after:
            now += period
            for snapshot in board.scan(now):
                started = feed_time()
                events = tracker.feed(snapshot)
                report.timings.append(feed_time() - started)
                for event in events:
                    if event.kind == "move":
                        if getattr(event, "replaces", None) and recorded:
                            recorded.pop()
                        recorded.append(Move(event.path, event.captures))
                        report.latencies.append(now - snapshot.timestamp)
                    elif event.kind == "takeback" and recorded:
                        recorded.pop()
                    elif isinstance(event, FlagEvent):
                        report.false_alarms += 1
                        report.notes.append(f"{event.kind} at ply {len(recorded) + 1}: "
                                            f"{event.description}")

    scan_until(now + 10 * period, 0.0)  # the start position is checked first
    position = start
    t = now + 0.2
    for move in moves:
        actions, done = hand.play(position, move, t)
        for action in actions:
            board.schedule(action.at, action.square, action.closed)
        times = sorted({action.at for action in actions})
        for at in times:
            if at > now:
                # Jump over idle time: nothing changes on the board until ``at``.
                now = max(now, at - period)
            scan_until(at, at + 6 * period)
        scan_until(done, done)
        position = position.play(move)
        t = max(done, now) + 0.05
    scan_until(now + 10 * period, 0.0)

    report.recorded = len(recorded)
    mismatches = sum(1 for a, b in zip(recorded, moves, strict=False) if a != b)
    mismatches += abs(len(recorded) - len(moves))
    report.mismatches = mismatches
    if mismatches:
        first = next((i for i, (a, b) in enumerate(zip(recorded, moves, strict=False))
                      if a != b), min(len(recorded), len(moves)))
        report.notes.append(f"first difference at ply {first + 1}")


def percentile(values: list[float], fraction: float) -> float:
    """The value at ``fraction`` (0-1) of the sorted values (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))
    return ordered[index]
