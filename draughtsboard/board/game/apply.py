"""What each record does to a game: the one apply path of the record model.

`apply` is the only code that turns a record (`records.Record`) into a change of a
`Game`. The board's `Recorder` applies each record to its live game before it writes it
and rebuilds a game read back with the same function; the hall's store applies the
game's part of its records with it too. So there is no second way to say what a
takeback, a withdrawal or a result does: a game closed unfinished (``*``) without a
reason is "abandoned" here, and only here (`close`).

A record that does not fit the game where it comes (a move for another ply, a takeback
with no move) is a `RecordMismatchError`; a finished game refuses a change with
`GameFinishedError`; the rules' errors for a move they refuse. Each leaves the game as it
was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import draughtsboard.board.game.records as records  # (as `records.MoveMade`)

from ..mode import Mode
from ..rules.errors import DraughtsError
from ..rules.fen import format_fen, initial_position, parse_fen
from ..rules.position import Move
from ..rules.variants import Variant, get_variant
from .record import Game, GameFinishedError


class RecordMismatchError(DraughtsError):
    """A record that does not fit the game where it comes: a move for another ply, a
    takeback with no move, a take-back to a ply the game has not reached, a withdrawal
    of a result the game does not have."""


def start_of(variant: Variant, tags: dict[str, str], fen: str | None, mode: Mode | str,
             draw_preset: str | None, at: records.Times) -> records.Start:
    """The record that begins a game (``fen`` checked, and left out when it is the
    variant's initial position)."""
    if fen is not None:
        position = parse_fen(variant, fen)
        fen = None if position == initial_position(variant) else format_fen(position)
    return records.Start(variant.name, tags, fen, Mode.parse(mode), draw_preset, at)


def game_of_start(start: records.Start) -> Game:
    """The game a start record begins (the rules' errors for a bad one)."""
    game = Game.from_fen(get_variant(start.variant), start.fen, tags=dict(start.tags),
                         draw_preset=start.draw_preset, mode=start.mode)
    game.start_monotonic, game.start_wall = start.at.mono, start.at.wall
    return game


def close(game: Game, result: str, reason: records.Why,
          by: records.Setter = records.Setter.UNKNOWN) -> None:
    """Give the game its result (who set it: ``by``); ``*`` closes it unfinished,
    "abandoned" unless a reason says otherwise."""
    game.set_result(result, reason, by)
    if game.result is None:
        game.close_unfinished(reason or records.ABANDONED, by)


def take_back_to(game: Game, ply: int) -> None:
    """Take moves back until the game is at ``ply`` (no event: the caller notes one)."""
    if game.result is not None:
        raise GameFinishedError(f"the game is finished ({game.result}): no take-back")
    if not 0 <= ply <= game.ply:
        raise RecordMismatchError(f"a take-back to ply {ply}, the game is at ply {game.ply}")
    while game.ply > ply:
        game.undo()


def _check_ply(game: Game, ply: int, what: str) -> None:
    if ply != game.ply:
        raise RecordMismatchError(f"{what} record is for ply {ply}, the game is at ply "
                                  f"{game.ply}")


def apply(game: Game, record: records.Record) -> None:
    """Change ``game`` as ``record`` says (see the module doc for the errors)."""
    at = record.at
    if isinstance(record, records.MoveMade):
        _check_ply(game, record.ply, "move")
        game.play(Move(record.path, record.captures), at.mono, at.wall, clock=record.clock)
    elif isinstance(record, records.Takeback):
        if not game.moves:
            raise RecordMismatchError("a takeback with no move to take back")
        game.undo()
        game.add_event(record.what.value, record.text, at.mono, at.wall,
                       message=record.message)
    elif isinstance(record, records.IrregularMove):
        _check_ply(game, record.ply, "irregular move")
        game.play_irregular(Move(record.path, record.captures),
                            parse_fen(game.variant, record.fen), record.text,
                            record.irregularity, record.comment, at.mono, at.wall)
    elif isinstance(record, records.Correction):
        game.correct(parse_fen(game.variant, record.fen), record.text, at.mono, at.wall,
                     message=record.message)
    elif isinstance(record, records.TakebackTo):
        take_back_to(game, record.ply)
        game.add_event("takeback", record.text, at.mono, at.wall, message=record.message)
    elif isinstance(record, records.Event):
        if record.tags is not None:
            if game.result is not None:
                raise GameFinishedError(f"the game is finished ({game.result}): its tags "
                                        "cannot change")
            game.set_tags(dict(record.tags))
        game.add_event(record.what.value, record.text, at.mono, at.wall,
                       message=record.message, switch=record.switch)
    elif isinstance(record, records.ClockEvent):
        game.add_event(record.what.value, record.text, at.mono, at.wall, clock=record.clock,
                       message=record.message)
    elif isinstance(record, records.Result):
        close(game, record.result, record.reason, record.by)
    elif isinstance(record, records.ResultWithdrawn):
        if game.result is None:
            raise RecordMismatchError("the game has no result to withdraw")
        game.set_result("*")
        game.add_event(records.RecordKind.RESULT_WITHDRAWN.value, record.text, at.mono, at.wall,
                       message=record.message, declined=record.declined)
    elif isinstance(record, records.MatchStop):
        game.add_event(records.RecordKind.MATCH_STOP.value, record.text, at.mono, at.wall,
                       message=record.message)
    else:
        raise RecordMismatchError(f"a {type(record).__name__} changes no game")


def rebuild(start: records.Start, recorded: Iterable[records.Record]) -> Game:
    """The game a start and its records describe (the first error that does not fit)."""
    game = game_of_start(start)
    for record in recorded:
        apply(game, record)
    return game


def is_closed(recorded: Sequence[records.AnyRecord]) -> bool:
    """Whether a game's records close it: its last result is not withdrawn."""
    for record in reversed(recorded):
        if isinstance(record, records.Result):
            return True
        if isinstance(record, records.ResultWithdrawn):
            return False
    return False
