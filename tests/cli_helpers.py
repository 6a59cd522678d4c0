"""Running a ``draughtsboard`` command as people run it: a subprocess whose standard
error is read as it comes (what it says at start-up is what the tests look at), and
which is ended however the test ends, so that a failing test leaves no server behind."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .web.helpers import wait_until


class Running:
    """A started command: ``lines``, its standard error so far."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process = process
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        self.lines.extend(self.process.stderr)

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def wait_for(self, pattern: str, what: str, timeout: float = 30.0) -> re.Match:
        """The first line's match of ``pattern``, once a line matches; fails at once,
        with what the command said, when it ends before one does."""
        compiled = re.compile(pattern)

        def found() -> re.Match | None:
            ended = not self._reader.is_alive()  # before the look: then every line is in
            match = next((m for m in map(compiled.search, list(self.lines)) if m), None)
            if match is None and ended:
                raise AssertionError(f"the command ended before {what}:\n{self.log}")
            return match

        return wait_until(found, timeout=timeout, what=what)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        """Signal the command and wait for it to end; its exit status. Every line it
        said is in ``lines`` then."""
        self.process.send_signal(sig)
        status = self.process.wait(timeout)
        self._reader.join(10)
        return status


@contextmanager
def running(*argv: str, env: dict[str, str] | None = None,
            cwd: Path | None = None) -> Iterator[Running]:
    """``python -m draughtsboard *argv`` (unbuffered, no standard input), killed on the
    way out if it is still running."""
    env = dict(os.environ if env is None else env, PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "draughtsboard", *argv], cwd=cwd,
                               env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        yield Running(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
