"""A real mosquitto for the tests: a generated venue (config, hashed passwords, ACL) on a
free loopback port, started and stopped (or killed) by the test. The broker itself is the
benchmarks' (`benchmarks.harness.broker`): one way to start mosquitto for both."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.harness.broker import Mosquitto, loopback_venue, mosquitto
from benchmarks.harness.ports import NotListening, free_port
from draughtsboard.hall.venue import MOSQUITTO_PATHS, Venue, VenueError

__all__ = ["Broker", "ConfiguredBroker", "free_port", "mosquitto_or_fail"]


def mosquitto_or_fail() -> str:
    """The broker binary; a clear failure (never a silent skip) where it is missing."""
    try:
        return mosquitto(MOSQUITTO_PATHS)  # a test may patch where it is looked for
    except VenueError as error:
        pytest.fail(f"{error}. scripts/test.sh installs it when run as root; the hall tests "
                    f"need a real broker")


class ConfiguredBroker(Mosquitto):
    """A mosquitto on files written elsewhere (an event's or a room's broker of
    `draughtsboard.hall.rooms`), listening on ``port`` of the loopback. A broker that does
    not start fails the test with its reason."""

    def __init__(self, config: Path, port: int, log: Path) -> None:
        super().__init__(config, port, log=log, binary=mosquitto_or_fail(), timeout=10.0)

    def start(self, timeout: float = 10.0) -> None:
        try:
            super().start(timeout)
        except NotListening as error:
            raise AssertionError(str(error)) from None


class Broker(ConfiguredBroker):
    """A venue's mosquitto for boards 1..``boards``, its files in ``directory``."""

    def __init__(self, directory: Path, boards: int) -> None:
        self.venue: Venue = loopback_venue(directory, boards)
        super().__init__(self.venue.config, self.venue.port, directory / "mosquitto.log")
