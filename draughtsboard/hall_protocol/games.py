"""A recorded `Game` as a `GameRecord` and back: what a board sends and what the hall
rebuilds, with the rules checking every move again on the hall's side.

The hall's wire is a view of the record model (`draughtsboard.board.game.records`): a
`GameRecord`'s start is the model's `Start`, each `MoveRecord` a `MoveMade`, and the hall
rebuilds a game with the model's one `apply` (a move, a correction), never with rules of
its own."""

from __future__ import annotations

from draughtsboard.board.game.apply import apply, game_of_start
from draughtsboard.board.game.record import Game, PlayedMove
from draughtsboard.board.game.records import Correction, MoveMade, Start, Times
from draughtsboard.board.mode import Mode
from draughtsboard.board.rules import DraughtsError
from draughtsboard.board.rules.draws import Reason

from .messages import GameRecord, MessageError, MoveRecord

TAKEBACK_MODES = ("training", "free", "puzzle")  # modes where a board takes moves back itself


def change_count(game: Game) -> int:
    """Changes of the move list so far: each move one, each move taken back two (the
    move and its removal), so the count only grows, a takeback to an earlier ply
    included."""
    return game.ply + 2 * game.taken_back


def move_record(played: PlayedMove) -> MoveRecord:
    """A move of the game as the wire carries it."""
    return MoveRecord(played.text, played.move.path, played.move.captures,
                      played.t_monotonic, played.t_wall, played.clock)


def move_records(game: Game) -> tuple[MoveRecord, ...]:
    return tuple(map(move_record, game.moves))


def move_made(ply: int, move: MoveRecord) -> MoveMade:
    """A move of the wire as the model's record of the move at ``ply``."""
    return MoveMade(ply, move.path, move.captures, move.text, Times(move.t_mono, move.t_wall),
                    move.clock)


def start_of(record: GameRecord) -> Start:
    """The start of a `GameRecord` as the model's record (`ValueError` for a bad mode)."""
    return Start(record.variant, record.tags, record.fen, Mode.parse(record.mode), None,
                 Times(record.t_mono, record.t_wall))


def game_record(game_id: str, game: Game) -> GameRecord:
    """The game as the board publishes it; a game closed without a result (abandoned)
    has the result ``*``. Why: in English (``result_reason``, for halls before the typed
    reason) and, for the rules' reasons, typed (``result_rule``: one rule's;
    ``result_rules``: every rule's of a draw the board's arbiter accepted)."""
    result = game.result
    if result is None and game.result_reason:
        result = "*"
    why = game.result_why
    return GameRecord(
        game_id, game.variant.name, dict(game.tags), move_records(game), change_count(game),
        None if game.starts_from_initial else game.start_fen, game.mode or "tournament",
        game.start_monotonic, game.start_wall, result, game.result_reason,
        corrections(game), why if isinstance(why, Reason) else None,
        why if isinstance(why, tuple) else ())


def corrections(game: Game) -> tuple[tuple[int, str], ...]:
    """The arbiter's corrections still in effect, in order: (ply, position text)."""
    return tuple((event.ply, event.position.fen()) for event in game.events
                 if event.kind == "correction" and event.position is not None)


def correct_record(game: Game, fen: str, text: str = "arbiter correction") -> None:
    """An arbiter's correction of the game's current position (`MessageError` for a
    position the variant cannot have)."""
    try:
        apply(game, Correction(game.ply, fen, text))
    except DraughtsError as error:
        raise MessageError(f"correction {fen[:60]!r}: {error}") from None


def start_game(record: GameRecord) -> Game:
    """The record's game before its first move; `MessageError` for an unknown variant or
    a bad start position."""
    try:
        return game_of_start(start_of(record))
    except DraughtsError as error:
        raise MessageError(f"game {record.game}: {error}") from None


def play_record(game: Game, move: MoveRecord) -> None:
    """Add a move to the game, checked by the rules (`MessageError` if illegal)."""
    try:
        apply(game, move_made(game.ply, move))
    except DraughtsError as error:
        raise MessageError(f"move {move.text}: {error}") from None
