"""Issue 46, item 2: gpiozero's "Unable to load any default pin factory!" becomes one line
that names what is missing (no /dev/gpiochip*, no pin library, or what lgpio said) and
what to do, in ``play`` and ``diag`` alike."""

from __future__ import annotations

import argparse
import logging
import warnings
from importlib import resources

import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory, PinFactoryFallback

from draughtsboard import cli
from draughtsboard.hardware import diag, no_gpio
from draughtsboard.hardware.no_gpio import NoGpioError, fallback_reasons, no_gpio_line

CONFIG = str(resources.files("draughtsboard.hardware").joinpath("configs/8x8.toml"))
DENIED = "Falling back from lgpio: [Errno 13] Permission denied: '/dev/gpiochip0'"


def test_no_chip_says_so_and_names_the_simulator():
    assert no_gpio_line([], ["lgpio"], {}) == (
        "no GPIO chip: there is no /dev/gpiochip* on this machine (not a Raspberry Pi, or "
        "its GPIO driver is not loaded); without one, --backend sim simulates the board")


def test_a_chip_without_a_pin_library_names_the_pi_extra():
    line = no_gpio_line(["/dev/gpiochip0"], [], {})
    assert line.startswith("no pin library: /dev/gpiochip0 is here but none of lgpio, "
                           "RPi.GPIO, pigpio is installed in this Python: install the "
                           "board with its [pi] extra")
    assert "pip install -e 'src[pi]'" in line


def test_a_chip_lgpio_cannot_open_gives_lgpios_reason_and_the_group():
    line = no_gpio_line(["/dev/gpiochip0", "/dev/gpiochip1"], ["lgpio"],
                        fallback_reasons([DENIED, "Falling back from native: no"]))
    assert line == ("gpiozero could not use /dev/gpiochip0 through lgpio: [Errno 13] "
                    "Permission denied: '/dev/gpiochip0' (the user needs read and write "
                    "access to /dev/gpiochip0: the gpio group, or a udev rule where there "
                    "is none, docs/raspberry-pi.md)")


def test_a_chip_the_user_may_not_open_names_the_group_whatever_lgpio_said():
    """lgpio's error for a chip it cannot open is "can not open gpiochip", whatever the
    cause (lgGpio.c, LG_CANNOT_OPEN_CHIP): the permission is read from the chip itself."""
    reasons = fallback_reasons(["Falling back from lgpio: can not open gpiochip"])
    line = no_gpio_line(["/dev/gpiochip0"], ["lgpio"], reasons, denied=True)
    assert line == ("gpiozero could not use /dev/gpiochip0 through lgpio: can not open "
                    "gpiochip (the user needs read and write access to /dev/gpiochip0: the "
                    "gpio group, or a udev rule where there is none, docs/raspberry-pi.md)")
    assert "gpio group" not in no_gpio_line(["/dev/gpiochip0"], ["lgpio"], reasons)


def test_a_chip_is_denied_when_this_user_cannot_read_and_write_it(tmp_path):
    chip = tmp_path / "gpiochip0"
    chip.touch()
    assert not no_gpio.chip_denied([str(chip)])
    assert not no_gpio.chip_denied([])
    assert no_gpio.chip_denied([str(tmp_path / "gone")])


@pytest.fixture
def lookup_fails(monkeypatch, tmp_path):
    """gpiozero's default pin factory lookup fails as it does on a Pi whose chip the user
    may not open: a warning per library tried, then "Unable to load ...". """
    def default_pin_factory():
        warnings.warn(PinFactoryFallback(DENIED), stacklevel=2)
        warnings.warn(PinFactoryFallback("Falling back from native: unable to open "
                                         "/dev/gpiomem"), stacklevel=2)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(default_pin_factory))
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setenv("LG_WD", str(tmp_path))
    monkeypatch.setenv("DRAUGHTSBOARD_GPIO_LOCK", str(tmp_path / "gpio.lock"))
    monkeypatch.setattr(no_gpio, "gpio_chips", lambda: ["/dev/gpiochip0"])
    monkeypatch.setattr(no_gpio, "installed_pin_libraries", lambda: ["lgpio"])


EXPECTED = ("gpiozero could not use /dev/gpiochip0 through lgpio: [Errno 13] Permission "
            "denied: '/dev/gpiochip0' (the user needs read and write access to "
            "/dev/gpiochip0: the gpio group, or a udev rule where there is none, "
            "docs/raspberry-pi.md)")


def test_play_says_what_is_missing_in_one_line(lookup_fails, tmp_path, capsys, recwarn):
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        status = cli.main(["play", "--backend", "gpio", "--config", CONFIG, "--data",
                           str(tmp_path / "data"), "--listen", "127.0.0.1:0"])
    finally:
        root.handlers[:], root.level = saved
    assert status == cli.EXIT_UNAVAILABLE
    assert capsys.readouterr().err.splitlines()[-1] == f"draughtsboard play: GPIO: {EXPECTED}"
    assert not [w for w in recwarn if issubclass(w.category, PinFactoryFallback)]


def test_diag_says_the_same_line(lookup_fails, capsys):
    parser = argparse.ArgumentParser(prog="draughtsboard diag")
    diag.add_arguments(parser)
    assert diag.run(parser.parse_args(["--config", CONFIG, "--once"])) == 2
    assert capsys.readouterr().err == (
        f"draughtsboard diag: cannot open the gpio board: {EXPECTED}\n")


def test_the_error_is_still_gpiozeros():
    assert issubclass(NoGpioError, BadPinFactory) and issubclass(NoGpioError, ImportError)
