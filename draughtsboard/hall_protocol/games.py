"""A recorded `Game` as a `GameRecord` and back: what a board sends and what the hall
rebuilds, with the rules checking every move again on the hall's side."""

from __future__ import annotations

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules import DraughtsError, get_variant, parse_fen
from draughtsboard.board.rules.position import Move

from .messages import GameRecord, MessageError, MoveRecord

TAKEBACK_MODES = ("training", "free", "puzzle")  # modes where a board takes moves back itself


def change_count(game: Game) -> int:
    """Changes of the move list so far: each move one, each move taken back two (the
    move and its removal), so the count only grows, a takeback to an earlier ply
    included."""
    return game.ply + 2 * game.taken_back


def move_records(game: Game) -> tuple[MoveRecord, ...]:
    return tuple(MoveRecord(p.text, p.move.path, p.move.captures, p.t_monotonic, p.t_wall,
                            p.clock) for p in game.moves)


def game_record(game_id: str, game: Game) -> GameRecord:
    """The game as the board publishes it; a game closed without a result (abandoned)
    has the result ``*``."""
    result = game.result
    if result is None and game.result_reason:
        result = "*"
    return GameRecord(
        game_id, game.variant.name, dict(game.tags), move_records(game), change_count(game),
        None if game.starts_from_initial else game.start_fen, game.mode or "tournament",
        game.start_monotonic, game.start_wall, result, game.result_reason,
        corrections(game))


def corrections(game: Game) -> tuple[tuple[int, str], ...]:
    """The arbiter's corrections still in effect, in order: (ply, position text)."""
    return tuple((event.ply, event.position.fen()) for event in game.events
                 if event.kind == "correction" and event.position is not None)


def correct_record(game: Game, fen: str, text: str = "arbiter correction") -> None:
    """An arbiter's correction of the game's current position (`MessageError` for a
    position the variant cannot have)."""
    try:
        game.correct(parse_fen(game.variant, fen), text)
    except DraughtsError as error:
        raise MessageError(f"correction {fen[:60]!r}: {error}") from None


def start_game(record: GameRecord) -> Game:
    """The record's game before its first move; `MessageError` for an unknown variant or
    a bad start position."""
    try:
        variant = get_variant(record.variant)
        game = Game.from_fen(variant, record.fen, tags=dict(record.tags),
                             mode=record.mode)
    except DraughtsError as error:
        raise MessageError(f"game {record.game}: {error}") from None
    game.start_monotonic, game.start_wall = record.t_mono, record.t_wall
    return game


def play_record(game: Game, move: MoveRecord) -> None:
    """Add a move to the game, checked by the rules (`MessageError` if illegal)."""
    try:
        game.play(Move(move.path, move.captures), move.t_mono, move.t_wall, move.clock)
    except DraughtsError as error:
        raise MessageError(f"move {move.text}: {error}") from None
