"""The boards `draughtsboard replay` plays its games on: the adapters, wired here because
`draughtsboard.commands` (which holds ``replay``) never imports one."""

from __future__ import annotations


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

