"""A board's side of the protocol without a broker: the messages its link sends for a
game, for the tests that hand them to the hall's ingest directly."""

from __future__ import annotations

from draughtsboard.board.game.record import Game
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import MoveRecord, PlyMessage


def move_record(game: Game, text: str) -> MoveRecord:
    """Play ``text`` on ``game``: the move as a ply message carries it."""
    played = game.play(text)
    return MoveRecord(played.text, played.move.path, played.move.captures)


def ply_message(game_id: str, game: Game, text: str) -> bytes:
    """Play ``text`` on ``game``: the ply message the board's link sends for it."""
    move = move_record(game, text)
    return PlyMessage(game_id, game.ply, game_record(game_id, game).changes, move).to_json()
