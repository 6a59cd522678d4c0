"""Factories the composition root (draughtsboard/cli/) calls to get a serial board.

Both return a ``SerialLink``: a ``SensorSource`` and ``LedSink`` the tracker cannot tell
from the GPIO backend. ``open_emulated_board`` also starts the emulated microcontroller
behind a local socket and closes it with the link.
"""

from __future__ import annotations

from typing import Any, Unpack

from draughtsboard.board.rules.geometry import Geometry, board_geometry
from draughtsboard.firmware_bridge.emulator import DeviceOptions, SocketEmulator
from draughtsboard.firmware_bridge.fakepins import Switches
from draughtsboard.firmware_bridge.link import SerialLink
from draughtsboard.firmware_bridge.session import HostSession

DEFAULT_PORT = "/dev/ttyACM0"
BOARD_8X8 = board_geometry(8)  # the default board


def open_serial_board(
    url: str = DEFAULT_PORT,
    board: Geometry = BOARD_8X8,
    *,
    baudrate: int = 115200,
    heartbeat_timeout: float = 1.0,
    **link_options: Any,
) -> SerialLink:
    """A board microcontroller on ``url`` (a device path or any pyserial URL), wired for
    ``board``."""
    square_count = board.square_count
    session = HostSession(square_count, heartbeat_timeout=heartbeat_timeout)
    return SerialLink(url, square_count, baudrate=baudrate, session=session, **link_options)


class EmulatedBoard(SerialLink):
    """A SerialLink whose far end is an emulator it owns (``.emulator``)."""

    emulator: SocketEmulator

    def close(self) -> None:
        super().close()
        self.emulator.close()


def open_emulated_board(
    board: Geometry = BOARD_8X8,
    *,
    switches: Switches,
    fault_rate: float = 0.0,
    seed: int = 0,
    **device_options: Unpack[DeviceOptions],
) -> EmulatedBoard:
    """The reference firmware emulated on this machine, reached over a local socket.

    ``switches`` is the board the firmware scans (`fakepins.Switches`): the hardware
    layer's SimulatedBoard, which the composition root passes in, to play through the
    whole serial path. ``fault_rate`` damages that share of bytes in each direction;
    ``board.emulator.reset()`` reboots the device and ``unplug()`` drops the cable.
    """
    emulator = SocketEmulator(board, switches, fault_rate=fault_rate, seed=seed, **device_options)
    try:
        link = EmulatedBoard(emulator.url, emulator.device.square_count, backoff=(0.01, 0.2))
    except BaseException:
        emulator.close()
        raise
    link.emulator = emulator
    return link
