"""`draughtsboard perft` and `draughtsboard moves`: the rules engine from the shell."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TextIO

from draughtsboard.board.rules import initial_position, perft
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.fen import parse_fen
from draughtsboard.board.rules.notation import format_move
from draughtsboard.board.rules.position import Position
from draughtsboard.board.rules.variants import Variant, get_variant, variant_names


def add_variant_argument(parser: argparse.ArgumentParser, default: str | None = "russian") -> None:
    """The ``--variant`` option, its choices the known variants."""
    parser.add_argument("--variant", default=default, choices=variant_names(),
                        help="the game (default: %(default)s)")


def add_parsers(subparsers) -> None:
    """Register ``perft`` and ``moves``."""
    perft = subparsers.add_parser("perft", help="count the move tree (engine self-test)")
    add_variant_argument(perft)
    perft.add_argument("--fen", help="start position (default: the initial position)")
    perft.add_argument("--depth", type=int, required=True, help="deepest ply to count")
    perft.set_defaults(handler=run_perft)

    moves = subparsers.add_parser(
        "moves", help="list legal moves; without --fen, one FEN per line from standard input")
    add_variant_argument(moves)
    moves.add_argument("--fen", help="the position (default: read FENs from standard input)")
    moves.add_argument("--json", action="store_true", help="one JSON array per position")
    moves.set_defaults(handler=run_moves)


def load_position(variant: Variant, fen: str | None) -> Position:
    """The position of a FEN, or the variant's initial position."""
    return initial_position(variant) if fen is None else parse_fen(variant, fen)


def run_perft(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``perft``: one line per depth, ``depth nodes seconds``."""
    out = out if out is not None else sys.stdout
    variant = get_variant(args.variant)
    if args.depth < 1:
        print("draughtsboard perft: --depth must be at least 1", file=sys.stderr)
        return 2
    try:
        position = load_position(variant, args.fen)
    except DraughtsError as error:
        print(f"draughtsboard perft: {error}", file=sys.stderr)
        return 2
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        nodes = perft(position, depth)
        print(f"{depth} {nodes} {time.perf_counter() - started:.3f}", file=out, flush=True)
    return 0


def moves_json(position: Position) -> list[dict]:
    """The legal moves of a position as ``moves --json`` prints them."""
    legal = position.legal_moves()
    return [
        {"notation": format_move(position, move, legal), "path": list(move.path),
         "captures": list(move.captures)}
        for move in legal
    ]


def _print_moves(position: Position, as_json: bool, out: TextIO) -> None:
    if as_json:
        print(json.dumps(moves_json(position)), file=out)
    else:
        legal = position.legal_moves()
        for move in legal:
            print(format_move(position, move, legal), file=out)


def run_moves(args: argparse.Namespace, stdin: TextIO | None = None,
              out: TextIO | None = None) -> int:
    """``moves``: the legal moves of one FEN, or of each FEN line read from standard input."""
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    variant = get_variant(args.variant)
    if args.fen is not None:
        try:
            position = parse_fen(variant, args.fen)
        except DraughtsError as error:
            print(f"draughtsboard moves: {error}", file=sys.stderr)
            return 2
        _print_moves(position, args.json, out)
        return 0
    status = 0
    for number, line in enumerate(stdin, 1):
        text = line.strip()
        try:
            position = parse_fen(variant, text)
        except DraughtsError as error:
            print(f"draughtsboard moves: line {number}: {error}", file=sys.stderr)
            print("[]" if args.json else "", file=out, flush=True)
            status = 1
            continue
        _print_moves(position, args.json, out)
        if not args.json:
            print("", file=out)
        out.flush()
    return status
