"""``draughtsboard diag``: the switch map, an LED walk and the stuck or chattering switch
report, of the reed matrix (hardware) or over a serial link (the firmware bridge)."""

from __future__ import annotations

import sys


def add_parser(subparsers) -> None:
    from draughtsboard.hardware import diag

    parser = subparsers.add_parser(
        "diag", help="switch map, LED walk and a stuck or chattering switch report")
    diag.add_arguments(parser)
    parser.set_defaults(handler=run)


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


def run(args) -> int:
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
        from draughtsboard.hardware.board_map import empty_board_report, render_map

        return serial_diag.run(args, render_map, diag.walk_leds, empty_board_report)
    return diag.run(args)

