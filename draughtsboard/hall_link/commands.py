"""The hall's commands carried out on a board, through the play session's own arbiter
actions (the ones the board's page uses with the token): the same checks, the same
journal records.

A command names the game it is about; one about a game that is no longer the board's
current game is refused, so a command delivered twice (MQTT QoS 1 is at least once) or
late (queued by the broker while the board was away) cannot start a second new game or
touch the wrong one.
"""

from __future__ import annotations

import concurrent.futures
import logging
from typing import Any, Protocol

from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.hall_protocol.messages import Command, Reply

log = logging.getLogger("draughtsboard.hall_link")


class ArbiterActions(Protocol):
    """What a command needs of the play session's arbiter desk."""

    game_id: str

    def new_game(self, tags: dict[str, str] | None = None, fen: str | None = None) -> str: ...

    def set_tags(self, tags: dict[str, str]) -> dict[str, str]: ...

    def declare_result(self, result: str, reason: str = "") -> str: ...

    def withdraw_result(self) -> str: ...

    def take_back_to(self, ply: int) -> str: ...

    def accept_position(self, white_to_move: bool, fen: str | None = None) -> str: ...

    def clock_action(self, action: str) -> str: ...

    def acknowledge(self) -> int: ...


def side_to_move(fen: str) -> bool:
    """Whether White is to move in ``fen`` (its first letter, W or B, in every variant's
    position text); `ValueError` otherwise."""
    text = fen.strip().strip('[]"').removeprefix("FEN").strip().strip('"').lstrip()
    if text[:1].upper() not in ("W", "B"):
        raise ValueError(f"position {fen[:60]!r}: it must begin with the side to move, W or B")
    return text[:1].upper() == "W"


def carry_out(session: ArbiterActions, command: Command) -> Reply:
    """Do what the command asks (not ``resend``: the link answers that) and say how it
    went."""
    current = session.game_id
    if command.game is not None and command.game != current:
        return Reply(command.id, False, error=f"game {command.game} is not this board's "
                     f"current game ({current})")
    try:
        result: Any
        if command.cmd == "new_game":
            result = session.new_game(command.tags, command.fen)
        elif command.cmd == "set_tags":
            result = session.set_tags(command.tags)
        elif command.cmd == "result":
            reason = command.reason or "declared by the arbiter in the hall"
            result = session.declare_result(command.result or "", reason)
        elif command.cmd == "withdraw":
            result = session.withdraw_result()
        elif command.cmd == "takeback":
            result = session.take_back_to(command.ply if command.ply is not None else -1)
        elif command.cmd == "position":
            result = session.accept_position(side_to_move(command.fen or ""), command.fen)
        elif command.cmd == "clock":
            result = session.clock_action(command.action or "")
        elif command.cmd == "acknowledge":
            result = session.acknowledge()
        else:
            return Reply(command.id, False, error=f"{command.cmd} is not an arbiter action")
    except (ValueError, DraughtsError) as error:
        return Reply(command.id, False, error=str(error))
    except (RuntimeError, TimeoutError, concurrent.futures.TimeoutError) as error:
        return Reply(command.id, False, error=f"the board could not do it now: {error}")
    log.info("hall: %s done (game %s)", command.cmd, session.game_id)
    return Reply(command.id, True, result)
