"""A venue in rooms: each room's boards publish to a broker of the room, and the room's
broker bridges them to the event's broker (mosquitto's own bridge, a ``connection``
block), where the one hall sees every board of every room.

``draughtsboard venue --rooms main:1-30,annex:31-60 --out DIR`` writes the event's broker:
the hall, boards straight on it if any (``--boards``), and one user per room
(``room-<name>``) whose ACL lets it publish only its boards' topics and read only their
commands. ``draughtsboard venue --room main:1-30 --event-broker HOST:PORT
--event-password-file FILE --out DIR`` writes a room's broker: its boards' users and ACL
as a venue's, and the bridge, which logs into the event's broker as the room's user,
sends the boards' topics ``out`` and takes their ``command`` topics ``in``, each at QoS 1
with a session the event's broker keeps (``cleansession false``): a link cut for
minutes loses nothing, the room's broker keeping what goes out and the event's what
comes in (``max_queued_messages``, ``max_queued_bytes``). docs/hall.md, "A venue in
rooms", explains every line.

A public mirror (``venue --public-mirror`` on the event's broker, ``venue --public`` for
the public broker): the venue hall's ``mirror`` user writes each board's delayed game
under ``draughtsboard/v1/public/`` (`hall.mirror`), the ``public`` user reads that and
nothing else, and the public broker's bridge takes it in, one way, onto its own board
tree for a public hall (docs/hall.md, "A public mirror").
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from draughtsboard.board.message import Message
from draughtsboard.hall_protocol.broker import SECRET_LIMIT, read_limited
from draughtsboard.hall_protocol.topics import (
    BOARD_KINDS,
    COMMAND,
    MAX_BOARD,
    PUBLIC_FEED,
    PUBLIC_ROOT,
    ROOT,
    room_link_topic,
)

from .venue import (
    HALL_USER,
    Venue,
    VenueError,
    acl_text,
    board_user,
    mosquitto_conf,
    plain_host,
    write_broker_files,
)

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
_RANGE = re.compile(r"^([1-9][0-9]{0,3})(?:-([1-9][0-9]{0,3}))?$")
BRIDGE_RESTART = "1 5"  # seconds: the bridge tries again after 1 s, backing off to 5
MAX_ROOM_BOARDS = 500  # a room's bridge has six topic lines a board, the event's ACL as
# many: a room of 9999 boards took 46 s and three broken pipes to bridge; split it


PUBLIC_USER = "public"  # the public broker's bridge on the event's broker
MIRROR_USER = "mirror"  # the venue hall's mirror on the event's broker
MIRRORED = ("status", "state", "game")  # what the mirror publishes of each board


class RoomError(VenueError):
    """A room's plan that cannot be: a bad name, a range, boards in two rooms."""


@dataclass(frozen=True)
class Room:
    name: str
    first: int
    last: int

    @property
    def boards(self) -> range:
        return range(self.first, self.last + 1)

    @property
    def user(self) -> str:
        return room_user(self.name)

    def __str__(self) -> str:
        return f"{self.name}:{self.first}-{self.last}"


def room_user(name: str) -> str:
    """The room's bridge on the event's broker (a dash: never a board's or the hall's)."""
    return f"room-{name}"


def parse_room(text: str) -> Room:
    """``NAME:FIRST-LAST`` (or ``NAME:N``, one board): lower-case letters, digits and
    dashes, boards 1-9999."""
    name, colon, numbers = text.strip().partition(":")
    found = _RANGE.match(numbers)
    if not colon or not _NAME.match(name) or not found:
        raise RoomError(Message.of("venue.room.form", room=repr(text), most=MAX_BOARD))
    first = int(found.group(1))
    last = int(found.group(2) or first)
    if last < first:
        raise RoomError(Message.of("venue.room.order", room=repr(text)))
    if last - first + 1 > MAX_ROOM_BOARDS:
        raise RoomError(Message.of("venue.room.size", room=repr(text), most=MAX_ROOM_BOARDS))
    return Room(name, first, last)


def parse_rooms(text: str, direct_boards: int = 0) -> list[Room]:
    """A comma-separated list of rooms, each board in one room at most and none of the
    boards 1..``direct_boards`` (those connect to the event's broker itself)."""
    rooms = [parse_room(part) for part in text.split(",") if part.strip()]
    if not rooms:
        raise RoomError(Message.of("venue.rooms.none"))
    taken: dict[int, Message] = {n: Message.of("venue.rooms.on_the_event")
                                 for n in range(1, direct_boards + 1)}
    names: set[str] = set()
    for room in rooms:
        if room.name in names:
            raise RoomError(Message.of("venue.rooms.twice", room=repr(room.name)))
        names.add(room.name)
        for board in room.boards:
            if board in taken:
                raise RoomError(Message.of("venue.rooms.board_twice", board=board,
                                           room=room.name, other=taken[board]))
            taken[board] = Message.of("venue.rooms.in_room", room=room.name)
    return rooms


def bridged_host(host: str) -> bool:
    """Whether ``host`` may stand on a bridge's ``address`` line (no IPv6 colons)."""
    return plain_host(host) and ":" not in host


def board_acl(board: int) -> list[str]:
    """A board's block of an ACL, as a venue's: its own topics and its own commands."""
    return [f"user {board_user(board)}",
            *(f"topic write {ROOT}/board/{board}/{kind}" for kind in BOARD_KINDS),
            f"topic read {ROOT}/board/{board}/{COMMAND}", ""]


def room_acl(room: Room) -> list[str]:
    """What the room's bridge may do on the event's broker: publish its boards' topics and
    its link's state, read its boards' commands; nothing else (no other board, no
    command)."""
    lines = [f"user {room.user}", f"topic write {room_link_topic(room.name)}"]
    for board in room.boards:
        lines += [f"topic write {ROOT}/board/{board}/{kind}" for kind in BOARD_KINDS]
        lines.append(f"topic read {ROOT}/board/{board}/{COMMAND}")
    return lines + [""]


@dataclass(frozen=True)
class EventVenue(Venue):
    """The event's broker's files: a one-machine venue's (the hall, the boards straight on
    it) and the rooms' bridge users, with a public mirror's two users if asked for."""

    room_passwords: dict[str, str] = field(default_factory=dict)
    public_password: str | None = None  # the public broker's bridge: reads PUBLIC_ROOT
    mirror_password: str | None = None  # the venue hall's mirror: writes PUBLIC_ROOT

    def room_password_file(self, room: str) -> Path:
        return self.directory / "rooms" / f"{room}.password"


def write_event_venue(directory: Path | str, rooms: list[Room], *, boards: int = 0,
                      host: str = "127.0.0.1", port: int = 1883,
                      log_file: Path | None = None, autosave_interval: int = 5,
                      run_as: str | None = None, public: bool = False) -> EventVenue:
    """The event's broker: the hall, boards 1..``boards`` straight on it, and each room's
    bridge user with its password in ``rooms/<name>.password`` (for the room's
    ``--event-password-file``). ``public``: a public mirror too, the ``mirror`` user (the
    venue hall's, ``mirror.password``) writing the delayed tree and the ``public`` user
    (the public broker's bridge, ``public.password``) reading only that."""
    if not plain_host(host) or not 1 <= port <= 65535:
        raise RoomError(f"listener {host!r}:{port}: expected an address or a host name and "
                        "a port 1-65535")
    directory = Path(directory).resolve()
    hall_password = secrets.token_urlsafe(16)
    board_passwords = {n: secrets.token_urlsafe(16) for n in range(1, boards + 1)}
    room_passwords = {room.name: secrets.token_urlsafe(24) for room in rooms}
    users = {HALL_USER: hall_password,
             **{board_user(n): p for n, p in board_passwords.items()},
             **{room_user(name): p for name, p in room_passwords.items()}}
    acl = acl_text(range(1, boards + 1)).rstrip("\n").split("\n") + [""]
    acl.insert(1, "# rooms: each room's bridge publishes its boards and reads their commands")
    for room in rooms:
        acl += [f"# room {room.name}: boards {room.first}-{room.last}", *room_acl(room)]
    public_password = mirror_password = None
    if public:
        public_password, mirror_password = secrets.token_urlsafe(24), secrets.token_urlsafe(16)
        users.update({PUBLIC_USER: public_password, MIRROR_USER: mirror_password})
        acl += ["# the public mirror: the venue hall writes each game as it stood a delay "
                "ago; the public broker's bridge reads that and nothing else",
                f"user {MIRROR_USER}",
                *(f"topic write {PUBLIC_ROOT}/board/+/{kind}" for kind in MIRRORED),
                f"topic write {PUBLIC_ROOT}/room/{PUBLIC_FEED}/link", "",
                f"user {PUBLIC_USER}", f"topic read {PUBLIC_ROOT}/#", ""]
    files = {"hall.password": hall_password + "\n",
             **{f"boards/{n}.password": p + "\n" for n, p in board_passwords.items()},
             **{f"rooms/{room.name}.password": room_secret_text(room_passwords[room.name], room)
                for room in rooms}}
    if public:
        files.update({"public.password": f"{public_password}\n",
                      "mirror.password": f"{mirror_password}\n"})
    write_broker_files(directory, users, "\n".join(acl), mosquitto_conf(
        directory, host, port, log_file=log_file, autosave_interval=autosave_interval,
        run_as=run_as), files, run_as=run_as)
    return EventVenue(directory, host, port, hall_password, board_passwords, room_passwords,
                      public_password, mirror_password)


def bridge_block(room: Room, event_host: str, event_port: int, password: str) -> list[str]:
    """The room broker's ``connection`` to the event's broker (it comes last in the
    configuration: every line after ``connection`` is the bridge's)."""
    lines = [
        f"connection {room.user}",
        f"address {event_host}:{event_port}",
        f"remote_clientid {room.user}",
        f"remote_username {room.user}",
        f"remote_password {password}",
        f"local_clientid bridge-{room.name}",
        "bridge_protocol_version mqttv311",
        "try_private true",  # the event's broker knows it for a bridge: retained flags kept
        "cleansession false",  # both brokers keep the bridge's session through a cut
        "start_type automatic",
        f"restart_timeout {BRIDGE_RESTART}",
        "keepalive_interval 10",
        "notifications true",  # "1" up, "0" down (the event's copy is the bridge's Will)
        f"notification_topic {room_link_topic(room.name)}",
    ]
    for board in room.boards:
        lines += [f"topic {ROOT}/board/{board}/{kind} out 1" for kind in BOARD_KINDS]
        lines.append(f"topic {ROOT}/board/{board}/{COMMAND} in 1")
    return lines


@dataclass(frozen=True)
class RoomVenue:
    directory: Path
    room: Room
    host: str
    port: int
    board_passwords: dict[int, str]

    @property
    def config(self) -> Path:
        return self.directory / "mosquitto.conf"

    def board_url(self, board: int) -> str:
        return (f"mqtt://{board_user(board)}:{self.board_passwords[board]}"
                f"@{self.host}:{self.port}")




def read_secret_lines(path: Path | str, what: str) -> list[str]:
    """The lines of a password file, read no further than ``SECRET_LIMIT`` bytes (a file
    or /dev/zero given by mistake is refused, not read for ever)."""
    try:
        data = read_limited(path, SECRET_LIMIT)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RoomError(f"{what}: {error}") from None
    if len(data) > SECRET_LIMIT:
        raise RoomError(f"{what}: {path} is longer than {SECRET_LIMIT} bytes: expected one "
                        "password on one line")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _one_password(lines: list[str], path: Path | str, expected: str) -> str:
    password = lines[0] if lines else ""
    if not password or any(c.isspace() for c in password) or not password.isprintable():
        raise RoomError(f"{path}: expected one password on one line ({expected})")
    return password


def read_bridge_password(path: Path | str,
                         what: str = "the password on the event's broker") -> str:
    """A password file's password: its first line (a room's file has a second, its
    plan: `read_room_secret`)."""
    lines = read_secret_lines(path, what)
    return _one_password(lines, path, "a password file the event's venue wrote")


def room_secret_text(password: str, room: Room) -> str:
    """``rooms/<name>.password``: the room's password, then the room as the event's
    broker has it (``room main:1-30``), for `venue --room` to check its own plan by."""
    return f"{password}\n{ROOM_LINE} {room}\n"


ROOM_LINE = "room"  # the second line's word in a room's password file


def read_room_secret(path: Path | str) -> tuple[str, Room | None]:
    """A room's password file: the password, and the room as the event's venue wrote it
    (None: a file of one line, as written before the plan was kept beside it)."""
    lines = read_secret_lines(path, "the room's password on the event's broker")
    password = _one_password(lines, path, "rooms/<name>.password of the event's venue")
    planned = None
    for line in lines[1:]:
        word, _, text = line.partition(" ")
        if word != ROOM_LINE:
            raise RoomError(f"{path}: expected the password, then 'room NAME:FIRST-LAST' "
                            "(rooms/<name>.password of the event's venue)")
        planned = parse_room(text)
    return password, planned


def check_room_plan(room: Room, planned: Room | None, path: Path | str) -> None:
    """A room's broker written with other boards than the event's broker lets that room
    publish would lose the boards in neither silently (the event's ACL drops them, the
    room's broker has acknowledged them): refused."""
    if planned is not None and planned != room:
        raise RoomError(Message.of("venue.room.plan", room=str(room), planned=str(planned),
                                   path=str(path)))


def write_room_venue(directory: Path | str, room: Room, event_host: str, event_port: int,
                     bridge_password: str, *, host: str = "0.0.0.0", port: int = 1883,
                     log_file: Path | None = None, autosave_interval: int = 5,
                     run_as: str | None = None) -> RoomVenue:
    """A room's broker: its boards as a venue's (``boards/<N>.password``), and the bridge
    to the event's broker in ``mosquitto.conf`` (it holds the room's password: mode 0600,
    or 0640 to the group of the user the broker drops to, which reads it again when
    SIGHUP reloads it)."""
    if not plain_host(host) or not 1 <= port <= 65535 or not bridged_host(event_host) \
            or not 1 <= event_port <= 65535:
        raise RoomError("a listener or the event's broker: expected an address or a host "
                        "name and a port 1-65535")
    directory = Path(directory).resolve()
    board_passwords = {n: secrets.token_urlsafe(16) for n in room.boards}
    acl = [f"# draughtsboard hall: room {room.name}, boards {room.first}-{room.last}; the "
           "bridge to the event's broker is the broker's own (no user here)", ""]
    for board in room.boards:  # each board also reads the bridge's state: once the
        # link is back, it sends its game and status again (hall_link)
        acl += board_acl(board)
        acl.insert(len(acl) - 1, f"topic read {room_link_topic(room.name)}")
    config = mosquitto_conf(directory, host, port, log_file=log_file,
                            autosave_interval=autosave_interval, run_as=run_as)
    config += "\n# the bridge to the event's broker (docs/hall.md, \"A venue in rooms\")\n"
    config += "\n".join(bridge_block(room, event_host, event_port, bridge_password)) + "\n"
    files = {f"boards/{n}.password": p + "\n" for n, p in board_passwords.items()}
    write_broker_files(directory, {board_user(n): p for n, p in board_passwords.items()},
                       "\n".join(acl), config, files, run_as=run_as, config_is_secret=True)
    return RoomVenue(directory, room, host, port, board_passwords)


def public_bridge_block(event_host: str, event_port: int, password: str) -> list[str]:
    """The public broker's ``connection`` to the event's: the event's delayed tree
    ``in`` (into the public broker's board tree) with the mirror's presence, nothing
    ``out``. Its notifications stay on the public broker (``notifications_local_only``:
    the public user writes nothing on the event's), on the same topic as the mirror's
    presence: "0" when the bridge drops, "1" when it is back, then the mirror's own
    retained word, so the public hall sees the venue's feed cut whichever half fails."""
    return [
        "connection public-mirror",
        f"address {event_host}:{event_port}",
        f"remote_clientid {PUBLIC_USER}",
        f"remote_username {PUBLIC_USER}",
        f"remote_password {password}",
        "local_clientid bridge-public",
        "bridge_protocol_version mqttv311",
        "try_private true",
        "cleansession false",
        "start_type automatic",
        f"restart_timeout {BRIDGE_RESTART}",
        "keepalive_interval 10",
        "notifications true",
        "notifications_local_only true",
        f"notification_topic {room_link_topic(PUBLIC_FEED)}",
        f"topic board/# in 1 {ROOT}/ {PUBLIC_ROOT}/",
        f"topic room/{PUBLIC_FEED}/link in 1 {ROOT}/ {PUBLIC_ROOT}/",
    ]


@dataclass(frozen=True)
class PublicVenue:
    directory: Path
    host: str
    port: int
    hall_password: str

    @property
    def config(self) -> Path:
        return self.directory / "mosquitto.conf"

    def hall_url(self) -> str:
        return f"mqtt://{HALL_USER}:{self.hall_password}@{self.host}:{self.port}"


def write_public_venue(directory: Path | str, event_host: str, event_port: int,
                       bridge_password: str, *, host: str = "0.0.0.0", port: int = 1883,
                       log_file: Path | None = None, autosave_interval: int = 5,
                       run_as: str | None = None) -> PublicVenue:
    """A public broker: one user, the public hall's, that may read and write nothing but
    read the board tree, which the bridge fills from the event's delayed tree."""
    if not plain_host(host) or not 1 <= port <= 65535 or not bridged_host(event_host) \
            or not 1 <= event_port <= 65535:
        raise RoomError("a listener or the event's broker: expected an address or a host "
                        "name and a port 1-65535")
    directory = Path(directory).resolve()
    hall_password = secrets.token_urlsafe(16)
    acl = ["# draughtsboard hall: a public mirror; its hall reads, nobody writes "
           "(the bridge is the broker's own)", "", f"user {HALL_USER}",
           f"topic read {ROOT}/board/#", f"topic read {room_link_topic(PUBLIC_FEED)}",
           ""]
    config = mosquitto_conf(directory, host, port, log_file=log_file,
                            autosave_interval=autosave_interval, run_as=run_as)
    config += "\n# the bridge from the event's broker (docs/hall.md, \"A public mirror\")\n"
    config += "\n".join(public_bridge_block(event_host, event_port, bridge_password)) + "\n"
    write_broker_files(directory, {HALL_USER: hall_password}, "\n".join(acl), config,
                       {"hall.password": hall_password + "\n"}, run_as=run_as,
                       config_is_secret=True)
    return PublicVenue(directory, host, port, hall_password)
