"""What goes on from one game to the next, and what a resumed game refuses.

A board in a hall is restarted with the options of its systemd unit or of whoever
typed the command: a resumed game must not quietly change its mode (a tournament game
does not become a training game with hints half-way) or its players, and a game the
arbiter starts must not inherit the previous game's players. Pure functions: the
session records and shows what they say.
"""

from __future__ import annotations

from collections.abc import Mapping

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
                    requested_fen: str | None = None) -> list[str]:
    """One sentence per option that a resumed game does not take: a ``--mode`` other
    than the recorded one, ``--tag`` values that differ from the recorded ones, a start
    position (``--fen``). The game goes on as recorded; ``--new`` starts a new game with
    the options, and the arbiter can change tags on the page."""
    refused = []
    if requested_mode is not None and requested_mode != recorded_mode:
        refused.append(
            f"--mode {requested_mode} not applied: game {game_id} is a {recorded_mode} "
            f"game and goes on as one (--new starts a new game in {requested_mode} mode)")
    differing = {k: v for k, v in requested_tags.items() if recorded_tags.get(k) != v}
    if differing:
        listed = ", ".join(f"{k}={v}" for k, v in differing.items())
        refused.append(
            f"--tag {listed} not applied: game {game_id} is resumed with its recorded "
            "tags (the arbiter can change them on the page; --new starts a new game "
            "with them)")
    if requested_fen:
        refused.append(
            f"--fen not applied: game {game_id} is resumed where it stands (--new starts "
            "a new game from the FEN)")
    return refused
