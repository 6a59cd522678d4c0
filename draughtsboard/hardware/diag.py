"""``draughtsboard diag``: look at the switches and LEDs of a board, real or simulated.

Prints a live map of the switches (redrawn in place), walks the LEDs (each in turn, then
all), and at the end reports squares whose switch never changed (stuck, or never tried)
and squares that chattered (a loose or failing reed). ``--once`` prints one map and exits,
for scripts and tests. Problems are reported as one line each on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

from gpiozero.exc import GPIOZeroError, PinFactoryFallback

from draughtsboard.board.ports import LedFrame, LedPattern, squares_from_mask
from draughtsboard.board.rules.geometry import USUAL_NUMBERING, board_of_name

from .backends import HardwareBoard, open_gpio_board, open_simulated_board
from .board_map import render_map
from .config import BoardConfig, ConfigError, builtin_config, load_config

CHATTER_LIMIT = 3  # filtered bounces on one square before the report calls it chattering


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``diag``."""
    parser.add_argument("--config", metavar="FILE",
                        help="board config (TOML); default: the reference wiring of --board")
    parser.add_argument("--backend", choices=("gpio", "sim"), default="gpio",
                        help="real pins through gpiozero, or the simulated board")
    parser.add_argument("--board", choices=[f"{n}x{n}" for n in sorted(USUAL_NUMBERING)],
                        help="without --config: the board whose reference wiring to use "
                        "(default 8x8)")
    parser.add_argument("--once", action="store_true",
                        help="print one map of the switches and exit")
    parser.add_argument("--seconds", type=float, default=None,
                        help="stop the live map after this long (default: until Ctrl-C)")
    parser.add_argument("--no-walk", action="store_true", help="skip the LED walk")
    parser.add_argument("--occupied", default="", metavar="SQUARES",
                        help="sim backend: squares with a piece, e.g. 1,2,3")


def run(args: argparse.Namespace) -> int:
    """``diag``: a live switch map, an LED walk, a report of stuck or chattering switches."""
    try:
        config = _config(args)
        occupied = _squares(args.occupied, config)
        board = _open(args, config, occupied)
    except ConfigError as error:
        for problem in error.problems:
            print(f"draughtsboard diag: {error.source}: {problem}", file=sys.stderr)
        return 2
    except (GPIOZeroError, OSError, ValueError) as error:
        hint = " (no GPIO here? try --backend sim)" if args.backend == "gpio" else ""
        print(f"draughtsboard diag: cannot open the {args.backend} board: {error}{hint}",
              file=sys.stderr)
        return 2
    with board:
        if args.once:
            return _once(board, args.backend)
        return _live(board, args)


def _config(args: argparse.Namespace) -> BoardConfig:
    if args.config:
        return load_config(args.config)
    return builtin_config(board_of_name(args.board or "8x8"))


def _squares(text: str, config: BoardConfig) -> list[int]:
    squares = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if not part.isdigit() or not 1 <= int(part) <= config.square_count:
            raise ValueError(f"--occupied: {part!r} is not a square 1-{config.square_count}")
        squares.append(int(part))
    return squares


def _open(args: argparse.Namespace, config: BoardConfig, occupied: list[int]) -> HardwareBoard:
    if args.backend == "sim":
        return open_simulated_board(config, occupied=occupied, real_time=not args.once)
    with warnings.catch_warnings():
        # gpiozero warns once per factory it tries; the failure, if any, is one line below.
        warnings.simplefilter("ignore", PinFactoryFallback)
        return open_gpio_board(config, start=not args.once)


def _first_snapshot(board: HardwareBoard):
    """Scan by hand until the debounced reading is out (a few scans)."""
    now = time.monotonic() if board.simulation is None else board.simulation.now
    period = 1.0 / board.config.matrix.scan_rate
    for _ in range(board.config.matrix.debounce + 1):
        board.step(now)
        now += period
    return board.read(timeout=0) or board.latest()


def _once(board: HardwareBoard, backend: str) -> int:
    geometry = board.config.geometry
    snapshot = _first_snapshot(board)
    occupied = snapshot.occupied if snapshot else 0
    print(f"{board.config.board} board ({backend}), "
          f"{len(squares_from_mask(occupied))} of {geometry.square_count} switches closed")
    print(render_map(geometry, occupied, numbers=True))
    return 0


def _walk(board: HardwareBoard, out) -> None:
    count = board.square_count
    for square in range(1, count + 1):
        out.write(f"\rLED walk: square {square:2d}")
        out.flush()
        board.show(LedFrame.from_mapping(count, {square: LedPattern.ON}))
        time.sleep(0.15)
    out.write("\rLED walk: all squares \n")
    board.show(LedFrame((LedPattern.ON,) * count))
    time.sleep(1.0)
    board.show(LedFrame.blank(count))


def _live(board: HardwareBoard, args: argparse.Namespace) -> int:
    out = sys.stdout
    geometry = board.config.geometry
    if not args.no_walk:
        _walk(board, out)
    end = None if args.seconds is None else time.monotonic() + args.seconds
    height = geometry.size + 2
    drawn = False
    try:
        while end is None or time.monotonic() < end:
            snapshot = board.latest()
            occupied = snapshot.occupied if snapshot else 0
            stats = board.sensors.stats()
            if drawn:
                out.write(f"\x1b[{height}F")  # back to the top of the previous map
            out.write(render_map(geometry, occupied, numbers=True) + "\n")
            out.write(f"{stats.scans_per_second:6.0f} scans/s  {stats.changes} changes  "
                      f"{stats.bounces_filtered} bounces filtered\x1b[K\n")
            out.flush()
            drawn = True
            time.sleep(0.1)
    except KeyboardInterrupt:
        out.write("\n")
    print(report(board, geometry.square_count))
    return 0


def report(board: HardwareBoard, square_count: int) -> str:
    """Stuck and chattering switches, one line each."""
    changes = board.sensors.changes_by_square()
    bounces = board.sensors.bounces_by_square()
    occupied = board.sensors.occupied
    never = [n for n in range(1, square_count + 1) if not changes.get(n)]
    stuck_closed = [n for n in never if occupied >> (n - 1) & 1]
    stuck_open = [n for n in never if not occupied >> (n - 1) & 1]
    chatter = sorted(n for n, count in bounces.items() if count >= CHATTER_LIMIT)
    lines = []
    if stuck_closed:
        lines.append(f"never changed, always closed (stuck or never lifted): {stuck_closed}")
    if stuck_open:
        lines.append(f"never changed, always open (stuck or never placed): {stuck_open}")
    if chatter:
        detail = ", ".join(f"{n} ({bounces[n]} bounces)" for n in chatter)
        lines.append(f"chattering (loose reed or ghost): {detail}")
    return "\n".join(lines) if lines else "every switch changed and none chattered"
