"""The simulated board as the replay harness drives it: switches scheduled by a scripted
hand, the real `ReedMatrix` scanned in virtual time.

`open_virtual_time_board` is the replay backend ``sim``; `simulated_switches` gives the
bare switches for a board behind the emulated microcontroller
(`draughtsboard.firmware_bridge.virtual`), which the composition root joins together."""

from __future__ import annotations

from draughtsboard.board.ports import Snapshot, squares_from_mask
from draughtsboard.board.rules.geometry import Geometry

from .backends import open_simulated_board
from .config import builtin_config
from .simulation import SimulatedBoard


def open_virtual_time_board(board: Geometry, occupied: int) -> VirtualTimeBoard:
    """The simulated ``board`` with pieces on ``occupied`` (a mask), scanned by the real
    reed-matrix driver whenever the harness asks, in virtual time."""
    return VirtualTimeBoard(board, occupied)


def simulated_switches(board: Geometry, occupied: int) -> SimulatedBoard:
    """The switches of the simulated ``board`` (reference wiring), closed on ``occupied``
    (a mask), for a scripted hand to schedule in virtual time."""
    return SimulatedBoard(builtin_config(board), occupied=squares_from_mask(occupied))


class VirtualTimeBoard:
    """A `draughtsboard.board.replay.VirtualBoard` on the simulated pins."""

    def __init__(self, board: Geometry, occupied: int) -> None:
        self._board = open_simulated_board(board, occupied=squares_from_mask(occupied))
        simulation = self._board.simulation
        assert simulation is not None  # a simulated board has its simulation
        self._simulation = simulation
        self._sensors = self._board.sensors
        self.scan_period = 1.0 / self._board.config.matrix.scan_rate
        self._scans = 0

    def set_occupied(self, squares) -> None:
        self._simulation.set_occupied(squares)

    def schedule(self, at: float, square: int, closed: bool) -> None:
        self._simulation.schedule(at, square, closed)

    def scan(self, now: float) -> list[Snapshot]:
        """One scan of the matrix at virtual time ``now``; the snapshots the driver published."""
        self._sensors.scan_once(now)
        self._scans += 1
        if self._scans % 5000 == 0:
            self._simulation.clear_history()
        out = []
        while (snapshot := self._board.read(timeout=0)) is not None:
            out.append(snapshot)
        return out

    def close(self) -> None:
        self._board.close()
