"""What goes on from one game to the next, and what a resumed game refuses.

A board in a hall is restarted with the options of its systemd unit or of whoever
typed the command: a resumed game must not quietly change its mode (a tournament game
does not become a training game with hints half-way) or its players, and a game the
arbiter starts must not inherit the previous game's players. Pure functions: the
session records and shows what they say.
"""

from __future__ import annotations

from collections.abc import Mapping

from draughtsboard.board.message import Message

# Tags that belong to one game: a game the arbiter starts does not inherit them from the
# command line (the players, the round); the event's own tags (Event, Site, Board,
# TimeControl ...) carry over.
PER_GAME_TAGS = ("White", "Black", "Round", "Date", "Time")


def carried_tags(command_line_tags: Mapping[str, str]) -> dict[str, str]:
    """The command line's tags a game started by the arbiter inherits: the event's, not
    the players' (``White*``, ``Black*``) or the round's."""
    return {k: v for k, v in command_line_tags.items()
            if k not in PER_GAME_TAGS and not k.startswith(("White", "Black"))}


def resume_refusals(game_id: str, recorded_mode: str, recorded_tags: Mapping[str, str],
                    requested_mode: str | None, requested_tags: Mapping[str, str],
                    requested_fen: str | None = None) -> list[Message]:
    """One sentence per option that a resumed game does not take: a ``--mode`` other
    than the recorded one, ``--tag`` values that differ from the recorded ones, a start
    position (``--fen``). The game goes on as recorded; ``--new`` starts a new game with
    the options, and the arbiter can change tags on the page."""
    refused = []
    if requested_mode is not None and requested_mode != recorded_mode:
        refused.append(Message.of("page.notice.mode", requested=requested_mode,
                                  game_id=game_id, recorded=recorded_mode))
    differing = {k: v for k, v in requested_tags.items() if recorded_tags.get(k) != v}
    if differing:
        listed = ", ".join(f"{k}={v}" for k, v in differing.items())
        refused.append(Message.of("page.notice.tags", tags=listed, game_id=game_id))
    if requested_fen:
        refused.append(Message.of("page.notice.fen", game_id=game_id))
    return refused
