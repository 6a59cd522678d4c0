"""`draughtsboard pdn check|convert`, `draughtsboard games`, `draughtsboard export`.

Every problem is one line on standard error (file, game, line, column, token); no
traceback reaches the user. Exit status: 0 all good, 1 some game bad, 2 nothing usable
(a file or game that cannot be read at all, bad arguments).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from draughtsboard.board.game.pdn_reader import (
    PdnError,
    PdnGame,
    iter_pdn,
)
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.commands.options import add_data_option, data_dir
from draughtsboard.commands.pdn_files import read_pdn_file
from draughtsboard.commands.rules import add_variant_argument
from draughtsboard.recording import Recorder


def add_parsers(subparsers) -> None:
    """Register ``pdn check``, ``pdn convert``, ``games`` and ``export``."""
    pdn = subparsers.add_parser("pdn", help="read, check and convert PDN files")
    actions = pdn.add_subparsers(dest="pdn_command", required=True, metavar="ACTION")

    check = actions.add_parser("check", help="validate every game; one line per game")
    add_variant_argument(check, default=None)
    _add_draw_preset(check)
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(handler=run_check)

    convert = actions.add_parser("convert", help="read, validate and write PDN 3.0")
    add_variant_argument(convert, default=None)
    _add_draw_preset(convert)
    convert.add_argument("file", metavar="FILE")
    convert.add_argument("--out", required=True, help="output file ('-' for standard output)")
    convert.set_defaults(handler=run_convert)

    games = subparsers.add_parser("games", help="list recorded games")
    add_data_option(games, old_name=True)
    games.set_defaults(handler=run_games)

    export = subparsers.add_parser("export", help="a recorded game as PDN")
    add_data_option(export, old_name=True)
    export.add_argument("--game", help="game id (default: the most recent game)")
    export.add_argument("--out", help="output file (default: standard output)")
    export.set_defaults(handler=run_export)


def _add_draw_preset(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--draw-rules", dest="draw_preset", default=None,
                        help="draw-rule preset (international: fmjd, seed-2008)")


def _fail(command: str, message: str) -> None:
    print(f"draughtsboard {command}: {message}", file=sys.stderr)


def iter_file(path: str, args: argparse.Namespace):
    """The games and errors of one PDN file, one at a time (`iter_pdn`)."""
    text = read_pdn_file(path)
    variant = get_variant(args.variant) if args.variant else None
    return iter_pdn(text, variant=variant, source=path, draw_preset=args.draw_preset)


def _summary(path: str, entry) -> str:
    game = entry.game
    players = f"{game.tags.get('White', '?')} - {game.tags.get('Black', '?')}"
    return (f"{path}: game {entry.number}: ok, {game.variant.name}, {game.ply} plies, "
            f"{game.result_text()}, {players}")


def run_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``pdn check``: read every file and report each bad game on one line; 1 if any.
    Games are checked one at a time: a file of any size needs the memory of one game."""
    out = out or sys.stdout
    status = 0
    for path in args.files:
        count = 0
        try:
            for entry in iter_file(path, args):
                if isinstance(entry, PdnGame):
                    count += 1
                    print(_summary(path, entry), file=out)
                elif entry.warning:
                    _fail("pdn check", f"warning: {entry}")
                else:
                    count += 1
                    print(f"{entry}", file=out)
                    status = max(status, 1)
        except (OSError, DraughtsError) as error:
            _fail("pdn check", f"{path}: {_reason(error)}")
            status = max(status, 2)
            continue
        if count == 0:
            _fail("pdn check", f"{path}: no game found")
            status = max(status, 1)
    return status


def run_convert(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``pdn convert``: read a PDN file and write its good games back in canonical PDN."""
    out = out or sys.stdout
    parts: list[str] = []
    errors = games = 0
    try:
        for entry in iter_file(args.file, args):
            if isinstance(entry, PdnGame):
                games += 1
                parts.append(write_game(entry.game))
            elif isinstance(entry, PdnError):
                if not entry.warning:
                    errors += 1
                _fail("pdn convert", f"warning: {entry}" if entry.warning else str(entry))
    except (OSError, DraughtsError) as error:
        _fail("pdn convert", f"{args.file}: {_reason(error)}")
        return 2
    if not games:
        _fail("pdn convert", f"{args.file}: no game found; nothing written")
        return 1
    try:
        _write(args.out, "".join(parts), out)
    except OSError as error:
        _fail("pdn convert", f"{args.out}: {_reason(error)}")
        return 2
    return 1 if errors else 0


def run_games(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``games``: one line per recorded game (id, variant, status, moves, result, players)."""
    out = out or sys.stdout
    recorder = Recorder(data_dir(args))
    try:
        summaries = recorder.list_games()
    except OSError as error:
        _fail("games", _reason(error))
        return 2
    for s in summaries:
        players = f"{s.white or '?'} - {s.black or '?'}"
        line = f"{s.game_id}  {s.variant:<13} {s.status:<10} {s.moves:>4} plies  {s.result:<7}"
        line += f" {players}" + (f"  [{s.event}]" if s.event else "")
        if s.problem:
            line += f"  ({s.problem})"
        print(line, file=out)
    if not summaries:
        print(f"no recorded games in {recorder.games_dir}", file=sys.stderr)
    return 0


def run_export(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``export``: a recorded game (default: the latest) as PDN."""
    out = out or sys.stdout
    recorder = Recorder(data_dir(args))
    try:
        game_id = args.game
        if game_id is None:
            ids = recorder.game_ids()
            if not ids:
                _fail("export", f"no recorded games in {recorder.games_dir}")
                return 2
            game_id = ids[-1]
        text = recorder.export_pdn(game_id)
        _write(args.out or "-", text, out)
    except (OSError, DraughtsError) as error:
        _fail("export", _reason(error))
        return 2
    return 0


def _write(target: str, text: str, out: TextIO) -> None:
    if target == "-":
        out.write(text)
        out.flush()
    else:
        Path(target).write_text(text, encoding="utf-8")


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error).splitlines()[0] if str(error) else type(error).__name__
