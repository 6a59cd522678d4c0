"""`draughtsboard venue` and the folder it writes into: Debian's mosquitto started as root
becomes the ``mosquitto`` user before it opens the password file, so a folder on the way
that user cannot enter (``mktemp -d`` makes one: mode 0700, root's) stops the broker.
`venue` refuses such a folder in one line that names it, before it writes anything."""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from draughtsboard.cli import EXIT_CANTCREAT, EXIT_NOPERM, main
from draughtsboard.hall import venue
from draughtsboard.hall.rooms import (
    parse_room,
    parse_rooms,
    write_event_venue,
    write_public_venue,
    write_room_venue,
)
from draughtsboard.hall.venue import (
    BrokerAccount,
    blocking_directory,
    broker_account,
    unreachable_parent,
    write_venue,
)

from ..web.helpers import wait_until
from .broker import ConfiguredBroker, free_port, mosquitto_or_fail

# someone who owns none of the test's folders and belongs to none of their groups
VISITOR = BrokerAccount("visitor", uid=os.getuid() + 4242, gid=os.getgid() + 4242)


def _venue_args(out: Path, port: int = 18830) -> list[str]:
    return ["venue", "--boards", "2", "--out", str(out), "--listen", f"127.0.0.1:{port}"]


def test_the_first_folder_the_user_cannot_enter_is_named_wherever_it_lies(open_folder):
    locked = open_folder / "locked"
    (locked / "inner").mkdir(parents=True)
    os.chmod(locked, 0o700)
    # a folder in the middle of the way, not only the last one
    assert blocking_directory(locked / "inner" / "venue", VISITOR) == locked
    assert blocking_directory(locked, VISITOR) == locked  # the venue's own folder too
    assert blocking_directory(open_folder / "new" / "venue", VISITOR) is None  # made 0755
    os.chmod(locked, 0o711)  # others may pass through without listing it
    assert blocking_directory(locked / "inner" / "venue", VISITOR) is None


def test_a_group_the_user_is_in_lets_it_through(open_folder):
    if os.geteuid() != 0:
        pytest.skip("giving a folder to another group needs root")
    member = BrokerAccount("visitor", uid=VISITOR.uid, gid=4343)
    shared = open_folder / "shared"
    shared.mkdir(mode=0o710)
    os.chown(shared, 0, member.gid)
    os.chmod(shared, 0o710)
    assert blocking_directory(shared / "venue", member) is None
    assert blocking_directory(shared / "venue", VISITOR) == shared


def test_venue_refuses_a_folder_the_brokers_user_cannot_enter_in_one_line(
        open_folder, monkeypatch, capsys):
    monkeypatch.setattr(venue, "broker_account", lambda run_as=None: VISITOR)
    private = open_folder / "private"
    private.mkdir(mode=0o700)
    os.chmod(private, 0o700)
    for out in (private / "venue", private):
        assert main(_venue_args(out)) == EXIT_NOPERM
        printed = capsys.readouterr()
        assert printed.out == ""  # no "start the broker with" line
        assert printed.err.count("\n") == 1, printed.err
        assert printed.err.startswith(f"draughtsboard venue: the visitor user cannot enter "
                                      f"{private} (mode 0700, owner ")
        assert f"chmod o+x {private}" in printed.err and "Traceback" not in printed.err
        assert list(private.iterdir()) == []  # nothing written, no secret left behind


def test_the_folders_venue_makes_are_enterable_whatever_the_umask(open_folder):
    old = os.umask(0o077)
    try:
        made = write_venue(open_folder / "a" / "venue", 1, port=18830)
    finally:
        os.umask(old)
    for folder in (open_folder / "a", made.directory, made.directory / "boards"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o755, folder
    assert unreachable_parent(made.directory) is None
    assert (made.directory / "boards" / "1.password").stat().st_mode & 0o077 == 0


def test_the_folders_of_a_venue_in_rooms_are_enterable_whatever_the_umask(open_folder):
    old = os.umask(0o077)
    try:
        event = write_event_venue(open_folder / "event", parse_rooms("a:2-3"), boards=1)
        room = write_room_venue(open_folder / "a", parse_room("a:2-3"), "127.0.0.1", 1884,
                                "pw")
    finally:
        os.umask(old)
    for folder in (event.directory, event.directory / "boards", event.directory / "rooms",
                   room.directory, room.directory / "boards"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o755, folder
    assert (event.directory / "rooms" / "a.password").stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("kind", [["--boards", "2"], ["--rooms", "main:1-2"]])
def test_an_out_that_is_a_file_is_said_to_be_a_file(open_folder, monkeypatch, capsys, kind):
    monkeypatch.setattr(venue, "broker_account", lambda run_as=None: VISITOR)
    taken = open_folder / "taken"
    taken.write_text("not a folder\n")
    for out in (taken, taken / "venue"):
        assert main(["venue", "--out", str(out), *kind]) == EXIT_CANTCREAT
        err = capsys.readouterr().err
        assert err == (f"draughtsboard venue: {taken} is a file, not a folder: give --out a "
                       "folder (made if missing); nothing written\n")


@pytest.mark.broker
@pytest.mark.slow
def test_mosquitto_started_as_root_and_the_private_folder_venue_refuses(capsys):
    """For real: root, Debian's mosquitto and its ``mosquitto`` user, a folder as
    ``mktemp -d`` makes it. `venue` refuses it; let through, the venue's broker starts as
    ``mosquitto``; locked again, mosquitto stops with "Error opening password file"."""
    account = broker_account()
    if account is None or account.name != "mosquitto":
        pytest.skip("needs root and Debian's mosquitto user (a broker that drops to it)")
    binary = mosquitto_or_fail()
    private = Path(tempfile.mkdtemp(prefix="draughtsboard-private-"))
    try:
        assert stat.S_IMODE(private.stat().st_mode) == 0o700 and private.stat().st_uid == 0
        port = free_port()
        assert main(_venue_args(private / "venue", port)) == EXIT_NOPERM
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"the mosquitto user cannot enter {private} " in err
        assert list(private.iterdir()) == []

        os.chmod(private, 0o755)  # let through: the happy path, as in /srv or /etc
        assert main(_venue_args(private / "venue", port)) == 0
        assert "start the broker with" in capsys.readouterr().out
        config = private / "venue" / "mosquitto.conf"
        broker = subprocess.Popen([binary, "-c", str(config)], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            def listening() -> bool:
                assert broker.poll() is None, "mosquitto stopped"
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                except OSError:
                    return False
                return True

            wait_until(listening, timeout=15, what="mosquitto listening")
            status = Path(f"/proc/{broker.pid}/status").read_text()
            uid = next(line.split()[1] for line in status.splitlines()
                       if line.startswith("Uid:"))
            assert int(uid) == account.uid  # it dropped to the mosquitto user, and read on
        finally:
            broker.terminate()
            broker.wait(30)

        os.chmod(private, 0o700)  # locked again: what the refusal spared the user
        failed = subprocess.run([binary, "-c", str(config)], stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=30)
        assert failed.returncode != 0
        assert "Error opening password file" in failed.stderr
        assert unreachable_parent(config.parent) == private
    finally:
        shutil.rmtree(private, ignore_errors=True)


@pytest.mark.parametrize("kind", [
    ["--rooms", "main:1-2"],
    ["--room", "main:1-2", "--event-broker", "127.0.0.1:18831", "--event-password-file"],
    ["--public", "--event-broker", "127.0.0.1:18831", "--event-password-file"],
])
def test_the_brokers_of_a_venue_in_rooms_are_refused_a_private_folder_too(
        open_folder, monkeypatch, capsys, kind):
    """The event's broker, a room's and a public one are written by the same function
    as the one-machine venue: a folder their user cannot enter is refused the same way."""
    monkeypatch.setattr(venue, "broker_account", lambda run_as=None: VISITOR)
    secret = open_folder / "room.password"
    secret.write_text("s3cret\n")
    private = open_folder / "private"
    private.mkdir(mode=0o700)
    os.chmod(private, 0o700)
    args = ["venue", "--out", str(private / "venue"), *kind]
    if args[-1] == "--event-password-file":
        args.append(str(secret))
    assert main(args) == EXIT_NOPERM
    printed = capsys.readouterr()
    assert printed.err.count("\n") == 1, printed.err
    assert "the visitor user cannot enter" in printed.err and "Traceback" not in printed.err
    assert list(private.iterdir()) == []


@pytest.mark.broker
@pytest.mark.parametrize("kind", ["room", "public"])
def test_a_bridged_broker_reloads_on_sighup_as_its_own_user(open_folder, kind):
    """logrotate's nightly ``invoke-rc.d mosquitto reload`` sends SIGHUP: mosquitto reads
    its configuration again as the user it dropped to. A room's or a public broker's holds
    the bridge's password: root's, mode 0640 to that user's group, so the reload reads it
    and the broker cannot change what root reads at its next start."""
    account = broker_account()  # root with Debian's mosquitto user: the broker drops to it
    run_as = None if account is not None else getpass.getuser()
    log = open_folder / f"{kind}.log"
    log.touch()
    if account is not None:
        os.chown(log, account.uid, account.gid)
    port = free_port()
    if kind == "room":
        written = write_room_venue(open_folder / kind, parse_room("main:1-2"), "127.0.0.1",
                                   free_port(), "pw", host="127.0.0.1", port=port,
                                   log_file=log, run_as=run_as)
    else:
        written = write_public_venue(open_folder / kind, "127.0.0.1", free_port(), "pw",
                                     host="127.0.0.1", port=port, log_file=log, run_as=run_as)
    info = written.config.stat()
    if account is None:
        assert stat.S_IMODE(info.st_mode) == 0o600
    else:  # root's; the broker's group reads it, nobody else
        assert (stat.S_IMODE(info.st_mode), info.st_uid, info.st_gid) == (0o640, 0, account.gid)
    broker = ConfiguredBroker(written.config, port, log)
    try:
        if account is not None:
            wait_until(lambda: _uid(broker.process.pid) == account.uid,
                       what="mosquitto as its own user")
        for night in (1, 2):
            os.kill(broker.process.pid, signal.SIGHUP)
            wait_until(lambda n=night: _reloads(broker.log) == n, what=f"reload {night}")
        socket.create_connection(("127.0.0.1", port), 2).close()
        assert broker.process.poll() is None
        assert "Unable to open config file" not in broker.log, broker.log
    finally:
        broker.stop()


def _reloads(log: str) -> int:
    """Configurations read since the log file was opened, well or not: mosquitto 2.0
    notes each reading's ``message_size_limit`` (before the log file is open, on
    stderr), and says when it cannot open the file."""
    return log.count("`message_size_limit`") + log.count("Unable to open config file")


def _uid(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Uid:")))
