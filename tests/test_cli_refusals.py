"""Every command's refusals: one line and one exit status per cause, the same whichever
command met the cause (docs/cli.md, "Exit statuses"), and the statuses of that table
are the ones `cli.errors` uses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from draughtsboard import cli
from draughtsboard.cli import errors

ROOT = Path(__file__).resolve().parents[1]
BROKER = ["--broker", "mqtt://hall:pw@127.0.0.1:1"]


def refusal(capsys, *argv: str) -> tuple[int, str]:
    """The status and the one line of a refused command, without its prefix (a command
    that got as far as logging has its log lines on standard error too)."""
    status = cli.main(list(argv))
    captured = capsys.readouterr()
    prefix = f"draughtsboard {argv[0]}: "
    lines = [line for line in captured.err.splitlines() if line.startswith(prefix)]
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return status, lines[0][len(prefix):]


def command_lines(tmp_path, command: str, *extra: str) -> list[str]:
    """``command`` with what it needs besides ``extra``, nothing of it kept."""
    if command == "play":
        return ["play", "--backend", "sim", "--data", str(tmp_path / "data"), *extra]
    if command == "hall":
        return ["hall", *BROKER, "--data", str(tmp_path / "hall"), *extra]
    return ["venue", "--boards", "2", "--out", str(tmp_path / "venue"), *extra]


@pytest.mark.parametrize("listen", ["bad", "127.0.0.1:99999", "127.0.0.1:٣", "host name:80",
                                    "::1:8080", "[nonsense]:80", "127.0.0.1:"])
def test_a_wrong_listen_is_the_same_line_and_status_in_play_hall_and_venue(
        tmp_path, capsys, listen):
    said = {command: refusal(capsys, *command_lines(tmp_path, command, "--listen", listen))
            for command in ("play", "hall", "venue")}
    assert set(said.values()) == {(errors.EXIT_USAGE, f"--listen {listen!r}: expected "
                                   "HOST:PORT (an IPv4 address, [an IPv6 address] or a host "
                                   "name, and a port 1-65535)")}, said
    assert not any(tmp_path.iterdir())  # nothing made by any of them


@pytest.mark.parametrize("command", ["play", "hall", "venue"])
def test_a_language_without_a_catalog_is_the_same_line_and_status(tmp_path, capsys, command):
    status, line = refusal(capsys, *command_lines(tmp_path, command, "--language", "xx"))
    assert status == errors.EXIT_CONFIG
    assert line.startswith("--language: no catalog for language 'xx' (known: en, ")


# (command, arguments, status, words in the line): at least one row per cause a command
# refuses by
REFUSALS = [
    ("play", ["--speech-volume", "999"], errors.EXIT_USAGE, "--speech-volume is 0 to 200"),
    ("play", ["--tag", "nonsense"], errors.EXIT_USAGE, ""),
    ("play", ["--listen", "0.0.0.0:0"], errors.EXIT_CONFIG, "--allow-remote-hands"),
    ("play", ["--variant", "checkers"], errors.EXIT_DATA, "checkers"),
    ("hall", ["--delay", "-1"], errors.EXIT_USAGE, "--delay must be 0 or more minutes"),
    ("hall", ["--broker", "http://h"], errors.EXIT_USAGE, "--broker: "),
    ("hall", ["--mirror-delay", "5"], errors.EXIT_USAGE, "--mirror-delay goes with --mirror"),
    ("hall", ["--mirror", "mqtt://mirror@h:1", "--public"], errors.EXIT_USAGE,
     "--mirror is the venue hall's, not a public hall's"),
    ("hall", ["--mirror", "mqtt://mirror@h:1"], errors.EXIT_CONFIG,
     "--mirror needs its password"),
    ("hall", ["--rooms", ","], errors.EXIT_USAGE, "--rooms: no room given"),
    ("venue", ["--boards", "0"], errors.EXIT_USAGE, "--boards 1-9999"),
    ("venue", ["--seat", "white"], errors.EXIT_USAGE, "go with --match"),
    ("venue", ["--room", "a:1-2"], errors.EXIT_USAGE, "--room needs --event-broker"),
    ("venue", ["--public", "--event-broker", "h:1883", "--event-password-file",
               "/nowhere/public.password"], errors.EXIT_NOINPUT,
     "/nowhere/public.password: no such file"),
    ("venue", ["--public", "--event-broker", "[::1]:1883", "--event-password-file", "f"],
     errors.EXIT_USAGE, "an IPv6 address cannot be a bridge's address"),
    ("venue", ["--match", "m1"], errors.EXIT_USAGE, "--match needs --seat white or black"),
    ("emulate", ["--pty", "--fault-rate", "2"], errors.EXIT_USAGE,
     "--fault-rate 2.0 is not between 0 and 1"),
]


@pytest.mark.parametrize("command, argv, status, words", REFUSALS)
def test_every_command_refuses_in_one_line_with_its_causes_status(
        tmp_path, capsys, monkeypatch, command, argv, status, words):
    monkeypatch.delenv("DRAUGHTSBOARD_MIRROR_PASSWORD_FILE", raising=False)
    if command == "venue":
        line = ["venue", "--out", str(tmp_path / "venue"), *argv]
    elif command == "emulate":
        line = ["emulate", *argv]
    else:
        line = command_lines(tmp_path, command, "--listen", "127.0.0.1:0", *argv)
    got, said = refusal(capsys, *line)
    assert got == status and words in said, said
    assert not (tmp_path / "venue").exists()


def test_the_statuses_of_docs_cli_are_the_ones_the_handler_gives():
    text = (ROOT / "docs" / "cli.md").read_text()
    table = text[text.index("## Exit statuses"):text.index("## The commands")]
    documented = {int(status) for status in re.findall(r"^\| (\d+) \|", table, re.M)}
    constants = {value for name, value in vars(errors).items() if name.startswith("EXIT_")}
    assert constants <= documented and documented - constants == {0, 130}


def test_a_cause_is_one_status_whatever_the_error_that_carries_it():
    from draughtsboard.hall.rooms import RoomError
    from draughtsboard.hall.venue import OutIsAFileError, UnreachableVenueError
    from draughtsboard.recording import DataDirBusyError

    assert errors.failure(errors.UsageError("x")).status == errors.EXIT_USAGE
    assert errors.failure(RoomError("x")).status == errors.EXIT_USAGE
    assert errors.failure(errors.NoInputError("x")).status == errors.EXIT_NOINPUT
    assert errors.failure(errors.SettingError("x")).status == errors.EXIT_CONFIG
    assert errors.failure(UnreachableVenueError("x")).status == errors.EXIT_NOPERM
    assert errors.failure(OutIsAFileError("x")).status == errors.EXIT_CANTCREAT
    assert errors.failure(DataDirBusyError("x")).status == errors.EXIT_BUSY
    assert errors.failure(KeyError("x")).status == errors.EXIT_SOFTWARE
    assert errors.failure(KeyboardInterrupt()) is None


@pytest.mark.parametrize("argv, english, russian", [
    (["--rooms", "a:1-4,b:3-6"], "--rooms: board 3 is in room b and in room a",
     "--rooms: доска 3 есть и в зале b, и в зале a"),
    (["--match", "M1", "--seat", "white"], "--match 'M1': lower-case letters, digits and "
     "dashes (at most 40), as in play's --opponent board:MATCH",
     "--match 'M1': строчные латинские буквы, цифры и дефисы (не больше 40), как в "
     "--opponent board:МАТЧ"),
    (["--boards", "2", "--listen", "h:0"], "--listen 'h:0': expected HOST:PORT (an IPv4 "
     "address, [an IPv6 address] or a host name, and a port 1-65535)",
     "--listen 'h:0': нужно ХОСТ:ПОРТ (адрес IPv4, [адрес IPv6] в скобках или имя хоста, и "
     "порт от 1 до 65535)"),
])
def test_a_refusal_is_said_in_the_commands_language_with_the_same_status(
        tmp_path, capsys, argv, english, russian):
    out = ["venue", "--out", str(tmp_path / "v"), *argv]
    assert refusal(capsys, *out) == (errors.EXIT_USAGE, english)
    assert refusal(capsys, *out, "--language", "ru") == (errors.EXIT_USAGE, russian)
