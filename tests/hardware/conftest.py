"""Pin factories for the hardware tests: the mock one always, real pins where they exist."""

from __future__ import annotations

import importlib.util
import os

import pytest
from gpiozero.pins.mock import MockFactory

from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.hardware.config import builtin_config


def _real_pins_available() -> bool:
    return os.path.exists("/dev/gpiochip0") and importlib.util.find_spec("lgpio") is not None


@pytest.fixture(params=["mock", "lgpio"])
def pin_factory(request):
    """Every pin factory that loads here; the contract suite runs once per factory."""
    if request.param == "mock":
        factory = MockFactory()
    else:
        if not _real_pins_available():
            pytest.skip("no GPIO chip (or no lgpio) on this machine")
        from gpiozero.pins.lgpio import LGPIOFactory

        factory = LGPIOFactory(chip=0)
    yield factory
    factory.close()


@pytest.fixture(params=[8, 10, 7], ids=["8x8", "10x10", "7x7"])
def wood(request):
    """Each board a game is played on (its geometry)."""
    return board_geometry(request.param)


@pytest.fixture
def config(wood):
    return builtin_config(wood)


@pytest.fixture
def sim_board(config):
    board = open_simulated_board(config)
    yield board
    board.close()


class VirtualScans:
    """Steps a simulated board in virtual time at its scan rate."""

    def __init__(self, board) -> None:
        self.board = board
        self.period = 1.0 / board.config.matrix.scan_rate
        self.now = 0.0

    def run(self, seconds: float) -> list:
        """Scan for ``seconds`` of virtual time; the snapshots published meanwhile."""
        snapshots = []
        end = self.now + seconds
        while self.now < end - 1e-12:
            self.board.step(self.now)
            self.now += self.period
            while (snapshot := self.board.read(timeout=0)) is not None:
                snapshots.append(snapshot)
        return snapshots


@pytest.fixture
def scans(sim_board):
    return VirtualScans(sim_board)
