"""Loopback ports chosen at run time (other runs share the machine), and waiting until a
process listens on one."""

from __future__ import annotations

import socket
import subprocess
import time
from typing import IO


class NotListening(SystemExit):
    """Nothing listened on a port in time, or the process meant to listen ended first.

    A `SystemExit`, so that a benchmark that cannot start its parts ends with this one
    line; a test turns it into its own failure."""


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now (the kernel's choice)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, timeout: float = 15.0, *, process: subprocess.Popen | None = None,
              what: str = "nothing", errors: IO[bytes] | None = None) -> None:
    """Until something accepts a connection on ``127.0.0.1:port``. With ``process``, its
    end stops the wait at once (its standard error, read from ``errors``, in the line)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            said = ""
            if errors is not None:
                errors.seek(0)
                said = ": " + " ".join(errors.read().decode(errors="replace").split())
            raise NotListening(f"{what} ended (status {process.returncode}) before it "
                               f"listened on port {port}{said}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.02)
    raise NotListening(f"{what} did not listen on port {port} in {timeout:.0f} s"
                       if process is not None else f"nothing listens on port {port}")
