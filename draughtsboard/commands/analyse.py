"""`draughtsboard analyse`: the engine on a position, or every move of a game judged.

A position (``--fen``, default the initial one): the best move, its score and line.
A PDN file, or a recorded game (``--game ID``): every game, each move with an evaluation
comment and its mistakes marked (`board.game.analysis`), written as PDN (``--out``,
default standard output).
With ``--json``: a position's answer is one line ``{"best": {"notation", "path",
"captures"}, "score", "depth", "pv", ...}``; a game's is one line per move.

Scores are hundredths of a man: from the side to move's view for a position, from
White's view for the moves of a game (the way evaluation graphs are drawn). The budget is
``--time`` seconds (default 1), ``--nodes`` or ``--depth`` per position; ``--nodes`` and
``--depth`` give the same answer on every run. Errors are one line on standard error:
exit status 2 when nothing could be analysed, 1 when some game of a file could not be
read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from draughtsboard.board.game.analysis import annotated, format_score, judge_game
from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.engine import (
    MAX_SECONDS,
    Engine,
    SearchLimitError,
    SearchResult,
)
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.fen import initial_position, parse_fen
from draughtsboard.board.rules.notation import format_move
from draughtsboard.board.rules.position import Position
from draughtsboard.board.rules.variants import get_variant, variant_names
from draughtsboard.commands.pdn_files import PdnFileError, read_pdn_file
from draughtsboard.recording import Recorder

MAX_FILE = 16 * 1024 * 1024  # a PDN file larger than this is refused before it is read


def add_parsers(subparsers) -> None:
    parser = subparsers.add_parser(
        "analyse", help="the engine: best line of a position, or every move of a PDN game "
        "judged")
    parser.add_argument("--variant", choices=variant_names(),
                        help="the game (default: a PDN game's own, else russian)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--fen", help="the position (default: the initial position)")
    source.add_argument("file", nargs="?", metavar="PDN", help="a PDN file: annotate its "
                        "games")
    source.add_argument("--game", metavar="ID", help="a recorded game (see `draughtsboard "
                        "games`): annotate it")
    parser.add_argument("--journal", metavar="DIR", default=None,
                        help="with --game: the data directory (default: $DRAUGHTSBOARD_DATA "
                        "or the user's data directory)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--time", type=float, metavar="S", help="seconds per position "
                        "(default 1)")
    budget.add_argument("--nodes", type=int, metavar="N", help="nodes per position "
                        "(the same answer on every run)")
    budget.add_argument("--depth", type=int, metavar="D", help="plies per position")
    parser.add_argument("--json", action="store_true", help="JSON lines instead of text")
    parser.add_argument("--out", metavar="FILE", help="annotated PDN to this file "
                        "(default: standard output)")
    parser.set_defaults(handler=run_analyse)


def _fail(message: str) -> int:
    print(f"draughtsboard analyse: {message}", file=sys.stderr)
    return 2


def _limits(args: argparse.Namespace) -> dict:
    if args.nodes is not None:
        return {"nodes": args.nodes}
    if args.depth is not None:
        return {"depth": args.depth}
    return {"seconds": 1.0 if args.time is None else args.time}


def position_json(position: Position, result: SearchResult) -> dict:
    """The answer for one position (the shape `draughtsboard analyse --json` prints)."""
    best = None
    if result.move is not None:
        best = {"notation": format_move(position, result.move),
                "path": list(result.move.path), "captures": list(result.move.captures)}
    pv = []
    current = position
    for move in result.pv:
        pv.append(format_move(current, move))
        current = current.play(move)
    return {"best": best, "score": result.score, "depth": result.depth, "pv": pv,
            "mate_in": result.mate_in, "nodes": result.nodes,
            "seconds": round(result.seconds, 3)}


def run_analyse(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        limits = _limits(args)
        for name, value in limits.items():
            option = f"--{'time' if name == 'seconds' else name}"
            if not value > 0:  # (NaN is not > 0 either)
                raise SearchLimitError(f"{option} must be positive, got {value}")
            if name == "seconds" and not value <= MAX_SECONDS:
                raise SearchLimitError(f"{option} must be at most {MAX_SECONDS} (a day), "
                                       f"got {value}")
    except SearchLimitError as error:
        return _fail(str(error))
    if args.file is not None:
        return _analyse_file(args, limits, out)
    if args.game is not None:
        return _analyse_recorded(args, limits, out)
    variant = get_variant(args.variant or "russian")
    try:
        position = initial_position(variant) if args.fen is None else parse_fen(variant,
                                                                                 args.fen)
    except DraughtsError as error:
        return _fail(str(error))
    result = Engine(variant).search(position, **limits)
    answer = position_json(position, result)
    if args.json:
        print(json.dumps(answer), file=out)
        return 0
    if result.move is None:
        side = "White" if position.white_to_move else "Black"
        print(f"{side} has no legal move: the game is lost", file=out)
        return 0
    score = format_score(result.score)
    print(f"best {answer['best']['notation']}  score {score} (side to move)  depth "
          f"{result.depth}  nodes {result.nodes}  {result.seconds:.2f} s", file=out)
    print("line " + " ".join(answer["pv"]), file=out)
    return 0


def _analyse_file(args: argparse.Namespace, limits: dict, out: TextIO) -> int:
    path = Path(args.file)
    try:
        text = read_pdn_file(path, MAX_FILE)
        variant = get_variant(args.variant) if args.variant else None
        read = read_pdn(text, variant=variant, source=str(path))
    except OSError as error:
        return _fail(f"{path}: {error.strerror or error}")
    except PdnFileError as error:
        return _fail(f"{path}: {error}")
    except DraughtsError as error:
        return _fail(str(error))
    for problem in read.errors:
        print(f"draughtsboard analyse: {problem}", file=sys.stderr)
    if not read.games:
        return _fail(f"{path}: no game that could be read")
    status = _annotate([(entry.number, entry.game) for entry in read.games], args, limits,
                       out)
    return status or (1 if read.errors else 0)


def _analyse_recorded(args: argparse.Namespace, limits: dict, out: TextIO) -> int:
    recorder = Recorder(args.journal)
    try:
        game = recorder.game(args.game)
    except FileNotFoundError:
        return _fail(f"no recorded game {args.game!r} in {recorder.games_dir}")
    except OSError as error:
        return _fail(f"{args.game}: {error.strerror or error}")
    except DraughtsError as error:
        return _fail(str(error).splitlines()[0] if str(error) else type(error).__name__)
    finally:
        recorder.close()
    return _annotate([(1, game)], args, limits, out)


def _annotate(games: list[tuple[int, Game]], args: argparse.Namespace, limits: dict,
              out: TextIO) -> int:
    """Judge every move of each game; write the annotated PDN (or JSON lines)."""
    engines: dict[str, Engine] = {}
    pieces = []
    for number, game in games:
        engine = engines.setdefault(game.variant.name, Engine(game.variant))

        def search(position, history, engine=engine):
            return engine.search(position, history=history, **limits)

        verdicts = judge_game(game, search)
        if args.json:
            for verdict in verdicts:
                print(json.dumps({"game": number, **verdict.as_dict()}), file=out)
            continue
        pieces.append(write_game(annotated(game, verdicts)))
    if not args.json:
        text = "".join(pieces)
        if args.out:
            try:
                Path(args.out).write_text(text, encoding="utf-8")
            except OSError as error:
                return _fail(f"{args.out}: {error.strerror or error}")
        else:
            out.write(text)
    return 0
