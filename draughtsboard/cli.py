"""The `draughtsboard` command: the one place that wires adapters to the core."""

from __future__ import annotations

import argparse
import sys

from draughtsboard.commands import analyse, pdn, replay, rules, track


def replay_on_simulated_board(position, args):
    """Replay backend ``sim``: the simulated board and the real reed-matrix driver."""
    from draughtsboard.hardware.virtual import open_virtual_time_board

    return open_virtual_time_board(position.variant.name, position.occupancy())


def replay_on_emulated_device(position, args):
    """Replay backend ``serial-emulated``: the simulated board's switches scanned by the
    emulated microcontroller, over a serial wire that damages ``--fault-rate`` of bytes."""
    from draughtsboard.firmware_bridge.virtual import EmulatedVirtualBoard
    from draughtsboard.hardware.virtual import simulated_switches

    variant = position.variant.name
    switches = simulated_switches(variant, position.occupancy())
    return EmulatedVirtualBoard(variant, switches, fault_rate=args.fault_rate,
                                seed=args.noise or 0)


REPLAY_BACKENDS = {"sim": replay_on_simulated_board, "serial-emulated": replay_on_emulated_device}


def _add_diag(subparsers) -> None:
    from draughtsboard.hardware import diag

    parser = subparsers.add_parser(
        "diag", help="switch map, LED walk and a stuck or chattering switch report")
    diag.add_arguments(parser)
    parser.set_defaults(handler=diag.run)


def _add_play(subparsers) -> None:
    from draughtsboard.board.tracker import Mode

    parser = subparsers.add_parser(
        "play", help="play on the board: controller, journal, LEDs and the live web page")
    parser.add_argument("--variant", help="variant (default: the unfinished game's, else the "
                        "config's, else russian)")
    parser.add_argument("--mode", default="tournament", choices=[*(m.value for m in Mode),
                                                                  "puzzle"],
                        help="puzzle: solve the positions of --puzzles on the board")
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
                        help="a PDN tag of a new game (repeatable): Event, White, Black ...")
    parser.add_argument("--fen", help="start position of a new game (default: initial)")
    parser.add_argument("--new", action="store_true",
                        help="start a new game even when an unfinished one could be resumed")
    parser.add_argument("--listen", default="127.0.0.1:8080", metavar="HOST:PORT",
                        help="where the page is served (default 127.0.0.1:8080)")
    parser.add_argument("--data", metavar="DIR", help="where games are recorded (default "
                        "$DRAUGHTSBOARD_DATA, else the user data directory)")
    parser.set_defaults(handler=_run_play)


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


def choose_backend(args, log) -> str:
    import glob

    if args.backend != "auto":
        return args.backend
    chips = glob.glob("/dev/gpiochip*")
    config = _default_config_path(args)
    if chips and config is not None and config.is_file():
        log.info("backend auto: GPIO chip %s and config %s: using gpio", chips[0], config)
        return "gpio"
    why = ("no GPIO chip" if not chips else
           f"no board config ({config if config is not None else DEFAULT_CONFIG_HINT})")
    log.warning("backend auto: %s here: using the simulator (play in the web page)", why)
    return "sim"


def _load_board_config(backend: str, args):
    """The board config of the gpio backend (loaded once), else ``None``."""
    if backend != "gpio":
        return None
    from draughtsboard.hardware.config import load_config

    path = _default_config_path(args)
    if path is None:
        raise SystemExit(f"draughtsboard play: no board config: give --config "
                         f"(or put one at {DEFAULT_CONFIG_HINT})")
    return load_config(path)


def _open_play_board(backend: str, variant: str, args, config, occupied: list[int]):
    """(sensor source, LED sink, switches for the page's hands or None, closer) for the
    chosen backend; ``config`` is the gpio backend's board config."""
    if backend == "sim":
        from draughtsboard.hardware.backends import open_simulated_board

        board = open_simulated_board(variant, occupied=occupied, real_time=True)
        return board, board, board.simulation, board.close
    if backend == "gpio":
        from draughtsboard.hardware.backends import open_gpio_board

        if config.variant != variant:
            raise SystemExit(f"draughtsboard play: the board config is a {config.variant} "
                             f"board, the game is {variant}")
        board = open_gpio_board(config)
        return board, board, None, board.close
    if backend == "serial":
        from draughtsboard.firmware_bridge.backends import DEFAULT_PORT, open_serial_board

        link = open_serial_board(args.port or DEFAULT_PORT, variant)
        return link, link, None, link.close
    if backend == "serial-emulated":
        from draughtsboard.firmware_bridge.backends import open_emulated_board
        from draughtsboard.hardware.config import builtin_config
        from draughtsboard.hardware.simulation import SimulatedBoard

        switches = SimulatedBoard(builtin_config(variant), occupied=occupied)
        link = open_emulated_board(variant, switches=switches)
        return link, link, switches, link.close
    raise SystemExit(f"draughtsboard play: unknown backend {backend!r}")


def _load_puzzles(args, config):
    """Puzzle mode: the puzzles of ``--puzzles`` (default: the shipped file of the
    variant); `PuzzleError` (a `ValueError`) in one line when they cannot be used."""
    from draughtsboard.board.rules import get_variant
    from draughtsboard.play.puzzles import PuzzleRunner, load_puzzles, shipped_puzzles

    variant = get_variant(args.variant or (config.variant if config else "russian"))
    path = args.puzzles or shipped_puzzles(variant)
    return PuzzleRunner(load_puzzles(path, variant), source=str(path))


def _wire_hint_button(source, session, coach, log) -> None:
    """The board's button named ``hint`` in its config asks the coach for a hint."""
    button = getattr(source, "buttons", {}).get("hint")
    if button is None:
        return

    def told(future) -> None:
        if future.exception() is not None:
            log.info("hint button: %s", future.exception())

    button.when_pressed = lambda: session.submit(coach.request_hint).add_done_callback(told)
    log.info("the hint button asks the coach for a hint")


def _run_play(args) -> int:
    import logging
    import os

    from draughtsboard.board.game.tags import parse_tag_options
    from draughtsboard.board.ports import squares_from_mask
    from draughtsboard.board.rules import DraughtsError
    from draughtsboard.play import PlaySession, choose_opening
    from draughtsboard.play.coach import Coach
    from draughtsboard.recording import Recorder
    from draughtsboard.web.server import configure_logging, serve

    configure_logging()
    log = logging.getLogger("draughtsboard.play")
    host, _, port_text = args.listen.rpartition(":")
    if not host or not port_text.isdigit():
        print(f"draughtsboard play: --listen {args.listen!r}: expected HOST:PORT",
              file=sys.stderr)
        return 2
    backend = choose_backend(args, log)
    config = _load_board_config(backend, args)
    recorder = Recorder(args.data)
    puzzles = None
    try:
        tags = parse_tag_options(args.tag)
        start_fen, resume = args.fen, not args.new
        if args.mode == "puzzle":
            puzzles = _load_puzzles(args, config)
            start_fen, resume = puzzles.puzzles[0].start.fen(), False
            tags = {**puzzles.tags_for(0), **tags}
        opening = choose_opening(recorder, variant=args.variant, start_fen=start_fen,
                                 resume=resume,
                                 fallback_variant=config.variant if config else None)
    except (DraughtsError, ValueError) as error:
        print(f"draughtsboard play: {error}", file=sys.stderr)
        recorder.close()
        return 2
    variant = opening.variant.name
    source, sink, hands, close = _open_play_board(
        backend, variant, args, config, squares_from_mask(opening.expected_position.occupancy()))
    try:
        mode = "training" if args.mode == "puzzle" else args.mode
        session = PlaySession(variant, source, sink, recorder, mode=mode, tags=tags,
                              hands=hands, backend=backend, opening=opening,
                              token=os.environ.get(ENV_TOKEN) or None)
        coach = Coach(session, puzzles=puzzles)
        session.attach_coach(coach)
        _wire_hint_button(source, session, coach, log)
        return serve(session, host.strip("[]"), int(port_text))
    finally:
        close()
        recorder.close()
        log.info("stopped; the journal is in %s", recorder.directory)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="draughtsboard",
        description="Electronic draughts board: rules engine, sensors, LEDs and recording.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules.add_parsers(subparsers)
    track.add_parsers(subparsers)
    pdn.add_parsers(subparsers)
    analyse.add_parsers(subparsers)
    replay.add_parsers(subparsers, REPLAY_BACKENDS)
    _add_diag(subparsers)
    _add_play(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
