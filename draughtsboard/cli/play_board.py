"""``play``'s board: the adapter of the chosen backend opened on the board the game is
played on, the gpio backend's board config, and puzzle mode's puzzles."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from draughtsboard.board.message import Message
from draughtsboard.board.ports import LedSink, SensorSource

from .errors import SettingError, UsageError
from .play_settings import DEFAULT_CONFIG_HINT, default_config_path


def load_board_config(backend: str, args):
    """The board config of the gpio backend (loaded once), else ``None``."""
    if backend != "gpio":
        return None
    from draughtsboard.hardware.config import load_config

    path = default_config_path(args)
    if path is None:
        raise SettingError(Message.of("cli.error.no_config", hint=DEFAULT_CONFIG_HINT))
    return load_config(path)

@dataclass(frozen=True)
class PlayBoard:
    """The board a game is played on, opened: where its snapshots come from, where its
    LEDs go, the switches the page's hands move (a simulated board's; ``None`` on a real
    one), and what closes it."""

    source: SensorSource
    sink: LedSink
    hands: Any
    close: Callable[[], None]


def open_play_board(backend: str, variant, args, config, occupied: list[int]) -> PlayBoard:
    """The chosen backend opened on the board ``variant`` (a `Variant`) is played on;
    ``config`` is the gpio backend's board config, whose board must be that one."""
    board = variant.geometry
    faults = getattr(args, "sim_fault", None) or []
    if faults and backend != "sim":
        raise UsageError(Message.of("cli.error.goes_with", option="--sim-fault",
                                    other="--backend sim"))
    if backend == "sim":
        from draughtsboard.hardware.backends import open_simulated_board
        from draughtsboard.hardware.simulation import WiringFault

        try:
            wiring = [WiringFault.parse(text) for text in faults]
            simulated = open_simulated_board(board, occupied=occupied, real_time=True,
                                             faults=wiring)
        except ValueError as error:
            raise UsageError(str(error)) from None
        return PlayBoard(simulated, simulated, simulated.simulation, simulated.close)
    if backend == "gpio":
        from draughtsboard.board.rules import board_name
        from draughtsboard.hardware.backends import open_gpio_board

        if config.geometry is not board:
            raise SettingError(Message.of("cli.error.config_board", board=config.board,
                                          variant=variant.name, played_on=board_name(board)))
        wood = open_gpio_board(config)
        return PlayBoard(wood, wood, None, wood.close)
    if backend == "serial":
        from draughtsboard.firmware_bridge.backends import DEFAULT_PORT, open_serial_board

        link = open_serial_board(args.port or DEFAULT_PORT, board)
        return PlayBoard(link, link, None, link.close)
    if backend == "serial-emulated":
        from draughtsboard.firmware_bridge.backends import open_emulated_board
        from draughtsboard.hardware.config import builtin_config
        from draughtsboard.hardware.simulation import SimulatedBoard

        switches = SimulatedBoard(builtin_config(board), occupied=occupied)
        link = open_emulated_board(board, switches=switches)
        return PlayBoard(link, link, switches, link.close)
    raise SettingError(f"unknown backend {backend!r}")


def board_game(config) -> str | None:
    """The game a board plays unless told otherwise: the first variant of its geometry
    (Russian on 8x8); ``None`` without a board config."""
    from draughtsboard.board.rules import variants_on

    return variants_on(config.geometry)[0].name if config is not None else None


def puzzles_of(args, config):
    """Puzzle mode: the puzzles of ``--puzzles`` (default: the shipped file of the
    variant); `PuzzleError` (a `ValueError`) in one line when they cannot be used."""
    from draughtsboard.board.rules import get_variant
    from draughtsboard.play.opening import DEFAULT_VARIANT
    from draughtsboard.play.puzzles import PuzzleRunner, load_puzzles, shipped_puzzles

    variant = get_variant(args.variant or board_game(config) or DEFAULT_VARIANT)
    path = args.puzzles or shipped_puzzles(variant)
    return PuzzleRunner(load_puzzles(path, variant), source=str(path))


