"""Running `draughtsboard play` as people run it: a subprocess, its page over HTTP."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request

from benchmarks.harness.http import call

TOKEN = "test-arbiter-token"
XSS = "<script>alert(1)</script>"
_URL = re.compile(r"the board's page: (http://[0-9.]+:\d+)/")


def wait_until(predicate, timeout: float = 10.0, interval: float = 0.02, what: str = ""):
    """Poll ``predicate`` until it returns a true value (returned), or fail after
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or predicate}")
        time.sleep(interval)


def free_port() -> int:
    """A TCP port free now on 127.0.0.1 (for a server restarted on the same address)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PlayProcess:
    """``python -m draughtsboard play --backend sim`` on a free port (or ``port``), with
    its stderr. The arbiter token is `TOKEN` unless ``token_file`` is true: then the
    data directory's token file is used, as on a board."""

    #: the stderr line that gives the page's address (a board that speaks another
    #: language words it in that language: a subclass names its own)
    page_line: re.Pattern[str] = _URL

    def __init__(self, data_dir, *args: str, timeout: float = 20.0, port: int = 0,
                 token_file: bool = False) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env.pop("DRAUGHTSBOARD_ARBITER_TOKEN", None)
        if not token_file:
            env["DRAUGHTSBOARD_ARBITER_TOKEN"] = TOKEN
        self.process = subprocess.Popen(
            [sys.executable, "-m", "draughtsboard", "play", "--backend", "sim",
             "--listen", f"127.0.0.1:{port}", "--data", str(data_dir), *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=env)
        self.lines: list[str] = []
        self._ready = threading.Event()
        self.url = ""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if not self._ready.wait(timeout) or not self.url:
            self.kill()
            raise AssertionError("play did not start:\n" + self.stderr)

    def _read(self) -> None:
        for line in self.process.stderr:
            self.lines.append(line)
            found = self.page_line.search(line)
            if found and not self.url:
                self.url = found.group(1)
                self._ready.set()
        self._ready.set()

    @property
    def stderr(self) -> str:
        return "".join(self.lines)

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=5) as response:
            return response.read()

    def state(self) -> dict:
        return json.loads(self.get("/api/state"))

    def post(self, path: str, body: dict, token: str | None = None) -> dict:
        return call(self.url, path, body, token=token, timeout=5)

    def hands(self, *actions) -> None:
        self.post("/api/hands", {"actions": [list(a) for a in actions]})

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> int:
        self.process.send_signal(sig)
        code = self.process.wait(timeout)
        self._reader.join(5)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)

    def __enter__(self) -> PlayProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.kill()


def view_of(session) -> dict:
    """The session's latest view, as the page receives it."""
    return json.loads(session.view()[1])


def hands_until(session, actions, predicate, what: str = "") -> dict:
    """Act with the simulator's hands, then wait for a view that satisfies ``predicate``."""
    session.hand(actions)
    return wait_until(lambda: (v := view_of(session)) and predicate(v) and v, what=what)


def move(session, start: int, end: int, *captured: int) -> dict:
    """Play one move with the hands (captured pieces taken off last) and wait for it to
    be recorded."""
    plies = session.game.moves_recorded
    actions = [("lift", start), ("place", end), *[("lift", c) for c in captured]]
    return hands_until(session, actions, lambda v: len(v["moves"]) > plies,
                       f"the move {start}-{end} to be recorded")
