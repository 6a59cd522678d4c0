"""Games with irregularities injected: players who sometimes make an irregular move.

With probability ``rate`` before a ply, the player to move makes an irregular move of a
random kind (FMJD Annex 1, 5.4, those the sensors can see: a piece moved irregularly, a
piece of the side not on turn, a quiet move when a capture is required, pieces removed
without reason, own pieces removed, the wrong piece taken off, a multiple capture stopped,
a captured piece left on the board, a move taken back). The opponent then demands a
restore (the board is put back and the planned move is played) or, where the policy lets
it stand, plays on from the irregular position. The game is random and made as it goes:
after an irregular move stands it goes on from the position that move made.

What is checked: every irregularity flagged; every one that stood recorded (with its
comment) in its place; every restored one absent from the moves; no flag outside an
irregularity; no stall.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ..rules.position import Move, Position
from ..tracker import FlagEvent, Mode
from ..tracker.irregular import moved
from ..tracker.move_table import MoveTable
from ..tracker.policy import IrregularityPolicy
from .hand import SwitchAction
from .harness import GameReplay, GameReport, OpenBoard

KINDS = ("irregular_move", "not_on_turn", "capture_required", "own_removed",
         "without_reason", "not_jumped", "fewer_captured", "not_removed", "takeback")
# Kinds the board sees only once the opponent starts to play on.
SEEN_WHEN_PLAYED_ON = ("fewer_captured", "not_removed")


@dataclass
class IrregularStats:
    """What the injected irregularities became."""

    injected: Counter = field(default_factory=Counter)  # by kind
    flagged: int = 0
    unflagged: list[str] = field(default_factory=list)
    stood: int = 0
    stood_with_comment: int = 0
    restored: int = 0

    def merge(self, other: IrregularStats) -> None:
        self.injected.update(other.injected)
        self.flagged += other.flagged
        self.unflagged += other.unflagged
        self.stood += other.stood
        self.stood_with_comment += other.stood_with_comment
        self.restored += other.restored


@dataclass(frozen=True)
class _Attempt:
    kind: str
    steps: tuple[tuple[int, bool], ...]  # (square, closed) in order
    after: Position  # the position it makes (the opponent to move)
    path: tuple[int, ...]
    # captured pieces the move left on the board: the opponent does not play them, nor
    # lift one by the way (whose hand took a piece off, the switches cannot tell: lifting
    # one finishes the capture)
    left_on: tuple[int, ...] = ()
    # the board it makes is a legal move under way (a king put down on the way of its
    # capture): seen only once the opponent starts to play on, as those kinds are
    under_way: bool = False

    @property
    def seen_when_played_on(self) -> bool:
        return self.under_way or self.kind in SEEN_WHEN_PLAYED_ON


def play_irregular_game(name: str, start: Position, open_board: OpenBoard, *, seed: int,
                        rate: float, policy: IrregularityPolicy,
                        noise_seed: int | None = None, max_plies: int = 150,
                        mode: Mode = Mode.TOURNAMENT,
                        wait_until_ready: float = 0.0) -> tuple[GameReport, IrregularStats]:
    """One random game with irregularities injected (see the module doc);
    ``wait_until_ready`` as in `harness.replay_game`."""
    report = GameReport(name, 0)
    stats = IrregularStats()
    board = open_board(start)
    try:
        replay = _IrregularReplay(report, board, start, noise_seed, mode, policy)
        replay.play(random.Random(seed), rate, max_plies, stats, wait_until_ready)
    finally:
        board.close()
    return report, stats


class _IrregularReplay(GameReplay):
    """The replay of `harness`, with flags expected while an irregularity is open."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.expecting_flag = False
        self.board_occupancy = self.tracker.position.occupancy()  # what the hand has made
        self.flags_seen = 0
        self.takebacks_with_comment = 0
        self.log: list[tuple] = []  # what the tracker recorded, as ("move", Move) and
        # ("irregular", path, comment) entries

    def handle(self, events, at: float) -> None:
        for event in events:
            if event.kind == "move":
                if event.replaces and self.log:
                    self.log.pop()
                self.log.append(("move", Move(event.path, event.captures)))
            elif event.kind == "irregular_move":
                self.log.append(("irregular", event.path, event.comment))
            elif event.kind == "takeback" and self.log:
                self.log.pop()
                self.takebacks_with_comment += "FMJD Annex 1, 5.4" in event.irregularity
            elif isinstance(event, FlagEvent):
                if self.expecting_flag:
                    self.flags_seen += 1
                else:
                    self.report.false_alarms += 1
                    self.report.notes.append(f"{event.kind} at ply {len(self.log) + 1}: "
                                             f"{event.description}")

    def steps(self, steps, gap: float = 0.3) -> None:
        t = self.now + gap
        actions = []
        for square, closed in steps:
            actions.append(SwitchAction(t, square, closed))
            t += gap
        self.perform(actions, t)

    def restore(self, target: int) -> None:
        """Put the board back to the occupancy ``target``: pieces off first, then on."""
        shown = self.board_occupancy
        off = [(s, False) for s in _squares(shown & ~target)]
        on = [(s, True) for s in _squares(target & ~shown)]
        self.steps(off + on)

    def play_move(self, position: Position, move: Move,
                  untouchable: tuple[int, ...] = ()) -> None:
        actions, done = self.hand.play(position, move, self.now + 0.2, frozenset(untouchable))
        self.perform(actions, done)
        if self.tracker.state.value == "ambiguous":
            self.answer_ambiguity(position, move)

    def play(self, rng: random.Random, rate: float, max_plies: int,
             stats: IrregularStats, wait_until_ready: float = 0.0) -> None:
        tracker = self.tracker
        self.wait_for_the_start(wait_until_ready)
        expected: list[tuple] = []
        position = tracker.position
        previous: tuple[Position, Move] | None = None
        self.board_occupancy = position.occupancy()
        for _ in range(max_plies):
            legal = position.legal_moves()
            if not legal:
                break
            attempt = _attempt(position, previous, rng) if rng.random() < rate else None
            if attempt is not None:
                position, previous = self.irregular(attempt, position, previous, expected,
                                                    rng, stats)
                if not position.legal_moves():
                    break
                legal = position.legal_moves()
            move = rng.choice(legal)
            self.play_move(position, move)
            self.board_occupancy = position.play(move).occupancy()
            expected.append(("move", move))
            previous = (position, move)
            position = position.play(move)
        self.scan_until(self.now + 10 * self.period)
        self.wait_for_the_board(wait_until_ready)
        self.report.plies = len(expected)
        self.report.recorded = len(self.log)
        got = [entry[:2] for entry in self.log]
        want = [entry[:2] for entry in expected]
        self.report.compare(got, want)
        if len(got) < len(want) and tracker.state.value not in ("ready", "game_over"):
            self.report.stalled_at = len(got) + 1
        stats.stood_with_comment += self.takebacks_with_comment + sum(
            1 for entry in self.log if entry[0] == "irregular"
            and "FMJD Annex 1, 5.4" in entry[2])

    def irregular(self, attempt: _Attempt, position: Position, previous, expected: list,
                  rng: random.Random, stats: IrregularStats):
        """Make the irregular move; the opponent demands a restore or plays on. The
        position and the previous move after it."""
        tracker = self.tracker
        replies = [m for m in attempt.after.legal_moves()
                   if (attempt.kind != "takeback" or previous is None or m != previous[1])
                   and not set(m.path) & set(attempt.left_on)]
        if attempt.seen_when_played_on and not replies:
            return position, previous  # nobody would ever see it: not an irregularity yet
        stats.injected[attempt.kind] += 1
        self.expecting_flag = True
        self.flags_seen = 0
        self.steps(attempt.steps)
        self.board_occupancy = attempt.after.occupancy()
        play_on = policy_lets_stand(tracker) and replies and rng.random() < 0.5
        if attempt.seen_when_played_on and not play_on and replies:
            # the opponent starts his reply: he lifts his piece and holds it, which shows
            # the move unfinished (it is flagged once the lift lasts); then he objects
            first = rng.choice(replies)
            self.steps([(first.start, False)])
            self.board_occupancy &= ~(1 << (first.start - 1))
            self.scan_until(self.now + tracker.hold_timeout + 0.5)
        if not play_on and not attempt.steps[-1][1]:
            # it ended with a piece taken off: the board flags it once the piece stays
            # off (it could have been put back); the opponent waits, then objects
            self.scan_until(self.now + tracker.hold_timeout + 0.5)
        if play_on:
            reply = rng.choice(replies)
            self.play_move(attempt.after, reply, attempt.left_on)
            after = attempt.after.play(reply)
            self.board_occupancy = after.occupancy()
            if attempt.kind == "takeback":
                expected.pop()
                stats.stood += 1
            else:
                expected.append(("irregular", attempt.path))
                stats.stood += 1
            expected.append(("move", reply))
            result = after, (attempt.after, reply)
        else:
            self.restore(position.occupancy())
            self.board_occupancy = position.occupancy()
            stats.restored += 1
            result = position, previous
        self.scan_until(self.now + 0.2)
        if self.flags_seen:
            stats.flagged += 1
        else:
            stats.unflagged.append(f"{self.report.name}: {attempt.kind} at entry "
                                   f"{len(expected)}")
        self.expecting_flag = False
        return result


def policy_lets_stand(tracker) -> bool:
    return tracker.policy.stands_when_played_on


def _squares(mask: int) -> list[int]:
    out, n = [], 1
    while mask:
        if mask & 1:
            out.append(n)
        mask >>= 1
        n += 1
    return out


def _attempt(position: Position, previous, rng: random.Random) -> _Attempt | None:
    """An irregular move of a random kind from ``position`` (None when that kind cannot
    be made here)."""
    kind = rng.choice(KINDS)
    return _MAKERS[kind](position, previous, rng)


def _neighbours(position: Position, square: int, distance: int = 1) -> list[int]:
    geometry = position.variant.geometry
    file, rank = geometry.coords(square)
    out = []
    for df in (-distance, distance):
        for dr in (-distance, distance):
            try:
                out.append(geometry.number_at(file + df, rank + dr))
            except ValueError:
                continue
    return out


def _empty(position: Position, square: int) -> bool:
    return position.piece_at(square) is None and not (position.occupancy() >> (square - 1)) & 1


def _side(position: Position, white: bool) -> list[int]:
    colour = "w" if white else "b"
    return [s for s in position.variant.geometry.numbers
            if (position.piece_at(s) or " ").lower() == colour]


def _make_irregular_move(position, previous, rng):
    legal_ends = {(m.start, m.end) for m in position.legal_moves()}
    options = []
    for start in _side(position, position.white_to_move):
        for end in _neighbours(position, start, 2):
            middle = _neighbours(position, start, 1)
            between = [s for s in middle if s in _neighbours(position, end, 1)]
            if _empty(position, end) and (start, end) not in legal_ends and \
                    all(_empty(position, s) for s in between):
                options.append((start, end))
    if not options:
        return None
    start, end = rng.choice(options)
    # a square on the way of a legal capture from ``start`` (a king's, going on past it):
    # to the switches the capture is still under way there
    under_way = bool(MoveTable(position).consistent(1 << (start - 1), 1 << (end - 1)))
    return _Attempt("irregular_move", ((start, False), (end, True)),
                    moved(position, start, end, ()), (start, end),
                    _capturable(position, start, ()) if under_way else (), under_way)


def _make_not_on_turn(position, previous, rng):
    # not the piece that just moved: moved back it is a takeback, moved on along its line
    # (within the window) an amendment of that move
    last = previous[1].end if previous is not None else None
    options = [(s, e) for s in _side(position, not position.white_to_move) if s != last
               for e in _neighbours(position, s) if _empty(position, e)]
    if not options:
        return None
    start, end = rng.choice(options)
    return _Attempt("not_on_turn", ((start, False), (end, True)),
                    moved(position, start, end, ()), (start, end))


def _make_capture_required(position, previous, rng):
    legal = position.legal_moves()
    if not legal or not legal[0].captures:
        return None
    capturing = {m.start for m in legal}
    forward = 1 if position.white_to_move else -1
    geometry = position.variant.geometry
    options = []
    for start in _side(position, position.white_to_move):
        if start in capturing:
            continue
        for end in _neighbours(position, start):
            if _empty(position, end) and \
                    geometry.coords(end)[1] - geometry.coords(start)[1] == forward:
                options.append((start, end))
    if not options:
        return None
    start, end = rng.choice(options)
    return _Attempt("capture_required", ((start, False), (end, True)),
                    moved(position, start, end, ()), (start, end))


def _quiet(position):
    return [m for m in position.legal_moves() if not m.captures]


def _make_removed(kind, own):
    def make(position, previous, rng):
        quiet = _quiet(position)
        if not quiet or position.variant.holds_columns:
            return None
        move = rng.choice(quiet)
        pieces = [s for s in _side(position, position.white_to_move == own)
                  if s != move.start and s not in _neighbours(position, move.end)]
        if not pieces:
            return None
        gone = rng.choice(pieces)
        return _Attempt(kind, ((gone, False), (move.start, False), (move.end, True)),
                        moved(position, move.start, move.end, (gone,)), move.path)
    return make


def _single_captures(position):
    if position.variant.holds_columns:
        return []
    return [m for m in position.legal_moves() if m.captures]


def _make_not_jumped(position, previous, rng):
    captures = [m for m in _single_captures(position) if len(m.captures) == 1]
    if not captures:
        return None
    move = rng.choice(captures)
    others = [s for s in _side(position, not position.white_to_move)
              if s not in move.captures and s not in _neighbours(position, move.end)]
    if not others:
        return None
    wrong = rng.choice(others)
    steps = [(move.start, False), (move.end, True), (wrong, False)]
    return _Attempt("not_jumped", tuple(steps),
                    moved(position, move.start, move.end, (wrong,)), (move.start, move.end))


def _make_fewer_captured(position, previous, rng):
    captures = [m for m in _single_captures(position) if len(m.captures) >= 2]
    if not captures:
        return None
    move = rng.choice(captures)
    stop, first = move.path[1], move.captures[0]
    steps = [(move.start, False), (stop, True), (first, False)]
    return _Attempt("fewer_captured", tuple(steps),
                    moved(position, move.start, stop, (first,)), (move.start, stop),
                    _capturable(position, move.start, (first,)))


def _capturable(position, start, taken) -> tuple[int, ...]:
    """Pieces a capture from ``start`` could still take: lifting one of them would look
    like the capture going on."""
    out = set()
    for move in position.legal_moves():
        if move.start == start:
            out.update(move.captures)
    return tuple(sorted(out - set(taken)))


def _make_not_removed(position, previous, rng):
    captures = _single_captures(position)
    if not captures:
        return None
    move = rng.choice(captures)
    taken = move.captures[:-1]
    steps = [(move.start, False), (move.end, True)] + [(s, False) for s in taken]
    return _Attempt("not_removed", tuple(steps),
                    moved(position, move.start, move.end, taken), (move.start, move.end),
                    _capturable(position, move.start, taken))


def _make_takeback(position, previous, rng):
    if previous is None:
        return None
    before, move = previous
    if position.variant.holds_columns and move.captures:
        return None
    after_occupancy = position.occupancy()
    before_occupancy = before.occupancy()
    steps = [(s, False) for s in _squares(after_occupancy & ~before_occupancy)]
    steps += [(s, True) for s in _squares(before_occupancy & ~after_occupancy)]
    if not steps:
        return None
    return _Attempt("takeback", tuple(steps), before, ())


_MAKERS = {
    "irregular_move": _make_irregular_move,
    "not_on_turn": _make_not_on_turn,
    "capture_required": _make_capture_required,
    "own_removed": _make_removed("own_removed", own=True),
    "without_reason": _make_removed("without_reason", own=False),
    "not_jumped": _make_not_jumped,
    "fewer_captured": _make_fewer_captured,
    "not_removed": _make_not_removed,
    "takeback": _make_takeback,
}
