"""The `draughtsboard` command: the one place that wires adapters to the core."""

from __future__ import annotations

import argparse
import sys

from draughtsboard.commands import rules, track


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="draughtsboard",
        description="Electronic draughts board: rules engine, sensors, LEDs and recording.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules.add_parsers(subparsers)
    track.add_parsers(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
