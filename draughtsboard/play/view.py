"""The page's view of a board in play: one JSON-ready dict of everything the page shows.

A pure function of the session's parts (the tracker, the recorded game, the last LED
frame, the switches, the arbiter's log), so it can be built and tested without a thread,
a board or a server. The session builds it after every change and publishes it when it
differs from the last one.

Every sentence in it is a message's JSON (``{"id": ..., "params": {...}}``, see
docs/languages.md): the page renders it in its reader's language. Notation, square
names, player names, tags and result codes stay as they are; so do errors a system gave
(``error``, ``recording_error``, ``link_problem``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from draughtsboard.board.game import reasons
from draughtsboard.board.game.record import STANDARD_TAGS, Game
from draughtsboard.board.message import Message, is_message_json
from draughtsboard.board.ports import LedFrame, squares_from_mask
from draughtsboard.board.rules.draws import Reason
from draughtsboard.board.tracker import State, Tracker
from draughtsboard.recording import DamagedGame
from draughtsboard.recording.reasons import reason_message

from .guidance import guidance

# The tracker's intents that the page shows as flags, and their words.
FLAG_OF_INTENT = {"illegal": "illegal", "must_capture": "must capture", "restore": "restore",
                  "ambiguous": "ambiguous"}


def damage_view(damage: DamagedGame | None) -> dict[str, Any] | None:
    """The page's part of a damaged journal waiting for the arbiter; ``None`` without
    one."""
    if damage is None:
        return None
    return {"game_id": damage.game_id, "text": damage.describe().as_json(),
            "good_records": damage.good, "resumable": damage.resumable}


def build_view(*, tracker: Tracker, game: Game, game_id: str, mode: str, backend: str,
               frame: LedFrame, occupied: int, switches: int | None,
               log: Iterable[dict[str, Any]], unacknowledged: int, error: str | None,
               clocks: dict[str, Any] | None = None,
               notices: Iterable[Message | str] = (), held: list[str] | None = None,
               recording_error: str | None = None, damage: dict[str, Any] | None = None,
               link_problem: str | None = None,
               coach: dict[str, Any] | None = None,
               opponent: dict[str, Any] | None = None) -> dict[str, Any]:
    """The view (see the module doc). ``switches`` is the simulated board's switch mask,
    ``None`` on a real board (the page then has no hands); ``clocks`` the game clock's
    view (`GameClock.view`); ``notices`` what the page says until the next game.
    ``held`` are moves played but not recorded yet (a write failed: "not recorded" until
    they are), ``damage`` a damaged journal waiting for the arbiter, ``link_problem``
    what is wrong with the board's link; each also shows as a flag, so a page that knows
    only flags shows them. ``coach`` is the coach's part (hints, warnings, the evaluation
    curve, a puzzle), ``None`` without a coach; ``opponent`` the opponent's part
    (`opponent_seat.OpponentSeat.view`), ``None`` without one."""
    position = tracker.position
    variant = position.variant
    geometry = variant.geometry
    leds = {}
    for index, pattern in enumerate(frame.patterns):
        if pattern:
            colour = frame.colours[index] if frame.colours else None
            leds[str(index + 1)] = [pattern.name.lower(), colour]
    columns = {}
    for square in geometry.numbers:
        column = position.column_at(square)
        if column:
            columns[str(square)] = column
    flags = [FLAG_OF_INTENT[k] for k in FLAG_OF_INTENT if tracker.intents.get(k)]
    if tracker.state is State.DISTURBED:
        flags.append("disturbed")
    if held:
        flags.append(f"not recorded: {', '.join(held)}"
                     + (f" ({recording_error})" if recording_error else ""))
    if damage is not None:
        flags.append(f"journal damaged: {damage['game_id']}")
    if link_problem:
        flags.append(f"board link: {link_problem}")
    expected = tracker.expected_move
    playing = opponent is not None and game.result is None and tracker.is_opponents_turn
    result_reason = said(reason_message(game.result_why, game.result_by)) \
        if game.result_reason else ""
    words = guidance(position, tracker.state.value, tracker.intents, occupied,
                     result=game.result_text() if game.result is not None else None,
                     result_reason=reason_message(game.result_why, game.result_by),
                     irregularity=(tracker.pending_irregularity.message
                                   if tracker.pending_irregularity is not None else None),
                     opponent=opponent_name(opponent["name"])
                     if playing and opponent is not None else None,
                     expected=expected.move if expected is not None and playing else None,
                     owed=tracker.takeback_owed if playing else None,
                     opponent_failed=bool(playing and opponent is not None
                                          and opponent["error"]),
                     full_setup=mode == "puzzle",
                     match_paused=opponent_name(opponent["name"])
                     if opponent is not None and opponent.get("reachable") is False
                     else None,
                     match_claim=Message.from_json(opponent["claim"])
                     if opponent is not None and opponent.get("claim") else None)
    draw_reasons = [said(reason_message(r)) for r in game.draw_reasons()] \
        if game.result is None else []
    last = game.moves[-1] if game.moves else None
    return {
        "variant": variant.name,
        "title": variant.title,
        "size": geometry.size,
        "algebraic": variant.algebraic_moves,
        "officers": variant.holds_columns,  # a crowned piece is called an officer
        "squares": [[n, *geometry.coords(n), geometry.name(n)] for n in geometry.numbers],
        "backend": backend,
        "hands": switches is not None,
        "game_id": game_id,
        "mode": mode,
        "state": tracker.state.value,
        "status": words.headline.as_json(),
        "guidance": [flag.as_json() for flag in words.flags],
        "white_to_move": position.white_to_move,
        "fen": position.fen(),
        "columns": columns,
        "carried": {str(square): column for square, column in words.carried.items()},
        "occupied": squares_from_mask(occupied),
        "switches": squares_from_mask(switches) if switches is not None else None,
        "leds": leds,
        "intents": {k: list(v) for k, v in tracker.intents.items()},
        "flags": flags,
        "moves": [played.text for played in game.moves],
        "last_move": None if last is None else {
            "text": last.text, "path": list(last.move.path),
            "captures": list(last.move.captures)},
        # plies (0-based) of irregular moves that stood (FMJD Annex 1, 5.4): mark them
        "irregular_moves": [ply for ply, played in enumerate(game.moves)
                            if played.irregularity],
        "tags": ordered_tags(game.tags),
        "result": game.result_text() if game.result is not None else None,
        "result_reason": result_reason,
        "result_withdrawable": game.result is not None and not position.is_game_over(),
        "draw_reason": draw_reasons[0] if draw_reasons else None,
        "draw_claim": {"result": variant.results[1], "reasons": draw_reasons}
        if draw_reasons else None,
        "results": [*variant.results, "0-0"],
        "clocks": clocks,
        "irregularities": tracker.policy.name,
        "pending_irregularity": (tracker.pending_irregularity.message.as_json()
                                 if tracker.pending_irregularity is not None else None),
        "notices": [said(notice) for notice in notices],
        "log": list(log),
        "unacknowledged": unacknowledged,
        "error": error,
        "held": list(held or ()),
        "recording_error": recording_error,
        "damage": damage,
        "link_problem": link_problem,
        "coach": coach,
        "opponent": opponent,
    }


def said(value: Message | str) -> dict[str, Any] | str:
    """A message's JSON for the view (a plain text as it is)."""
    return value.as_json() if isinstance(value, Message) else value


def opponent_name(name: Any) -> Message | str:
    """The opponent's name as the view has it: a text, or a message's JSON (a name said
    in words, such as the built-in engine's)."""
    if is_message_json(name):
        try:
            return Message.from_json(name)
        except ValueError:
            return str(name.get("id"))
    return str(name)


def plain_reason(reason: Reason) -> str:
    """A draw rule's reason in English without its ``draw:`` ("threefold repetition"),
    for sentences that already say it is a draw."""
    return reasons.plain_words(reason)


def ordered_tags(tags) -> dict[str, str]:
    """The tags in the order a PDN file lists them (the roster, then by name): the page
    shows them the same way before and after a restart."""
    roster = {k: tags[k] for k in STANDARD_TAGS if k in tags}
    return {**roster, **{k: tags[k] for k in sorted(tags) if k not in roster}}
