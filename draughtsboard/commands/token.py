"""`draughtsboard token`: print the arbiter's token, or replace it (``--rotate``).

The token lives in the data directory (`draughtsboard.play.token`), so a restart keeps
it; a running board or hall (``--data`` its data directory) reads the file again when it
changes, so a rotated token works at once and the old one stops working at once.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from draughtsboard.commands.options import add_data_option, data_dir
from draughtsboard.play.token import ArbiterToken
from draughtsboard.recording.recorder import default_data_dir


def add_parsers(subparsers) -> None:
    """Register ``token``."""
    parser = subparsers.add_parser(
        "token", help="print the arbiter's token (kept in the data directory), or replace it")
    add_data_option(parser)
    parser.add_argument("--rotate", action="store_true",
                        help="write a new token: the old one stops working, also on a "
                        "running board")
    parser.set_defaults(handler=run_token)


def run_token(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print the token (made on first use); with ``--rotate`` a new one."""
    out = out or sys.stdout
    store = ArbiterToken(data_dir(args) or default_data_dir())
    try:
        value = store.rotate() if args.rotate else store.current()
    except OSError as error:
        print(f"draughtsboard token: {error}", file=sys.stderr)
        return 2
    print(value, file=out)
    if args.rotate:
        print(f"new arbiter token written to {store.path}; pages must enter it again",
              file=sys.stderr)
    return 0
