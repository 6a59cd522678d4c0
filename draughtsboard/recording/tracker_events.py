"""What each tracker event becomes in a game's journal.

The tracker says what happened on the board (a move, a takeback, an illegal attempt, a
disturbed position, the end of the game); this module writes it through the `Recorder`
and says, in `LogEntry`s, what the arbiter's log should show. It returns only once the
records are on disk: the controller lights the confirming LEDs after that.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

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


@dataclass(frozen=True)
class LogEntry:
    """A line of the arbiter's log: ``kind`` (move notes, flags, results ...) and text."""

    kind: str
    text: str


def record_tracker_event(recorder: Recorder, game_id: str, event: TrackerEvent,
                         t_wall: float) -> list[LogEntry]:
    """Journal ``event`` for game ``game_id``; the entries for the arbiter's log.

    After the result nothing more is recorded: a move played then is only logged."""
    game = recorder.game(game_id)
    if game.result is not None:
        if isinstance(event, MoveEvent):
            log.warning("move %s after the result: not recorded", event.notation)
            return [LogEntry("note", f"{event.notation} played after the result: "
                                     "not recorded (start a new game)")]
        return []
    if isinstance(event, MoveEvent):
        return _record_move(recorder, game_id, event, t_wall)
    if isinstance(event, TakebackEvent):
        recorder.record_takeback(game_id, event.t, t_wall, irregularity=event.irregularity)
        if event.irregularity:
            return [LogEntry("irregularity", f"{event.notation} taken back: "
                                             f"{event.irregularity}")]
        return [LogEntry("takeback", f"{event.notation} taken back")]
    if isinstance(event, IrregularMoveEvent):
        played = recorder.record_irregular_move(
            game_id, event.path, event.removed, event.notation, event.irregularity,
            event.comment, event.position.fen(), event.t, t_wall)
        log.info("irregular move %d: %s (%s)", recorder.game(game_id).ply, played.text,
                 event.comment)
        return [LogEntry("irregularity", f"{played.text}: {event.comment}")]
    if isinstance(event, FlagEvent):
        if event.kind == "illegal":
            recorder.record_illegal(game_id, event.description, t_monotonic=event.t,
                                    t_wall=t_wall)
        else:
            recorder.record_irregularity(game_id, event.description, event.t, t_wall)
        log.info("%s: %s", event.kind, event.description)
        return [LogEntry(event.kind, event.description)]
    if isinstance(event, GameOverEvent):
        outcome = game.outcome()
        if outcome is None:
            return []
        recorder.record_result(game_id, outcome[0], outcome[1], event.t, t_wall)
        log.info("game over: %s (%s)", *outcome)
        return [LogEntry("result", f"{outcome[0]} ({outcome[1]})")]
    return []


def _record_move(recorder: Recorder, game_id: str, event: MoveEvent,
                 t_wall: float) -> list[LogEntry]:
    if event.replaces:
        recorder.record_takeback(game_id, event.t, t_wall, amended_by=event.notation)
    played = recorder.record_move(game_id, Move(event.path, event.captures), event.t, t_wall)
    log.info("move %d: %s", recorder.game(game_id).ply, played.text)
    entries = []
    for note in event.notes:
        text = f"{played.text}: {note}"
        recorder.record_irregularity(game_id, text, event.t, t_wall)
        entries.append(LogEntry("irregularity", text))
    return entries
