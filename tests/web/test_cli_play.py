"""`draughtsboard play`'s command line: options, backend choice, logging for journald."""

from __future__ import annotations

import argparse
import logging

from draughtsboard import cli
from draughtsboard.web.server import configure_logging


def args(**options) -> argparse.Namespace:
    return cli.build_parser().parse_args(["play", *[
        part for key, value in options.items() for part in (f"--{key}", value)]])


def test_the_play_command_takes_the_issue_options():
    parsed = args(variant="lasca", mode="training", backend="serial-emulated",
                  config="board.toml", tag="White=Ann", listen="0.0.0.0:9000")
    assert (parsed.variant, parsed.mode, parsed.backend) == ("lasca", "training",
                                                              "serial-emulated")
    assert parsed.tag == ["White=Ann"] and parsed.listen == "0.0.0.0:9000"
    assert args().backend == "auto" and args().listen == "127.0.0.1:8080"


def test_auto_uses_the_simulator_without_a_gpio_chip_and_says_so(monkeypatch, caplog):
    monkeypatch.setattr("glob.glob", lambda pattern: [])
    with caplog.at_level(logging.WARNING):
        assert cli.choose_backend(args(), logging.getLogger("t")) == "sim"
    assert "no GPIO chip" in caplog.text and "simulator" in caplog.text


def test_auto_uses_gpio_with_a_chip_and_a_config(monkeypatch, tmp_path):
    config = tmp_path / "board.toml"
    config.write_text("")
    monkeypatch.setattr("glob.glob", lambda pattern: ["/dev/gpiochip0"])
    assert cli.choose_backend(args(config=str(config)), logging.getLogger("t")) == "gpio"
    missing = str(tmp_path / "missing.toml")
    assert cli.choose_backend(args(config=missing), logging.getLogger("t")) == "sim"


def test_bad_listen_and_tag_are_usage_errors(tmp_path, capsys):
    assert cli.main(["play", "--listen", "8080", "--data", str(tmp_path)]) == cli.EXIT_USAGE
    assert cli.main(["play", "--tag", "White", "--data", str(tmp_path)]) == cli.EXIT_USAGE
    assert "KEY=VALUE" in capsys.readouterr().err


def test_under_systemd_each_line_carries_its_priority(monkeypatch, capsys):
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        monkeypatch.setenv("JOURNAL_STREAM", "8:1234")
        configure_logging()
        logging.getLogger("draughtsboard.test").warning("a switch is stuck")
        logging.getLogger("draughtsboard.test").info("move 1: c3-d4")
        err = capsys.readouterr().err.splitlines()
        assert err[-2:] == ["<4>draughtsboard.test: a switch is stuck",
                            "<6>draughtsboard.test: move 1: c3-d4"]
    finally:
        root.handlers[:], root.level = saved[0], saved[1]


def test_the_irregularity_policy_and_its_leds_are_play_options(capsys):
    import pytest

    parsed = args(irregular="restore", **{"irregularity-leds": "off"})
    assert (parsed.irregular, parsed.irregularity_leds) == ("restore", "off")
    assert (args().irregular, args().irregularity_leds) == (None, None)
    with pytest.raises(SystemExit):
        args(irregular="lenient")
    assert "invalid choice: 'lenient'" in capsys.readouterr().err
