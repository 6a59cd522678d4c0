"""The board's opponent: the built-in engine at a level, a Hub engine, or a DXP peer.

`base` says what a play session needs of an opponent (`Opponent`: start, be told the
other side's moves, be asked for a move with the clocks, close) and how one fails
(`OpponentError` and its kinds, each a one-line message). The kinds: `builtin` (the
engine at levels 1-10), `hub_client` (an external Hub engine as a child process),
`dxp` (a DamExchange peer over TCP, the board as initiator or follower), `board_match`
(another board, through bridged MQTT brokers: a match between towns; its protocol, pure,
is `match_state`). The protocols
are kept apart from their I/O: `hub_text`, `hub_engine` and `hub_client.HubConversation`
for Hub, `dxp_messages` and `dxp.DxpConversation` for DXP, `channel` the framed reading
with deadlines both use. `spec` reads ``--opponent`` and knows what each kind supports.

This package sits above the pure core (it imports `board` only) and below `play`, which
will own an opponent in the game in play. docs/opponents.md describes it.
"""

from __future__ import annotations

from draughtsboard.board.rules.variants import Variant

from .base import (
    Clocks,
    Opponent,
    OpponentEndedGameError,
    OpponentError,
    OpponentGoneError,
    OpponentIllegalMoveError,
    OpponentProtocolError,
    OpponentSpecError,
    OpponentStartError,
    OpponentStoppedError,
    OpponentTimeoutError,
    OpponentUnsupportedError,
)
from .board_match import BoardOpponent, MatchStoppedError, MatchTransport
from .builtin import BuiltinOpponent
from .dxp import MOVES_OFFERED, DxpOpponent, offered_minutes
from .hub_client import HubOpponent
from .match_state import believed_clocks
from .spec import OpponentSpec, check_supported, parse_opponent


def open_opponent(spec: OpponentSpec | str, variant: Variant, seed: str = "", *,
                  move_seconds: float = 5.0, game_seconds: float | None = None
                  ) -> Opponent:
    """The opponent of a spec for a variant (not started yet: its `start` launches the
    engine or makes the connection); `OpponentError` (one line) when the kind cannot
    play the variant or the text names no opponent. A DXP initiator offers its peer
    ``game_seconds`` for the game (the game's TimeControl), else ``move_seconds`` times
    `dxp.MOVES_OFFERED`, in whole minutes (DXP has no time per move)."""
    if isinstance(spec, str):
        spec = parse_opponent(spec)
    check_supported(spec, variant)
    if spec.kind == "engine":
        return BuiltinOpponent(variant, spec.level or 10, seed)
    if spec.kind == "hub":
        return HubOpponent(variant, spec.command)
    if spec.kind == "board":
        raise OpponentSpecError(f"--opponent board:{spec.match}: a board's opponent needs "
                                f"its transport (BoardOpponent), not open_opponent")
    role = "initiator" if spec.kind == "dxp" else "follower"
    offered = game_seconds if game_seconds is not None else move_seconds * MOVES_OFFERED
    return DxpOpponent(variant, spec.host, spec.port, role,
                       minutes=offered_minutes(offered))


__all__ = [
    "BoardOpponent", "BuiltinOpponent", "Clocks", "DxpOpponent", "HubOpponent",
    "MatchStoppedError", "MatchTransport", "Opponent", "OpponentEndedGameError", "OpponentError",
    "OpponentGoneError", "OpponentIllegalMoveError", "OpponentProtocolError",
    "OpponentSpec", "OpponentSpecError", "OpponentStartError", "OpponentStoppedError",
    "OpponentTimeoutError", "OpponentUnsupportedError", "check_supported", "open_opponent",
    "believed_clocks", "parse_opponent",
]
