"""``play --opponent``: the opponent opened for the game's variant, a match's other
board through its broker included (docs/opponents.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from draughtsboard.board.message import Message

from .errors import UsageError

if TYPE_CHECKING:
    from draughtsboard.opponents import Opponent, OpponentSpec


@dataclass(frozen=True)
class ChosenOpponent:
    """The opponent opened (not started) and the spec it was opened from."""

    opponent: Opponent
    spec: OpponentSpec


def open_opponent_of(args, variant, opening, tags) -> ChosenOpponent | None:
    """The opponent of ``--opponent`` for ``variant`` (not started), or None; refused in
    one line (`OpponentError`) when the text names none, the kind cannot play the
    variant, puzzles are asked for too, or a DXP port cannot be listened on. A DXP
    initiator offers the ``TimeControl`` of ``tags`` (its base) for the game."""
    import time

    from draughtsboard.opponents import DxpOpponent, open_opponent, parse_opponent
    from draughtsboard.play.clock import TimeControl

    if not args.opponent:
        return None
    if args.mode == "puzzle":
        raise UsageError(Message.of("cli.error.opponent_puzzle"))
    if not 0.05 <= args.opponent_seconds <= 3600:
        raise UsageError(Message.of("cli.error.opponent_seconds"))
    spec = parse_opponent(args.opponent)
    seed = opening.resume_id or f"{time.time():.0f}"
    control = tags.get("TimeControl", "").strip()
    game_seconds = TimeControl.parse(control).base if control not in ("", "-", "?") else None
    if spec.kind == "board":
        return ChosenOpponent(board_opponent(args, spec, variant, tags), spec)
    opponent = open_opponent(spec, variant, seed=seed, move_seconds=args.opponent_seconds,
                             game_seconds=game_seconds)
    if isinstance(opponent, DxpOpponent) and spec.kind == "dxp-listen":
        opponent.listen()  # a port in use stops here, in one line
    return ChosenOpponent(opponent, spec)


def board_opponent(args, spec, variant, tags):
    """The other board of a match (``--opponent board:MATCH``) through the broker the spec
    names, else ``--hall``'s (credentials as the hall link's: the URL, else
    DRAUGHTSBOARD_HALL_USER and DRAUGHTSBOARD_HALL_PASSWORD[_FILE]); docs/opponents.md."""
    from draughtsboard.hall_link.match_link import MatchLink
    from draughtsboard.hall_protocol.broker import BrokerURLError, parse_broker_url
    from draughtsboard.opponents import BoardOpponent

    url = spec.broker or args.hall
    if not url:
        raise UsageError(Message.of("cli.error.opponent_broker", match=spec.match))
    try:
        address = parse_broker_url(url)
    except BrokerURLError as error:
        raise UsageError(Message.of("cli.error.option", option=f"--opponent board:{spec.match}",
                                    reason=str(error))) from None
    seat = "black" if args.opponent_side == "white" else "white"
    link = MatchLink(address, spec.match, seat)
    return BoardOpponent(variant, spec.match, seat, link,
                         name=tags.get(seat.capitalize(), ""), tags=tags)


