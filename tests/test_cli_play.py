"""`draughtsboard play`'s command line: options, backend choice, the game matched to the
board config's board, logging for journald and put back afterwards, puzzle mode, the
board's hint button."""

from __future__ import annotations

import argparse
import logging

import pytest

from draughtsboard import cli
from draughtsboard.logs import configure_logging


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
    monkeypatch.setenv("JOURNAL_STREAM", "8:1234")
    restore = configure_logging()
    try:
        logging.getLogger("draughtsboard.test").warning("a switch is stuck")
        logging.getLogger("draughtsboard.test").info("move 1: c3-d4")
        err = capsys.readouterr().err.splitlines()
        assert err[-2:] == ["<4>draughtsboard.test: a switch is stuck",
                            "<6>draughtsboard.test: move 1: c3-d4"]
    finally:
        restore()
    assert (root.handlers, root.level) == saved


def test_a_command_run_in_process_puts_the_logging_back(tmp_path, capsys):
    """``cli.main(["play", ...])`` inside another program (a test) leaves the root logger
    as it found it, and its handler never writes to a stream that has gone."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    flooded = logging.getLogger("asyncio").filters[:]
    assert cli.main(["play", "--backend", "sim", "--listen", "0.0.0.0:0", "--data",
                     str(tmp_path)]) == cli.EXIT_CONFIG
    assert (root.handlers, root.level) == saved
    assert logging.getLogger("asyncio").filters == flooded
    assert "--allow-remote-hands" in capsys.readouterr().err


def test_the_irregularity_policy_and_its_leds_are_play_options(capsys):
    import pytest

    parsed = args(irregular="restore", **{"irregularity-leds": "off"})
    assert (parsed.irregular, parsed.irregularity_leds) == ("restore", "off")
    assert (args().irregular, args().irregularity_leds) == (None, None)
    with pytest.raises(SystemExit):
        args(irregular="lenient")
    assert "invalid choice: 'lenient'" in capsys.readouterr().err


@pytest.mark.slow
def test_column_draughts_start_on_the_shipped_8x8_board_config(tmp_path):
    """A config names a board, not a game: the 8x8 wood plays Russian column draughts
    without an edit (on gpiozero's mock pins here: no GPIO chip on this machine)."""
    import json
    import os
    import signal
    import urllib.request
    from importlib import resources

    from .cli_helpers import running

    config = resources.files("draughtsboard.hardware").joinpath("configs/8x8.toml")
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock")
    with running("play", "--variant", "column", "--backend", "gpio", "--config", str(config),
                 "--data", str(tmp_path), "--listen", "127.0.0.1:0", env=env) as play:
        found = play.wait_for(r"the board's page: (http://[0-9.]+:\d+)/",
                              what="play to serve its page")
        with urllib.request.urlopen(found.group(1) + "/api/state", timeout=10) as response:
            state = json.loads(response.read())
        assert state["variant"] == "column" and state["backend"] == "gpio"
        assert play.stop(signal.SIGTERM) == 0


def test_a_game_of_another_board_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    from importlib import resources

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    config = resources.files("draughtsboard.hardware").joinpath("configs/8x8.toml")
    status = cli.main(["play", "--variant", "lasca", "--backend", "gpio", "--config",
                       str(config), "--data", str(tmp_path), "--listen", "127.0.0.1:0"])
    assert status == cli.EXIT_CONFIG
    assert capsys.readouterr().err.splitlines()[-1] == (
        "draughtsboard play: the board config's board is 8x8; lasca is played on 7x7 (give "
        "another --variant, or the config of that board)")
    from draughtsboard.recording import Recorder

    assert Recorder(tmp_path).game_ids() == []  # nothing recorded for a board not there


def test_a_bad_time_control_on_the_command_line_is_a_usage_error(tmp_path, capsys):
    status = cli.main(["play", "--tag", "TimeControl=soon", "--data", str(tmp_path)])
    assert status == cli.EXIT_USAGE
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("draughtsboard play: TimeControl 'soon': expected seconds")


@pytest.mark.slow
def test_play_in_puzzle_mode_from_the_command_line(tmp_path):
    """``play --mode puzzle`` serves the first puzzle of the file; a file that cannot be
    used stops it in one line."""
    import subprocess
    import sys

    from .play.test_puzzles import PUZZLES
    from .web.helpers import PlayProcess, wait_until

    puzzles_file = tmp_path / "puzzles.pdn"
    puzzles_file.write_text(PUZZLES, encoding="utf-8")

    with PlayProcess(tmp_path / "data", "--mode", "puzzle", "--puzzles",
                     str(puzzles_file)) as play:
        state = wait_until(lambda: (s := play.state()) and s["coach"]["puzzle"] and s)
        assert state["coach"]["puzzle"]["number"] == 1
        assert state["coach"]["puzzle"]["count"] == 2
        assert state["fen"] == "W:W17,19,20:B9-11,13" and state["mode"] == "puzzle"
        assert state["tags"]["Event"] == "Puzzle" and state["tags"]["Round"] == "1"
        assert play.stop() == 0
    bad = tmp_path / "bad.pdn"
    bad.write_text("", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "draughtsboard", "play", "--backend", "sim", "--mode",
         "puzzle", "--puzzles", str(bad), "--data", str(tmp_path / "data"), "--listen",
         "127.0.0.1:0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == cli.EXIT_DATA
    assert done.stderr.strip().splitlines()[-1] == \
        f"draughtsboard play: {bad}: no puzzle in the file"


def test_the_opponent_options_and_the_sides_the_coach_follows():
    parsed = args(opponent="engine:3", **{"opponent-side": "white"})
    assert (parsed.opponent, parsed.opponent_side) == ("engine:3", "white")
    assert cli.coach_sides(parsed) == {"black"}  # the person's side
    assert args(opponent="engine").opponent_side == "black"
    assert cli.coach_sides(args(opponent="engine")) == {"white"}
    assert cli.coach_sides(args(opponent="engine", coach="both")) == {"white", "black"}
    assert cli.coach_sides(args(coach="black")) == {"black"}
    assert cli.coach_sides(args()) == {"white", "black"}  # no opponent: both
