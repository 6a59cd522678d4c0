"""The hall's page under a flood of clients, against the real server (uvicorn with the
project's admission): live streams past the cap drop the oldest, and requests that carry
the arbiter's token always get through, whatever the public does (streams, half-sent
requests that reconnect, page loads)."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import threading
import urllib.error
import urllib.request

import pytest
import uvicorn

from draughtsboard.hall import app as hall_app
from draughtsboard.hall.app import create_app
from draughtsboard.hall.service import HallService
from draughtsboard.hall_protocol import parse_broker_url
from draughtsboard.http_limits import Admission, admitting_protocol, token_matches

from ..web.helpers import wait_until

TOKEN = "hall-token"


@pytest.fixture
def hall_server(tmp_path):
    """The hall's app on a real server; returns a function that starts it with an
    `Admission` (the hall's own caps unless given)."""
    started = []

    def start(rules: Admission | None = None):
        service = HallService(parse_broker_url("mqtt://hall:pw@127.0.0.1:1"),
                              tmp_path / f"hall{len(started)}", sync=False)
        rules = rules or Admission(is_arbiter=lambda scope: token_matches(scope, TOKEN))
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(512)
        config = uvicorn.Config(create_app(service, token=TOKEN), log_config=None,
                                lifespan="off", http=admitting_protocol(rules),
                                limit_concurrency=None)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                                  daemon=True)
        thread.start()
        wait_until(lambda: server.started, what="the server")
        started.append((server, thread, service))
        return sock.getsockname(), service

    yield start
    for server, thread, service in started:
        service.closing = True
        server.should_exit = True
        thread.join(10)
        service.store.close()
        service.arbiter.close()


def status(address, path: str, token: str | None = None) -> int:
    request = urllib.request.Request(f"http://{address[0]}:{address[1]}{path}",
                                     method="POST" if token else "GET",
                                     data=b"{}" if token else None)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def read_until(sock: socket.socket, marker: bytes) -> bytes:
    """What the server sends until ``marker`` (or it closes the connection)."""
    seen = b""
    while marker not in seen:
        chunk = sock.recv(65536)
        if not chunk:
            break
        seen += chunk
    return seen


def open_stream(address) -> socket.socket:
    sock = socket.create_connection(address, timeout=10)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
    assert b"event: hall" in read_until(sock, b"event: hall")
    return sock


def ended(sock: socket.socket) -> bool:
    """Whether the server ended this stream (its last chunk, or the connection closed)."""
    seen = read_until(sock, b"0\r\n\r\n")
    return seen == b"" or seen.endswith(b"0\r\n\r\n")


def test_many_live_pages_drop_the_oldest_and_leave_the_page_and_arbiter_served(hall_server):
    address, _ = hall_server()
    streams = []
    try:
        for _ in range(63):
            streams.append(open_stream(address))
        # the oldest were closed by the server to make room
        assert all(ended(s) for s in streams[:63 - hall_app.STREAM_LIMITS.max_streams])
        assert status(address, "/") == 200 and status(address, "/api/hall") == 200
        assert status(address, "/api/arbiter/check", TOKEN) == 200
    finally:
        for sock in streams:
            sock.close()


def test_half_sent_requests_hold_no_one_away(hall_server):
    address, _ = hall_server()
    slow = []
    try:
        for _ in range(3):  # 70 of them, reconnecting as they are closed
            slow = [s for s in slow if s.fileno() >= 0]
            while len(slow) < 70:
                sock = socket.create_connection(address, timeout=10)
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                slow.append(sock)
            assert status(address, "/") == 200
            assert status(address, "/api/arbiter/check", TOKEN) == 200
    finally:
        for sock in slow:
            sock.close()


def test_a_share_of_requests_is_kept_for_the_arbiter(hall_server, monkeypatch):
    # streams to fill the public share
    monkeypatch.setattr(hall_app, "STREAM_LIMITS",
                        dataclasses.replace(hall_app.STREAM_LIMITS, max_streams=100))
    rules = Admission(requests=10, arbiter_share=4, connections=100,
                      is_arbiter=lambda scope: token_matches(scope, TOKEN))
    address, _ = hall_server(rules)
    streams = [open_stream(address) for _ in range(6)]
    try:
        assert status(address, "/api/hall") == 503  # the public share is taken
        assert status(address, "/api/arbiter/check", "wrong") == 503  # a wrong token too
        for _ in range(3):
            assert status(address, "/api/arbiter/check", TOKEN) == 200
    finally:
        for sock in streams:
            sock.close()
