"""Processes a benchmark starts and what they cost: a benchmark's own module run as a
child, and a process's CPU time and resident memory read from /proc."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from .ports import NotListening

CHECKOUT = Path(__file__).resolve().parents[2]  # the source tree the benchmarks measure


def module_command(module: str, *args: str) -> list[str]:
    """The command that runs ``module`` (``benchmarks.hall``) with this interpreter; start
    it with ``cwd=CHECKOUT`` so that ``benchmarks`` is importable."""
    return [sys.executable, "-m", module, *args]


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far; 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def rss_mb(pid: int) -> float:
    """A process's resident memory in MB; 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def stop(process: subprocess.Popen | None, *, kill: bool = False, timeout: float = 30.0) -> None:
    """End a process still running (SIGTERM, or SIGKILL with ``kill`` or when it does not
    end within ``timeout``) and reap it; safe twice and on None."""
    if process is None or process.poll() is not None:
        return
    if kill:
        process.kill()
    else:
        process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout)


class ServedProcess:
    """A server that says where it listens on its standard error (``play`` prints "the
    board's page: http://127.0.0.1:PORT/"): started, ``url`` once it said so, every line
    it wrote kept in ``lines``. `NotListening` (its lines in the message) when it does not
    say so within ``timeout`` seconds."""

    def __init__(self, command: list[str], url: re.Pattern[str], *, env: dict[str, str],
                 cwd: Path | None = None, timeout: float = 60.0, what: str = "the server"):
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        text=True, env=env, cwd=cwd)
        self.url = ""
        self.lines: list[str] = []
        ready = threading.Event()

        def read() -> None:
            assert self.process.stderr is not None
            for line in self.process.stderr:
                self.lines.append(line)
                found = url.search(line)
                if found and not self.url:
                    self.url = found.group(1)
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(timeout) or not self.url:
            stop(self.process, kill=True)
            raise NotListening(f"{what} did not start:\n" + "".join(self.lines))

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self, timeout: float = 20.0) -> int:
        """SIGTERM (SIGKILL after ``timeout`` s); its exit status. Safe twice."""
        stop(self.process, timeout=timeout)
        return self.process.returncode
