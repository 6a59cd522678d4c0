"""A venue's mosquitto set-up, written out: ``mosquitto.conf`` (listener, no anonymous
clients, persistence), ``passwords`` (one user per board and one for the hall, hashed by
``mosquitto_passwd -U``), ``acl`` (a board publishes only under its own number and reads
only its own commands; only the hall publishes commands) and each board's password in
``boards/<N>.password`` for its ``[hall] password_file``.

``draughtsboard venue --boards 100 --out DIR`` runs it; the tests and the benchmark use
it to start their own broker. docs/hall.md explains every line.

Debian's mosquitto started as root reads its configuration, then drops to the
``mosquitto`` user before it opens the password file, the ACL and its database. So when
``venue`` runs as root and that user exists, the files the broker reads belong to it
(mode 0600: never readable by others) and so does the database directory; the
passwords of the hall and the boards stay root's. A directory on the way that the broker's
user cannot enter (a home directory, or what ``mktemp -d`` makes: mode 0700, root's)
would stop the broker with "Error opening password file" however the files themselves
are set, so `write_venue` refuses such a place before it writes anything
(`UnreachableVenueError`, naming the directory), and makes the directories it creates
enterable (0755) whatever the umask.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import re
import secrets
import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

from draughtsboard.board.message import Message
from draughtsboard.hall_protocol.messages import MAX_PAYLOAD
from draughtsboard.hall_protocol.topics import BOARD_KINDS, COMMAND, ROOT
from draughtsboard.words import english

HALL_USER = "hall"
VENUE_FILE = "venue.toml"  # what the hall reads of the venue's files: its language
MESSAGE_SIZE_LIMIT = MAX_PAYLOAD + 4096  # the protocol's largest message, with room for
# MQTT's own bytes: anything bigger the broker refuses before anyone holds it
MAX_QUEUED_BYTES = 32 * 1024 * 1024  # per absent client; with the count above, the bound
MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/bin/mosquitto")
BROKER_USER = "mosquitto"  # whom Debian's mosquitto becomes when started as root
PASSWD_PATHS = ("/usr/bin/mosquitto_passwd", "/usr/sbin/mosquitto_passwd")


class VenueError(RuntimeError):
    """The broker's tools are missing or failed (one line for the user); given as a
    `Message`, the command says it in its language (``str`` is its English)."""

    def __init__(self, text: str | Message) -> None:
        self.message = text if isinstance(text, Message) else None
        super().__init__(english(text) if isinstance(text, Message) else text)


class UnreachableVenueError(VenueError):
    """The broker's user cannot enter a directory on the way to the venue (one line that
    names it); nothing was written."""


class OutIsAFileError(UnreachableVenueError):
    """A file stands where the venue's folder (or one on its way) must be; nothing was
    written."""


class ToolMissingError(VenueError):
    """mosquitto's tools are not installed here."""


_HOST = re.compile(r"^[A-Za-z0-9._:-]{1,253}$")


def plain_host(host: str) -> bool:
    """Whether ``host`` is an address or a host name and nothing else: it is written into
    the broker's configuration, where a newline would start a line of its own."""
    return bool(_HOST.match(host))


def find_tool(name: str, paths: tuple[str, ...]) -> str:
    found = shutil.which(name) or next((p for p in paths if os.access(p, os.X_OK)), None)
    if found is None:
        raise ToolMissingError(f"{name} is not installed: apt-get install mosquitto "
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


@dataclass(frozen=True)
class BrokerAccount:
    """The user (and its primary group) the broker runs as, once started."""

    name: str
    uid: int
    gid: int


def broker_account(run_as: str | None = None) -> BrokerAccount | None:
    """Whom mosquitto will run as when this process (root) starts it: ``run_as`` (its
    ``user`` line), else Debian's ``mosquitto``. None when the files need no other
    owner: this process is not root (a broker it starts stays this user), the broker
    stays root, or the user does not exist."""
    if os.geteuid() != 0:
        return None
    name = run_as or BROKER_USER
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return None
    if entry.pw_uid == 0:
        return None
    return BrokerAccount(name, entry.pw_uid, entry.pw_gid)


def _may_enter(account: BrokerAccount, directory: Path) -> bool:
    """Whether ``account`` may enter ``directory`` (search permission), by its mode
    bits: owner, group (its primary group or a supplementary one), others."""
    info = directory.stat()
    if info.st_uid == account.uid:
        return bool(info.st_mode & 0o100)
    groups = {account.gid} | {g.gr_gid for g in grp.getgrall() if account.name in g.gr_mem}
    if info.st_gid in groups:
        return bool(info.st_mode & 0o010)
    return bool(info.st_mode & 0o001)


def blocking_directory(directory: Path | str, account: BrokerAccount) -> Path | None:
    """The first directory on the way to ``directory`` (from ``/``, ``directory`` itself
    included) that ``account`` cannot enter; None when it enters them all. Directories
    that do not exist yet are not looked at: `write_venue` makes them enterable."""
    directory = Path(directory).resolve()
    for step in [*reversed(directory.parents), directory]:
        if not step.exists():
            return None
        if not _may_enter(account, step):
            return step
    return None


def unreachable_parent(directory: Path | str, run_as: str | None = None) -> Path | None:
    """The first directory on the way to ``directory`` that the broker's user cannot
    enter (None: it reaches it, or the broker will not change user)."""
    account = broker_account(run_as)
    return None if account is None else blocking_directory(directory, account)


def _refuse_unreachable(directory: Path, account: BrokerAccount | None) -> None:
    for step in [directory, *directory.parents]:  # a file where a folder must be
        if step.exists() and not step.is_dir():
            raise OutIsAFileError(f"{step} is a file, not a folder: give --out a folder "
                                  "(made if missing); nothing written")
    if account is None:
        return
    blocked = blocking_directory(directory, account)
    if blocked is None:
        return
    info = blocked.stat()
    try:
        owner = pwd.getpwuid(info.st_uid).pw_name
    except KeyError:
        owner = str(info.st_uid)
    raise UnreachableVenueError(
        f"the {account.name} user cannot enter {blocked} (mode {info.st_mode & 0o7777:04o}, "
        f"owner {owner}): mosquitto started as root becomes {account.name} before it opens "
        f"the password file and would stop with 'Error opening password file'; write the "
        f"venue where {account.name} can enter (e.g. /etc/draughtsboard/venue), or let it "
        f"through with chmod o+x {blocked}; nothing written")


def _make_enterable(directory: Path) -> None:
    """``directory`` and the missing ones above it, each made 0755 whatever the umask
    (a umask of 077 would otherwise lock the broker's user out of the venue)."""
    missing = []
    step = directory
    while not step.exists():
        missing.append(step)
        step = step.parent
    for step in reversed(missing):
        step.mkdir(exist_ok=True)
        os.chmod(step, 0o755)


def _write_secret(path: Path, text: str) -> None:
    """A file only its owner reads, from its first byte (never briefly readable)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)


def _give_to(account: BrokerAccount | None, path: Path, mode: int) -> None:
    if account is not None:
        os.chown(path, account.uid, account.gid)
    os.chmod(path, mode)


def write_venue(directory: Path | str, boards: int, *, host: str = "127.0.0.1",
                port: int = 1883, log_file: Path | None = None,
                autosave_interval: int = 5, run_as: str | None = None,
                language: str | None = None) -> Venue:
    """Write the broker's files for ``boards`` boards (numbers 1..boards), and with a
    ``language`` the venue's `VENUE_FILE`."""
    if not plain_host(host) or not 1 <= port <= 65535:
        raise VenueError(f"listener {host!r}:{port}: expected an address or a host name and "
                         "a port 1-65535")
    directory = Path(directory).resolve()
    account = broker_account(run_as)  # what the broker opens once it dropped to its user
    _refuse_unreachable(directory, account)
    _make_enterable(directory)
    (directory / "db").mkdir(exist_ok=True)
    _make_enterable(directory / "boards")
    hall_password = secrets.token_urlsafe(16)
    passwords = {n: secrets.token_urlsafe(16) for n in range(1, boards + 1)}
    plain = [f"{HALL_USER}:{hall_password}"] + [f"{board_user(n)}:{p}"
                                                 for n, p in passwords.items()]
    password_file = directory / "passwords"
    _write_secret(password_file, "\n".join(plain) + "\n")
    done = subprocess.run([find_tool("mosquitto_passwd", PASSWD_PATHS), "-U",
                           str(password_file)], capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise VenueError(f"mosquitto_passwd failed: {done.stderr.strip()[:200]}")
    for number, password in passwords.items():
        _write_secret(directory / "boards" / f"{number}.password", password + "\n")
    _write_secret(directory / "hall.password", hall_password + "\n")
    (directory / "acl").write_text(acl_text(range(1, boards + 1)))
    _give_to(account, password_file, 0o600)
    _give_to(account, directory / "acl", 0o600)
    _give_to(account, directory / "db", 0o700)
    for kept in (directory / "db").iterdir():  # a database from an earlier run
        _give_to(account, kept, 0o600)
    (directory / "mosquitto.conf").write_text(
        mosquitto_conf(directory, host, port, log_file=log_file,
                       autosave_interval=autosave_interval, run_as=run_as))
    if language is not None:
        (directory / VENUE_FILE).write_text(f'language = "{language}"\n', encoding="utf-8")
    return Venue(directory, host, port, hall_password, passwords)


def venue_language(password_file: str | Path | None) -> str | None:
    """The venue's language, from the `VENUE_FILE` beside the hall's password file
    (``venue --language`` writes it; the hall is started with that file as
    ``DRAUGHTSBOARD_HALL_PASSWORD_FILE``): the hall's and its projector's language unless
    ``hall --language`` says another. ``None`` when there is no such file or it names
    none; a file that cannot be read is a `VenueError`."""
    if not password_file:
        return None
    path = Path(password_file).parent / VENUE_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise VenueError(f"{path}: {error}") from None
    language = data.get("language")
    if language is not None and not isinstance(language, str):
        raise VenueError(f"{path}: language: expected a language code such as \"ru\"")
    return language


def write_broker_files(directory: Path, users: dict[str, str], acl: str, config: str,
                       secrets_to_write: dict[str, str], *, run_as: str | None = None,
                       config_is_secret: bool = False) -> None:
    """Write one broker's files into ``directory``: ``passwords`` (``users``: name ->
    password, hashed by ``mosquitto_passwd -U``), ``acl``, ``db/``, each of
    ``secrets_to_write`` (a path under ``directory`` -> its text, mode 0600) and
    ``mosquitto.conf`` (``config_is_secret``: it holds a password, a bridge's: this
    user's, mode 0600, or 0640 to the broker's user's group when the broker drops to
    it, which reads it again, as itself, when SIGHUP reloads it). The
    broker's own files go to its user as `write_venue` gives them (rooms.py uses this
    for a room's broker and an event's)."""
    directory = Path(directory).resolve()
    account = broker_account(run_as)  # a folder its user cannot enter is refused first
    _refuse_unreachable(directory, account)
    _make_enterable(directory)
    (directory / "db").mkdir(exist_ok=True)
    password_file = directory / "passwords"
    _write_secret(password_file, "".join(f"{name}:{word}\n" for name, word in users.items()))
    done = subprocess.run([find_tool("mosquitto_passwd", PASSWD_PATHS), "-U",
                           str(password_file)], capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise VenueError(f"mosquitto_passwd failed: {done.stderr.strip()[:200]}")
    for relative, text in secrets_to_write.items():
        _make_enterable((directory / relative).parent)
        _write_secret(directory / relative, text)
    (directory / "acl").write_text(acl)
    _give_to(account, password_file, 0o600)
    _give_to(account, directory / "acl", 0o600)
    _give_to(account, directory / "db", 0o700)
    for kept in (directory / "db").iterdir():
        _give_to(account, kept, 0o600)
    if config_is_secret:  # mosquitto reads its configuration again on SIGHUP
        # (logrotate's nightly reload) as its own user: that user's group may read it,
        # not write it (it is read as root at the next start)
        _write_secret(directory / "mosquitto.conf", config)
        if account is not None:
            os.chown(directory / "mosquitto.conf", -1, account.gid)
            os.chmod(directory / "mosquitto.conf", 0o640)
    else:
        (directory / "mosquitto.conf").write_text(config)
