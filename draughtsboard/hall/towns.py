"""A match between towns: one board in each town plays the other (``play --opponent
board:MATCH``), each through its own town's broker, the two brokers bridged by
mosquitto's own bridge (a ``connection`` block), as a venue in rooms is (`rooms`).

``draughtsboard venue --match MATCH --seat white --out DIR`` writes the *hosting* town's
broker: the board's user (``match-MATCH-white``), which may write only its own seat's
three topics (``draughtsboard/v1/match/MATCH/white/record``, ``beat``, ``presence``)
and read only the other seat's, and
the other town's bridge user (``town-MATCH``, its password in ``town.password``), which
may write only the other seat's topics and read only this one's.
``draughtsboard venue --match MATCH --seat black --host-town HOST:PORT
--town-password-file FILE --out DIR`` writes the *bridging* town's broker: its board's
user the same way, and the bridge, which sends its seat ``out`` and takes the other
seat ``in``, each at QoS 1 with a session both brokers keep (``cleansession false``): a
cut link loses nothing, and each board's retained record tells the other board where
the game stands the moment the link is back. docs/hall.md, "A match between towns",
explains every line.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from draughtsboard.board.message import Message
from draughtsboard.hall_protocol.topics import (
    MATCH_KINDS,
    MATCH_NAME,
    MATCH_SEATS,
    match_seat_filter,
    match_topic,
)

from .rooms import BRIDGE_RESTART, RoomError
from .venue import mosquitto_conf, plain_host, write_broker_files

TOWN_PASSWORD = "town.password"
BOARD_PASSWORD = "board.password"


class TownError(RoomError):
    """A match's plan that cannot be: a bad name, seat or address (one line)."""


def match_user(match: str, seat: str) -> str:
    """The board at ``seat`` of ``match`` on its town's broker."""
    return f"match-{match}-{seat}"


def town_user(match: str) -> str:
    """The bridging town's bridge on the hosting town's broker."""
    return f"town-{match}"


def other(seat: str) -> str:
    return "black" if seat == "white" else "white"


def seat_acl(user: str, match: str, seat: str) -> list[str]:
    """``user`` writes exactly ``seat``'s topics of ``match`` (its record, beat and
    presence: no other sub-topic, where a stolen password could leave retained messages)
    and reads exactly the other seat's; nothing else (no other match, no board of a
    hall)."""
    return [f"user {user}",
            *(f"topic write {match_topic(match, seat, kind)}" for kind in MATCH_KINDS),
            *(f"topic read {match_topic(match, other(seat), kind)}" for kind in MATCH_KINDS),
            ""]


def check_match(match: str, seat: str) -> None:
    if not MATCH_NAME.match(match):
        raise TownError(Message.of("venue.town.match", match=repr(match)))
    if seat not in MATCH_SEATS:
        raise TownError(Message.of("venue.town.seat", seat=repr(seat)))


@dataclass(frozen=True)
class TownVenue:
    """One town's broker of a match: its board's seat and password, and on the hosting
    town the bridging town's password (``town_password``)."""

    directory: Path
    match: str
    seat: str
    host: str
    port: int
    board_password: str
    town_password: str | None = None

    @property
    def config(self) -> Path:
        return self.directory / "mosquitto.conf"

    def board_url(self) -> str:
        """The board's ``--opponent`` text, with its password in the URL (a test's; the
        recipe gives it through DRAUGHTSBOARD_HALL_PASSWORD_FILE instead)."""
        return (f"board:mqtt://{match_user(self.match, self.seat)}:{self.board_password}"
                f"@{self.host}:{self.port}/{self.match}")


def _listener(host: str, port: int) -> None:
    if not plain_host(host) or not 1 <= port <= 65535:
        raise TownError(f"listener {host!r}:{port}: expected an address or a host name and "
                        "a port 1-65535")


def write_host_town(directory: Path | str, match: str, seat: str, *,
                    host: str = "0.0.0.0", port: int = 1883, log_file: Path | None = None,
                    autosave_interval: int = 5, run_as: str | None = None) -> TownVenue:
    """The hosting town's broker (see the module doc): ``board.password`` for its board,
    ``town.password`` for the other town's ``--town-password-file``."""
    check_match(match, seat)
    _listener(host, port)
    directory = Path(directory).resolve()
    board_password, town_password = secrets.token_urlsafe(16), secrets.token_urlsafe(24)
    user = match_user(match, seat)
    acl = [f"# draughtsboard: match {match}, this town's board plays {seat}; the other "
           "town's bridge writes the other seat only", "",
           *seat_acl(user, match, seat), *seat_acl(town_user(match), match, other(seat))]
    config = mosquitto_conf(directory, host, port, log_file=log_file,
                            autosave_interval=autosave_interval, run_as=run_as)
    write_broker_files(directory, {user: board_password, town_user(match): town_password},
                       "\n".join(acl), config,
                       {BOARD_PASSWORD: board_password + "\n",
                        TOWN_PASSWORD: town_password + "\n"}, run_as=run_as)
    return TownVenue(directory, match, seat, "127.0.0.1" if host == "0.0.0.0" else host,
                     port, board_password, town_password)


def town_bridge_block(match: str, seat: str, host_town: str, host_port: int,
                      password: str) -> list[str]:
    """The bridging town's ``connection`` to the hosting town (last in the config)."""
    user = town_user(match)
    return [
        f"connection {user}",
        f"address {host_town}:{host_port}",
        f"remote_clientid {user}",
        f"remote_username {user}",
        f"remote_password {password}",
        f"local_clientid bridge-{match}",
        "bridge_protocol_version mqttv311",
        "try_private true",  # the other broker knows it for a bridge: retained flags kept
        "cleansession false",  # both brokers keep the bridge's session through a cut
        "start_type automatic",
        f"restart_timeout {BRIDGE_RESTART}",
        "keepalive_interval 10",
        "notifications false",  # (presence is the boards' own: their beats and Wills)
        f"topic {match_seat_filter(match, seat)} out 1",
        f"topic {match_seat_filter(match, other(seat))} in 1",
    ]


def write_bridging_town(directory: Path | str, match: str, seat: str, host_town: str,
                        host_port: int, town_password: str, *, host: str = "0.0.0.0",
                        port: int = 1883, log_file: Path | None = None,
                        autosave_interval: int = 5, run_as: str | None = None) -> TownVenue:
    """The bridging town's broker (see the module doc): ``board.password`` for its board;
    ``mosquitto.conf`` (mode 0600) holds the bridge's password."""
    check_match(match, seat)
    _listener(host, port)
    _listener(host_town, host_port)
    directory = Path(directory).resolve()
    board_password = secrets.token_urlsafe(16)
    user = match_user(match, seat)
    acl = [f"# draughtsboard: match {match}, this town's board plays {seat}; the bridge to "
           "the hosting town is the broker's own (no user here)", "",
           *seat_acl(user, match, seat)]
    config = mosquitto_conf(directory, host, port, log_file=log_file,
                            autosave_interval=autosave_interval, run_as=run_as)
    config += "\n# the bridge to the hosting town (docs/hall.md, \"A match between towns\")\n"
    config += "\n".join(town_bridge_block(match, seat, host_town, host_port,
                                          town_password)) + "\n"
    write_broker_files(directory, {user: board_password}, "\n".join(acl), config,
                       {BOARD_PASSWORD: board_password + "\n"}, run_as=run_as,
                       config_is_secret=True)
    return TownVenue(directory, match, seat, "127.0.0.1" if host == "0.0.0.0" else host,
                     port, board_password)
