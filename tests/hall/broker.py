"""A real mosquitto for the tests: a generated venue (config, hashed passwords, ACL) on a
free loopback port, started and stopped (or killed) by the test."""

from __future__ import annotations

import getpass
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from draughtsboard.hall.venue import MOSQUITTO_PATHS, Venue, VenueError, find_tool, write_venue


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def mosquitto_or_fail() -> str:
    """The broker binary; a clear failure (never a silent skip) where it is missing."""
    try:
        return find_tool("mosquitto", MOSQUITTO_PATHS)
    except VenueError as error:
        pytest.fail(f"{error}. scripts/test.sh installs it when run as root; the hall tests "
                    f"need a real broker")


class Broker:
    def __init__(self, directory: Path, boards: int) -> None:
        self.binary = mosquitto_or_fail()
        self.venue: Venue = write_venue(directory, boards, port=free_port(),
                                        log_file=directory / "mosquitto.log",
                                        autosave_interval=1, run_as=getpass.getuser())
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self, timeout: float = 10.0) -> None:
        self.process = subprocess.Popen([self.binary, "-c", str(self.venue.config)],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError("mosquitto did not start: " +
                                     self.process.stderr.read().decode(errors="replace"))
            try:
                socket.create_connection(("127.0.0.1", self.venue.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise AssertionError("mosquitto did not listen in time")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()

    @property
    def log(self) -> str:
        path = self.venue.directory / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""


class ConfiguredBroker(Broker):
    """A mosquitto on files written elsewhere (an event's or a room's broker of
    `draughtsboard.hall.rooms`), listening on ``port`` of the loopback."""

    def __init__(self, config: Path, port: int, log: Path) -> None:
        self.binary = mosquitto_or_fail()
        self.config, self.port, self.log_path = config, port, log
        self.process = None
        self.start()

    def start(self, timeout: float = 10.0) -> None:
        self.process = subprocess.Popen([self.binary, "-c", str(self.config)],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError("mosquitto did not start: " +
                                     self.process.stderr.read().decode(errors="replace"))
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise AssertionError("mosquitto did not listen in time")

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
