"""``draughtsboard diag --backend serial``: a board behind a microcontroller, seen from here.

The microcontroller scans the matrix itself, so the host sees debounced snapshots, not
rows and columns: the map of the switches, what the device says of itself (firmware
version, boot id), an LED walk over the link, and at the end which squares never changed
and how the line fared (frames damaged, snapshots asked for again, resets, reconnections).
``--once`` prints one map and exits; ``--empty`` checks a board with every piece off.
Problems are one line each on stderr, exit status 2, as for the other backends.

The map is drawn, the LEDs walked and the empty board reported by functions the
composition root passes in (the hardware layer's, which its own ``diag`` uses), so both
backends say the same and this package stays free of the other adapter.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from draughtsboard.board.ports import squares_from_mask
from draughtsboard.board.rules.geometry import Geometry, board_name, board_of_name
from draughtsboard.firmware_bridge.backends import DEFAULT_PORT, open_serial_board
from draughtsboard.firmware_bridge.link import SerialLink

UP_SECONDS = 5.0  # a device that says nothing in this long is not there
EMPTY_SECONDS = 2.0

RenderMap = Callable[..., str]  # (geometry, occupied, numbers=True) -> text
WalkLeds = Callable[[SerialLink, object], None]  # (LED sink, output stream)
# (square count, closed squares, flickers by square) -> (report, passed)
EmptyReport = Callable[[int, Iterable[int], Mapping[int, int]], tuple[str, bool]]


def run(args: argparse.Namespace, render_map: RenderMap, walk_leds: WalkLeds,
        empty_report: EmptyReport) -> int:
    """``diag --backend serial``: map, LED walk, report; 2 with one line when it cannot."""
    unused = [option for option, given in (
        ("--config", args.config), ("--sweep", args.sweep), ("--sim-fault", args.sim_fault),
        ("--occupied", args.occupied)) if given]
    if unused:  # the microcontroller has its own wiring; these are the other backends'
        print(f"draughtsboard diag: {', '.join(unused)}: not with --backend serial "
              "(give --board and --port)", file=sys.stderr)
        return 2
    port = args.port or DEFAULT_PORT
    geometry = board_of_name(args.board or "8x8")
    # What goes wrong with the link is said once, below, not logged on every retry.
    logging.getLogger("draughtsboard.firmware_bridge").setLevel(logging.CRITICAL)
    link = open_serial_board(port, geometry)
    try:
        if not link.wait_for_up(UP_SECONDS):
            problem = link.problem() or f"{port}: no board answers"
            print(f"draughtsboard diag: {problem}", file=sys.stderr)
            return 2
        occupied = _latest(link)
        print(_heading(link, port, geometry, occupied))
        if args.once:
            print(render_map(geometry, occupied, numbers=True))
            return 0
        if args.empty:
            return _empty(link, geometry, empty_report)
        return _live(link, geometry, args, render_map, walk_leds)
    finally:
        link.close()


def _latest(link: SerialLink) -> int:
    snapshot = link.latest()
    return snapshot.occupied if snapshot is not None else 0


def _heading(link: SerialLink, port: str, geometry: Geometry, occupied: int) -> str:
    hello = link.session.hello
    device = ""
    if hello is not None:
        version = ".".join(map(str, hello.firmware))
        device = f", firmware {version}, boot {hello.boot:04x}"
    closed = len(squares_from_mask(occupied))
    return (f"{board_name(geometry)} board (serial {port}{device}), {closed} of "
            f"{geometry.square_count} switches closed")


def _changes(link: SerialLink, seconds: float, on_change=None) -> Counter[int]:
    """How often each square changed in the snapshots of the next ``seconds``."""
    changes: Counter[int] = Counter()
    last = _latest(link)
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        snapshot = link.read(timeout=min(left, 0.1))
        if snapshot is not None:
            changes.update(squares_from_mask(snapshot.occupied ^ last))
            last = snapshot.occupied
        if on_change is not None:
            on_change(last)
    return changes


def _live(link: SerialLink, geometry: Geometry, args: argparse.Namespace,
          render_map: RenderMap, walk_leds: WalkLeds) -> int:
    out = sys.stdout
    if not args.no_walk:
        walk_leds(link, out)
    height = geometry.size + 2
    drawn = [False]

    def draw(occupied: int) -> None:
        if drawn[0]:
            out.write(f"\x1b[{height}F")  # back to the top of the previous map
        stats = link.stats
        out.write(render_map(geometry, occupied, numbers=True) + "\n")
        out.write(f"{stats.published} snapshots  {sum(stats.bad_frames.values())} bad frames  "
                  f"{stats.resyncs} resyncs\x1b[K\n")
        out.flush()
        drawn[0] = True

    seconds = args.seconds if args.seconds is not None else float("inf")
    try:
        changes = _changes(link, seconds, draw)
    except KeyboardInterrupt:
        out.write("\n")
        changes = Counter()
    print(report(link, geometry, changes))
    return 0


def _empty(link: SerialLink, geometry: Geometry, empty_report: EmptyReport) -> int:
    """Every switch of an empty board must read open and stay so: the microcontroller
    debounces, so a square's changes in the snapshots are its flickers."""
    changes = _changes(link, EMPTY_SECONDS)
    text, passed = empty_report(geometry.square_count, squares_from_mask(_latest(link)),
                                changes)
    print(text)
    return 0 if passed else 1


def report(link: SerialLink, geometry: Geometry, changes: Counter[int]) -> str:
    """Squares that never changed, then how the line fared, one line each."""
    lines = []
    never = [n for n in range(1, geometry.square_count + 1) if not changes.get(n)]
    if len(never) == geometry.square_count:
        lines.append("no switch changed: lift and place every piece once to test the wiring")
    elif never:
        lines.append(f"never changed (stuck, or never tried): {never}")
    stats = link.stats
    bad = sum(stats.bad_frames.values())
    lines.append(f"line: {stats.frames_ok} frames, {bad} damaged, {stats.resyncs} snapshots "
                 f"asked for again, {stats.device_resets} device resets, "
                 f"{stats.reconnects} reconnections")
    return "\n".join(lines)
