"""Issue 16, cases 5 and 7: every command's failure is one line, ``draughtsboard
<command>: <what>``, with an exit status per cause, never a traceback; the simulator is
never served to the network by default. Each case used to end in a traceback (or, for
case 7, an open simulator with only a warning)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from draughtsboard import cli
from draughtsboard.recording import Recorder

CONFIGS = os.path.join(os.path.dirname(os.path.dirname(cli.__file__)), "hardware", "configs")


pytestmark = pytest.mark.usefixtures("keep_logging")  # commands run in-process here


def run(argv, capsys):
    status = cli.main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return status, err


def only_line(err: str, command: str) -> str:
    lines = [line for line in err.splitlines()
             if line.startswith(f"draughtsboard {command}:")]
    assert len(lines) == 1, err
    return lines[0]


def test_play_with_a_bad_board_config_is_a_config_error(tmp_path, capsys):
    config = tmp_path / "board.toml"
    config.write_text('[board]\nsize = 8\nbogus = 1\n')
    status, err = run(["play", "--backend", "gpio", "--config", str(config), "--data",
                       str(tmp_path / "d"), "--listen", "127.0.0.1:0"], capsys)
    assert status == cli.EXIT_CONFIG
    assert "required section is missing" in only_line(err, "play")
    assert not (tmp_path / "d").exists()  # nothing touched


@pytest.mark.parametrize("factory", [None, "lgpio"])
def test_play_without_a_gpio_chip_is_unavailable(tmp_path, capsys, monkeypatch, recwarn,
                                                 factory):
    if factory:
        monkeypatch.setenv("GPIOZERO_PIN_FACTORY", factory)  # its library is not here
    else:
        monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    status, err = run(["play", "--backend", "gpio", "--config",
                       os.path.join(CONFIGS, "8x8.toml"), "--data", str(tmp_path),
                       "--listen", "127.0.0.1:0"], capsys)
    assert status == cli.EXIT_UNAVAILABLE, err
    only_line(err, "play")
    # gpiozero's "falling back from ..." warnings would come before the one line
    assert [str(w.message) for w in recwarn if w.category.__name__ == "PinFactoryFallback"] == []
    assert Recorder(tmp_path).game_ids() == []  # no game opened for a board that is not there


@pytest.mark.parametrize(("argv", "status", "words"), [
    (["--variant", "checkers"], cli.EXIT_DATA, "checkers"),
    (["--fen", "W:W99:B1"], cli.EXIT_DATA, ""),
    (["--listen", "127.0.0.1:99999"], cli.EXIT_USAGE, "port 1-65535"),
    (["--listen", "0.0.0.0:0"], cli.EXIT_CONFIG, "--allow-remote-hands"),
    (["--listen", "[::]:0"], cli.EXIT_CONFIG, "--allow-remote-hands"),
    (["--opponent", "engine:11"], cli.EXIT_DATA, "the engine's level is 1-10"),
    (["--opponent", "stockfish"], cli.EXIT_DATA, "expected engine[:LEVEL], hub:COMMAND"),
    (["--opponent", "dxp:127.0.0.1:27531"], cli.EXIT_DATA, "cannot play Russian"),
    (["--opponent", "engine", "--mode", "puzzle"], cli.EXIT_USAGE, "puzzle mode plays no"),
    (["--opponent", "engine", "--opponent-seconds", "0"], cli.EXIT_USAGE, "0.05 to 3600"),
])
def test_play_refuses_bad_arguments_in_one_line(tmp_path, capsys, argv, status, words):
    got, err = run(["play", "--backend", "sim", "--data", str(tmp_path / "d"),
                    "--listen", "127.0.0.1:0", *argv], capsys)
    assert got == status, err
    assert words in only_line(err, "play")
    assert not (tmp_path / "d" / "games").exists() or Recorder(tmp_path / "d").game_ids() == []


def test_auto_never_falls_back_to_an_open_simulator(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("glob.glob", lambda pattern: [])  # no GPIO chip here
    status, err = run(["play", "--backend", "auto", "--config", str(tmp_path / "none.toml"),
                       "--listen", "0.0.0.0:0", "--data", str(tmp_path / "d")], capsys)
    assert status == cli.EXIT_CONFIG
    assert "hands would be open to the network" in only_line(err, "play")


def test_a_data_directory_that_is_a_file_is_one_line(tmp_path, capsys):
    data = tmp_path / "data"
    data.write_text("not a directory")
    status, err = run(["play", "--backend", "sim", "--listen", "127.0.0.1:0", "--data",
                       str(data)], capsys)
    assert status == cli.EXIT_IO and str(data) in only_line(err, "play")


def test_a_read_only_data_directory_is_one_line(tmp_path, capsys, monkeypatch):
    # As root a chmod does not stop writes; the error a read-only disk gives is injected.
    import errno

    from draughtsboard.recording import lock

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(tmp_path / "lock"))

    monkeypatch.setattr(lock.os, "open", read_only)
    status, err = run(["play", "--backend", "sim", "--listen", "127.0.0.1:0", "--data",
                       str(tmp_path)], capsys)
    assert status == cli.EXIT_IO and "Read-only file system" in only_line(err, "play")


def test_a_port_in_use_stops_play_before_it_writes_anything(tmp_path, capsys):
    import socket

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        port = busy.getsockname()[1]
        status, err = run(["play", "--backend", "sim", "--listen", f"127.0.0.1:{port}",
                           "--data", str(tmp_path)], capsys)
    finally:
        busy.close()
    assert status == cli.EXIT_IO and "cannot listen" in only_line(err, "play")
    assert Recorder(tmp_path).game_ids() == []


def test_track_with_nan_and_huge_times_says_which_line():
    lines = ('{"t": NaN, "occupied": []}\n{"t": 1e400, "occupied": []}\n'
             '{"t": 1' + "0" * 5000 + ', "occupied": []}\n' + "[" * 100000 + "\n")
    done = subprocess.run([sys.executable, "-m", "draughtsboard", "track"], input=lines,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert [line.split(":")[1] for line in done.stderr.splitlines()] == [
        " line 1", " line 2", " line 3", " line 4"]


def test_pdn_with_deep_variations_and_a_huge_clock_is_located(tmp_path, capsys):
    deep = tmp_path / "deep.pdn"
    deep.write_text('[GameType "20"]\n1. 32-28 ' + "(1. 33-29 " * 1000 + ")" * 1000 + " *\n")
    clock = tmp_path / "clock.pdn"
    clock.write_text('[GameType "20"]\n1. 32-28 {[%clock w' + "9" * 5000
                     + ':00:00 b0:00:00]} 17-22 *\n')
    status, err = run(["pdn", "check", str(deep), str(clock)], capsys)
    out_err = capsys.readouterr()
    assert status in (0, 1)
    assert "Traceback" not in err + out_err.out


def test_replay_with_a_fault_rate_over_one_is_one_line(capsys):
    status, err = run(["replay", "--random", "1", "--backend", "serial-emulated",
                       "--fault-rate", "2"], capsys)
    assert status == cli.EXIT_DATA and "fault rate 2.0" in only_line(err, "replay")


def test_an_unexpected_error_is_still_one_line(capsys, monkeypatch):
    from draughtsboard.commands import track

    def broken(args, *rest):
        raise KeyError("surprise")

    monkeypatch.setattr(track, "run_track", broken)
    status, err = run(["track"], capsys)
    assert status == cli.EXIT_SOFTWARE and "internal error" in only_line(err, "track")


@pytest.mark.slow
def test_a_second_play_on_a_live_directory_exits_without_touching_it(tmp_path):
    from tests.web.helpers import PlayProcess

    data = tmp_path / "data"
    with PlayProcess(data) as first:
        first.state()  # ready: the game is open
        journal = next((data / "games").glob("*.jsonl"))
        before = journal.read_bytes()
        second = subprocess.run(
            [sys.executable, "-m", "draughtsboard", "play", "--backend", "sim", "--listen",
             "127.0.0.1:0", "--data", str(data)], capture_output=True, text=True, timeout=60)
        assert second.returncode == cli.EXIT_BUSY, second.stderr
        assert "in use by another draughtsboard process" in second.stderr
        assert "Traceback" not in second.stderr
        assert journal.read_bytes() == before
        assert len(list((data / "games").glob("*.jsonl"))) == 1
        assert first.stop() == 0
