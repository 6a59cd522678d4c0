"""``draughtsboard diag``: look at the switches and LEDs of a board, real or simulated.

Prints a live map of the switches (redrawn in place), walks the LEDs (each in turn, then
all), and at the end says which wire is likely broken: a matrix row or column whose
switches never closed, two wires whose squares always change together, single stuck or
chattering reeds, each with its BCM and header pin. ``--once`` prints one map and exits,
``--empty`` checks a board with every piece off, and on the simulator ``--sweep`` has a
scripted hand put a piece on every square in turn (``--sim-fault`` builds a wiring fault
in, to see what the report says). Problems are one line each on stderr, exit status 2.
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
from .board_lock import BoardBusyError
from .board_map import empty_board_report, render_map
from .config import BoardConfig, ConfigError, builtin_config, load_config
from .no_gpio import NoGpioError
from .pins import pin_name
from .simulation import FAULT_FORMS, WiringFault

CHATTER_LIMIT = 3  # filtered bounces on one square before the report calls it chattering
EMPTY_SECONDS = 2.0  # how long --empty watches the empty board


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``diag``."""
    parser.add_argument("--config", metavar="FILE",
                        help="board config (TOML); default: the reference wiring of --board")
    parser.add_argument("--backend", choices=("gpio", "sim", "serial"), default="gpio",
                        help="real pins through gpiozero, the simulated board, or a board "
                        "microcontroller on --port (its own diag)")
    parser.add_argument("--port", metavar="PATH",
                        help="serial backend: the device (default /dev/ttyACM0)")
    parser.add_argument("--board", choices=[f"{n}x{n}" for n in sorted(USUAL_NUMBERING)],
                        help="without --config: the board whose reference wiring to use "
                        "(default 8x8)")
    parser.add_argument("--variant", metavar="GAME",
                        help="instead of --board: a game, for the board it is played on, "
                        "named as play --variant names it (russian and column: 8x8, "
                        "international: 10x10, lasca and column-7x7: 7x7)")
    parser.add_argument("--once", action="store_true",
                        help="print one map of the switches and exit")
    parser.add_argument("--empty", action="store_true",
                        help="self-test of the empty board: take every piece off first")
    parser.add_argument("--seconds", type=float, default=None,
                        help="stop the live map after this long (default: until Ctrl-C)")
    parser.add_argument("--no-walk", action="store_true", help="skip the LED walk")
    parser.add_argument("--occupied", default="", metavar="SQUARES",
                        help="sim backend: squares with a piece, e.g. 1,2,3")
    parser.add_argument("--sweep", action="store_true",
                        help="sim backend: a hand puts a piece on every square in turn, "
                        "then the report")
    parser.add_argument("--sim-fault", action="append", default=[], metavar="FAULT",
                        help=f"sim backend: a wiring fault to build in ({FAULT_FORMS}; "
                        "rows and columns of the matrix count from 0); repeatable")


def run(args: argparse.Namespace) -> int:
    """``diag``: a live switch map, an LED walk, a report of broken wires and reeds."""
    try:
        config = _config(args)
        occupied = _squares(args.occupied, config)
        faults = [WiringFault.parse(text) for text in args.sim_fault]
        if (faults or args.sweep) and args.backend != "sim":
            raise ValueError("--sim-fault and --sweep need --backend sim")
        board = _open(args, config, occupied, faults)
    except ConfigError as error:
        for problem in error.problems:
            print(f"draughtsboard diag: {error.source}: {problem}", file=sys.stderr)
        return 2
    except BoardBusyError as error:
        print(f"draughtsboard diag: {error}", file=sys.stderr)
        return 2
    except Exception as error:
        if not isinstance(error, (GPIOZeroError, OSError, ValueError)) and (
                type(error).__module__ != "lgpio"):  # lgpio.error is a bare Exception
            raise
        gpio = args.backend == "gpio" and not isinstance(error, (ValueError, NoGpioError))
        hint = " (no GPIO here? try --backend sim)" if gpio else ""  # NoGpioError says it
        print(f"draughtsboard diag: cannot open the {args.backend} board: {error}{hint}",
              file=sys.stderr)
        return 2
    with board:
        if args.once:
            return _once(board, args.backend)
        if args.empty:
            return _empty(board)
        if args.sweep:
            _sweep(board)
            print(report(board))
            return 0
        return _live(board, args)


def _config(args: argparse.Namespace) -> BoardConfig:
    if args.config:
        config = load_config(args.config)
        if args.board is not None and args.board != config.board:
            variant = getattr(args, "variant", None)
            asked = (f"; --variant {variant} is played on {args.board} (give the config "
                     "of that board, or another --variant)" if variant else
                     f", not --board {args.board} (give the config of that board, or "
                     "leave --board out)")
            raise ConfigError([f"the board config's board is {config.board}{asked}"],
                              source=str(args.config))
        return config
    return builtin_config(board_of_name(args.board or "8x8"))


def _squares(text: str, config: BoardConfig) -> list[int]:
    squares = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if not part.isdigit() or not 1 <= int(part) <= config.square_count:
            raise ValueError(f"--occupied: {part!r} is not a square 1-{config.square_count}")
        squares.append(int(part))
    return squares


def _open(args: argparse.Namespace, config: BoardConfig, occupied: list[int],
          faults: list[WiringFault]) -> HardwareBoard:
    if args.backend == "sim":
        virtual = args.once or args.sweep or args.empty
        return open_simulated_board(config, occupied=occupied, real_time=not virtual,
                                    faults=faults)
    with warnings.catch_warnings():
        # gpiozero warns once per factory it tries; the failure, if any, is one line below.
        warnings.simplefilter("ignore", PinFactoryFallback)
        return open_gpio_board(config, start=not (args.once or args.empty))


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


def walk_leds(board, out) -> None:
    """Light each LED in turn, then all, then none; ``board`` is any LED sink with a
    ``square_count`` (the serial backend's diag walks its link with it too)."""
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
        walk_leds(board, out)
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
    print(report(board))
    return 0


def _scan_for(board: HardwareBoard, seconds: float) -> None:
    """Scan by hand for ``seconds`` (virtual time on the simulator, real time on a Pi)."""
    period = 1.0 / board.config.matrix.scan_rate
    simulation = board.simulation
    now = simulation.now if simulation is not None else time.monotonic()
    end = now + seconds
    while now < end:
        board.step(now)
        while board.read(timeout=0) is not None:
            pass
        now += period
        if simulation is None:
            time.sleep(max(0.0, now - time.monotonic()))


def _sweep(board: HardwareBoard) -> None:
    """The simulated hand puts a piece on each square in turn and lifts it (virtual time),
    as a builder does at bring-up."""
    hand = board.simulation
    if hand is None:
        raise ValueError("--sweep needs --backend sim")
    _scan_for(board, 0.1)
    for square in range(1, board.square_count + 1):
        was = hand.switch_at(square, hand.now)
        hand.schedule(hand.now, square, not was)
        _scan_for(board, 0.1)
        hand.schedule(hand.now, square, was)
        _scan_for(board, 0.1)


def _empty(board: HardwareBoard) -> int:
    """Every switch of an empty board must read open, and stay so, for a while."""
    _first_snapshot(board)
    _scan_for(board, EMPTY_SECONDS)
    text, passed = empty_board_report(
        board.square_count, squares_from_mask(board.sensors.occupied),
        board.sensors.bounces_by_square(), _places(board.config))
    print(text)
    return 0 if passed else 1


def _places(config: BoardConfig) -> dict[int, str]:
    """Square -> ``row 2 (BCM 12), column 1 (BCM 23)``."""
    matrix = config.matrix
    places = {}
    for r, row in enumerate(matrix.squares):
        for c, square in enumerate(row):
            if square:
                places[square] = (f"row {r} (BCM {matrix.rows[r]}), "
                                  f"column {c} (BCM {matrix.columns[c]})")
    return places


def report(board: HardwareBoard) -> str:
    """What the session says about the wiring, one line per finding, wires first. Whole
    rows and columns are judged only after a sweep (at least half the squares changed):
    before that, a quiet row is more likely untried than broken."""
    matrix = board.config.matrix
    sensors = board.sensors
    changes = sensors.changes_by_square()
    bounces = sensors.bounces_by_square()
    together = sensors.together_by_square()
    occupied = sensors.occupied
    never = {n for n in range(1, board.square_count + 1) if not changes.get(n)}
    lines: list[str] = []
    explained: set[int] = set()

    def whole_line(kind: str, index: int, pin: int, squares: list[int]) -> None:
        if len(squares) < 2 or not set(squares) <= never:
            return
        if all(not occupied >> (n - 1) & 1 for n in squares):
            lines.append(f"{kind} {index}, {pin_name(pin)}: all open, never closed "
                         f"(squares {_listed(squares)}): a broken {kind} wire, if pieces "
                         "were put there")
        elif all(occupied >> (n - 1) & 1 for n in squares):
            lines.append(f"{kind} {index}, {pin_name(pin)}: all closed, never opened "
                         f"(squares {_listed(squares)}): the {kind} wire shorted?")
        else:
            return
        explained.update(squares)

    if len(changes) * 2 >= board.square_count:  # a sweep: whole quiet wires stand out
        for r, pin in enumerate(matrix.rows):
            whole_line("row", r, pin, [n for n in matrix.squares[r] if n])
        for c, pin in enumerate(matrix.columns):
            whole_line("column", c, pin, [row[c] for row in matrix.squares if row[c]])
    elif not changes:
        lines.append("no switch changed: lift and place every piece once to test the wiring "
                     "(diag --sweep shows it on the simulator)")
    lines += _together(matrix, changes, together)
    stuck_closed = sorted(n for n in never - explained if occupied >> (n - 1) & 1)
    stuck_open = sorted(n for n in never - explained if not occupied >> (n - 1) & 1)
    chatter = sorted(n for n, count in bounces.items() if count >= CHATTER_LIMIT)
    places = _places(board.config)
    for squares, what in ((stuck_closed, "always closed (stuck or never lifted)"),
                          (stuck_open, "always open (stuck or never placed)")):
        if 0 < len(squares) <= 4:
            lines += [f"square {n} ({places[n]}): never changed, {what}" for n in squares]
        elif squares:
            lines.append(f"never changed, {what}: {squares}")
    if chatter:
        detail = ", ".join(f"{n} ({bounces[n]} bounces)" for n in chatter)
        lines.append(f"chattering (loose reed or ghost): {detail}")
    return "\n".join(lines) if lines else "every switch changed and none chattered"


def _together(matrix, changes: dict[int, int], together: dict[int, int]) -> list[str]:
    """Lines for squares that changed together every time (two bridged wires)."""
    where = {}
    for r, row in enumerate(matrix.squares):
        for c, square in enumerate(row):
            if square:
                where[square] = (r, c)
    groups = sorted({tuple(squares_from_mask(mask)) for n, mask in together.items()
                     if changes.get(n, 0) >= 2 and mask.bit_count() > 1})
    by_wires: dict[tuple[str, tuple[int, ...]], list[tuple[int, ...]]] = {}
    for group in groups:
        rows = tuple(sorted({where[n][0] for n in group}))
        columns = tuple(sorted({where[n][1] for n in group}))
        key = ("column", columns) if len(rows) == 1 else ("row", rows) if len(columns) == 1 \
            else ("square", group)
        by_wires.setdefault(key, []).append(group)
    lines = []
    for (kind, indices), found in sorted(by_wires.items()):
        pairs = ", ".join(" and ".join(map(str, g)) for g in found)
        if kind == "square":
            lines.append(f"squares {pairs} always change together: wires touching?")
            continue
        pins = matrix.columns if kind == "column" else matrix.rows
        wires = " and ".join(f"{kind} {i} on {pin_name(pins[i])}" for i in indices)
        lines.append(f"{kind}s {', '.join(map(str, indices))} shorted? {wires}: squares "
                     f"{pairs} always change together")
    return lines


def _listed(squares: list[int]) -> str:
    return ", ".join(map(str, squares))
