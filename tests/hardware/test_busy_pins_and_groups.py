"""Real-pin paths without a Pi: lgpio's group reads on a stand-in lgpio wired to the
simulated board, a pin another driver holds (lgpio's bare "GPIO busy"), and two programs
on one board."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from importlib import resources

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from draughtsboard import cli
from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.hardware.backends import open_gpio_board
from draughtsboard.hardware.board_lock import BoardBusyError, BoardLock
from draughtsboard.hardware.config import ConfigError, builtin_config
from draughtsboard.hardware.matrix_pins import LgpioGroupPins
from draughtsboard.hardware.reed_matrix import ReedMatrix
from draughtsboard.hardware.simulation import SimulatedBoard

from .test_diag import run as run_diag

LgpioError = type("error", (Exception,), {"__module__": "lgpio"})  # as lgpio names it


class FakeLgpio:
    """The lgpio calls the group pins use, on a simulated board's mock pins; ``held``
    pins raise lgpio's "GPIO busy", as when SPI or another process has them."""

    SET_PULL_UP, SET_PULL_DOWN = 32, 64

    def __init__(self, factory: MockFactory, held=()) -> None:
        self.factory = factory
        self.held = set(held)
        self.groups: dict[int, list[int]] = {}
        self.calls = 0

    def _check(self, pins):
        for pin in pins:
            if pin in self.held:
                raise LgpioError("GPIO busy")

    def gpiochip_open(self, chip):
        return 7

    def gpiochip_close(self, handle):
        pass

    def group_claim_output(self, handle, pins, levels):
        self._check(pins)
        for pin, level in zip(pins, levels, strict=True):
            mock = self.factory.pin(pin)
            mock.function = "output"
            mock.state = bool(level)
        self.groups[pins[0]] = list(pins)

    def group_claim_input(self, handle, pins, flags=0):
        self._check(pins)
        for pin in pins:
            mock = self.factory.pin(pin)
            mock.function = "input"
            mock.pull = "up" if flags == self.SET_PULL_UP else "down"
        self.groups[pins[0]] = list(pins)

    def gpio_claim_input(self, handle, pin, flags=0):
        self._check([pin])

    def gpio_free(self, handle, pin):
        pass

    def group_free(self, handle, first):
        self.groups.pop(first, None)

    def group_write(self, handle, first, bits, mask):
        self.calls += 1
        for k, pin in enumerate(self.groups[first]):
            if mask >> k & 1:
                self.factory.pin(pin).state = bool(bits >> k & 1)

    def group_read(self, handle, first):
        self.calls += 1
        return sum(1 << k for k, pin in enumerate(self.groups[first])
                   if self.factory.pin(pin).state)


@pytest.mark.parametrize("size", [8, 10, 7])
def test_group_reads_see_every_square_in_two_calls_a_row(size):
    config = builtin_config(board_geometry(size))
    config = dataclasses.replace(config, matrix=dataclasses.replace(config.matrix,
                                                                    settle_us=0))
    sim = SimulatedBoard(config)
    lgpio = FakeLgpio(sim.factory)
    pins = LgpioGroupPins(config.matrix, 0, lgpio)
    with ReedMatrix(config, start=False, pins=pins, clock=lambda: sim.now) as matrix:
        for square in range(1, config.square_count + 1):
            sim.set_occupied([square])
            assert matrix.read_raw() == 1 << (square - 1)
        calls = lgpio.calls
        matrix.read_raw()
        assert lgpio.calls - calls == 2 * len(config.matrix.rows) + 1  # + the final release


def test_a_busy_group_pin_is_named_with_its_likely_holder():
    config = builtin_config(board_geometry(10))
    sim = SimulatedBoard(config)
    with pytest.raises(ConfigError) as caught:
        LgpioGroupPins(config.matrix, 0, FakeLgpio(sim.factory, held=[4]), "board.toml")
    assert caught.value.problems == [
        "matrix.rows[2]: BCM 4 (header pin 7) is in use: 1-Wire enabled? the draughtsboard "
        "service running (sudo systemctl stop draughtsboard)?"]


class BusyFactory(MockFactory):
    """Mock pins, except ``held`` ones, which fail as lgpio fails on a claimed line."""

    held: set[int] = set()

    def pin(self, spec, **kwargs):
        if spec in self.held:
            raise LgpioError("GPIO busy")
        return super().pin(spec, **kwargs)


def test_a_busy_pin_stops_play_in_one_line_with_the_config_status(tmp_path, capsys):
    path = tmp_path / "board.toml"
    shipped = resources.files("draughtsboard.hardware").joinpath("configs/7x7.toml")
    path.write_text(shipped.read_text())
    BusyFactory.held = {12}  # matrix.rows[5] of the 7x7 board
    Device.pin_factory = BusyFactory()
    try:
        status = cli.main(["play", "--backend", "gpio", "--config", str(path), "--data",
                           str(tmp_path / "data"), "--listen", "127.0.0.1:0"])
    finally:
        Device.pin_factory.close()
        Device.pin_factory = None
    err = capsys.readouterr().err.strip().splitlines()
    assert status == cli.EXIT_CONFIG == 78
    assert err[-1] == (
        f"draughtsboard play: {path}: matrix.rows[5]: BCM 12 (header pin 32) is in use: "
        "the draughtsboard service running (sudo systemctl stop draughtsboard)?")
    assert "Traceback" not in "\n".join(err)


def test_diag_refuses_the_board_while_another_program_holds_it(capsys):
    with BoardLock():
        assert run_diag(["--once"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("draughtsboard diag: the board's pins are in use by process "
                          f"{os.getpid()} ")
    assert err.count("\n") == 1


def test_the_lock_is_held_across_processes_and_dropped_when_the_holder_ends(tmp_path):
    lock_path = tmp_path / "gpio.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\n"
         "from draughtsboard.hardware.board_lock import BoardLock\n"
         f"BoardLock({str(lock_path)!r}).acquire()\n"
         "print('held', flush=True)\nsys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(BoardBusyError, match=f"process {holder.pid} "):
            open_gpio_board(builtin_config(board_geometry(8)), MockFactory(),
                            lock=BoardLock(lock_path))
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)
    with open_gpio_board(builtin_config(board_geometry(8)), MockFactory(), start=False,
                         lock=BoardLock(lock_path)) as board:
        assert board.lock is not None  # free again once the holder ended


class BrokenFactory(MockFactory):
    """Mock pins whose every claim fails as lgpio fails on a chip it cannot use."""

    def pin(self, spec, **kwargs):
        raise LgpioError("bad GPIO number")


def test_any_other_lgpio_error_is_one_line_too(tmp_path, capsys):
    Device.pin_factory = BrokenFactory()
    try:
        assert run_diag(["--once"]) == 2
        status = cli.main(["play", "--backend", "gpio", "--config",
                           str(resources.files("draughtsboard.hardware").joinpath(
                               "configs/8x8.toml")),
                           "--data", str(tmp_path / "data"), "--listen", "127.0.0.1:0"])
    finally:
        Device.pin_factory.close()
        Device.pin_factory = None
    err = capsys.readouterr().err.splitlines()
    assert ("draughtsboard diag: cannot open the gpio board: bad GPIO number "
            "(no GPIO here? try --backend sim)") in err
    assert status == cli.EXIT_UNAVAILABLE
    assert err[-1] == "draughtsboard play: GPIO: bad GPIO number"
