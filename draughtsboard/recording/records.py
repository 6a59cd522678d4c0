"""What each journal record does to a game: the one apply path.

`apply_record` is the only code that turns a record into a change of a `Game`. The
`Recorder` calls it on the live game before it writes the record (a record the game
refuses is never written), and `rebuild_game` calls it on every record of a journal read
back, so a game read from disk is the game that was recorded by construction: there is
no second way to say what a takeback or a result does.

A record that does not fit the game where it comes (a move for another ply, a takeback
with no move) is a `RecordMismatchError`: live, the change is refused; read back, the
journal is damaged from that record on.
"""

from __future__ import annotations

from draughtsboard.board.game.record import Game, GameFinishedError
from draughtsboard.board.message import Message
from draughtsboard.board.mode import Mode
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.fen import format_fen, initial_position, parse_fen
from draughtsboard.board.rules.position import Move
from draughtsboard.board.rules.variants import Variant, get_variant

from .errors import JournalError

FORMAT_VERSION = 1
EVENT_RECORDS = ("illegal", "irregularity", "resume", "note", "draw-offer", "hint", "coach")
# Events that carry both clocks: the clock started, paused or restarted, a flag fell.
CLOCK_RECORDS = ("clock-start", "clock-pause", "clock-resume", "flag")


class RecordMismatchError(DraughtsError):
    """A record that does not fit the game where it comes: a move for another ply, a
    takeback with no move, a take-back to a ply the game has not reached, a withdrawal
    of a result the game does not have."""


def start_record(variant: Variant, tags: dict[str, str], fen: str | None, mode: Mode | str,
                 draw_preset: str | None, t_monotonic: float | None,
                 t_wall: float | None) -> dict:
    """The record that begins a game (``fen`` checked, and left out when it is the
    variant's initial position)."""
    if fen is not None:
        position = parse_fen(variant, fen)
        fen = None if position == initial_position(variant) else format_fen(position)
    return {"type": "start", "version": FORMAT_VERSION, "variant": variant.name,
            "tags": tags, "fen": fen, "mode": Mode.parse(mode).value, "draw_preset": draw_preset,
            "t_mono": t_monotonic, "t_wall": t_wall}


def game_of_start(start: dict) -> Game:
    """The game a start record begins (the rules' errors for a bad one)."""
    variant = get_variant(start["variant"])
    game = Game.from_fen(variant, start.get("fen"), tags=dict(start.get("tags", {})),
                         draw_preset=start.get("draw_preset"), mode=start.get("mode", ""))
    game.start_monotonic = start.get("t_mono")
    game.start_wall = start.get("t_wall")
    return game


def _check_ply(game: Game, record: dict, what: str) -> None:
    if record.get("ply") != game.ply:
        raise RecordMismatchError(f"{what} record {record.get('seq')} is for ply "
                                  f"{record.get('ply')}, the game is at ply {game.ply}")


def _message(record: dict) -> Message | None:
    """The record's text as a message, when it kept one that reads (an older record, or
    a damaged message, is read by its text alone)."""
    data = record.get("message")
    if data is None:
        return None
    try:
        return Message.from_json(data)
    except ValueError:
        return None


def apply_record(game: Game, record: dict) -> None:
    """Change ``game`` as ``record`` says (any record but the start); the rules' errors,
    `RecordMismatchError` or `GameFinishedError` when it does not fit, and then the
    game is unchanged."""
    kind = record.get("type")
    times = record.get("t_mono"), record.get("t_wall")
    if kind == "move":
        _check_ply(game, record, "move")
        move = Move(tuple(record["path"]), tuple(record["captures"]))
        clock = record.get("clock")
        game.play(move, *times, clock=tuple(clock) if clock else None)
    elif kind == "takeback":
        if not game.moves:
            raise RecordMismatchError("a takeback with no move to take back")
        game.undo()
        game.add_event(record.get("kind", "takeback"), record.get("text", "move taken back"),
                       *times, message=_message(record))
    elif kind == "irregular_move":
        _check_ply(game, record, "irregular move")
        game.play_irregular(Move(tuple(record["path"]), tuple(record["captures"])),
                            parse_fen(game.variant, record["fen"]), record["text"],
                            record.get("irregularity", ""), record.get("comment", ""),
                            *times)
    elif kind == "correction":
        game.correct(parse_fen(game.variant, record["fen"]), record.get("text", ""), *times)
    elif kind == "takeback_to":
        target = int(record["ply"])
        if game.result is not None:
            raise GameFinishedError(f"the game is finished ({game.result}): no take-back")
        if not 0 <= target <= game.ply:
            raise RecordMismatchError(f"take-back record {record.get('seq')} is to ply "
                                      f"{target}, the game is at ply {game.ply}")
        while game.ply > target:
            game.undo()
        game.add_event("takeback", record.get("text", ""), *times, message=_message(record))
    elif kind in EVENT_RECORDS:
        tags = record.get("tags")
        if kind == "note" and isinstance(tags, dict):
            if game.result is not None:
                raise GameFinishedError(f"the game is finished ({game.result}): its tags "
                                        "cannot change")
            game.set_tags({str(k): str(v) for k, v in tags.items()})
        game.add_event(kind, record.get("text", ""), *times, message=_message(record))
    elif kind in CLOCK_RECORDS:
        clock = record.get("clock")
        game.add_event(kind, record.get("text", ""), *times,
                       clock=(float(clock[0]), float(clock[1])) if clock else None,
                       message=_message(record))
    elif kind == "result":
        game.set_result(record["result"], record.get("reason", ""))
        if game.result is None:
            game.result_reason = record.get("reason") or "abandoned"
    elif kind == "result-withdrawn":
        if game.result is None:
            raise RecordMismatchError("the game has no result to withdraw")
        game.set_result("*")
        game.add_event(kind, record.get("text", ""), *times, message=_message(record))
    else:
        raise RecordMismatchError(f"unknown record type {kind!r} (seq {record.get('seq')})")


def rebuild_prefix(records: list[dict]) -> tuple[Game | None, int, str]:
    """The game of the longest run of records that fit, from the start: (game or
    ``None`` when even the start record does not, how many records it used, what was
    wrong with the next one, ``""`` when all fit)."""
    if not records or records[0].get("type") != "start":
        return None, 0, "the journal does not begin with a start record"
    try:
        game = game_of_start(records[0])
    except (DraughtsError, KeyError, TypeError, ValueError) as error:
        return None, 0, f"start record: {error}"
    for index, record in enumerate(records[1:], 1):
        try:
            apply_record(game, record)
        except (DraughtsError, KeyError, TypeError, ValueError, IndexError) as error:
            return game, index, f"record {index + 1} (seq {record.get('seq')}): {error}"
    return game, len(records), ""


def rebuild_game(records: list[dict]) -> Game:
    """The game a journal's records describe; `JournalError` if they do not fit."""
    game, _, problem = rebuild_prefix(records)
    if problem:
        raise JournalError(problem)
    assert game is not None  # rebuild_prefix gives a game when it names no problem
    return game


def is_closed(records: list[dict]) -> bool:
    """Whether a journal's game is closed: its last result record is not withdrawn."""
    for record in reversed(records):
        kind = record.get("type")
        if kind == "result":
            return True
        if kind == "result-withdrawn":
            return False
    return False
