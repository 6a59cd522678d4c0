"""The `draughtsboard` command: the one package that wires adapters to the core.

One module per command that needs an adapter or the hall (`play`, `hall`, `venue`,
`diag`, `emulate`, and the boards `replay` plays on); the commands that need neither
live in `draughtsboard.commands` and are only registered here. Each command resolves
its settings once into a frozen dataclass (`play_settings.PlaySettings`,
`hall.HallSettings`, `venue.VenueSettings`).

Every command runs under one top-level handler (`main`): whatever escapes it becomes one
line, ``draughtsboard <command>: <what>``, said in the command's language, and an exit
status that says which kind of failure it was (`errors.failure`, the one table; the
statuses are sysexits.h's, listed in docs/cli.md), so that the systemd unit can stop
restarting on the ones a restart cannot cure (``RestartPreventExitStatus``).
"""

from __future__ import annotations

import argparse
import sys

from draughtsboard.commands import analyse, hub, pdn, replay, rules, token, track

from . import diag, emulate, hall, play, venue
from .buttons import wire_hint_button
from .errors import (
    EXIT_BUSY,
    EXIT_CANTCREAT,
    EXIT_CONFIG,
    EXIT_DATA,
    EXIT_IO,
    EXIT_NOINPUT,
    EXIT_NOPERM,
    EXIT_SOFTWARE,
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
    CommandError,
    Failure,
    NoInputError,
    PlayConfigError,
    SettingError,
    UsageError,
    failure,
)
from .hall_link import health_probe
from .play_settings import choose_backend, coach_sides, play_language
from .replay_backends import REPLAY_BACKENDS, replay_on_emulated_device, replay_on_simulated_board
from .speech import espeak_voice, speech_settings

__all__ = ["EXIT_BUSY", "EXIT_CANTCREAT", "EXIT_CONFIG", "EXIT_DATA", "EXIT_IO",
           "EXIT_NOINPUT", "EXIT_NOPERM", "EXIT_SOFTWARE", "EXIT_UNAVAILABLE", "EXIT_USAGE",
           "CommandError", "Failure", "NoInputError", "PlayConfigError", "SettingError",
           "UsageError", "build_parser", "choose_backend", "coach_sides", "espeak_voice",
           "failure", "health_probe", "main", "play_language", "replay_on_emulated_device",
           "replay_on_simulated_board", "speech_settings", "wire_hint_button"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(
        prog="draughtsboard",
        description="Electronic draughts board: rules engine, sensors, LEDs and recording.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules.add_parsers(subparsers)
    track.add_parsers(subparsers)
    pdn.add_parsers(subparsers)
    token.add_parsers(subparsers)
    analyse.add_parsers(subparsers)
    hub.add_parsers(subparsers)
    replay.add_parsers(subparsers, REPLAY_BACKENDS)
    diag.add_parser(subparsers)
    emulate.add_parser(subparsers)
    play.add_parser(subparsers)
    hall.add_parser(subparsers)
    venue.add_parser(subparsers)
    return parser


def _words(args):
    """The renderer of the language the command was given (``--language``), else
    English: a refusal of the language itself is said in English."""
    from draughtsboard.words import UnknownLanguageError, check_language, english, words_for

    asked = getattr(args, "language", None)
    try:
        return words_for(check_language(asked)) if asked else english
    except UnknownLanguageError:
        return english


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status. Whatever the command lets escape is one line on
    standard error (see the module doc); ``DRAUGHTSBOARD_TRACEBACK=1`` shows the
    traceback too, for a developer."""
    import os

    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command if args.command != "pdn" else f"pdn {args.pdn_command}"
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # noqa: BLE001 - the one top-level handler
        known = failure(error)
        if known is None:
            raise
        if os.environ.get("DRAUGHTSBOARD_TRACEBACK"):
            import traceback

            traceback.print_exc()
        print(known.line(command, _words(args)), file=sys.stderr)
        return known.status


if __name__ == "__main__":
    sys.exit(main())
