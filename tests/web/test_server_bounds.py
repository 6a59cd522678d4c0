"""Issue 16, case 4 against the real server: a huge body is refused by its length before
the token check, with memory flat, and 200 live streams under a 128 file-descriptor
limit leave the page reachable and the log short."""

from __future__ import annotations

import os
import re
import resource
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest

from .helpers import TOKEN, wait_until

_URL = re.compile(r"the board's page: http://([0-9.]+):(\d+)/")


def _limit_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))


@pytest.fixture
def play(tmp_path):
    env = dict(os.environ, DRAUGHTSBOARD_ARBITER_TOKEN=TOKEN, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "draughtsboard", "play", "--backend", "sim", "--listen",
         "127.0.0.1:0", "--data", str(tmp_path / "data")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env=env, preexec_fn=_limit_files)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(process.stderr), daemon=True).start()
    found = wait_until(lambda: next((m for m in map(_URL.search, list(lines)) if m), None),
                       timeout=30, what="play to listen")
    try:
        yield process, (found.group(1), int(found.group(2))), lines
    finally:
        process.kill()
        process.wait(10)


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return int(status.read().split("VmRSS:")[1].split()[0]) / 1024


def state_ok(address) -> bool:
    url = f"http://{address[0]}:{address[1]}/api/state"
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except urllib.error.HTTPError as error:  # 503 while the cap is reached
        return error.code == 200
    except OSError:  # past the connections the descriptors allow: closed at once
        return False


@pytest.mark.slow
def test_a_huge_body_is_refused_by_its_length_before_the_token(play):
    process, address, _ = play
    before = rss_mb(process.pid)
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(b"POST /api/arbiter/check HTTP/1.1\r\nHost: x\r\nContent-Type: "
                     b"application/json\r\nContent-Length: 500000000\r\n\r\n")
        try:
            for _ in range(64):  # 4 MB of the 500 announced
                sock.sendall(b"x" * 65536)
        except OSError:
            pass  # the server may close first: that is the point
        answer = sock.recv(200)
    assert answer.startswith(b"HTTP/1.1 413"), answer
    assert rss_mb(process.pid) < before + 20


@pytest.mark.slow
def test_two_hundred_streams_under_128_descriptors_leave_the_page_reachable(play):
    process, address, lines = play
    streams = []
    try:
        for _ in range(200):
            try:
                sock = socket.create_connection(address, timeout=5)
            except OSError:
                break
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
            streams.append(sock)
        # the oldest streams are dropped for the newest: the page answers again at once
        wait_until(lambda: state_ok(address), timeout=15, what="the page to answer")
        assert sum(state_ok(address) for _ in range(5)) >= 4
    finally:
        for sock in streams:
            sock.close()
    assert process.poll() is None
    log = "".join(lines)
    assert "Traceback" not in log and len(log) < 20_000, log[-2000:]


@pytest.mark.slow
def test_half_sent_requests_that_reconnect_hold_neither_the_page_nor_the_arbiter_away(
        tmp_path):
    env = dict(os.environ, DRAUGHTSBOARD_ARBITER_TOKEN=TOKEN, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "draughtsboard", "play", "--backend", "sim", "--listen",
         "127.0.0.1:0", "--data", str(tmp_path / "data")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env=env)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(process.stderr), daemon=True).start()
    found = wait_until(lambda: next((m for m in map(_URL.search, list(lines)) if m), None),
                       timeout=30, what="play to listen")
    address = (found.group(1), int(found.group(2)))
    slow: list[socket.socket] = []
    try:
        for _ in range(3):  # 70 half-sent requests, reconnecting as they are closed
            slow = [s for s in slow if s.fileno() >= 0]
            while len(slow) < 70:
                sock = socket.create_connection(address, timeout=10)
                sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                slow.append(sock)
            assert state_ok(address)
            request = urllib.request.Request(
                f"http://{address[0]}:{address[1]}/api/arbiter/check", data=b"{}",
                headers={"Authorization": f"Bearer {TOKEN}",
                         "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.status == 200
    finally:
        for sock in slow:
            sock.close()
        process.kill()
        process.wait(10)


def test_silent_connections_are_closed_so_they_cannot_hold_the_cap(tmp_path, monkeypatch):
    import asyncio
    import time

    import uvicorn

    from draughtsboard import http_limits
    from draughtsboard.web import server
    from draughtsboard.web.app import create_app

    monkeypatch.setattr(http_limits, "HEADER_TIMEOUT", 0.2)

    class Session:  # enough of a session for the app to be made
        token = TOKEN
        closing = False

    sock = server.bind_socket("127.0.0.1", 0)
    address = sock.getsockname()
    config = uvicorn.Config(create_app(Session()), log_config=None,
                            http=http_limits.HeaderDeadlineProtocol, lifespan="off")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(uv.serve(sockets=[sock])),
                              daemon=True)
    thread.start()
    try:
        wait_until(lambda: uv.started, what="the server")
        silent = socket.create_connection(address, timeout=5)
        silent.sendall(b"GET /api/st")  # a request that never ends
        started = time.monotonic()
        assert silent.recv(100) == b""  # closed by the server
        assert time.monotonic() - started < 5
        silent.close()
        # a kept-alive connection whose next request drips in a byte at a time
        dripping = socket.create_connection(address, timeout=5)
        dripping.sendall(b"GET /no-such-page HTTP/1.1\r\nHost: x\r\n\r\n")
        assert dripping.recv(4096).startswith(b"HTTP/1.1 404")
        closed = False
        for byte in b"GET /api/state HTTP/1.1\r\nX-Slow: " + b"a" * 200:
            try:
                dripping.sendall(bytes([byte]))
                time.sleep(0.05)  # the drip is the input: a byte every 50 ms
            except OSError:  # the server closed it
                closed = True
                break
        closed = closed or dripping.recv(100) == b""
        assert closed  # well before the 12 s the drip would last
        dripping.close()
    finally:
        uv.should_exit = True
        thread.join(10)
        sock.close()
