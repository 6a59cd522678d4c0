"""What the hall page shows, as JSON-ready dicts built from the store and the boards'
live state: a board at a glance (mini-board, players, move number, clocks, result, who
needs the arbiter) and a board in full. Pure functions: call them with the store's lock
held."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from draughtsboard.board.game.record import Game, move_number
from draughtsboard.board.message import Message
from draughtsboard.board.rules.notation import format_square
from draughtsboard.board.rules.variants import VARIANTS, Variant
from draughtsboard.hall_protocol.topics import PUBLIC_FEED

from .claims import Claim
from .ingest import BoardLive
from .said import said, said_reason, shown
from .store import HallGame

NEEDS_ARBITER_FLAGS = ("illegal", "disturbed", "ambiguous")
BOTH_LOSE = "0-0"  # a result of every variant besides its own three (a double forfeit)
CLAIM_KINDS_SHOWN = ("result", "moves", "tags", "game", "round")  # hall.need.claim.<kind>


def variants_view() -> dict[str, Any]:
    """Each variant's board: size, where each square is and its name as the variant
    writes it (a screen reader says "c3, white man"; sent once), whether squares hold
    columns (a crowned piece is then an officer)."""
    out = {}
    for name, variant in VARIANTS.items():
        geometry = variant.geometry
        out[name] = {"size": geometry.size, "columns": variant.holds_columns,
                     "squares": [[n, *geometry.coords(n), format_square(variant, n)]
                                 for n in geometry.numbers]}
    return out


def needs_arbiter(live: BoardLive, hall_game: HallGame | None,
                  wanted: Mapping[str, Message] | None = None,
                  claims: Iterable[Claim] = (),
                  desk: dict[str, Any] | None = None) -> list[Message]:
    """Why the board needs the arbiter, each a message (``hall.need.*``)."""
    reasons = []
    if live.room_cut == PUBLIC_FEED:  # a public hall: the venue's feed itself
        reasons.append(said("hall.need.feed_cut"))
    elif live.room_cut is not None:
        reasons.append(said("hall.need.room_cut", room=live.room_cut))
    elif live.seen and not live.online:
        reasons.append(said("hall.need.offline"))
    pairing = (desk or {}).get("pairing")
    if pairing is not None and pairing["state"] != "sent":
        state = said(f"hall.pairing.state.{pairing['state'].replace(' ', '_')}")
        reasons.append(said("hall.need.pairing", round=pairing["round"], state=state,
                            note=pairing["note"]) if pairing["note"] else
                       said("hall.need.pairing_state", round=pairing["round"], state=state))
    for refused in (desk or {}).get("refused", []):
        reasons.append(said("hall.need.refused", command=command_name(refused["cmd"]),
                            error=str(refused["error"])[:160]))
    for waiting in (desk or {}).get("unanswered", []):
        reasons.append(said("hall.need.unanswered", command=command_name(waiting["cmd"])))
    kinds = {claim.kind for claim in claims}
    reasons += [said(f"hall.need.claim.{kind}") for kind in CLAIM_KINDS_SHOWN if kind in kinds]
    if wanted:
        reasons.append(said("hall.need.asked_again"))
    reasons += [said(f"hall.need.flag.{f}") for f in NEEDS_ARBITER_FLAGS if f in live.flags]
    if live.unacknowledged:
        reasons.append(said("hall.need.unacknowledged", count=live.unacknowledged))
    health = live.health or {}
    if health.get("error") or health.get("chattering") or health.get("stuck"):
        reasons.append(said("hall.need.health"))
    if live.problems:
        reasons.append(said("hall.need.bad_messages"))
    return reasons


COMMANDS_NAMED = ("new_game", "set_tags", "result", "withdraw", "takeback", "position",
                  "clock", "acknowledge", "resend")  # hall.command.<cmd>


def command_name(cmd: Any) -> Message | str:
    """A command's name for people (``hall.command.*``); one the hall does not know, as
    it was written."""
    return said(f"hall.command.{cmd}") if cmd in COMMANDS_NAMED else str(cmd)[:40]


def board_summary(board: int, live: BoardLive, hall_game: HallGame | None,
                  wanted: Mapping[str, Message] | None = None,
                  claims: Iterable[Claim] = (),
                  desk: dict[str, Any] | None = None) -> dict[str, Any]:
    """A board at a glance. ``desk``: what of the arbiter's waits for the board (the
    pairing the hall owes it, commands it refused or has not answered)."""
    claims = list(claims)
    desk = desk or {}
    out: dict[str, Any] = {"board": board, "online": live.online, "seen": live.seen,
                           "room_cut": live.room_cut,
                           "flags": list(live.flags),
                           "needs": shown(needs_arbiter(live, hall_game, wanted, claims,
                                                        desk)),
                           "claims": [c.to_dict() for c in claims],
                           "pairing": shown(desk.get("pairing")),
                           "refused": desk.get("refused", []),
                           "unanswered": desk.get("unanswered", []),
                           "game": None}
    if hall_game is None:
        return out
    game = hall_game.game
    position = game.position
    pieces = {}
    for square in position.variant.geometry.numbers:
        column = position.column_at(square)
        if column:
            pieces[str(square)] = column
    clocks = [c for c in game.clocks() if c is not None]
    last = game.moves[-1] if game.moves else None
    result = game.result if game.result is not None else ("*" if hall_game.finished else None)
    out.update({
        "game": hall_game.game_id, "variant": position.variant.name,
        "finished": hall_game.finished,
        "white": game.tags.get("White", ""), "black": game.tags.get("Black", ""),
        "round": game.tags.get("Round", ""), "event": game.tags.get("Event", ""),
        "ply": game.ply,
        "move_number": move_number(game.start.white_to_move, game.ply - 1) if game.ply else 0,
        "last_move": last.text if last else "", "white_to_move": position.white_to_move,
        "pieces": pieces, "clocks": list(clocks[-1]) if clocks else None,
        "result": result, "result_reason": shown(said_reason(game.result_why, game.result_by)),
        "result_source": hall_game.result_source,
    })
    return out


def clock_now(live: BoardLive, game_id: str | None, now: float) -> dict[str, Any] | None:
    """The board's game clock as of ``now`` (the hall's wall clock, the one its reading
    was received by): both clocks' seconds left, the running side's aged by the time
    since the hall received the reading (never below zero, never more for a clock read
    later than received), and which side runs, for the pages to count it down as the
    board's page does. None for another game than the reading's, or without a reading
    (no time control, or an older board: the pages then show the last move's clocks)."""
    reading = live.clock
    if reading is None or game_id is None or live.clock_game != game_id:
        return None
    white, black = reading.white, reading.black
    if reading.running is not None and live.clock_received is not None:
        age = max(0.0, now - live.clock_received)
        if reading.running == "white":
            white = max(0.0, white - age)
        else:
            black = max(0.0, black - age)
    return {"white": round(white, 3), "black": round(black, 3), "running": reading.running,
            "status": reading.status, "control": reading.control,
            "flagged": list(reading.flagged)}


def with_clock_now(summary: dict[str, Any], live: BoardLive, now: float) -> dict[str, Any]:
    """A board's summary (or detail) with its clock as of ``now`` (`clock_now`): kept
    apart from the summary itself, which is cached until the board changes."""
    return {**summary, "clock": clock_now(live, summary.get("game"), now)}


def square_name(variant: Variant | None, square: Any) -> str | None:
    """A square a board names, as its variant writes it (``g5``, or ``17`` in the
    international game); None when it is no square of the board."""
    if isinstance(square, bool) or not isinstance(square, int):
        return None
    if variant is None:
        return str(square)
    if not 1 <= square <= variant.geometry.square_count:
        return None
    return format_square(variant, square)


def health_notes(health: Any, variant: Variant | None = None) -> list[Message]:
    """The board's health report as messages for the arbiter (``hall.health.*``), each
    square named as the board's variant writes it (what a board sent is input: anything
    of the wrong shape is left out)."""
    if not isinstance(health, dict):
        return []
    notes = []
    if isinstance(health.get("error"), str) and health["error"]:
        notes.append(said("hall.health.error", error=health["error"][:300]))
    chattering = [name for name in (square_name(variant, s)
                                    for s in (health.get("chattering") or [])[:64]) if name]
    if chattering:
        notes.append(said("hall.health.chattering", count=len(chattering),
                          squares=chattering))
    for suspect in health.get("stuck") or []:
        name = square_name(variant, suspect.get("square")) if isinstance(suspect, dict) \
            else None
        if name is None:
            continue
        state = "closed" if suspect.get("closed") else "open"
        seconds = suspect.get("seconds")
        if isinstance(seconds, int) and not isinstance(seconds, bool):
            notes.append(said(f"hall.health.stuck.{state}_for", square=name, count=seconds))
        else:
            notes.append(said(f"hall.health.stuck.{state}", square=name))
    return notes


def numbered_moves(game: Game) -> list[dict[str, Any]]:
    """The moves by move number, as a score sheet has them: ``{"number", "white",
    "black"}`` (a game Black begins has no White move in its first line)."""
    rows: list[dict[str, Any]] = []
    white_starts = game.start.white_to_move
    for index, played in enumerate(game.moves):
        number = move_number(white_starts, index)
        white_moves = white_starts == (index % 2 == 0)
        if not rows or rows[-1]["number"] != number:
            rows.append({"number": number, "white": "", "black": ""})
        rows[-1]["white" if white_moves else "black"] = played.text
    return rows


def game_state(hall_game: HallGame) -> Message | str:
    """How a game stands, for a list of games: its result code, or a message (closed
    unfinished, or in play)."""
    if not hall_game.finished:
        return said("hall.game.in_play")
    return hall_game.game.result or said("hall.game.abandoned")


def board_detail(board: int, live: BoardLive, hall_game: HallGame | None,
                 games: list[HallGame], wanted: Mapping[str, Message] | None = None,
                 claims: Iterable[Claim] = (),
                 desk: dict[str, Any] | None = None) -> dict[str, Any]:
    out = board_summary(board, live, hall_game, wanted, claims, desk)
    variant = hall_game.game.variant if hall_game is not None else None
    out["asked_again"] = [{"game": g, "why": shown(why)} for g, why in (wanted or {}).items()]
    out.update({"software": live.software, "uptime": live.uptime, "health": live.health,
                "health_notes": shown(health_notes(live.health, variant)),
                "unacknowledged": live.unacknowledged, "events": list(live.events),
                "problems": shown(live.problems),
                "games": [{"game": g.game_id, "round": g.round, "ply": g.ply,
                           "result": g.game.result_text() if g.finished else None,
                           "state": shown(game_state(g))}
                          for g in games]})
    if hall_game is not None:
        out["moves"] = [p.text for p in hall_game.game.moves]
        out["numbered_moves"] = numbered_moves(hall_game.game)
        out["tags"] = dict(hall_game.game.tags)
        out["results"] = [*hall_game.game.variant.results, BOTH_LOSE]  # as the board's page
    return out
