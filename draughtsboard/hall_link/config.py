"""Which hall a board joins: ``--hall URL --board N`` on the command line, or a ``[hall]``
table in the board config::

    [hall]
    broker = "mqtt://hall.local:1883"
    board = 7
    user = "board7"
    password_file = "/etc/draughtsboard/hall-password"   # or DRAUGHTSBOARD_HALL_PASSWORD

The command line wins over the file; the password may also come from the URL or the
environment (`draughtsboard.hall_protocol.broker`). Errors name the setting, never the
password.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from draughtsboard.hall_protocol.broker import BrokerAddress, BrokerURLError, parse_broker_url
from draughtsboard.hall_protocol.topics import MAX_BOARD


class HallConfigError(ValueError):
    """Hall settings that cannot be used (one line, for the user)."""


@dataclass(frozen=True)
class HallSettings:
    address: BrokerAddress
    board: int


def _table(path: Path | None) -> dict:
    if path is None or not path.is_file():
        return {}
    try:  # utf-8-sig: a BOM some editors write is not the file's first key
        data = tomllib.loads(path.read_bytes().decode("utf-8-sig"))
    except (OSError, tomllib.TOMLDecodeError, ValueError, RecursionError) as error:
        # ValueError: not UTF-8, or tomllib's own checks; RecursionError: nested deep
        raise HallConfigError(f"{path}: {str(error).splitlines()[0][:200]}") from None
    table = data.get("hall", {})
    if not isinstance(table, dict):
        raise HallConfigError(f"{path}: [hall] must be a table")
    return table


def hall_settings(url: str | None, board: int | None, config_path: Path | None = None,
                  environ: dict[str, str] | None = None) -> HallSettings | None:
    """The hall to join, or ``None`` when none is configured."""
    table = _table(config_path)
    url = url or table.get("broker")
    if not url:
        if board is not None:
            raise HallConfigError("--board needs --hall URL (or broker in [hall])")
        return None
    number = board if board is not None else table.get("board")
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_BOARD:
        raise HallConfigError(f"a board in a hall needs its number (--board N, 1-{MAX_BOARD}, "
                              f"or board in [hall])")
    for key in ("user", "password_file"):
        if key in table and not isinstance(table[key], str):
            raise HallConfigError(f"[hall] {key} must be text")
    try:
        address = parse_broker_url(str(url), username=table.get("user"),
                                   password_file=table.get("password_file"), environ=environ)
    except BrokerURLError as error:
        raise HallConfigError(f"hall broker: {error}") from None
    return HallSettings(address, number)
