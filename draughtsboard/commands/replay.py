"""`draughtsboard replay`: recorded or random games through the simulated board and tracker.

The board backend is injected by `draughtsboard.cli` (``backends``: name -> factory of a
`replay.VirtualBoard`), so this module imports no adapter.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.replay import (
    GameReport,
    NoiseStats,
    VirtualBoard,
    percentile,
    random_game,
    replay_game,
)
from draughtsboard.board.replay.harness import OpenBoard
from draughtsboard.board.replay.irregular_play import IrregularStats, play_irregular_game
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import Mode
from draughtsboard.board.tracker.policy import POLICIES, policy_for

from .pdn_files import PdnFileError, read_pdn_file
from .rules import add_variant_argument

BoardFactory = Callable[[Position, argparse.Namespace], VirtualBoard]
# Virtual seconds the hand waits, at most, for the tracker to see the start position (a
# board behind a serial link shows it only once the link is up), and at the end of a game
# for a last move still under way to show (a snapshot lost on the line is asked again).
WAIT_FOR_THE_BOARD = 10.0


def add_parsers(subparsers, backends: dict[str, BoardFactory]) -> None:
    """Register ``replay`` with the board backends the composition root offers."""
    replay = subparsers.add_parser(
        "replay", help="play games physically on the simulated board through the tracker")
    replay.add_argument("files", nargs="*", metavar="FILE", help="PDN files to replay")
    add_variant_argument(replay, default=None)
    replay.add_argument("--noise", type=int, metavar="SEED",
                        help="add seeded hand and sensor noise")
    replay.add_argument("--mode", default="tournament", choices=["tournament", "training"])
    replay.add_argument("--random", type=int, metavar="N", help="play N seeded random games")
    replay.add_argument("--seed", type=int, default=1, help="seed of the random games")
    replay.add_argument("--backend", default="sim", choices=sorted(backends))
    replay.add_argument("--fault-rate", type=float, default=0.0,
                        help="serial-emulated backend: byte fault rate")
    replay.add_argument("--irregular", choices=sorted(POLICIES),
                        help="irregularity policy (default: the variant's)")
    replay.add_argument("--irregular-rate", type=float, default=0.0, metavar="R",
                        help="random games: before each ply, with probability R, the player "
                        "makes an irregular move and the opponent demands a restore or "
                        "plays on")
    replay.add_argument("--summary-json", action="store_true",
                        help="end with one JSON line of totals")
    replay.set_defaults(handler=lambda args: run_replay(args, backends))


# A game to replay: its name, start, moves and, for a file's game, the moves' texts.
ReplayedGame = tuple[str, Position, list[Move], list[str] | None]


def _games(args) -> tuple[list[ReplayedGame], list[str]]:
    games: list[ReplayedGame] = []
    rejected: list[str] = []
    if args.random:
        variant = get_variant(args.variant or "russian")
        rng = random.Random(args.seed)
        start = initial_position(variant)
        for index in range(1, args.random + 1):
            games.append((f"{variant.name} random {index}", start, random_game(start, rng),
                          None))
    default = get_variant(args.variant) if args.variant else None
    for path in args.files:
        try:
            text = read_pdn_file(path)
        except OSError as error:
            rejected.append(f"{path}: {error.strerror}")
            continue
        except PdnFileError as error:
            rejected.append(f"{path}: {error}")
            continue
        result = read_pdn(text, variant=default, source=path)
        for problem in result.errors:
            rejected.append(str(problem))
        for item in result.games:
            game = item.game
            moves = [played.move for played in game.moves]
            games.append((f"{path} game {item.number}", game.positions[0], moves,
                          [played.text for played in game.moves]))
    return games, rejected


def _opener(factory: BoardFactory, args: argparse.Namespace) -> OpenBoard:
    """The board opener of one game (the game's own arguments)."""
    return lambda position: factory(position, args)


def recorded_pdn_differs(start: Position, recorded: list, texts: list[str]) -> bool:
    """Whether the game the board recorded, written as PDN and read back, is not the
    file's game move for move (a move missing counts, as does one that is not legal)."""
    game = Game(start.variant, start)
    try:
        for move in recorded:
            game.play(move)
    except DraughtsError:
        return True
    read = read_pdn(write_game(game), source="recorded")
    return bool(read.errors) or len(read.games) != 1 or \
        [played.text for played in read.games[0].game.moves] != texts


def run_replay(args: argparse.Namespace, backends: dict[str, BoardFactory],
               out=None) -> int:
    """``replay``: play every game physically, print one line per game and the totals; 1 on any
    mismatch or false alarm."""
    out = out or sys.stdout
    if not args.files and not args.random:
        print("draughtsboard replay: give PDN files or --random N", file=sys.stderr)
        return 2
    try:
        games, rejected = _games(args)
    except DraughtsError as error:
        print(f"draughtsboard replay: {error}", file=sys.stderr)
        return 2
    for reason in rejected:
        print(f"rejected: {reason}", file=out)
    factory = backends[args.backend]
    reports: list[GameReport] = []
    irregular = IrregularStats()
    if args.irregular_rate and (args.files or not 0 < args.irregular_rate <= 1):
        print("draughtsboard replay: --irregular-rate (0-1] plays random games only "
              "(give --random N, no files)", file=sys.stderr)
        return 2
    pdn_differs = 0
    for index, (name, start, moves, texts) in enumerate(games, 1):
        game_args = argparse.Namespace(**vars(args), game_index=index)
        policy = policy_for(start.variant.name, args.irregular)
        if args.irregular_rate:
            report, stats = play_irregular_game(
                name, start, _opener(factory, game_args),
                seed=args.seed * 100003 + index, rate=args.irregular_rate, policy=policy,
                noise_seed=args.noise, mode=Mode(args.mode),
                wait_until_ready=WAIT_FOR_THE_BOARD)
            irregular.merge(stats)
        else:
            report = replay_game(name, start, moves, _opener(factory, game_args),
                                 noise_seed=args.noise, mode=Mode(args.mode), policy=policy,
                                 wait_until_ready=WAIT_FOR_THE_BOARD)
        if texts is not None and recorded_pdn_differs(start, report.moves, texts):
            pdn_differs += 1
            report.notes.append("the recorded game's PDN is not the file's")
        report.moves = []  # (not kept for the summary)
        reports.append(report)
        print(report.line(), file=out, flush=True)
    timings = [t for report in reports for t in report.timings]
    latencies = [t for report in reports for t in report.latencies]
    plies = sum(r.plies for r in reports)
    recorded = sum(r.recorded for r in reports)
    asks = sum(r.asks for r in reports)
    summary: dict[str, object] = {
        "games": len(reports),
        "plies": plies,
        "recorded": recorded,
        "mismatches": sum(r.mismatches for r in reports),
        "wrong": sum(r.wrong for r in reports),
        "missing": sum(r.missing for r in reports),
        "false_alarms": sum(r.false_alarms for r in reports),
        "stalls": sum(r.stalls for r in reports),
        "asks": asks,
        "rejected": len(rejected),
        "pdn_differs": pdn_differs,  # file games whose recorded PDN is not the file's
        "snapshots": len(timings),
        "p50_ms": round(percentile(timings, 0.5) * 1000, 4),
        "p99_ms": round(percentile(timings, 0.99) * 1000, 4),
        "max_move_latency_ms": round(max(latencies, default=0.0) * 1000, 3),
        "noise": {name: sum(getattr(r.noise, name) for r in reports)
                  for name in NoiseStats.__dataclass_fields__},
    }
    for report in reports:
        if report.stalls:
            print(f"stall: {report.name} stopped recording at ply {report.stalled_at}",
                  file=out)
    if args.irregular_rate:
        summary["irregularities"] = {
            "injected": sum(irregular.injected.values()),
            "by_kind": dict(sorted(irregular.injected.items())),
            "flagged": irregular.flagged, "unflagged": len(irregular.unflagged),
            "stood": irregular.stood, "stood_with_comment": irregular.stood_with_comment,
            "restored": irregular.restored,
        }
        for line in irregular.unflagged[:20]:
            print(f"not flagged: {line}", file=out)
    summary["share_recorded"] = round(recorded / max(1, plies), 4)
    summary["asks_per_1000_plies"] = round(1000 * asks / max(1, plies), 3)
    if args.summary_json:
        print(json.dumps(summary), file=out)
    else:
        print(f"{summary['games']} games, {summary['plies']} plies, "
              f"{summary['mismatches']} mismatches ({summary['wrong']} wrong, "
              f"{summary['missing']} missing), {summary['false_alarms']} false alarms, "
              f"{summary['stalls']} stalls, {summary['asks']} asks", file=out)
    failed = summary["mismatches"] or summary["false_alarms"] or summary["stalls"] or \
        pdn_differs or \
        (args.irregular_rate and irregular.unflagged)
    return 1 if failed else 0
