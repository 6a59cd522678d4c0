"""What the hall page shows, as JSON-ready dicts built from the store and the boards'
live state: a board at a glance (mini-board, players, move number, clocks, result, who
needs the arbiter) and a board in full. Pure functions: call them with the store's lock
held."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from draughtsboard.board.rules.variants import VARIANTS

from .claims import Claim
from .ingest import BoardLive
from .store import HallGame

NEEDS_ARBITER_FLAGS = ("illegal", "disturbed", "ambiguous")
CLAIM_NEEDS = {"result": "result to confirm", "moves": "moves differ from the board's",
               "tags": "tags changed on the board", "game": "a game the hall did not expect",
               "round": "another game for a round"}


def variants_view() -> dict[str, Any]:
    """Each variant's board: size and where each square is (sent once)."""
    out = {}
    for name, variant in VARIANTS.items():
        geometry = variant.geometry
        out[name] = {"size": geometry.size,
                     "squares": [[n, *geometry.coords(n)] for n in geometry.numbers]}
    return out


def needs_arbiter(live: BoardLive, hall_game: HallGame | None,
                  wanted: dict[str, str] | None = None,
                  claims: Iterable[Claim] = ()) -> list[str]:
    reasons = []
    if live.seen and not live.online:
        reasons.append("offline")
    kinds = {claim.kind for claim in claims}
    reasons += [need for kind, need in CLAIM_NEEDS.items() if kind in kinds]
    if wanted:
        reasons.append("games asked for again")
    reasons += [f for f in NEEDS_ARBITER_FLAGS if f in live.flags]
    if live.unacknowledged:
        reasons.append(f"{live.unacknowledged} flag(s) to acknowledge")
    health = live.health or {}
    if health.get("error") or health.get("chattering") or health.get("stuck"):
        reasons.append("board health")
    if live.problems:
        reasons.append("bad messages")
    return reasons


def board_summary(board: int, live: BoardLive, hall_game: HallGame | None,
                  wanted: dict[str, str] | None = None,
                  claims: Iterable[Claim] = ()) -> dict[str, Any]:
    claims = list(claims)
    out: dict[str, Any] = {"board": board, "online": live.online, "seen": live.seen,
                           "flags": list(live.flags),
                           "needs": needs_arbiter(live, hall_game, wanted, claims),
                           "claims": [c.to_dict() for c in claims],
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
        "white": game.tags.get("White", ""), "black": game.tags.get("Black", ""),
        "round": game.tags.get("Round", ""), "event": game.tags.get("Event", ""),
        "ply": game.ply, "move_number": (game.ply + 1) // 2 if game.ply else 0,
        "last_move": last.text if last else "", "white_to_move": position.white_to_move,
        "pieces": pieces, "clocks": list(clocks[-1]) if clocks else None,
        "result": result, "result_reason": game.result_reason,
        "result_source": hall_game.result_source,
    })
    return out


def health_notes(health: Any) -> list[str]:
    """The board's health report in sentences for the arbiter (what a board sent is
    input: anything of the wrong shape is left out)."""
    if not isinstance(health, dict):
        return []
    notes = []
    if isinstance(health.get("error"), str) and health["error"]:
        notes.append(f"board error: {health['error']}")
    chattering = [s for s in health.get("chattering") or [] if isinstance(s, int)]
    if chattering:
        notes.append("switch chatters (a loose or failing reed) on square(s) "
                     + ", ".join(map(str, chattering)))
    for suspect in health.get("stuck") or []:
        if not isinstance(suspect, dict) or not isinstance(suspect.get("square"), int):
            continue
        state = "closed where no piece should be" if suspect.get("closed") else \
            "open under a piece"
        seconds = suspect.get("seconds")
        for_how_long = f" for {seconds} s" if isinstance(seconds, int) else ""
        notes.append(f"switch {suspect['square']} {state}{for_how_long}: stuck, or a "
                     "piece out of place")
    return notes


def board_detail(board: int, live: BoardLive, hall_game: HallGame | None,
                 games: list[HallGame], wanted: dict[str, str] | None = None,
                 claims: Iterable[Claim] = ()) -> dict[str, Any]:
    out = board_summary(board, live, hall_game, wanted, claims)
    out["asked_again"] = [{"game": g, "why": why} for g, why in (wanted or {}).items()]
    out.update({"software": live.software, "uptime": live.uptime, "health": live.health,
                "health_notes": health_notes(live.health),
                "unacknowledged": live.unacknowledged, "events": list(live.events),
                "problems": list(live.problems),
                "games": [{"game": g.game_id, "round": g.round, "ply": g.ply,
                           "result": g.game.result_text() if g.finished else None}
                          for g in games]})
    if hall_game is not None:
        out["moves"] = [p.text for p in hall_game.game.moves]
        out["tags"] = dict(hall_game.game.tags)
    return out
