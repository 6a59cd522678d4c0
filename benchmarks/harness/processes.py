"""Processes a benchmark starts and what they cost: a benchmark's own module run as a
child, and a process's CPU time and resident memory read from /proc."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
