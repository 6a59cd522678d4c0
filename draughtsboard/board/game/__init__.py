"""The game record as a pure value: moves with their times, tags, the arbiter's events,
the result and the draws the rules declare; PDN reading and writing.

`game` is the value; `draughtsboard.recording` is its durable journal on disk, which
rebuilds a `Game` from its records. Nothing here reads a clock or a file, and nothing
here knows the tracker (the tracker never imports the game either).
"""

from .pdn_reader import PdnError, PdnGame, PdnReadResult, decode_pdn, read_pdn, variant_of_tags
from .pdn_writer import format_movetext, format_tags, write_game, write_games
from .record import (
    DERIVED_TAGS,
    STANDARD_TAGS,
    Game,
    GameEvent,
    InvalidResultError,
    PlayedMove,
    move_number,
    normalise_result,
)

__all__ = [
    "DERIVED_TAGS", "STANDARD_TAGS", "Game", "GameEvent", "InvalidResultError", "PdnError",
    "PdnGame", "PdnReadResult", "PlayedMove", "decode_pdn", "format_movetext", "format_tags",
    "move_number", "normalise_result", "read_pdn", "variant_of_tags", "write_game",
    "write_games",
]
