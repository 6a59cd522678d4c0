"""Options shared by the commands that read recorded games: one name, ``--data``.

``--journal`` was the old name of ``--data`` in ``games`` and ``export``; it still works,
hidden from the help, with a warning line, so that scripts written for it keep running.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DATA_HELP = "data directory (default: $DRAUGHTSBOARD_DATA or the user's data directory)"


class _DeprecatedJournal(argparse.Action):
    """``--journal DIR``: stores into ``data`` and says it is the old name."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"{parser.prog}: --journal is deprecated, use --data", file=sys.stderr)
        namespace.data = values


def add_data_option(parser: argparse.ArgumentParser, *, old_name: bool = False) -> None:
    """``--data DIR`` (and, with ``old_name``, the hidden ``--journal DIR``)."""
    parser.add_argument("--data", metavar="DIR", default=None, help=DATA_HELP)
    if old_name:
        parser.add_argument("--journal", metavar="DIR", action=_DeprecatedJournal,
                            help=argparse.SUPPRESS)


def data_dir(args: argparse.Namespace) -> Path | None:
    """The directory asked for, ``None`` for the default."""
    return Path(args.data) if args.data else None
