"""``draughtsboard venue``: a venue's mosquitto files, of one of five kinds: one broker for
the whole event (``--boards``), the event's broker of a venue in rooms (``--rooms``), a
room's broker (``--room``), a public mirror's broker (``--public``), or one town's broker
of a match between towns (``--match``). The options are resolved once into
`VenueSettings` (which kind, and every address checked), so a wrong combination is
refused before anything is written; then the kind's writer runs."""

from __future__ import annotations

import os
from dataclasses import dataclass

from draughtsboard.addresses import HostPort
from draughtsboard.board.message import Message

from .common import address_option, language_option
from .errors import NoInputError, UsageError

KINDS = ("single", "event", "room", "public", "town")
MAX_BOARDS = 9999


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "venue", help="write a venue's mosquitto files: config, passwords, ACL, board secrets")
    parser.add_argument("--boards", type=int, metavar="N",
                        help="boards 1..N on this broker (required but with --rooms, --room)")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--listen", default="0.0.0.0:1883", metavar="HOST:PORT",
                        help="the broker's listener (default 0.0.0.0:1883)")
    _add_room_options(parser)
    parser.add_argument("--language", default="en", metavar="CODE",
                        help="the venue's language (en, ru, nl, fr; default en): what venue "
                        "prints, and the hall's and its projector's when the hall is started "
                        "with this venue's hall.password, unless hall --language says another")
    parser.add_argument("--match", metavar="MATCH",
                        help="write a town's broker of a match between towns instead (play "
                        "--opponent board:MATCH; docs/hall.md, \"A match between towns\")")
    parser.add_argument("--seat", choices=["white", "black"],
                        help="with --match: the seat this town's board plays")
    parser.add_argument("--host-town", metavar="HOST:PORT",
                        help="with --match: the other town's broker, which this one bridges "
                        "to (without it, this town hosts the bridge)")
    parser.add_argument("--town-password-file", metavar="FILE",
                        help="with --host-town: the bridge's password there (town.password "
                        "of the hosting town's files)")
    parser.set_defaults(handler=run)


def _add_room_options(parser) -> None:
    parser.add_argument("--rooms", metavar="NAME:FIRST-LAST,...",
                        help="the event's broker of a venue in rooms: each room's broker "
                        "bridges these boards to it (docs/hall.md, \"A venue in rooms\")")
    parser.add_argument("--room", metavar="NAME:FIRST-LAST",
                        help="write a room's broker instead: these boards, bridged to "
                        "--event-broker")
    parser.add_argument("--event-broker", metavar="HOST:PORT",
                        help="with --room: the event's broker the room's bridge connects to")
    parser.add_argument("--event-password-file", metavar="FILE",
                        help="with --room or --public: its password on the event's broker "
                        "(rooms/NAME.password or public.password of the event's venue)")
    parser.add_argument("--public-mirror", action="store_true",
                        help="the event's broker feeds a public mirror: users mirror "
                        "(the venue hall's) and public (the public broker's, read-only)")
    parser.add_argument("--public", action="store_true",
                        help="write a public broker instead, bridged one way from "
                        "--event-broker (docs/hall.md, \"A public mirror\")")


@dataclass(frozen=True)
class VenueSettings:
    """What ``venue`` was asked to write, checked: its kind (`KINDS`), the directory, the
    broker's listener, and what the kind needs: boards, rooms (the text of ``--rooms``),
    a room, the event's broker a room or public broker bridges to and its password
    file, a match's seat, the hosting town's broker and the password file there."""

    kind: str
    out: str
    listen: HostPort
    language: str = "en"
    boards: int = 0
    rooms: str | None = None
    room: str | None = None
    public_mirror: bool = False
    event_broker: HostPort | None = None
    event_password_file: str | None = None
    match: str | None = None
    seat: str | None = None
    host_town: HostPort | None = None
    town_password_file: str | None = None


def _refuse(message_id: str, **params) -> UsageError:
    return UsageError(Message.of(message_id, **params))


def bridge_address(text: str, option: str) -> HostPort:
    """The address a bridge connects to: written on its ``address`` line, where an IPv6
    address's last group cannot be told from its port, so only a name or IPv4."""
    if text.count(":") > 1:
        raise _refuse("cli.error.bridge_ipv6", option=option, text=repr(text))
    return address_option(text, option)


def venue_settings(args) -> VenueSettings:
    """``args`` (parsed ``venue`` arguments) resolved into the kind of venue and its
    settings; a combination that cannot be is refused in one line (64)."""
    language = language_option(args.language)
    common = {"out": args.out, "language": language}
    if args.match is not None:
        if args.rooms or args.room or args.public or args.public_mirror or \
                args.boards is not None or args.event_broker or args.event_password_file:
            raise _refuse("cli.error.venue.town_alone")
        if args.seat is None:
            raise _refuse("cli.error.venue.town_seat")
        listen = address_option(args.listen, "--listen")
        if args.host_town is None and args.town_password_file:
            raise _refuse("cli.error.goes_with", option="--town-password-file",
                          other="--host-town")
        if args.host_town is not None and not args.town_password_file:
            raise _refuse("cli.error.venue.needs", option="--host-town",
                          needs="--town-password-file FILE")
        host_town = address_option(args.host_town, "--host-town") if args.host_town else None
        return VenueSettings("town", listen=listen, match=args.match, seat=args.seat,
                             host_town=host_town, town_password_file=args.town_password_file,
                             **common)
    if args.seat or args.host_town or args.town_password_file:
        raise _refuse("cli.error.venue.town_options")
    listen = address_option(args.listen, "--listen")
    if args.public:
        if args.room or args.rooms or args.boards is not None or args.public_mirror:
            raise _refuse("cli.error.venue.public_alone")
        return VenueSettings("public", listen=listen, **_event_side(args, "--public"),
                             **common)
    if args.room is not None:
        if args.rooms is not None or args.boards is not None:
            raise _refuse("cli.error.venue.room_alone")
        return VenueSettings("room", listen=listen, room=args.room,
                             **_event_side(args, "--room"), **common)
    if args.event_broker or args.event_password_file:
        raise _refuse("cli.error.goes_with", option="--event-broker, --event-password-file",
                      other="--room, --public")
    boards = args.boards or 0
    if not 0 <= boards <= MAX_BOARDS:
        raise _refuse("cli.error.venue.boards", most=MAX_BOARDS)
    if args.rooms is not None or args.public_mirror:
        if args.rooms is None and not boards:
            raise _refuse("cli.error.goes_with", option="--public-mirror",
                          other="--boards N, --rooms")
        return VenueSettings("event", listen=listen, boards=boards, rooms=args.rooms,
                             public_mirror=args.public_mirror, **common)
    if not boards:
        raise _refuse("cli.error.venue.boards", most=MAX_BOARDS)
    return VenueSettings("single", listen=listen, boards=boards, **common)


def _event_side(args, kind: str) -> dict:
    if not args.event_broker or not args.event_password_file:
        raise _refuse("cli.error.venue.needs", option=kind,
                      needs="--event-broker HOST:PORT, --event-password-file FILE")
    return {"event_broker": bridge_address(args.event_broker, "--event-broker"),
            "event_password_file": args.event_password_file}


def _readable(path: str | None) -> str:
    """A password file named on the command line, there to be read (66 otherwise)."""
    if path is None or not os.path.exists(path) or not os.access(path, os.R_OK):
        raise NoInputError(Message.of("cli.error.no_file", path=str(path)))
    return path


def run(args) -> int:
    """Write the venue of `venue_settings`; its one line says what was written and how to
    start the broker."""
    from draughtsboard.words import words_for

    settings = venue_settings(args)
    say = words_for(settings.language)
    wrote = WRITERS[settings.kind](settings)
    print(say(wrote))
    return 0


def _single(settings: VenueSettings) -> Message:
    from draughtsboard.hall.venue import write_venue

    venue = write_venue(settings.out, settings.boards, host=settings.listen.host,
                        port=settings.listen.port, language=settings.language)
    return Message.of("cli.venue.wrote.single", config=str(venue.config),
                      boards=settings.boards)


def _event(settings: VenueSettings) -> Message:
    from draughtsboard.hall.rooms import RoomError, parse_rooms, write_event_venue

    try:
        rooms = parse_rooms(settings.rooms, settings.boards) if settings.rooms is not None \
            else []
    except RoomError as error:
        raise UsageError(Message.of("cli.error.option", option="--rooms",
                                    reason=error.message or str(error))) from None
    event = write_event_venue(settings.out, rooms, boards=settings.boards,
                              host=settings.listen.host, port=settings.listen.port,
                              public=settings.public_mirror)
    extra = [Message.of("cli.venue.wrote.boards", boards=f"1-{settings.boards}")] \
        if settings.boards else []
    extra += [Message.of("cli.venue.wrote.rooms", rooms=", ".join(str(r) for r in rooms))] \
        if rooms else []
    extra += [Message.of("cli.venue.wrote.mirror")] if settings.public_mirror else []
    return Message.of("cli.venue.wrote.event", config=str(event.config), extra=extra)


def _room(settings: VenueSettings) -> Message:
    from draughtsboard.hall.rooms import (
        check_room_plan,
        parse_room,
        read_room_secret,
        write_room_venue,
    )

    room = parse_room(settings.room or "")
    event = settings.event_broker
    assert event is not None  # venue_settings: a room's broker needs the event's
    path = _readable(settings.event_password_file)
    password, planned = read_room_secret(path)
    check_room_plan(room, planned, path)
    written = write_room_venue(settings.out, room, event.host, event.port, password,
                               host=settings.listen.host, port=settings.listen.port)
    return Message.of("cli.venue.wrote.room", config=str(written.config), event=str(event),
                      room=str(room))


def _public(settings: VenueSettings) -> Message:
    from draughtsboard.hall.rooms import read_bridge_password, write_public_venue

    event = settings.event_broker
    assert event is not None  # venue_settings: a public broker needs the event's
    public = write_public_venue(settings.out, event.host, event.port,
                                read_bridge_password(_readable(settings.event_password_file)),
                                host=settings.listen.host, port=settings.listen.port)
    return Message.of("cli.venue.wrote.public", config=str(public.config), event=str(event))


def _town(settings: VenueSettings) -> Message:
    from draughtsboard.hall.rooms import read_bridge_password
    from draughtsboard.hall.towns import write_bridging_town, write_host_town

    match, seat = settings.match or "", settings.seat or ""
    if settings.host_town is None:
        town = write_host_town(settings.out, match, seat, host=settings.listen.host,
                               port=settings.listen.port)
        return Message.of("cli.venue.wrote.host_town", config=str(town.config), seat=seat)
    other = settings.host_town
    town = write_bridging_town(settings.out, match, seat, other.host, other.port,
                               read_bridge_password(_readable(settings.town_password_file)),
                               host=settings.listen.host, port=settings.listen.port)
    return Message.of("cli.venue.wrote.bridging_town", config=str(town.config),
                      other=str(other), seat=seat)


WRITERS = {"single": _single, "event": _event, "room": _room, "public": _public,
           "town": _town}
