"""A real mosquitto for the benchmarks and the hall's tests: on a configuration written by
`draughtsboard.hall.venue` (a venue's) or `draughtsboard.hall.rooms` (an event's or a
room's), listening on a loopback port, started, stopped or killed by its owner (a cut, a
restart)."""

from __future__ import annotations

import getpass
import subprocess
import tempfile
from pathlib import Path
from typing import IO

from draughtsboard.hall.venue import MOSQUITTO_PATHS, Venue, find_tool, write_venue

from .ports import NotListening, free_port, wait_port
from .processes import stop


def mosquitto(paths: tuple[str, ...] = MOSQUITTO_PATHS) -> str:
    """The broker binary (on PATH, else the first of ``paths``);
    `draughtsboard.hall.venue.VenueError` (one line: how to install it) where there is
    none."""
    return find_tool("mosquitto", paths)


class Mosquitto:
    """One mosquitto on ``config``, listening on ``127.0.0.1:port``; started at once.

    Its standard error goes to an unnamed file (a pipe nobody reads would fill and stop
    it), read back only when it ends before listening, for the reason in one line."""

    def __init__(self, config: Path, port: int, *, log: Path | None = None,
                 binary: str | None = None, timeout: float = 15.0) -> None:
        self.config, self.port, self.log_path = config, port, log
        self.binary = binary or mosquitto()
        self.process: subprocess.Popen | None = None
        self.errors: IO[bytes] | None = None
        self.start(timeout)

    def start(self, timeout: float = 15.0) -> None:
        """Start it (again) and wait until it listens; `NotListening` when it does not."""
        if self.errors is not None:
            self.errors.close()
        self.errors = tempfile.TemporaryFile()
        self.process = subprocess.Popen([self.binary, "-c", str(self.config)],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=self.errors)
        try:
            wait_port(self.port, timeout, process=self.process, what="mosquitto",
                      errors=self.errors)
        except NotListening:
            stop(self.process, kill=True)  # never left running when it is given up
            raise

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: the broker gone at once, as a power cut takes it."""
        stop(self.process, kill=True)

    def stop(self) -> None:
        """SIGTERM (SIGKILL if it does not end in 30 s); safe twice."""
        stop(self.process)
        if self.errors is not None:
            self.errors.close()
            self.errors = None

    @property
    def log(self) -> str:
        """What it wrote to its log file so far ("" without one)."""
        path = self.log_path
        return path.read_text(errors="replace") if path is not None and path.exists() else ""


def loopback_venue(directory: Path, boards: int, *, log_file: Path | None = None,
                   autosave_interval: int = 1) -> Venue:
    """A venue's broker files for boards 1..``boards`` on a free loopback port, run as
    this user (no root needed), its log in ``log_file`` (default: in ``directory``)."""
    return write_venue(directory, boards, port=free_port(),
                       log_file=log_file or directory / "mosquitto.log",
                       autosave_interval=autosave_interval, run_as=getpass.getuser())
