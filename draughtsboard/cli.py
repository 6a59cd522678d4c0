"""The `draughtsboard` command: the one place that wires adapters to the core.

Every command runs under one top-level handler (`main`): whatever escapes it becomes one
line, ``draughtsboard <command>: <what>``, and an exit status that says which kind of
failure it was (`EXIT_STATUS`), so that the systemd unit can stop restarting on the ones
a restart cannot cure (``RestartPreventExitStatus``).
"""

from __future__ import annotations

import argparse
import ipaddress
import sys

from draughtsboard.board.message import Message
from draughtsboard.commands import analyse, hub, pdn, replay, rules, token, track
from draughtsboard.commands.options import add_data_option


def replay_on_simulated_board(position, args):
    """Replay backend ``sim``: the simulated board and the real reed-matrix driver."""
    from draughtsboard.hardware.virtual import open_virtual_time_board

    return open_virtual_time_board(position.variant.geometry, position.occupancy())


def replay_on_emulated_device(position, args):
    """Replay backend ``serial-emulated``: the simulated board's switches scanned by the
    emulated microcontroller, over a serial wire that damages ``--fault-rate`` of bytes."""
    from draughtsboard.firmware_bridge.virtual import EmulatedVirtualBoard
    from draughtsboard.hardware.virtual import simulated_switches

    board = position.variant.geometry
    switches = simulated_switches(board, position.occupancy())
    # faults seeded per game: every game meets its own damaged bytes
    seed = (args.noise or 0) * 100003 + getattr(args, "game_index", 0)
    return EmulatedVirtualBoard(board, switches, fault_rate=args.fault_rate, seed=seed)


REPLAY_BACKENDS = {"sim": replay_on_simulated_board, "serial-emulated": replay_on_emulated_device}


def _add_diag(subparsers) -> None:
    from draughtsboard.hardware import diag

    parser = subparsers.add_parser(
        "diag", help="switch map, LED walk and a stuck or chattering switch report")
    diag.add_arguments(parser)
    parser.set_defaults(handler=_diag)


def diag_board(board: str | None, variant: str | None) -> str | None:
    """The board of diag's ``--board`` and ``--variant`` together: a game names the board
    it is played on (``russian``: 8x8), as ``play --variant`` does, so scripts written when
    diag took a game keep working. ValueError in one line for an unknown game, or a game
    of another board than ``--board``."""
    from draughtsboard.board.rules import board_name, get_variant

    if variant is None:
        return board
    try:
        played_on = board_name(get_variant(variant).geometry)
    except ValueError as error:
        raise ValueError(f"--variant: {error}") from None
    if board is not None and board != played_on:
        raise ValueError(f"--variant {variant} is played on {played_on}, not on --board "
                         f"{board}: give one of them")
    return played_on


def _diag(args) -> int:
    """``diag``: the hardware layer's, or over a serial link the firmware bridge's; a
    game's name (``--variant``) first becomes the board it is played on."""
    from draughtsboard.hardware import diag

    try:
        args.board = diag_board(args.board, args.variant)
    except ValueError as error:
        print(f"draughtsboard diag: {error}", file=sys.stderr)
        return 2
    if args.backend == "serial":
        from draughtsboard.firmware_bridge import diag as serial_diag
        from draughtsboard.hardware.board_map import render_map

        return serial_diag.run(args, render_map, diag.walk_leds)
    return diag.run(args)


def _add_emulate(subparsers) -> None:
    from draughtsboard.board.rules import variant_names

    parser = subparsers.add_parser(
        "emulate", help="a board microcontroller on a pseudo-terminal, for the serial "
        "backend without one; its device path is the first line of output")
    parser.add_argument("--pty", action="store_true", required=True,
                        help="on a new pseudo-terminal (the one way for now)")
    parser.add_argument("--micropython", action="store_true",
                        help="the whole firmware under MicroPython (Node.js and the build "
                        "scripts/test.sh installs), not the reference firmware in Python")
    parser.add_argument("--variant", default="russian", choices=variant_names(),
                        help="the game whose position the hands keep (its board is the "
                        "device's)")
    parser.add_argument("--fen", help="the position on the board (default: the start)")
    parser.add_argument("--fault-rate", type=float, default=0.0, metavar="R",
                        help="share of bytes damaged each way (0-1)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the faults and boot ids")
    parser.add_argument("--link", metavar="PATH",
                        help="keep PATH a symbolic link to the terminal (a new one after "
                        "each unplug) and print it instead of /dev/pts/N")
    parser.epilog = ("Standard input, one command a line: a move (22-17, c3-d4, 22x13), "
                     "lift N, place N, unplug, plug, reset, position, quit.")
    parser.set_defaults(handler=emulate)


def emulate(args) -> int:
    """``emulate --pty``: the device on a pseudo-terminal, its hands on standard input."""
    import logging
    import signal
    import time

    from draughtsboard.board.ports import squares_from_mask
    from draughtsboard.board.rules import get_variant
    from draughtsboard.board.rules.fen import initial_position, parse_fen
    from draughtsboard.commands.emulate import Hands, TimedSwitches
    from draughtsboard.firmware_bridge.pty_device import PtyDevice
    from draughtsboard.hardware.config import builtin_config
    from draughtsboard.hardware.simulation import SimulatedBoard

    if not 0.0 <= args.fault_rate <= 1.0:
        raise PlayConfigError(f"--fault-rate {args.fault_rate} is not between 0 and 1")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    variant = get_variant(args.variant)
    position = parse_fen(variant, args.fen) if args.fen else initial_position(variant)
    board = SimulatedBoard(builtin_config(variant.geometry),
                           occupied=squares_from_mask(position.occupancy()))
    switches = TimedSwitches(board, time.monotonic)
    if args.micropython:
        from draughtsboard.firmware_bridge.micropython_device import MicroPythonDevice

        device = MicroPythonDevice(variant.geometry, switches, time.monotonic, seed=args.seed,
                                   realtime=True)
    else:
        from draughtsboard.firmware_bridge.emulator import EmulatedDevice

        device = EmulatedDevice(variant.geometry, switches, time.monotonic, seed=args.seed)
    hands = Hands(position, switches)

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    with PtyDevice(device, fault_rate=args.fault_rate, seed=args.seed, link=args.link) as pty:
        print(pty.path, flush=True)
        pty.start()
        try:
            for line in sys.stdin:
                answer, cable = hands.command(line, time.monotonic())
                if cable == "quit":
                    break
                if cable is not None:
                    getattr(pty, "reset_device" if cable == "reset" else cable)()
                    if cable == "plug":
                        answer = f"ok plug {pty.path}"
                if answer:
                    print(answer, flush=True)
            else:
                while True:  # no more commands (stdin closed): run until a signal
                    time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


def _add_play(subparsers) -> None:
    from draughtsboard.board.mode import Mode

    parser = subparsers.add_parser(
        "play", help="play on the board: controller, journal, LEDs and the live web page")
    parser.add_argument("--variant", help="variant (default: the unfinished game's, else the "
                        "board's own game: russian on 8x8, international on 10x10, lasca on "
                        "7x7; any variant of the board's size plays, e.g. column on 8x8)")
    parser.add_argument("--mode", default=None, choices=[m.value for m in Mode],
                        help="mode of a new game (default tournament; a resumed game keeps "
                        "its own); puzzle: solve the positions of --puzzles on the board")
    parser.add_argument("--puzzles", metavar="FILE", help="puzzle mode: a PDN file of "
                        "positions (FEN tags) and their solutions (default: the puzzles "
                        "shipped for the variant)")
    parser.add_argument("--backend", default="auto", choices=PLAY_BACKENDS,
                        help="auto: gpio where a GPIO chip and a board config exist, "
                        "otherwise the simulator")
    parser.add_argument("--config", metavar="FILE", help="board config (TOML) for gpio; "
                        f"default {DEFAULT_CONFIG_HINT}")
    parser.add_argument("--port", default=None, metavar="URL",
                        help="serial backend: device or pyserial URL (default /dev/ttyACM0)")
    parser.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE",
                        help="a PDN tag of a new game (repeatable): Event, White, Black, "
                        "TimeControl (seconds or seconds+increment) ...")
    parser.add_argument("--opponent", metavar="OPPONENT",
                        help="the board plays one side: engine[:LEVEL] (the built-in engine, "
                        "level 1-10, default 10), hub:COMMAND (a Hub engine), dxp:HOST:PORT "
                        "(a DXP peer the board connects to), dxp-listen:HOST:PORT (the "
                        "board waits for a DXP initiator) or board:MATCH (another board, "
                        "through the broker of board:mqtt://HOST:PORT/MATCH or --hall: a "
                        "match between towns); docs/opponents.md")
    parser.add_argument("--opponent-side", choices=["white", "black"], default="black",
                        help="the colour the opponent plays (default black)")
    parser.add_argument("--opponent-seconds", type=float, default=5.0, metavar="S",
                        help="an external engine's time per move when the game has no "
                        "TimeControl (default 5)")
    parser.add_argument("--coach", choices=["white", "black", "both"], default=None,
                        help="the side(s) the coach follows in training and free play "
                        "(default: the side the person plays against an opponent, else both)")
    parser.add_argument("--fen", help="start position of a new game (default: initial)")
    parser.add_argument("--new", action="store_true",
                        help="start a new game even when an unfinished one could be resumed "
                        "(that one is closed as unfinished)")
    parser.add_argument("--listen", default="127.0.0.1:8080", metavar="HOST:PORT",
                        help="where the page is served (default 127.0.0.1:8080)")
    add_data_option(parser)
    parser.add_argument("--irregular", choices=["fmjd", "restore"],
                        help="irregularity policy of a new game: fmjd (the opponent decides; "
                        "international and russian default) or restore (put back; column "
                        "games' default); a resumed game keeps its own")
    parser.add_argument("--irregularity-leds", choices=["on", "off"], default=None,
                        help="tournament mode: light irregularities on the board too "
                        "(default on, or the board config's [irregularities] board_leds)")
    parser.add_argument("--allow-remote-hands", action="store_true",
                        help="let other machines move the simulated board's pieces (sim and "
                        "serial-emulated only; by default only this machine can)")
    parser.add_argument("--hall", metavar="URL", help="publish to the tournament hall's MQTT "
                        "broker, mqtt://USER:PASS@HOST:PORT (or [hall] in the board config; "
                        "credentials also from DRAUGHTSBOARD_HALL_USER/_PASSWORD/_PASSWORD_FILE)")
    parser.add_argument("--board", type=int, metavar="N", help="this board's number in the hall")
    parser.add_argument("--sim-fault", action="append", default=[], metavar="FAULT",
                        help="sim backend: a wiring fault built into the simulated board "
                        "(row:R:open, column:C:open, short:column:A,B, stuck:N; see diag)")
    parser.add_argument("--language", metavar="CODE",
                        help="the board's language: what play prints, the comments it "
                        "writes into PDN, and its page for a browser that asks for none of "
                        "the catalogs' languages: en, ru, nl, fr (default: language in the "
                        "board config, else en; docs/languages.md)")
    _add_speech_options(parser)
    parser.set_defaults(handler=_with_logging(_play))


# -- speech (docs/accessibility.md): options, checked before play starts, then started ------


def _add_speech_options(parser) -> None:
    from draughtsboard.speech import LEVELS
    from draughtsboard.words import catalog_languages

    parser.add_argument("--speech", choices=LEVELS, default=None,
                        help="say the game aloud through espeak-ng: moves (the moves, the "
                        "opponent's move, the result), flags (and the flags: an illegal "
                        "move, a required capture), all (and the rest: a draw to claim, a "
                        "new game, a takeback); default off in tournament mode, moves in "
                        "the others")
    parser.add_argument("--speech-volume", type=int, default=100, metavar="0-200",
                        help="espeak-ng's amplitude (default 100)")
    parser.add_argument("--speech-to", metavar="DIR",
                        help="write each announcement to a numbered WAV file in DIR instead "
                        "of playing it (implies speech on: moves, unless --speech says)")
    parser.add_argument("--speech-language", choices=catalog_languages(), default=None,
                        help="the language the board speaks (default: the board's "
                        "language, else en)")


def speech_settings(args, board_language: str = "en"
                    ) -> tuple[str | None, str, int, str | None] | None:
    """(level, language, volume, directory) of the speech asked for, checked (each
    option whatever the level, before anything starts; the directory is made); ``None``
    when it is switched off. The board speaks its own language unless
    ``--speech-language`` says otherwise."""
    if not 0 <= args.speech_volume <= 200:
        raise UsageError(f"--speech-volume is 0 to 200, not {args.speech_volume}")
    if args.speech_to:
        _check_speech_dir(args.speech_to)
    level = args.speech
    if args.speech_to and level is None:
        level = "moves"
    if level == "off":
        return None
    language = args.speech_language or board_language
    return level, language, args.speech_volume, args.speech_to


def _check_speech_dir(path: str) -> None:
    """``--speech-to``'s directory, made if need be; one line if it cannot be."""
    import pathlib

    directory = pathlib.Path(path)
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"--speech-to {path}: is a file, not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"--speech-to {path}: {error.strerror or error}") from None


def espeak_voice(language: str, log, program: str = "espeak-ng") -> str:
    """espeak-ng's voice for ``language``: its own, else English (the pseudo-language
    ``qps`` has none), said in one log line. Asks the engine which voices it has; an
    engine that cannot tell (not installed) keeps the language's own."""
    import subprocess

    from draughtsboard.speech.sink import voice_for
    from draughtsboard.words import words_for

    try:
        listed = subprocess.run([program, "--voices"], capture_output=True, text=True,
                                timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return language
    voice = voice_for(language, listed)
    if voice != language:
        log.warning("%s", words_for(language)(Message.of(
            "speech.voice_fallback", language=language, voice=voice)))
    return voice


def _start_speech(settings, session, log):
    """Start the speaker and the announcer following ``session``; returns the board's
    voice for answers (the announcer; ``None`` without speech) and what stops them."""
    if settings is None:
        return None, lambda: None
    from draughtsboard.speech import Announcer, Speaker

    level, language, volume, directory = settings
    speaker = Speaker(language, volume=volume, to_dir=directory,
                      voice=espeak_voice(language, log),
                      clock=session.game.clock).start()
    announcer = Announcer(session, speaker, language, level).start()

    def stop() -> None:
        announcer.stop()
        speaker.close()

    return announcer, stop


def _add_hall(subparsers) -> None:
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
    parser.set_defaults(handler=_with_logging(_hall))


def _with_logging(command):
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


def _hall(args) -> int:
    import math
    import os

    from draughtsboard.hall.rooms import RoomError, parse_rooms
    from draughtsboard.hall.server import serve
    from draughtsboard.hall.service import HallService, hall_client_id
    from draughtsboard.hall.venue import VenueError, plain_host, venue_language
    from draughtsboard.hall_protocol.broker import (
        ENV_PASSWORD_FILE,
        BrokerURLError,
        parse_broker_url,
    )
    from draughtsboard.http_limits import ascii_number
    from draughtsboard.play.token import ArbiterToken
    from draughtsboard.recording import DataDirLock
    from draughtsboard.words import UnknownLanguageError, check_language
    try:
        language = check_language(args.language or venue_language(
            os.environ.get(ENV_PASSWORD_FILE)) or "en")
    except (UnknownLanguageError, VenueError) as error:
        print(f"draughtsboard hall: --language: {error}", file=sys.stderr)
        return 2
    host, _, port_text = args.listen.rpartition(":")
    if not host or not ascii_number(port_text) or not plain_host(host.strip("[]")):
        print(f"draughtsboard hall: --listen {args.listen!r}: expected HOST:PORT",
              file=sys.stderr)
        return 2
    if not math.isfinite(args.delay) or args.delay < 0:
        print("draughtsboard hall: --delay must be 0 or more minutes", file=sys.stderr)
        return 2
    try:
        address = parse_broker_url(args.broker)
    except BrokerURLError as error:
        print(f"draughtsboard hall: --broker: {error}", file=sys.stderr)
        return 2
    mirror_address = _mirror_address(args, address)
    if isinstance(mirror_address, int):
        return mirror_address
    try:
        rooms = parse_rooms(args.rooms) if args.rooms is not None else []
    except RoomError as error:
        print(f"draughtsboard hall: --rooms: {error}", file=sys.stderr)
        return 2
    # One hall per data directory (a second one stops here, exit 75); the broker knows
    # the hall by its directory, so a restarted hall finds the messages the broker kept
    # for it and a second hall with its own directory does not push the first one off.
    with DataDirLock(args.data):
        chosen = os.environ.get(ENV_HALL_TOKEN, "").strip()
        if args.public:  # no token opens the console: a new secret at every look
            import secrets

            token = lambda: secrets.token_hex(32)  # noqa: E731
            source = "none (a public hall: its console refuses every action)"
        elif chosen:
            token, source = (lambda: chosen), f"the one in {ENV_HALL_TOKEN}"
        else:
            store = ArbiterToken(args.data)  # kept in the data directory: survives restarts
            try:
                store.current()
            except OSError as error:
                print(f"draughtsboard hall: arbiter token: {error}", file=sys.stderr)
                return 2
            token = store.current
            source = (f"kept in {store.path} (`draughtsboard token --data {args.data}` "
                      "prints it, --rotate replaces it)")
        service = HallService(address, args.data, client_id=hall_client_id(args.data),
                              rooms=rooms, venue_record=args.public)
        mirror = None
        if mirror_address is not None:
            from draughtsboard.hall.mirror import Mirror

            mirror = Mirror(service.store, mirror_address, args.mirror_delay * 60,
                            wall=service.wall, online=service.board_online,
                            on_change=service.changed)
            service.mirror_state = mirror.state
            mirror.start()
        try:
            return serve(service, token=token, token_source=source, delay=args.delay * 60,
                         host=host.strip("[]"), port=int(port_text), language=language)
        finally:
            if mirror is not None:
                mirror.stop()


ENV_MIRROR_PASSWORD_FILE = "DRAUGHTSBOARD_MIRROR_PASSWORD_FILE"


def _mirror_address(args, broker):
    """``hall --mirror``'s broker (None: no mirror), or the exit status of a refusal: a
    mirror without its password, or logging in as the hall itself (each would push the
    other off the broker every second), is refused here rather than failing unseen."""
    import dataclasses
    import math
    import os

    from draughtsboard.hall.rooms import MIRROR_USER, RoomError, read_bridge_password
    from draughtsboard.hall_protocol.broker import BrokerURLError, parse_broker_url

    if args.mirror is None:
        if args.mirror_delay is not None:
            print("draughtsboard hall: --mirror-delay goes with --mirror", file=sys.stderr)
            return 2
        return None
    if args.public:
        print("draughtsboard hall: --mirror is the venue hall's, not a public hall's",
              file=sys.stderr)
        return 2
    if args.mirror_delay is None:
        args.mirror_delay = 15.0
    if not math.isfinite(args.mirror_delay) or args.mirror_delay < 0:
        print("draughtsboard hall: --mirror-delay must be 0 or more minutes", file=sys.stderr)
        return 2
    secret = os.environ.get(ENV_MIRROR_PASSWORD_FILE)
    try:
        password = read_bridge_password(secret, ENV_MIRROR_PASSWORD_FILE) if secret else None
        address = parse_broker_url(args.mirror, password=password, environ={})
    except (RoomError, BrokerURLError) as error:
        print(f"draughtsboard hall: --mirror: {error}", file=sys.stderr)
        return 2
    if address.username is None:
        address = dataclasses.replace(address, username=MIRROR_USER)
    if not address.password:
        print(f"draughtsboard hall: --mirror needs its password: {ENV_MIRROR_PASSWORD_FILE}="
              "FILE (mirror.password of the event's venue)", file=sys.stderr)
        return 2
    if (address.username, address.host, address.port) == \
            (broker.username, broker.host, broker.port):
        print(f"draughtsboard hall: --mirror logs in as {address.username!r}, the hall's own "
              f"user on {address.host}:{address.port}: the mirror's user is "
              f"{MIRROR_USER!r} (venue --public-mirror)", file=sys.stderr)
        return 2
    return address


ENV_HALL_TOKEN = "DRAUGHTSBOARD_HALL_TOKEN"


def _add_venue(subparsers) -> None:
    parser = subparsers.add_parser(
        "venue", help="write a venue's mosquitto files: config, passwords, ACL, board secrets")
    parser.add_argument("--boards", type=int, metavar="N",
                        help="boards 1..N on this broker (required but with --rooms, --room)")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--listen", default="0.0.0.0:1883", metavar="HOST:PORT",
                        help="the broker's listener (default 0.0.0.0:1883)")
    parser.add_argument("--language", metavar="CODE",
                        help="the venue's language (en, ru, nl, fr): the hall started with "
                        "this venue's hall.password speaks it unless hall --language says "
                        "another")
    _add_room_options(parser)
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
    parser.set_defaults(handler=_run_venue)


def _run_town_venue(args) -> int:
    """``venue --match``: one town's broker of a match between towns."""
    from draughtsboard.hall.rooms import RoomError, parse_address, read_bridge_password
    from draughtsboard.hall.towns import TownError, write_bridging_town, write_host_town
    from draughtsboard.hall.venue import UnreachableVenueError, VenueError

    try:
        if args.rooms or args.room or args.public or args.public_mirror or \
                args.boards is not None or args.event_broker or args.event_password_file:
            raise TownError("--match writes a town's broker of a match: without --boards, "
                            "--rooms, --room, --public, --public-mirror, --event-broker")
        if args.seat is None:
            raise TownError("--match needs --seat white or black")
        host, port = parse_address(args.listen, "--listen")
        if args.host_town is None:
            if args.town_password_file:
                raise TownError("--town-password-file goes with --host-town")
            town = write_host_town(args.out, args.match, args.seat, host=host, port=port)
            print(f"wrote {town.config}, passwords, acl, board.password (the board at "
                  f"{args.seat}) and town.password (the other town's bridge); start the "
                  f"broker with: mosquitto -c {town.config}")
            return 0
        if not args.town_password_file:
            raise TownError("--host-town needs --town-password-file FILE")
        other_host, other_port = parse_address(args.host_town, "--host-town")
        town = write_bridging_town(args.out, args.match, args.seat, other_host, other_port,
                                   read_bridge_password(args.town_password_file),
                                   host=host, port=port)
    except (VenueError, OSError) as error:
        print(f"draughtsboard venue: {error}", file=sys.stderr)
        return 2 if isinstance(error, RoomError | UnreachableVenueError) else 1
    print(f"wrote {town.config} (the bridge to {args.host_town}), passwords, acl and "
          f"board.password (the board at {args.seat}); start the broker with: "
          f"mosquitto -c {town.config}")
    return 0


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


def _run_room_venue(args) -> int:
    """``venue --rooms`` (the event's broker) or ``venue --room`` (a room's broker)."""
    from draughtsboard.hall.rooms import (
        RoomError,
        check_room_plan,
        parse_address,
        parse_room,
        parse_rooms,
        read_bridge_password,
        read_room_secret,
        write_event_venue,
        write_public_venue,
        write_room_venue,
    )
    from draughtsboard.hall.venue import UnreachableVenueError, VenueError

    try:
        host, port = parse_address(args.listen, "--listen")
        if args.public:
            if args.room or args.rooms or args.boards is not None or args.public_mirror:
                raise RoomError("--public writes a public broker: without --rooms, --room, "
                                "--boards, --public-mirror")
            if not args.event_broker or not args.event_password_file:
                raise RoomError("--public needs --event-broker HOST:PORT and "
                                "--event-password-file FILE")
            event_host, event_port = parse_address(args.event_broker, "--event-broker",
                                                   bridged=True)
            public = write_public_venue(args.out, event_host, event_port,
                                        read_bridge_password(args.event_password_file),
                                        host=host, port=port)
            print(f"wrote {public.config} (the bridge from {event_host}:{event_port}, one "
                  f"way), passwords, acl and hall.password; start the broker with: "
                  f"mosquitto -c {public.config}")
            return 0
        if args.room is not None:
            if args.rooms is not None or args.boards is not None:
                raise RoomError("--room writes one room's broker: without --rooms, --boards")
            if not args.event_broker or not args.event_password_file:
                raise RoomError("--room needs --event-broker HOST:PORT and "
                                 "--event-password-file FILE")
            room = parse_room(args.room)
            event_host, event_port = parse_address(args.event_broker, "--event-broker",
                                                   bridged=True)
            password, planned = read_room_secret(args.event_password_file)
            check_room_plan(room, planned, args.event_password_file)
            written = write_room_venue(args.out, room, event_host, event_port, password,
                                       host=host, port=port)
            print(f"wrote {written.config} (the bridge to {event_host}:{event_port}), "
                  f"passwords, acl and boards/<N>.password for room {room}; start the "
                  f"broker with: mosquitto -c {written.config}")
            return 0
        if args.event_broker or args.event_password_file:
            raise RoomError("--event-broker and --event-password-file go with --room")
        boards = args.boards or 0
        if not 0 <= boards <= 9999:
            raise RoomError("--boards 1-9999")
        if args.rooms is None and not boards:
            raise RoomError("--public-mirror goes with --boards N or --rooms")
        try:
            rooms = parse_rooms(args.rooms, boards) if args.rooms is not None else []
        except RoomError as error:
            raise RoomError(f"--rooms: {error}") from None
        event = write_event_venue(args.out, rooms, boards=boards, host=host, port=port,
                                  public=args.public_mirror)
    except (VenueError, OSError) as error:
        print(f"draughtsboard venue: {error}", file=sys.stderr)
        # a bad setting or --out is refused before anything is written, as the one-machine
        # venue's are; anything else failed while writing
        return 2 if isinstance(error, RoomError | UnreachableVenueError) else 1
    wrote = [f"boards/<N>.password for boards 1-{boards}"] if boards else []
    wrote += [f"rooms/<name>.password for rooms {', '.join(str(r) for r in rooms)}"] \
        if rooms else []
    wrote += ["mirror.password and public.password"] if args.public_mirror else []
    print(f"wrote {event.config}, passwords, acl, hall.password, {', '.join(wrote)}; start "
          f"the broker with: mosquitto -c {event.config}")
    return 0


def _run_venue(args) -> int:
    from draughtsboard.hall.venue import (
        UnreachableVenueError,
        VenueError,
        plain_host,
        write_venue,
    )
    from draughtsboard.http_limits import ascii_number

    if args.match is not None:
        return _run_town_venue(args)
    if args.seat or args.host_town or args.town_password_file:
        print("draughtsboard venue: --seat, --host-town and --town-password-file go with "
              "--match", file=sys.stderr)
        return 2
    if args.rooms is not None or args.room is not None or args.public or args.public_mirror:
        return _run_room_venue(args)
    host, _, port_text = args.listen.rpartition(":")
    if not plain_host(host) or not ascii_number(port_text) or not 1 <= int(port_text) <= 65535 \
            or args.boards is None or not 1 <= args.boards <= 9999:
        print("draughtsboard venue: --listen HOST:PORT (an address or a host name, a port "
              "1-65535) and --boards 1-9999", file=sys.stderr)
        return 2
    from draughtsboard.words import UnknownLanguageError, check_language
    try:
        language = None if args.language is None else check_language(args.language)
    except UnknownLanguageError as error:
        print(f"draughtsboard venue: --language: {error}", file=sys.stderr)
        return 2
    try:
        venue = write_venue(args.out, args.boards, host=host, port=int(port_text),
                            language=language)
    except UnreachableVenueError as error:  # a bad --out, refused before anything is written
        print(f"draughtsboard venue: {error}", file=sys.stderr)
        return 2
    except (VenueError, OSError) as error:
        print(f"draughtsboard venue: {error}", file=sys.stderr)
        return 1
    print(f"wrote {venue.config}, passwords, acl, hall.password and boards/<N>.password for "
          f"{args.boards} boards; start the broker with: mosquitto -c {venue.config}")
    return 0


def _hall_link(args, session, backend_source, log):
    """The board's link to the hall, when one is configured (else None)."""
    from draughtsboard import __version__
    from draughtsboard.hall_link import HallLink, hall_settings
    from draughtsboard.hall_link.config import HallConfigError

    try:
        settings = hall_settings(args.hall, args.board, _default_config_path(args))
    except HallConfigError as error:
        raise PlayConfigError(str(error)) from None
    if settings is None:
        return None
    return HallLink(session, settings.address, settings.board, software=__version__,
                    health=health_probe(backend_source, session),
                    read_game=session.game.recorder.game)


def health_probe(source, session, clock=None):
    """The board's own health for the hall: the reed matrix's scan counters and the
    squares whose switch chatters (a failing reed), or the serial link's counters; and
    the squares whose switch has disagreed with the game's position at every look for a
    while (``stuck``: `SwitchWatch`). ``clock`` is monotonic time (an input for tests)."""
    import dataclasses
    import time

    from draughtsboard.play.health import SwitchWatch

    sensors = getattr(source, "sensors", None)  # a HardwareBoard's reed matrix
    watch = SwitchWatch()

    def health() -> dict:
        out: dict = {"error": str(session.error) if session.error else None}
        stats = getattr(sensors if sensors is not None else source, "stats", None)
        value = stats() if callable(stats) else stats
        if dataclasses.is_dataclass(value):
            out.update(dataclasses.asdict(value))
        bounces = getattr(sensors, "bounces_by_square", None)
        if bounces is not None:
            out["chattering"] = sorted(s for s, n in bounces().items() if n >= CHATTERING)
        latest = source.latest()
        if latest is not None:
            now = (clock or time.monotonic)()
            watch.look(now, latest.occupied, session.game.tracker.position.occupancy())
            out["stuck"] = watch.suspects(now)
        return out

    return health


CHATTERING = 50  # filtered bounces on one square since start: its reed is failing


PLAY_BACKENDS = ("auto", "gpio", "serial", "serial-emulated", "sim")
DEFAULT_CONFIG_HINT = "/etc/draughtsboard/board.toml or ~/.config/draughtsboard/board.toml"
ENV_TOKEN = "DRAUGHTSBOARD_ARBITER_TOKEN"


def _default_config_path(args):
    from pathlib import Path

    from platformdirs import user_config_dir

    if args.config:
        return Path(args.config)
    for candidate in (Path("/etc/draughtsboard/board.toml"),
                      Path(user_config_dir("draughtsboard", appauthor=False)) / "board.toml"):
        if candidate.is_file():
            return candidate
    return None


# Exit statuses (sysexits.h), one per kind of failure; the unit's RestartPreventExitStatus
# lists those a restart cannot cure.
EXIT_USAGE = 64  # bad arguments
EXIT_DATA = 65  # bad input (the core's DraughtsError): a FEN, a PDN file, a game id
EXIT_UNAVAILABLE = 69  # hardware that is not there: no GPIO chip
EXIT_SOFTWARE = 70  # a bug: an exception nobody expected (still one line)
# storage (an OSError: a file, a port, a full disk, and recording's RecordingError: a
# journal damaged or changed under its writer)
EXIT_IO = 74
EXIT_BUSY = 75  # another process has the data directory (DataDirBusyError): try later
EXIT_CONFIG = 78  # the board config, or a setting that is refused (open simulator hands)


class PlayConfigError(ValueError):
    """A ``play`` setting that is refused (not a file's content)."""


class UsageError(ValueError):
    """An argument that cannot be used as given."""


SIMULATED_BACKENDS = ("sim", "serial-emulated")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (as given to --listen) is reachable only from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` too) as (host, port); `PlayConfigError` otherwise."""
    host, _, port_text = text.rpartition(":")
    host = host.strip("[]")
    if not host or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise UsageError(f"--listen {text!r}: expected HOST:PORT with a port 0-65535")
    return host, int(port_text)


def choose_backend(args, log, say=None) -> str:
    """The backend ``play`` uses: the one asked for, or for ``auto`` gpio where a GPIO chip and
    a board config exist, else the simulator (with a warning; refused on a non-loopback
    address without --allow-remote-hands, see `check_hands_exposure`). ``say`` puts the
    line it logs into words (default: English)."""
    import glob

    from draughtsboard.words import english

    say = say or english

    if args.backend != "auto":
        return args.backend
    chips = glob.glob("/dev/gpiochip*")
    config = _default_config_path(args)
    if chips and config is not None and config.is_file():
        log.info("%s", say(Message.of("cli.backend.gpio", chip=chips[0], config=str(config))))
        return "gpio"
    if not chips:
        log.warning("%s", say(Message.of("cli.backend.simulator.no_chip")))
    else:
        looked = str(config) if config is not None else DEFAULT_CONFIG_HINT
        log.warning("%s", say(Message.of("cli.backend.simulator.no_config", config=looked)))
    return "sim"


def play_language(asked: str | None, config_path) -> str:
    """The board's language: ``asked`` (``--language``), else the board config's
    top-level ``language``, else English; one that has no catalog is refused in one line
    (`PlayConfigError`, the config status)."""
    from draughtsboard.words import SOURCE_LANGUAGE, UnknownLanguageError, check_language

    where = "--language"
    if asked is None:
        asked = _config_language(config_path)
        where = f"{config_path}: language"
    if asked is None:
        return SOURCE_LANGUAGE
    try:
        return check_language(asked)
    except UnknownLanguageError as error:
        raise PlayConfigError(f"{where}: {error}") from None


def _config_language(path) -> str | None:
    """The top-level ``language = "ru"`` of the board config at ``path`` (``None``
    without a file or the key); a ``language`` under a table is refused, saying where it
    goes, since TOML would read it as that table's."""
    import tomllib

    if path is None or not path.is_file():
        return None
    try:  # utf-8-sig: a BOM some editors write is not the file's first key
        data = tomllib.loads(path.read_bytes().decode("utf-8-sig"))
    except (OSError, tomllib.TOMLDecodeError, ValueError, RecursionError) as error:
        raise PlayConfigError(f"{path}: {error}") from None
    value = data.get("language")
    if value is None:
        for name, table in data.items():
            if isinstance(table, dict) and "language" in table:
                raise PlayConfigError(
                    f"{path}: [{name}] language: the board's language is set at the top of "
                    "the file, before the first [table]")
        return None
    if not isinstance(value, str):
        raise PlayConfigError(f"{path}: language must be a language's code, such as \"ru\"")
    return value


def _load_board_config(backend: str, args):
    """The board config of the gpio backend (loaded once), else ``None``."""
    if backend != "gpio":
        return None
    from draughtsboard.hardware.config import load_config

    path = _default_config_path(args)
    if path is None:
        raise PlayConfigError(f"no board config: give --config (or put one at "
                              f"{DEFAULT_CONFIG_HINT})")
    return load_config(path)


def check_hands_exposure(backend: str, host: str, allow_remote_hands: bool) -> None:
    """A simulated board's hands move pieces: refused on an address other machines reach,
    unless asked for (a board that falls back to the simulator must not be open to the
    whole network)."""
    if backend in SIMULATED_BACKENDS and not is_loopback(host) and not allow_remote_hands:
        raise PlayConfigError(
            f"the {backend} backend's hands would be open to the network on {host}: listen "
            "on 127.0.0.1, or give --allow-remote-hands")


def _open_play_board(backend: str, variant, args, config, occupied: list[int]):
    """(sensor source, LED sink, switches for the page's hands or None, closer) for the
    chosen backend, on the board ``variant`` (a `Variant`) is played on; ``config`` is the
    gpio backend's board config, whose board must be that one."""
    board = variant.geometry
    faults = getattr(args, "sim_fault", None) or []
    if faults and backend != "sim":
        raise UsageError("--sim-fault needs the sim backend")
    if backend == "sim":
        from draughtsboard.hardware.backends import open_simulated_board
        from draughtsboard.hardware.simulation import WiringFault

        try:
            wiring = [WiringFault.parse(text) for text in faults]
            simulated = open_simulated_board(board, occupied=occupied, real_time=True,
                                             faults=wiring)
        except ValueError as error:
            raise UsageError(str(error)) from None
        return simulated, simulated, simulated.simulation, simulated.close
    if backend == "gpio":
        from draughtsboard.board.rules import board_name
        from draughtsboard.hardware.backends import open_gpio_board

        if config.geometry is not board:
            raise PlayConfigError(
                f"the board config's board is {config.board}; {variant.name} is played on "
                f"{board_name(board)} (give another --variant, or the config of that board)")
        wood = open_gpio_board(config)
        return wood, wood, None, wood.close
    if backend == "serial":
        from draughtsboard.firmware_bridge.backends import DEFAULT_PORT, open_serial_board

        link = open_serial_board(args.port or DEFAULT_PORT, board)
        return link, link, None, link.close
    if backend == "serial-emulated":
        from draughtsboard.firmware_bridge.backends import open_emulated_board
        from draughtsboard.hardware.config import builtin_config
        from draughtsboard.hardware.simulation import SimulatedBoard

        switches = SimulatedBoard(builtin_config(board), occupied=occupied)
        link = open_emulated_board(board, switches=switches)
        return link, link, switches, link.close
    raise PlayConfigError(f"unknown backend {backend!r}")


def _board_game(config) -> str | None:
    """The game a board plays unless told otherwise: the first variant of its geometry
    (Russian on 8x8); ``None`` without a board config."""
    from draughtsboard.board.rules import variants_on

    return variants_on(config.geometry)[0].name if config is not None else None


def _load_puzzles(args, config):
    """Puzzle mode: the puzzles of ``--puzzles`` (default: the shipped file of the
    variant); `PuzzleError` (a `ValueError`) in one line when they cannot be used."""
    from draughtsboard.board.rules import get_variant
    from draughtsboard.play.opening import DEFAULT_VARIANT
    from draughtsboard.play.puzzles import PuzzleRunner, load_puzzles, shipped_puzzles

    variant = get_variant(args.variant or _board_game(config) or DEFAULT_VARIANT)
    path = args.puzzles or shipped_puzzles(variant)
    return PuzzleRunner(load_puzzles(path, variant), source=str(path))


def _wire_hint_button(source, session, coach, log, voice=None) -> None:
    """The board's buttons named ``hint`` and ``ask`` in its config answer a player's
    questions (docs/accessibility.md, "Asking the board"): a short press of the hint
    button asks the coach for a hint (in every mode but tournament), of the ask button
    the last move; a long press the clocks, a double press the position. ``voice`` (the
    speaker, ``None`` when the board does not speak) says each answer aloud."""
    from draughtsboard.speech.answers import HINT, question_for, spoken_text
    from draughtsboard.speech.presses import ButtonPresses
    from draughtsboard.web.ask_routes import NotReady, answer_now, ask_hint

    buttons = getattr(source, "buttons", {})

    def say(message) -> None:
        if voice is not None:
            voice.say(spoken_text(voice.words, message), answer=True)

    def told(future) -> None:
        error = future.exception()
        if error is None:
            say(future.result())
            if future.result().id == "ask.hint.thinking" and voice is not None:
                voice.want_hint()  # said when the coach has it
            return
        log.info("hint button: %s", error)
        message = getattr(error, "message", None)
        if isinstance(message, Message):
            say(message)  # the coach's refusal, said: hints off, the game over

    def answer(name: str, press: str) -> None:
        _, _, view = session.published()
        question = question_for(press, name, str(view.get("mode", "")))
        if question == HINT:
            if coach is not None:
                session.submit(lambda: ask_hint(coach)).add_done_callback(told)
            return
        try:
            say(answer_now(session, question))
        except NotReady:
            pass  # the game is not open yet: nothing to tell

    for name in ("hint", "ask"):
        button = buttons.get(name)
        if button is not None:
            ButtonPresses(button, lambda press, name=name: answer(name, press))
    if "hint" in buttons:
        log.info("%s", session.words(Message.of("cli.hint_button")))


def _open_opponent(args, variant, opening, tags):
    """The opponent of ``--opponent`` for ``variant`` (not started), or None; refused in
    one line (`OpponentError`) when the text names none, the kind cannot play the
    variant, puzzles are asked for too, or a DXP port cannot be listened on. A DXP
    initiator offers the ``TimeControl`` of ``tags`` (its base) for the game."""
    import time

    from draughtsboard.opponents import DxpOpponent, open_opponent, parse_opponent
    from draughtsboard.play.clock import TimeControl

    if not args.opponent:
        return None, None
    if args.mode == "puzzle":
        raise UsageError("--opponent: puzzle mode plays no opponent")
    if not 0.05 <= args.opponent_seconds <= 3600:
        raise UsageError("--opponent-seconds: 0.05 to 3600 seconds")
    spec = parse_opponent(args.opponent)
    seed = opening.resume_id or f"{time.time():.0f}"
    control = tags.get("TimeControl", "").strip()
    game_seconds = TimeControl.parse(control).base if control not in ("", "-", "?") else None
    if spec.kind == "board":
        return _board_opponent(args, spec, variant, tags), spec
    opponent = open_opponent(spec, variant, seed=seed, move_seconds=args.opponent_seconds,
                             game_seconds=game_seconds)
    if isinstance(opponent, DxpOpponent) and spec.kind == "dxp-listen":
        opponent.listen()  # a port in use stops here, in one line
    return opponent, spec


def _board_opponent(args, spec, variant, tags):
    """The other board of a match (``--opponent board:MATCH``) through the broker the spec
    names, else ``--hall``'s (credentials as the hall link's: the URL, else
    DRAUGHTSBOARD_HALL_USER and DRAUGHTSBOARD_HALL_PASSWORD[_FILE]); docs/opponents.md."""
    from draughtsboard.hall_link.match_link import MatchLink
    from draughtsboard.hall_protocol.broker import BrokerURLError, parse_broker_url
    from draughtsboard.opponents import BoardOpponent

    url = spec.broker or args.hall
    if not url:
        raise UsageError(f"--opponent board:{spec.match}: name the broker, "
                         f"board:mqtt://HOST:PORT/{spec.match}, or give --hall URL")
    try:
        address = parse_broker_url(url)
    except BrokerURLError as error:
        raise UsageError(f"--opponent board:{spec.match}: {error}") from None
    seat = "black" if args.opponent_side == "white" else "white"
    link = MatchLink(address, spec.match, seat)
    return BoardOpponent(variant, spec.match, seat, link,
                         name=tags.get(seat.capitalize(), ""), tags=tags)


def coach_sides(args) -> frozenset[str]:
    """The sides the coach follows: ``--coach``, else the person's side against an
    opponent, else both."""
    if args.coach == "both" or (args.coach is None and not args.opponent):
        return frozenset({"white", "black"})
    if args.coach is not None:
        return frozenset({args.coach})
    return frozenset({"black" if args.opponent_side == "white" else "white"})


def _arbiter_token(data_dir, log, say=None):
    """The arbiter's token: ``DRAUGHTSBOARD_TOKEN`` if set; else the one kept in the data
    directory (made there the first time), given as the function that reads it, so that
    `draughtsboard token --rotate` takes effect on a running board. ``say`` puts the
    line saying where it is kept into the board's language (default: English)."""
    import os

    from draughtsboard.play.token import ArbiterToken, TokenFileError
    from draughtsboard.words import english

    token = os.environ.get(ENV_TOKEN) or None
    if token is not None:
        return token
    store = ArbiterToken(data_dir)
    try:
        store.current()
    except TokenFileError as error:
        raise PlayConfigError(f"arbiter token: {error}") from None
    log.info("%s", (say or english)(Message.of("cli.token.kept", path=str(store.path))))
    return store.current


def _irregularity_options(args, config) -> tuple[str | None, bool]:
    """The irregularity policy (``None``: the variant's) and whether the board's LEDs show
    irregularities: the command line first, then the board config."""
    irregular = args.irregular or (config.irregular if config else None)
    if args.irregularity_leds is not None:
        return irregular, args.irregularity_leds == "on"
    return irregular, config.irregularity_leds if config else True


def _play(args) -> int:
    """``play``, in an order that touches nothing before it is sure to run: the settings
    are checked, the data directory is locked (a second process stops here), the page's
    socket is bound (a port in use stops here), and only then is a game opened or a
    record written."""
    import logging

    from draughtsboard.board.game.tags import parse_tag_options
    from draughtsboard.board.ports import squares_from_mask
    from draughtsboard.play import PlaySession, choose_opening
    from draughtsboard.play.clock import TimeControl
    from draughtsboard.play.coach import Coach
    from draughtsboard.play.opponent_seat import OpponentSeat
    from draughtsboard.recording import Recorder
    from draughtsboard.web.server import bind_socket, serve
    from draughtsboard.words import words_for

    log = logging.getLogger("draughtsboard.play")
    language = play_language(args.language, _default_config_path(args))
    say = words_for(language)
    host, port = parse_listen(args.listen)
    try:
        tags = parse_tag_options(args.tag)
        if tags.get("TimeControl", "").strip() not in ("", "-", "?"):
            TimeControl.parse(tags["TimeControl"])
    except ValueError as error:
        raise UsageError(str(error)) from None
    speech = speech_settings(args, language)
    backend = choose_backend(args, log, say)
    check_hands_exposure(backend, host, args.allow_remote_hands)
    config = _load_board_config(backend, args)
    recorder = Recorder(args.data)
    puzzles = None
    try:
        start_fen, resume = args.fen, not args.new
        if args.mode == "puzzle":
            puzzles = _load_puzzles(args, config)
            start_fen, resume = puzzles.puzzles[0].start.fen(), False
            tags = {**puzzles.tags_for(0), **tags}
        recorder.lock()
        token = _arbiter_token(recorder.directory, log, say)
        sock = bind_socket(host, port)
        try:
            opening = choose_opening(recorder, variant=args.variant, start_fen=start_fen,
                                     resume=resume,
                                     fallback_variant=_board_game(config), say=say)
            variant = opening.variant
            opponent, spec = _open_opponent(args, variant, opening, tags)
            source, sink, hands, close = _open_play_board(
                backend, variant, args, config,
                squares_from_mask(opening.expected_position.occupancy()))
        except BaseException:
            sock.close()
            raise
        try:
            irregular, irregular_leds = _irregularity_options(args, config)
            session = PlaySession(variant.name, source, sink, recorder, mode=args.mode,
                                  tags=tags,
                                  hands=hands, backend=backend, opening=opening, token=token,
                                  link_problem=getattr(source, "problem", None),
                                  irregular=irregular, irregular_leds=irregular_leds,
                                  language=language)
            if opponent is not None:
                seat = OpponentSeat(opponent, spec, args.opponent_side == "white",
                                    post=session.submit, clock=session.game.clock,
                                    move_seconds=args.opponent_seconds)
                session.game.attach_opponent(seat)
                log.info("%s", say(Message.of(f"cli.opponent.plays.{args.opponent_side}",
                                              opponent=opponent.name)))
            coach = Coach(session.game, post=session.submit, puzzles=puzzles,
                          sides=coach_sides(args))
            session.game.attach(coach)
            link = _hall_link(args, session, source, log)
            if link is not None:
                link.start()
            speaker, stop_speech = _start_speech(speech, session, log)
            _wire_hint_button(source, session, coach, log, speaker)
            try:
                return serve(session, sock=sock, coach=coach,
                             allow_remote_hands=args.allow_remote_hands, voice=speaker)
            finally:
                stop_speech()
                if link is not None:
                    link.stop()
        finally:
            close()
            log.info("%s", say(Message.of("cli.stopped", path=str(recorder.directory))))
    finally:
        recorder.close()


def failure(error: BaseException) -> tuple[int, str] | None:
    """The exit status and one-line reason for an error that ends a command, or ``None``
    for one the handler must not swallow (KeyboardInterrupt, SystemExit)."""
    from draughtsboard.board.rules.errors import DraughtsError
    from draughtsboard.hardware.board_lock import BoardBusyError
    from draughtsboard.hardware.config import ConfigError
    from draughtsboard.opponents import OpponentError
    from draughtsboard.recording import DataDirBusyError

    if isinstance(error, (KeyboardInterrupt, SystemExit, GeneratorExit)):
        return None
    if isinstance(error, ConfigError):
        problems = error.problems
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        return EXIT_CONFIG, f"{error.source}: {problems[0] if problems else error}{more}"
    if isinstance(error, PlayConfigError):
        return EXIT_CONFIG, str(error)
    if isinstance(error, UsageError):
        return EXIT_USAGE, str(error)
    if isinstance(error, OpponentError) and not isinstance(error, ValueError):
        return EXIT_UNAVAILABLE, str(error)  # it did not start or could not be reached
    if isinstance(error, (DataDirBusyError, BoardBusyError)):
        return EXIT_BUSY, str(error)
    if isinstance(error, OSError):
        where = f"{error.filename}: " if getattr(error, "filename", None) else ""
        return EXIT_IO, where + (error.strerror or str(error) or type(error).__name__)
    if isinstance(error, (DraughtsError, ValueError, OverflowError, RecursionError)):
        return EXIT_DATA, str(error) or type(error).__name__
    if _is_gpio_error(error):
        return EXIT_UNAVAILABLE, f"GPIO: {error}"
    if isinstance(error, ImportError):
        return EXIT_UNAVAILABLE, f"not installed here: {error}"
    return EXIT_SOFTWARE, f"internal error: {type(error).__name__}: {error}"


def _is_gpio_error(error: BaseException) -> bool:
    """gpiozero's errors, and lgpio's own (``lgpio.error``, a bare Exception)."""
    if type(error).__module__ == "lgpio":
        return True
    try:
        from gpiozero.exc import GPIOZeroError
    except ImportError:  # pragma: no cover - gpiozero is a dependency
        return False
    return isinstance(error, GPIOZeroError)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(
        prog="draughtsboard",
        description="Electronic draughts board: rules engine, sensors, LEDs and recording.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules.add_parsers(subparsers)
    track.add_parsers(subparsers)
    pdn.add_parsers(subparsers)
    token.add_parsers(subparsers)
    analyse.add_parsers(subparsers)
    hub.add_parsers(subparsers)
    replay.add_parsers(subparsers, REPLAY_BACKENDS)
    _add_diag(subparsers)
    _add_emulate(subparsers)
    _add_play(subparsers)
    _add_hall(subparsers)
    _add_venue(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status. Whatever the command lets escape is one line on
    standard error (see the module doc); ``DRAUGHTSBOARD_TRACEBACK=1`` shows the
    traceback too, for a developer."""
    import os

    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command if args.command != "pdn" else f"pdn {args.pdn_command}"
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # noqa: BLE001 - the one top-level handler
        known = failure(error)
        if known is None:
            raise
        status, text = known
        if os.environ.get("DRAUGHTSBOARD_TRACEBACK"):
            import traceback

            traceback.print_exc()
        text = " ".join(str(text).split()) or type(error).__name__
        print(f"draughtsboard {command}: {text}", file=sys.stderr)
        return status


if __name__ == "__main__":
    sys.exit(main())
