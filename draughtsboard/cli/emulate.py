"""``draughtsboard emulate --pty``: a board microcontroller on a pseudo-terminal, its
hands on standard input; the loop that wires the emulated device (an adapter) to the
hands of `draughtsboard.commands.emulate`."""

from __future__ import annotations

import sys

from draughtsboard.board.message import Message

from .errors import UsageError


def add_parser(subparsers) -> None:
    from draughtsboard.board.rules import variant_names

    parser = subparsers.add_parser(
        "emulate", help="a board microcontroller on a pseudo-terminal, for the serial "
        "backend without one; its device path is the first line of output")
    parser.add_argument("--pty", action="store_true", required=True,
                        help="on a new pseudo-terminal (the one way for now)")
    parser.add_argument("--micropython", action="store_true",
                        help="the whole firmware under MicroPython (Node.js and the build "
                        "scripts/test.sh installs into a checkout's devtools/pico_sim), not "
                        "the reference firmware in Python")
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
    parser.set_defaults(handler=run)


def run(args) -> int:
    """``emulate --pty``: the device on a pseudo-terminal, its hands on standard input."""
    import logging
    import signal
    import time

    from draughtsboard.board.ports import squares_from_mask
    from draughtsboard.board.rules import get_variant
    from draughtsboard.board.rules.fen import initial_position, parse_fen
    from draughtsboard.commands.emulate import Hands, TimedSwitches
    from draughtsboard.firmware_bridge.emulator import Device
    from draughtsboard.firmware_bridge.pty_device import PtyDevice
    from draughtsboard.hardware.config import builtin_config
    from draughtsboard.hardware.simulation import SimulatedBoard

    if not 0.0 <= args.fault_rate <= 1.0:
        raise UsageError(Message.of("cli.error.fault_rate", rate=str(args.fault_rate)))
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    variant = get_variant(args.variant)
    position = parse_fen(variant, args.fen) if args.fen else initial_position(variant)
    board = SimulatedBoard(builtin_config(variant.geometry),
                           occupied=squares_from_mask(position.occupancy()))
    switches = TimedSwitches(board, time.monotonic)
    device: Device
    if args.micropython:
        from draughtsboard.firmware_bridge.pico_sim import micropython_device

        device = micropython_device()(variant.geometry, switches, time.monotonic,
                                      seed=args.seed, realtime=True)
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

