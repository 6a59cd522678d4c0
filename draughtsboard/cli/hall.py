"""``draughtsboard hall``: the tournament hall, its settings resolved once into
`HallSettings` (the arguments, then the environment: the arbiter's token, the mirror's
password file), then the service, the mirror and the web server started."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from draughtsboard.addresses import HostPort
from draughtsboard.board.message import Message

from .common import address_option, language_option, with_logging
from .errors import SettingError, UsageError

if TYPE_CHECKING:
    from draughtsboard.hall.rooms import Room
    from draughtsboard.hall_protocol.broker import BrokerAddress

ENV_HALL_TOKEN = "DRAUGHTSBOARD_HALL_TOKEN"
ENV_MIRROR_PASSWORD_FILE = "DRAUGHTSBOARD_MIRROR_PASSWORD_FILE"
DEFAULT_MIRROR_DELAY = 15.0  # minutes


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "hall", help="the tournament hall: every board live, arbiter console, broadcast feed")
    parser.add_argument("--broker", required=True, metavar="URL",
                        help="the venue's MQTT broker, mqtt://USER:PASS@HOST:PORT")
    parser.add_argument("--listen", default="127.0.0.1:8090", metavar="HOST:PORT",
                        help="where the hall page is served (default 127.0.0.1:8090)")
    parser.add_argument("--data", metavar="DIR", default="hall-data",
                        help="where the hall keeps its games (default ./hall-data)")
    parser.add_argument("--delay", type=float, default=0.0, metavar="MINUTES",
                        help="the broadcast feed shows each game as it stood this long ago")
    parser.add_argument("--language", metavar="CODE",
                        help="the venue's language: the projector's, and a page's whose "
                        "browser asks for none with a catalog (en, ru, nl, fr; default: "
                        "venue --language's, found beside the hall's password file, or en)")
    parser.add_argument("--mirror", metavar="URL",
                        help="publish each game as it stood --mirror-delay ago for a public "
                        "mirror, as mqtt://mirror@HOST:PORT (the event's broker; password "
                        "in DRAUGHTSBOARD_MIRROR_PASSWORD_FILE)")
    parser.add_argument("--mirror-delay", type=float, metavar="MINUTES",
                        help="with --mirror: how old what the mirror gets is (default 15)")
    parser.add_argument("--public", action="store_true",
                        help="a public mirror's hall: page, projector and feed, no arbiter")
    parser.add_argument("--rooms", metavar="NAME:FIRST-LAST,...",
                        help="the venue's rooms, as given to venue --rooms: a room whose "
                        "link to the event is cut has its boards shown cut off, not online")
    parser.set_defaults(handler=with_logging(run))


@dataclass(frozen=True)
class HallSettings:
    """What ``hall`` was asked for, checked: the broker, where the page listens, the data
    directory, the feed's delay (seconds), the venue's language, its rooms, whether it
    is a public mirror's hall, the mirror it feeds (``None``: none) and its delay
    (seconds), and the arbiter's token the environment sets (``None``: the one kept in
    the data directory, or none at all in a public hall)."""

    broker: BrokerAddress
    listen: HostPort
    data: str
    delay: float
    language: str
    rooms: tuple[Room, ...]
    public: bool
    mirror: BrokerAddress | None
    mirror_delay: float
    token: str | None


def hall_settings(args, environ: Mapping[str, str] | None = None) -> HallSettings:
    """``args`` (parsed ``hall`` arguments) resolved, then the environment; refused in
    one line by the first setting that cannot be used."""
    from draughtsboard.hall.rooms import RoomError, parse_rooms
    from draughtsboard.hall_protocol.broker import BrokerURLError, parse_broker_url

    env = os.environ if environ is None else environ
    language = language_option(args.language) if args.language is not None \
        else _venue_language(env)
    listen = address_option(args.listen, "--listen", any_port=True)
    if not math.isfinite(args.delay) or args.delay < 0:
        raise UsageError(Message.of("cli.error.minutes", option="--delay"))
    try:
        broker = parse_broker_url(args.broker)
    except BrokerURLError as error:
        raise UsageError(Message.of("cli.error.option", option="--broker",
                                    reason=str(error))) from None
    mirror, mirror_delay = _mirror(args, broker, env)
    try:
        rooms = parse_rooms(args.rooms) if args.rooms is not None else []
    except RoomError as error:
        raise UsageError(Message.of("cli.error.option", option="--rooms",
                                    reason=error.message or str(error))) from None
    token = None if args.public else (env.get(ENV_HALL_TOKEN, "").strip() or None)
    return HallSettings(broker=broker, listen=listen, data=args.data, delay=args.delay * 60,
                        language=language, rooms=tuple(rooms), public=args.public,
                        mirror=mirror, mirror_delay=mirror_delay * 60, token=token)


def _venue_language(env: Mapping[str, str]) -> str:
    """The venue's language (``venue --language`` writes it beside the hall's password
    file, `hall.venue.venue_language`), or English when the venue names none."""
    from draughtsboard.hall.venue import VENUE_FILE, VenueError, venue_language
    from draughtsboard.hall_protocol.broker import ENV_PASSWORD_FILE

    try:
        found = venue_language(env.get(ENV_PASSWORD_FILE))
    except VenueError as error:
        raise SettingError(Message.of("cli.error.option", option=VENUE_FILE,
                                      reason=str(error))) from None
    return language_option(found, VENUE_FILE) if found is not None else "en"


def _mirror(args, broker, env: Mapping[str, str]):
    """``hall --mirror``'s broker (None: no mirror) and its delay in minutes. A mirror
    without its password, or logging in as the hall itself (each would push the other
    off the broker every second), is refused here rather than failing unseen."""
    import dataclasses

    from draughtsboard.hall.rooms import MIRROR_USER, RoomError, read_bridge_password
    from draughtsboard.hall_protocol.broker import BrokerURLError, parse_broker_url

    if args.mirror is None:
        if args.mirror_delay is not None:
            raise UsageError(Message.of("cli.error.goes_with", option="--mirror-delay",
                                        other="--mirror"))
        return None, DEFAULT_MIRROR_DELAY
    if args.public:
        raise UsageError(Message.of("cli.error.mirror_public"))
    delay = DEFAULT_MIRROR_DELAY if args.mirror_delay is None else args.mirror_delay
    if not math.isfinite(delay) or delay < 0:
        raise UsageError(Message.of("cli.error.minutes", option="--mirror-delay"))
    secret = env.get(ENV_MIRROR_PASSWORD_FILE)
    try:
        password = read_bridge_password(secret, ENV_MIRROR_PASSWORD_FILE) if secret else None
        address = parse_broker_url(args.mirror, password=password, environ={})
    except (RoomError, BrokerURLError) as error:
        raise UsageError(Message.of("cli.error.option", option="--mirror",
                                    reason=str(error))) from None
    if address.username is None:
        address = dataclasses.replace(address, username=MIRROR_USER)
    if not address.password:
        raise SettingError(Message.of("cli.error.mirror_password",
                                      variable=ENV_MIRROR_PASSWORD_FILE))
    if (address.username, address.host, address.port) == \
            (broker.username, broker.host, broker.port):
        raise SettingError(Message.of("cli.error.mirror_as_hall", user=repr(address.username),
                                      address=f"{address.host}:{address.port}",
                                      mirror=repr(MIRROR_USER)))
    return address, delay


def run(args) -> int:
    """Resolve the settings, take the data directory (one hall per directory: a second
    one stops here, exit 75), then serve until stopped."""
    from draughtsboard.hall.server import serve
    from draughtsboard.hall.service import HallService, hall_client_id
    from draughtsboard.play.token import ArbiterToken
    from draughtsboard.recording import DataDirLock
    from draughtsboard.words import words_for

    settings = hall_settings(args)
    # The broker knows the hall by its directory, so a restarted hall finds the messages
    # the broker kept for it and a second hall with its own directory does not push the
    # first one off.
    with DataDirLock(settings.data):
        if settings.public:  # no token opens the console: a new secret at every look
            import secrets

            token = lambda: secrets.token_hex(32)  # noqa: E731
            source = Message.of("cli.hall.token.public")
        elif settings.token is not None:
            chosen = settings.token
            token, source = (lambda: chosen), Message.of("cli.hall.token.environment",
                                                          variable=ENV_HALL_TOKEN)
        else:
            store = ArbiterToken(settings.data)  # kept in the data directory: survives restarts
            try:
                store.current()
            except OSError as error:
                raise SettingError(Message.of("cli.error.token", reason=str(error))) from None
            token = store.current
            source = Message.of("cli.hall.token.kept", path=str(store.path), data=settings.data)
        service = HallService(settings.broker, settings.data,
                              client_id=hall_client_id(settings.data),
                              rooms=list(settings.rooms), venue_record=settings.public,
                              say=words_for(settings.language))
        mirror = None
        if settings.mirror is not None:
            from draughtsboard.hall.mirror import Mirror

            mirror = Mirror(service.store, settings.mirror, settings.mirror_delay,
                            wall=service.wall, online=service.board_online,
                            on_change=service.changed)
            service.mirror_state = mirror.state
            mirror.start()
        try:
            return serve(service, token=token, token_source=source, delay=settings.delay,
                         host=settings.listen.host, port=settings.listen.port,
                         language=settings.language)
        finally:
            if mirror is not None:
                mirror.stop()
