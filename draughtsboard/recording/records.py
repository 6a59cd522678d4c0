"""The journal's records read back into a game: the record model's codec and its one
apply path, over the records of a journal file.

A journal holds the record model's records (`draughtsboard.board.game.records`) as the
codec writes them (`board.game.codec`), each with the journal's ``seq``.
`rebuild_prefix` decodes them in order and applies each with `board.game.apply.apply`,
the function the `Recorder` applies every record with before it writes it, so a game
read from disk is the game that was recorded by construction: there is no second way to
say what a takeback or a result does.

A record that does not read (a field of the wrong type, a format newer than this
release: one line, and the file is left as it is) or does not fit the game where it
comes (a move for another ply, a takeback with no move: `RecordMismatchError`) ends the
good part of the journal there: live, the change is refused; read back, the journal is
damaged from that record on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from draughtsboard.board.game.apply import RecordMismatchError, apply, game_of_start
from draughtsboard.board.game.codec import FORMAT_VERSION, decode
from draughtsboard.board.game.record import Game
from draughtsboard.board.game.records import RecordKind, Start
from draughtsboard.board.rules.errors import DraughtsError

from .errors import JournalError

__all__ = ["FORMAT_VERSION", "RecordMismatchError", "apply_record", "is_closed",
           "rebuild_game", "rebuild_prefix"]

Problems = (DraughtsError, KeyError, TypeError, ValueError, IndexError)


def apply_record(game: Game, record: Mapping[str, Any]) -> None:
    """Change ``game`` as the journal record ``record`` says (any record but the start):
    decoded by the codec, applied by the model's one `apply`."""
    decoded = decode(record)
    if isinstance(decoded, Start):
        raise RecordMismatchError("a second start record")
    apply(game, decoded)


def rebuild_prefix(records: Sequence[Mapping[str, Any]]) -> tuple[Game | None, int, str]:
    """The game of the longest run of records that fit, from the start: (game or
    ``None`` when even the start record does not, how many records it used, what was
    wrong with the next one, ``""`` when all fit)."""
    if not records or records[0].get("type") != RecordKind.START:
        return None, 0, "the journal does not begin with a start record"
    try:
        start = decode(records[0])
        if not isinstance(start, Start):
            raise RecordMismatchError("not a start record")
        game = game_of_start(start)
    except Problems as error:
        return None, 0, f"start record: {error}"
    for index, record in enumerate(records[1:], 1):
        try:
            apply_record(game, record)
        except Problems as error:
            return game, index, f"record {index + 1} (seq {record.get('seq')}): {error}"
    return game, len(records), ""


def rebuild_game(records: Sequence[Mapping[str, Any]]) -> Game:
    """The game a journal's records describe; `JournalError` if they do not fit."""
    game, _, problem = rebuild_prefix(records)
    if problem or game is None:
        raise JournalError(problem)
    assert game is not None  # rebuild_prefix gives a game when it names no problem
    return game


def is_closed(records: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a journal's game is closed: its last result record is not withdrawn (read
    by each record's kind alone, so a damaged record after it does not matter)."""
    for record in reversed(records):
        kind = record.get("type")
        if kind == RecordKind.RESULT:
            return True
        if kind == RecordKind.RESULT_WITHDRAWN:
            return False
    return False
