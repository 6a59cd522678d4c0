"""The `draughtsboard` command: the one place that wires adapters to the core."""

from __future__ import annotations

import argparse
import sys

from draughtsboard.commands import pdn, replay, rules, track


def _simulated_board(position, args):
    from draughtsboard.hardware.virtual import VirtualTimeBoard

    return VirtualTimeBoard(position.variant.name, position.occupancy())


class _EmulatedVirtualBoard:
    """The replay harness's board behind the microcontroller emulator: the simulated
    board's switches, scanned by the reference firmware, over a faulty serial wire."""

    scan_period = 0.005

    def __init__(self, position, fault_rate: float, seed: int) -> None:
        from draughtsboard.board.ports import squares_from_mask
        from draughtsboard.firmware_bridge.emulator import VirtualBench
        from draughtsboard.hardware.config import builtin_config
        from draughtsboard.hardware.simulation import SimulatedBoard

        variant = position.variant.name
        self._switches = SimulatedBoard(builtin_config(variant),
                                        occupied=squares_from_mask(position.occupancy()))
        self._bench = VirtualBench(variant, self._switches, fault_rate=fault_rate, seed=seed)

    def schedule(self, at: float, square: int, closed: bool) -> None:
        self._switches.schedule(at, square, closed)

    def scan(self, now: float):
        bench = self._bench
        while bench.now < now:
            self._switches.advance(bench.now + bench.step_seconds)
            bench.advance()
        published, bench.published = bench.published, []
        return published

    def reset_device(self) -> None:
        self._bench.reset_device()

    def close(self) -> None:
        self._switches.clear_history()


def _emulated_board(position, args):
    return _EmulatedVirtualBoard(position, args.fault_rate, args.noise or 0)


REPLAY_BACKENDS = {"sim": _simulated_board, "serial-emulated": _emulated_board}


def _add_diag(subparsers) -> None:
    from draughtsboard.hardware import diag

    parser = subparsers.add_parser(
        "diag", help="switch map, LED walk and a stuck or chattering switch report")
    diag.add_arguments(parser)
    parser.set_defaults(handler=diag.run)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="draughtsboard",
        description="Electronic draughts board: rules engine, sensors, LEDs and recording.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules.add_parsers(subparsers)
    track.add_parsers(subparsers)
    pdn.add_parsers(subparsers)
    replay.add_parsers(subparsers, REPLAY_BACKENDS)
    _add_diag(subparsers)
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
