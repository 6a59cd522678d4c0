"""Where the broker is and who we are to it: ``mqtt://USER:PASS@HOST:PORT`` (``mqtts://``
for TLS, ``ws://``/``wss://`` over websockets), with the credentials also from the
environment or a file, so that they need not sit in a command line or a unit file.

Credentials never reach a log: `BrokerAddress` prints as its URL with the password
replaced by ``***``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit

ENV_USER = "DRAUGHTSBOARD_HALL_USER"
ENV_PASSWORD = "DRAUGHTSBOARD_HALL_PASSWORD"
ENV_PASSWORD_FILE = "DRAUGHTSBOARD_HALL_PASSWORD_FILE"
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883, "ws": 80, "wss": 443}


class BrokerURLError(ValueError):
    """A broker URL or credential source that cannot be used (the message never holds
    the password)."""


@dataclass(frozen=True)
class BrokerAddress:
    scheme: str
    host: str
    port: int
    username: str | None = None
    password: str | None = field(default=None, repr=False)

    @property
    def tls(self) -> bool:
        return self.scheme in ("mqtts", "wss")

    @property
    def transport(self) -> Literal["websockets", "tcp"]:
        return "websockets" if self.scheme in ("ws", "wss") else "tcp"

    def __str__(self) -> str:
        user = ""
        if self.username:
            user = self.username + (":***" if self.password else "") + "@"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{user}{host}:{self.port}"


SECRET_LIMIT = 1024  # bytes: a password file is a line or two, never more


def read_limited(path: str | Path, limit: int = SECRET_LIMIT) -> bytes:
    """At most ``limit`` + 1 bytes of a file: a secret's file given wrong (/dev/zero, a
    log) is read no further than needed to refuse it (`OSError` as reading raises)."""
    with open(path, "rb") as handle:
        return handle.read(limit + 1)


def _read_secret(path: str) -> str:
    try:
        data = read_limited(path)
        text = data.decode("utf-8")
    except OSError as error:
        raise BrokerURLError(f"cannot read the password file {path}: "
                             f"{error.strerror or error}") from None
    except UnicodeDecodeError:
        raise BrokerURLError(f"the password file {path} is not UTF-8 text") from None
    if len(data) > SECRET_LIMIT:
        raise BrokerURLError(f"the password file {path} is longer than {SECRET_LIMIT} "
                             f"bytes: a password file holds one line")
    secret = text.strip()
    if not secret or "\n" in secret:
        raise BrokerURLError(f"the password file {path} must hold one line")
    return secret


def parse_broker_url(url: str, *, username: str | None = None, password: str | None = None,
                     password_file: str | None = None,
                     environ: dict[str, str] | None = None) -> BrokerAddress:
    """The broker of ``url``. Credentials, first found wins: the arguments (a config
    file's), the URL's, then ``DRAUGHTSBOARD_HALL_USER`` and
    ``DRAUGHTSBOARD_HALL_PASSWORD`` (or ``..._PASSWORD_FILE``)."""
    env = os.environ if environ is None else environ
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise BrokerURLError(f"not a broker URL ({error})") from None
    if parts.scheme not in DEFAULT_PORTS:
        raise BrokerURLError(f"broker URL must start with mqtt://, mqtts://, ws:// or wss://, "
                             f"not {parts.scheme + '://' if parts.scheme else 'nothing'}")
    if not parts.hostname:
        raise BrokerURLError("the broker URL has no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise BrokerURLError("the broker URL has a path or query: expected "
                             "mqtt://USER:PASS@HOST:PORT")
    user = username or (unquote(parts.username) if parts.username else None) \
        or env.get(ENV_USER) or None
    secret = password or (_read_secret(password_file) if password_file else None) \
        or (unquote(parts.password) if parts.password else None) or env.get(ENV_PASSWORD) \
        or (_read_secret(env[ENV_PASSWORD_FILE]) if env.get(ENV_PASSWORD_FILE) else None)
    if secret and not user:
        raise BrokerURLError("a broker password without a user name")
    return BrokerAddress(parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme],
                         user, secret)
