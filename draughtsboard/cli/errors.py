"""Every way a command can end badly, and the one place that turns it into a line and an
exit status.

A command refuses by raising: `UsageError` for an argument that cannot be used,
`SettingError` for a setting that is refused, and so on, one class per cause, each with
its exit status from sysexits.h. Errors of the parts below (the board config's, the
recording's, the venue writer's) keep their own classes; `failure` is the one table that
maps them all, so a cause has one status whatever command met it (docs/cli.md lists
them). A refusal made here carries a `Message`, so its line is said in the command's
language (`refusal_line`); the parts' errors are one line of English.

Nothing here prints or exits: `draughtsboard.cli.main` does, with what `failure` says.
"""

from __future__ import annotations

from dataclasses import dataclass

from draughtsboard.board.message import Message
from draughtsboard.words import Words, english

# Exit statuses (sysexits.h), one per kind of failure; the unit's RestartPreventExitStatus
# lists those a restart cannot cure.
EXIT_USAGE = 64  # bad arguments
EXIT_DATA = 65  # bad input (the core's DraughtsError): a FEN, a PDN file, a game id
EXIT_NOINPUT = 66  # a file named on the command line that cannot be read
EXIT_UNAVAILABLE = 69  # what is not there: no GPIO chip, an opponent that does not answer
EXIT_SOFTWARE = 70  # a bug: an exception nobody expected (still one line)
EXIT_CANTCREAT = 73  # files the command writes could not be written (a venue's)
# storage (an OSError: a file, a port, a full disk, and recording's RecordingError: a
# journal damaged or changed under its writer)
EXIT_IO = 74
EXIT_BUSY = 75  # another process has the data directory (DataDirBusyError): try later
EXIT_NOPERM = 77  # a directory the service's user cannot enter
EXIT_CONFIG = 78  # the board config, or a setting that is refused (open simulator hands)


class CommandError(Exception):
    """A refusal of the command line, said as a `Message` (``str()`` is its English)."""

    status = EXIT_SOFTWARE

    def __init__(self, message: Message | str) -> None:
        self.message = message if isinstance(message, Message) else \
            Message.of("cli.error.text", text=message)
        super().__init__(english(self.message))


class UsageError(CommandError, ValueError):
    """An argument that cannot be used as given (64)."""

    status = EXIT_USAGE


class NoInputError(CommandError, ValueError):
    """A file the command was told to read that is not there or not readable (66)."""

    status = EXIT_NOINPUT


class SettingError(CommandError, ValueError):
    """A setting that is refused: the board's, the language, a mirror without its
    password (78)."""

    status = EXIT_CONFIG


PlayConfigError = SettingError  # its name before the commands were a package


@dataclass(frozen=True)
class Failure:
    """How a command ended: its exit status and the one line saying why."""

    status: int
    message: Message

    def line(self, command: str, words: Words | None = None) -> str:
        text = (words or english)(self.message)
        return f"draughtsboard {command}: {' '.join(text.split()) or self.message.id}"


def _text(text: str) -> Message:
    return Message.of("cli.error.text", text=text)


def failure(error: BaseException) -> Failure | None:
    """The exit status and the one-line reason for an error that ends a command, by its
    cause; ``None`` for one the handler must not swallow (KeyboardInterrupt,
    SystemExit)."""
    from draughtsboard.board.rules.errors import DraughtsError
    from draughtsboard.hall.rooms import RoomError
    from draughtsboard.hall.venue import (
        OutIsAFileError,
        ToolMissingError,
        UnreachableVenueError,
        VenueError,
    )
    from draughtsboard.hall_protocol.broker import BrokerURLError
    from draughtsboard.hardware.board_lock import BoardBusyError
    from draughtsboard.hardware.config import ConfigError
    from draughtsboard.opponents import OpponentError
    from draughtsboard.recording import DataDirBusyError

    if isinstance(error, (KeyboardInterrupt, SystemExit, GeneratorExit)):
        return None
    if isinstance(error, CommandError):
        return Failure(error.status, error.message)
    if isinstance(error, ConfigError):
        problems = error.problems
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        return Failure(EXIT_CONFIG, _text(f"{error.source}: "
                                          f"{problems[0] if problems else error}{more}"))
    if isinstance(error, BrokerURLError):
        return Failure(EXIT_USAGE, _text(str(error)))
    if isinstance(error, RoomError):  # a plan that cannot be (a town's too)
        return Failure(EXIT_USAGE, error.message or _text(str(error)))
    if isinstance(error, ToolMissingError):
        return Failure(EXIT_UNAVAILABLE, error.message or _text(str(error)))
    if isinstance(error, UnreachableVenueError) and not isinstance(error, OutIsAFileError):
        return Failure(EXIT_NOPERM, error.message or _text(str(error)))  # cannot enter
    if isinstance(error, VenueError):  # a file in the way, a tool failed
        return Failure(EXIT_CANTCREAT, error.message or _text(str(error)))
    if isinstance(error, OpponentError) and not isinstance(error, ValueError):
        return Failure(EXIT_UNAVAILABLE, _text(str(error)))  # did not start or answer
    if isinstance(error, (DataDirBusyError, BoardBusyError)):
        return Failure(EXIT_BUSY, _text(str(error)))
    if isinstance(error, OSError):
        where = f"{error.filename}: " if getattr(error, "filename", None) else ""
        return Failure(EXIT_IO, _text(where + (error.strerror or str(error)
                                               or type(error).__name__)))
    if isinstance(error, (DraughtsError, ValueError, OverflowError, RecursionError)):
        return Failure(EXIT_DATA, _text(str(error) or type(error).__name__))
    if _is_gpio_error(error):
        return Failure(EXIT_UNAVAILABLE, _text(f"GPIO: {error}"))
    if isinstance(error, ImportError):
        return Failure(EXIT_UNAVAILABLE, _text(f"not installed here: {error}"))
    return Failure(EXIT_SOFTWARE, _text(f"internal error: {type(error).__name__}: {error}"))


def _is_gpio_error(error: BaseException) -> bool:
    """gpiozero's errors, and lgpio's own (``lgpio.error``, a bare Exception)."""
    if type(error).__module__ == "lgpio":
        return True
    try:
        from gpiozero.exc import GPIOZeroError
    except ImportError:  # pragma: no cover - gpiozero is a dependency
        return False
    return isinstance(error, GPIOZeroError)
