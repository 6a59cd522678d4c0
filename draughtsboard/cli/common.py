"""What every command of the package reads the same way: a ``HOST:PORT`` option, a
language option, and a long-running command's logging."""

from __future__ import annotations

from draughtsboard.addresses import AddressError, HostPort, parse_host_port
from draughtsboard.board.message import Message

from .errors import SettingError, UsageError


def address_option(text: str, option: str, *, any_port: bool = False) -> HostPort:
    """``text``, given to ``option``, as a `HostPort` (`draughtsboard.addresses`: one
    reader for every option that takes one); `UsageError` in one line otherwise, the
    same line whatever command it was given to."""
    try:
        return parse_host_port(text, option, any_port=any_port)
    except AddressError:
        raise UsageError(Message.of("cli.error.address", option=option,
                                    text=repr(text))) from None


def language_option(text: str, where: str = "--language") -> str:
    """A language that has a catalog (`SettingError` naming ``where`` otherwise)."""
    from draughtsboard.words import UnknownLanguageError, catalog_languages, check_language

    try:
        return check_language(text)
    except UnknownLanguageError:
        raise SettingError(Message.of("cli.error.language", option=where, language=repr(text),
                                      known=", ".join(catalog_languages()))) from None


def with_logging(command):
    """A long-running command (``play``, ``hall``) logging as a service does
    (`draughtsboard.logs`), the logging put back when it returns: a command run inside
    another program (a test calling `main`) leaves that program's logging as it was."""

    def run(args) -> int:
        from draughtsboard.logs import configure_logging

        restore_logging = configure_logging()
        try:
            return command(args)
        finally:
            restore_logging()

    return run
