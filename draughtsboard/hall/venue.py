"""A venue's mosquitto set-up, written out: ``mosquitto.conf`` (listener, no anonymous
clients, persistence), ``passwords`` (one user per board and one for the hall, hashed by
``mosquitto_passwd -U``), ``acl`` (a board publishes only under its own number and reads
only its own commands; only the hall publishes commands) and each board's password in
``boards/<N>.password`` for its ``[hall] password_file``.

``draughtsboard venue --boards 100 --out DIR`` runs it; the tests and the benchmark use
it to start their own broker. docs/hall.md explains every line.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from draughtsboard.hall_protocol.messages import MAX_PAYLOAD
from draughtsboard.hall_protocol.topics import BOARD_KINDS, COMMAND, ROOT

HALL_USER = "hall"
MESSAGE_SIZE_LIMIT = MAX_PAYLOAD + 4096  # the protocol's largest message, with room for
# MQTT's own bytes: anything bigger the broker refuses before anyone holds it
MAX_QUEUED_BYTES = 32 * 1024 * 1024  # per absent client; with the count above, the bound
MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/bin/mosquitto")
PASSWD_PATHS = ("/usr/bin/mosquitto_passwd", "/usr/sbin/mosquitto_passwd")


class VenueError(RuntimeError):
    """The broker's tools are missing or failed (one line for the user)."""


_HOST = re.compile(r"^[A-Za-z0-9._:-]{1,253}$")


def plain_host(host: str) -> bool:
    """Whether ``host`` is an address or a host name and nothing else: it is written into
    the broker's configuration, where a newline would start a line of its own."""
    return bool(_HOST.match(host))


def find_tool(name: str, paths: tuple[str, ...]) -> str:
    found = shutil.which(name) or next((p for p in paths if os.access(p, os.X_OK)), None)
    if found is None:
        raise VenueError(f"{name} is not installed: apt-get install mosquitto "
                         f"(Debian's package, 2.x)")
    return found


def board_user(board: int) -> str:
    return f"board{board}"


def acl_text(boards: range | list[int]) -> str:
    lines = ["# draughtsboard hall: who may publish and read where", "",
             f"user {HALL_USER}", f"topic read {ROOT}/#",
             f"topic write {ROOT}/board/+/{COMMAND}", ""]
    for board in boards:
        lines.append(f"user {board_user(board)}")
        lines += [f"topic write {ROOT}/board/{board}/{kind}" for kind in BOARD_KINDS]
        lines += [f"topic read {ROOT}/board/{board}/{COMMAND}", ""]
    return "\n".join(lines)


def mosquitto_conf(directory: Path, host: str, port: int, *, websockets_port: int | None = None,
                   log_file: Path | None = None, autosave_interval: int = 5,
                   run_as: str | None = None) -> str:
    lines = [
        "# draughtsboard hall: the venue's broker (docs/hall.md)",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {directory / 'passwords'}",
        f"acl_file {directory / 'acl'}",
        "persistence true",
        f"persistence_location {directory / 'db'}/",
        f"autosave_interval {autosave_interval}",
        "max_queued_messages 20000",
        f"max_queued_bytes {MAX_QUEUED_BYTES}",
        "max_inflight_messages 100",
        f"message_size_limit {MESSAGE_SIZE_LIMIT}",
        f"max_packet_size {MESSAGE_SIZE_LIMIT + 4096}",  # refused by its header, unread
        "persistent_client_expiration 14d",
        f"listener {port} {host}",
        "use_username_as_clientid true",  # a listener's option: after each listener
    ]
    if run_as:  # started as root, mosquitto switches to this user (default: mosquitto)
        lines.insert(1, f"user {run_as}")
    if websockets_port is not None:
        lines += [f"listener {websockets_port} {host}", "protocol websockets",
                  "use_username_as_clientid true"]
    lines += [f"log_dest file {log_file}" if log_file else "log_dest stderr",
              "log_type error", "log_type warning", "log_type notice",
              "connection_messages true"]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Venue:
    directory: Path
    host: str
    port: int
    hall_password: str
    board_passwords: dict[int, str]

    @property
    def config(self) -> Path:
        return self.directory / "mosquitto.conf"

    def url(self, user: str | None = None, password: str | None = None) -> str:
        credentials = f"{user}:{password}@" if user else ""
        return f"mqtt://{credentials}{self.host}:{self.port}"

    def hall_url(self) -> str:
        return self.url(HALL_USER, self.hall_password)

    def board_url(self, board: int) -> str:
        return self.url(board_user(board), self.board_passwords[board])


def write_venue(directory: Path | str, boards: int, *, host: str = "127.0.0.1",
                port: int = 1883, log_file: Path | None = None,
                autosave_interval: int = 5, run_as: str | None = None) -> Venue:
    """Write the broker's files for ``boards`` boards (numbers 1..boards)."""
    if not plain_host(host) or not 1 <= port <= 65535:
        raise VenueError(f"listener {host!r}:{port}: expected an address or a host name and "
                         "a port 1-65535")
    directory = Path(directory).resolve()
    (directory / "db").mkdir(parents=True, exist_ok=True)
    (directory / "boards").mkdir(exist_ok=True)
    hall_password = secrets.token_urlsafe(16)
    passwords = {n: secrets.token_urlsafe(16) for n in range(1, boards + 1)}
    plain = [f"{HALL_USER}:{hall_password}"] + [f"{board_user(n)}:{p}"
                                                 for n, p in passwords.items()]
    password_file = directory / "passwords"
    password_file.write_text("\n".join(plain) + "\n")
    os.chmod(password_file, 0o600)
    done = subprocess.run([find_tool("mosquitto_passwd", PASSWD_PATHS), "-U",
                           str(password_file)], capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise VenueError(f"mosquitto_passwd failed: {done.stderr.strip()[:200]}")
    for number, password in passwords.items():
        secret = directory / "boards" / f"{number}.password"
        secret.write_text(password + "\n")
        os.chmod(secret, 0o600)
    (directory / "hall.password").write_text(hall_password + "\n")
    os.chmod(directory / "hall.password", 0o600)
    (directory / "acl").write_text(acl_text(range(1, boards + 1)))
    (directory / "mosquitto.conf").write_text(
        mosquitto_conf(directory, host, port, log_file=log_file,
                       autosave_interval=autosave_interval, run_as=run_as))
    return Venue(directory, host, port, hall_password, passwords)
