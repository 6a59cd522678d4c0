"""``draughtsboard play``: the composition root of a board in play.

Here, and only here with the other modules of this package, the adapters (the reed
matrix, the serial link, the simulator) are wired to the core: the settings resolved
once (`play_settings`), the board opened (`play_board`), the session, the opponent, the
coach, the hall link, the speech and the buttons joined, and the page served.
"""

from __future__ import annotations

from draughtsboard.board.message import Message
from draughtsboard.commands.options import add_data_option

from .buttons import wire_hint_button
from .common import with_logging
from .errors import SettingError
from .hall_link import hall_link
from .opponent import open_opponent_of
from .play_board import board_game, load_board_config, open_play_board, puzzles_of
from .play_settings import (
    DEFAULT_CONFIG_HINT,
    PLAY_BACKENDS,
    check_hands_exposure,
    choose_backend,
    irregularity_options,
    play_settings,
)
from .speech import add_speech_options, start_speech


def add_parser(subparsers) -> None:
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
    add_speech_options(parser)
    parser.set_defaults(handler=with_logging(run))



def arbiter_token(settings, data_dir, log, say=None):
    """The arbiter's token: the environment's (`PlaySettings.token`) if set; else the one
    kept in the data directory (made there the first time), given as the function that
    reads it, so that `draughtsboard token --rotate` takes effect on a running board.
    ``say`` puts the line saying where it is kept into the board's language (default:
    English)."""
    from draughtsboard.play.token import ArbiterToken, TokenFileError
    from draughtsboard.words import english

    if settings.token is not None:
        return settings.token
    store = ArbiterToken(data_dir)
    try:
        store.current()
    except TokenFileError as error:
        raise SettingError(Message.of("cli.error.token", reason=str(error))) from None
    log.info("%s", (say or english)(Message.of("cli.token.kept", path=str(store.path))))
    return store.current


def run(args) -> int:
    """``play``, in an order that touches nothing before it is sure to run: the settings
    are checked, the data directory is locked (a second process stops here), the page's
    socket is bound (a port in use stops here), and only then is a game opened or a
    record written."""
    import logging

    from draughtsboard.board.ports import squares_from_mask
    from draughtsboard.play import PlaySession, choose_opening
    from draughtsboard.play.coach import Coach
    from draughtsboard.play.opponent_seat import OpponentSeat
    from draughtsboard.recording import Recorder
    from draughtsboard.web.server import bind_socket, serve
    from draughtsboard.words import words_for

    log = logging.getLogger("draughtsboard.play")
    settings = play_settings(args)
    language = settings.language
    say = words_for(language)
    host, port = settings.listen.host, settings.listen.port
    tags = settings.tag_map
    backend = choose_backend(args, log, say)
    check_hands_exposure(backend, host, args.allow_remote_hands)
    config = load_board_config(backend, args)
    recorder = Recorder(args.data)
    puzzles = None
    try:
        start_fen, resume = args.fen, not args.new
        if args.mode == "puzzle":
            puzzles = puzzles_of(args, config)
            start_fen, resume = puzzles.puzzles[0].start.fen(), False
            tags = {**puzzles.tags_for(0), **tags}
        recorder.lock()
        token = arbiter_token(settings, recorder.directory, log, say)
        sock = bind_socket(host, port)
        try:
            opening = choose_opening(recorder, variant=args.variant, start_fen=start_fen,
                                     resume=resume,
                                     fallback_variant=board_game(config), say=say)
            variant = opening.variant
            chosen = open_opponent_of(args, variant, opening, tags)
            board = open_play_board(backend, variant, args, config,
                                    squares_from_mask(opening.expected_position.occupancy()))
            source = board.source
        except BaseException:
            sock.close()
            raise
        try:
            irregular, irregular_leds = irregularity_options(args, config)
            session = PlaySession(variant.name, source, board.sink, recorder, mode=args.mode,
                                  tags=tags,
                                  hands=board.hands, backend=backend, opening=opening, token=token,
                                  link_problem=getattr(source, "problem", None),
                                  irregular=irregular, irregular_leds=irregular_leds,
                                  language=language)
            if chosen is not None:
                seat = OpponentSeat(chosen.opponent, chosen.spec, args.opponent_side == "white",
                                    post=session.submit, clock=session.game.clock,
                                    move_seconds=args.opponent_seconds)
                session.game.attach_opponent(seat)
                log.info("%s", say(Message.of(f"cli.opponent.plays.{args.opponent_side}",
                                              opponent=chosen.opponent.name)))
            coach = Coach(session.game, post=session.submit, puzzles=puzzles,
                          sides=settings.coach)
            session.game.attach(coach)
            link = hall_link(args, session, source, log)
            if link is not None:
                link.start()
            speaker, stop_speech = start_speech(settings.speech, session, log)
            wire_hint_button(source, session, coach, log, speaker)
            try:
                return serve(session, sock=sock, coach=coach,
                             allow_remote_hands=args.allow_remote_hands, voice=speaker)
            finally:
                stop_speech()
                if link is not None:
                    link.stop()
        finally:
            board.close()
            log.info("%s", say(Message.of("cli.stopped", path=str(recorder.directory))))
    finally:
        recorder.close()


