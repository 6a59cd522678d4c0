"""`draughtsboard track`: the bare tracker on a stream of JSON snapshots.

Standard input: one object per line, ``{"t": <milliseconds>, "occupied": [squares]}``,
each a debounced snapshot. Standard output: one object per tracker event, and at the end
``{"event": "end", "moves": [...], "state": "..."}``. A malformed line gets a one-line
error on standard error naming the line; the stream goes on.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TextIO

from draughtsboard.board.ports import Snapshot, mask_from_squares
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import (
    INTENTS,
    POLICIES,
    FlagEvent,
    GameOverEvent,
    IrregularMoveEvent,
    LedEvent,
    Mode,
    MoveEvent,
    TakebackEvent,
    Tracker,
    TrackerEvent,
    format_transition_table,
    policy_for,
)

from .rules import add_variant_argument, load_position


def add_parsers(subparsers) -> None:
    """Register ``track``."""
    track = subparsers.add_parser("track", help="run the move tracker on JSON snapshots")
    add_variant_argument(track)
    track.add_argument("--fen", help="start position (default: the initial position)")
    track.add_argument("--mode", default="tournament", choices=[m.value for m in Mode])
    track.add_argument("--irregular", choices=sorted(POLICIES),
                       help="irregularity policy (default: the variant's)")
    track.add_argument("--no-start-check", action="store_true",
                       help="take the first snapshot as play, not as the set-up check")
    track.add_argument("--print-table", action="store_true",
                       help="print every transition the tracker can take (its table: "
                            "state, observation, next state, action) and exit")
    track.set_defaults(handler=run_track)


def event_json(event: TrackerEvent) -> dict:
    """A tracker event as one JSON-ready dict (``event`` names its kind)."""
    t = round(event.t * 1000)
    if isinstance(event, MoveEvent):
        out = {"t": t, "event": "move", "move": event.notation, "path": list(event.path),
               "captures": list(event.captures), "notes": list(event.notes)}
        if event.replaces:
            out["replaces"] = event.replaces
        return out
    if isinstance(event, LedEvent):
        return {"t": t, "event": "leds",
                "intents": {name: list(event.intents.get(name, ())) for name in INTENTS}}
    if isinstance(event, TakebackEvent):
        out = {"t": t, "event": "takeback", "move": event.notation}
        if event.irregularity:
            out["irregularity"] = event.irregularity
        return out
    if isinstance(event, IrregularMoveEvent):
        return {"t": t, "event": "irregular_move", "move": event.notation,
                "path": list(event.path), "removed": list(event.removed),
                "irregularity": event.irregularity, "comment": event.comment}
    if isinstance(event, FlagEvent):
        out = {"t": t, "event": event.kind, "description": event.description,
               "squares": list(event.squares)}
        if event.irregularity:
            out["irregularity"] = event.irregularity
        return out
    if isinstance(event, GameOverEvent):
        return {"t": t, "event": "game_over",
                "winner": "black" if event.loser_is_white else "white"}
    return {"t": t, "event": event.kind}


MAX_T_MS = 1e15  # about 30,000 years: a time past this is not a time


def parse_snapshot_line(line: str, square_count: int) -> Snapshot:
    """One input line as a snapshot; ValueError with a one-line reason otherwise."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg})") from None
    except RecursionError:
        raise ValueError("not JSON (nested too deeply)") from None
    if not isinstance(data, dict):
        raise ValueError("expected an object with 't' and 'occupied'")
    t, occupied = data.get("t"), data.get("occupied")
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise ValueError("'t' must be a number of milliseconds")
    if (isinstance(t, float) and not math.isfinite(t)) or abs(t) > MAX_T_MS:
        raise ValueError(f"'t' must be a finite number of milliseconds (at most {MAX_T_MS:g})")
    if not isinstance(occupied, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in occupied):
        raise ValueError("'occupied' must be a list of square numbers")
    bad = [s for s in occupied if not 1 <= s <= square_count]
    if bad:
        raise ValueError(f"square {bad[0]} is not on the board (1-{square_count})")
    return Snapshot(mask_from_squares(occupied), t / 1000)


def run_track(args: argparse.Namespace, stdin: TextIO | None = None,
              out: TextIO | None = None) -> int:
    """``track``: snapshots from standard input through the tracker, events to standard output."""
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    if args.print_table:
        print(format_transition_table(), file=out)
        return 0
    variant = get_variant(args.variant)
    try:
        position = load_position(variant, args.fen)
    except DraughtsError as error:
        print(f"draughtsboard track: {error}", file=sys.stderr)
        return 2
    tracker = Tracker(position, Mode(args.mode), check_start=not args.no_start_check,
                      policy=policy_for(variant.name, args.irregular))
    square_count = variant.geometry.square_count
    last_t = None
    for number, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        try:
            snapshot = parse_snapshot_line(line, square_count)
            if last_t is not None and snapshot.timestamp < last_t:
                raise ValueError("time went backwards")
        except ValueError as error:
            print(f"draughtsboard track: line {number}: {error}", file=sys.stderr)
            continue
        last_t = snapshot.timestamp
        for event in tracker.feed(snapshot):
            print(json.dumps(event_json(event)), file=out)
        out.flush()
    moves = [event.notation for event in tracker.moves]
    print(json.dumps({"event": "end", "moves": moves, "state": tracker.state.value}), file=out)
    return 0
