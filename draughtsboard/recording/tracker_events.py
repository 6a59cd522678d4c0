"""What each tracker event becomes in a game's journal, and the queue that holds what
could not be written yet.

The tracker says what happened on the board (a move, a takeback, an illegal attempt, a
disturbed position, the end of the game); this module writes it through the `Recorder`
and says, in `LogEntry`s, what the arbiter's log should show: a `Message`, rendered in
each reader's language. A record keeps the English text PDN comments show, and the
message beside it (``"message"``: its JSON), so changing language never changes what is
recorded.

`HeldRecords` is what keeps the journal and the tracker in step when a write fails (a full
disk, an I/O error): the event is *held*, not dropped, and so is every event after it, in
order; each later call retries from the oldest, and when writing works again every held
move is recorded in the order it was played. Each event is cut into steps of one record
each (an amendment, the move, each note), so a retry never writes a record twice. The
caller shows "not recorded" while anything is held (`held_moves`).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from draughtsboard.board.game import reasons
from draughtsboard.board.game.records import Setter
from draughtsboard.board.message import Message
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.position import Move
from draughtsboard.board.tracker.events import (
    FlagEvent,
    GameOverEvent,
    IrregularMoveEvent,
    MoveEvent,
    TakebackEvent,
    TrackerEvent,
)

from .recorder import Recorder

log = logging.getLogger("draughtsboard.play")

RETRY_FIRST = 0.5  # seconds before the first retry of a held record
RETRY_MOST = 5.0  # the longest wait between two retries


@dataclass(frozen=True)
class LogEntry:
    """A line of the arbiter's log: ``kind`` (move notes, flags, results ...) and what it
    says (a `Message`; plain text only where a message cannot be had)."""

    kind: str
    text: Message | str


# The tracker's notes on a move (irregularities of procedure) and their messages.
MOVE_NOTES = {
    "captured pieces removed out of the order taken": "log.note.out_of_order",
    "captured pieces removed before the capturing piece was put down": "log.note.too_early",
    "ambiguous capture resolved by touch": "log.note.touch",
    "move seen complete only with the next one begun": "log.note.with_next",
}


def note_message(note: str) -> Message | str:
    """A move note's message (its text when it is not one the tracker writes)."""
    return Message.of(MOVE_NOTES[note]) if note in MOVE_NOTES else note


Step = Callable[[], list[LogEntry]]


def event_steps(recorder: Recorder, game_id: str, event: TrackerEvent, t_wall: float, *,
                clock: tuple[float, float] | None = None) -> list[Step]:
    """The records ``event`` becomes, one step each, to be run in order. Each step looks at
    the recorded game when it runs (not when it was made), so a step held behind others
    sees the game they left. After the result nothing more is recorded: a move played
    then is only logged. ``clock``: both clocks to record with a move, as they stood
    when it was played (the game clock's business)."""
    def finished() -> bool:
        return recorder.game(game_id).result is not None

    if isinstance(event, MoveEvent):
        steps: list[Step] = []
        if event.replaces:
            def amend() -> list[LogEntry]:
                if not finished():
                    recorder.record_takeback(game_id, event.t, t_wall,
                                             amended_by=event.notation)
                return []
            steps.append(amend)

        def move() -> list[LogEntry]:
            if finished():
                log.warning("move %s after the result: not recorded", event.notation)
                return [LogEntry("note", Message.of("log.after_result", move=event.notation))]
            played = recorder.record_move(game_id, Move(event.path, event.captures), event.t,
                                          t_wall, clock=clock)
            log.info("move %d: %s", recorder.game(game_id).ply, played.text)
            return []
        steps.append(move)
        for note in event.notes:
            steps.append(_note_step(recorder, game_id, event, note, t_wall, finished))
        return steps
    if isinstance(event, TakebackEvent):
        def takeback() -> list[LogEntry]:
            if finished():
                return []
            recorder.record_takeback(game_id, event.t, t_wall,
                                     irregularity=event.irregularity)
            if event.irregularity:
                return [LogEntry("irregularity", Message.of("log.takeback_stood",
                                                            move=event.notation))]
            return [LogEntry("takeback", Message.of("log.taken_back", move=event.notation))]
        return [takeback]
    if isinstance(event, IrregularMoveEvent):
        def irregular_move() -> list[LogEntry]:
            if finished():
                return []
            assert event.position is not None  # the tracker gives the position played on
            played = recorder.record_irregular_move(
                game_id, event.path, event.removed, event.notation, event.irregularity,
                event.comment, event.position.fen(), event.t, t_wall)
            log.info("irregular move %d: %s (%s)", recorder.game(game_id).ply, played.text,
                     event.comment)
            return [LogEntry("irregularity", Message.of(
                "log.irregular_stood", move=played.text,
                kind=Message.of("irregular." + event.irregularity)))]
        return [irregular_move]
    if isinstance(event, FlagEvent):
        def flag() -> list[LogEntry]:
            if finished():
                return []
            said = event.message or event.description
            if event.kind == "illegal":
                recorder.record_illegal(game_id, event.description, t_monotonic=event.t,
                                        t_wall=t_wall, message=event.message)
            else:
                recorder.record_irregularity(game_id, event.description, event.t, t_wall,
                                             message=event.message)
            log.info("%s: %s", event.kind, event.description)
            return [LogEntry(event.kind, said)]
        return [flag]
    if isinstance(event, GameOverEvent):
        def game_over() -> list[LogEntry]:
            game = recorder.game(game_id)
            outcome = game.outcome() if game.result is None else None
            if outcome is None:
                return []
            recorder.record_result(game_id, outcome[0], outcome[1], event.t, t_wall,
                                   by=Setter.RULES)
            log.info("game over: %s (%s)", outcome[0], reasons.words(outcome[1]))
            return [LogEntry("result", Message.of("log.result", result=outcome[0],
                                                  reason=reasons.message(outcome[1])))]
        return [game_over]
    return []


def _note_step(recorder: Recorder, game_id: str, event: MoveEvent, note: str, t_wall: float,
               finished: Callable[[], bool]) -> Step:
    def step() -> list[LogEntry]:
        if finished():
            return []
        game = recorder.game(game_id)
        played = game.moves[-1].text if game.moves else event.notation
        text = f"{played}: {note}"
        message = Message.of("log.move_note", move=played, note=note_message(note))
        recorder.record_irregularity(game_id, text, event.t, t_wall, message=message)
        return [LogEntry("irregularity", message)]
    return step


def record_tracker_event(recorder: Recorder, game_id: str, event: TrackerEvent,
                         t_wall: float, *,
                         clock: tuple[float, float] | None = None) -> list[LogEntry]:
    """Journal ``event`` now (no holding: the first error reaches the caller); the
    entries for the arbiter's log."""
    entries: list[LogEntry] = []
    for step in event_steps(recorder, game_id, event, t_wall, clock=clock):
        entries.extend(step())
    return entries


@dataclass
class _Held:
    event: TrackerEvent
    steps: deque[Step]


class HeldRecords:
    """Tracker events on their way to the journal, oldest first (see the module doc).

    `add` queues an event and tries to write everything held at once; `retry` tries again
    when the wait since the last failure is over (the wait doubles up to ``RETRY_MOST``).
    Both return the log entries of what was written, plus one ``error`` entry when a
    write first fails and one ``note`` when the held records are all written."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._queue: deque[_Held] = deque()
        self.error: str = ""  # the last write error while something is held
        self._next_try = 0.0
        self._wait = RETRY_FIRST
        self._failures = 0

    @property
    def held(self) -> bool:
        return bool(self._queue)

    @property
    def held_moves(self) -> list[MoveEvent]:
        return [h.event for h in self._queue if isinstance(h.event, MoveEvent)]

    def add(self, game_id: str, event: TrackerEvent, t_wall: float, now: float, *,
            clock: tuple[float, float] | None = None) -> list[LogEntry]:
        steps = event_steps(self.recorder, game_id, event, t_wall, clock=clock)
        if steps:
            self._queue.append(_Held(event, deque(steps)))
        if len(self._queue) > 1 and now < self._next_try:
            return []  # keep the order: the older held records go first
        return self._flush(now)

    def retry(self, now: float) -> list[LogEntry]:
        if not self._queue or now < self._next_try:
            return []
        return self._flush(now)

    def _flush(self, now: float) -> list[LogEntry]:
        entries: list[LogEntry] = []
        written = 0
        while self._queue:
            held = self._queue[0]
            step = held.steps[0]
            try:
                entries.extend(step())
            except OSError as error:  # a failed write, or a journal that refuses it
                return entries + self._failed(held.event, error, now)
            except DraughtsError as error:
                # The rules refuse it (cannot come from a held write): it will never fit,
                # so it is logged and dropped rather than blocking every later move.
                log.error("could not record %s: %s", held.event.kind, error)
                entries.append(LogEntry("error", Message.of(
                    "log.not_recordable", what=held.event.kind, error=str(error))))
            held.steps.popleft()
            if not held.steps:
                self._queue.popleft()
                written += isinstance(held.event, MoveEvent)
        if self._failures:
            log.warning("recording works again: %d held move(s) recorded in order", written)
            entries.append(LogEntry("note", Message.of("log.recording_again", count=written)
                                    if written else Message.of("log.recording_works")))
        self._failures = 0
        self._wait = RETRY_FIRST
        self.error = ""
        return entries

    def _failed(self, event: TrackerEvent, error: BaseException, now: float) -> list[LogEntry]:
        text = str(error) or type(error).__name__
        first = not self._failures or text != self.error
        self._failures += 1
        self.error = text
        self._next_try = now + self._wait
        self._wait = min(self._wait * 2, RETRY_MOST)
        if not first:
            return []
        moves = len(self.held_moves)
        log.error("could not record %s: %s (%d move(s) held, retrying)", event.kind, text, moves)
        return [LogEntry("error", Message.of("log.held", what=event.kind, error=text))]
