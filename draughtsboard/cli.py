"""The `draughtsboard` command: the one place that wires adapters to the core."""

from __future__ import annotations

import argparse
import sys

from draughtsboard.commands import replay, rules, track


def _simulated_board(position, args):
    from draughtsboard.hardware.virtual import VirtualTimeBoard

    return VirtualTimeBoard(position.variant.name, position.occupancy())


REPLAY_BACKENDS = {"sim": _simulated_board}


def _add_diag(subparsers) -> None:
    from draughtsboard.hardware import diag

    parser = subparsers.add_parser(
        "diag", help="switch map, LED walk and a stuck or chattering switch report")
    diag.add_arguments(parser)
    parser.set_defaults(handler=diag.run)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="draughtsboard",
        description="Electronic draughts board: rules engine, sensors, LEDs and recording.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules.add_parsers(subparsers)
    track.add_parsers(subparsers)
    replay.add_parsers(subparsers, REPLAY_BACKENDS)
    _add_diag(subparsers)
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
