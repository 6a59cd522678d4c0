"""The one live-update stream of both web servers (`draughtsboard.http_stream`): a client
that does not read is dropped, on the board's page and in the hall alike, and the
streams are capped.

The client is an ASGI ``send`` that takes the response's start and first update, then
never returns (a socket whose buffer is full): no sleep synchronises anything, the
stream gives up after its send timeout, made short here.
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from draughtsboard.hall import app as hall_app
from draughtsboard.hall.service import HallService
from draughtsboard.hall_protocol import parse_broker_url
from draughtsboard.http_stream import EventStream, StreamLimits, Streams
from draughtsboard.web import app as web_app

SHORT = {"send_timeout": 0.05, "keepalive": 0.01}  # seconds: a keep-alive is due at once


class QuietSession:
    """Enough of a play session for the board's page and its stream."""

    token = "t"
    closing = False
    language = "en"

    def subscribe(self, wake):
        return lambda: None

    def view(self):
        return 1, "{}"

    def published(self):
        return "", None, {}

    def wall(self):
        return 0.0


class Reader:
    """A client reading ``takes`` messages, then no more (its ``send`` never returns)."""

    def __init__(self, takes: int) -> None:
        self.takes = takes
        self.sent: list[dict] = []
        self.blocked = 0

    async def send(self, message) -> None:
        if len(self.sent) >= self.takes:
            self.blocked += 1
            await asyncio.Event().wait()  # never set: the client does not read
        self.sent.append(message)

    @staticmethod
    async def receive():
        await asyncio.Event().wait()  # the client never hangs up either


def board_app(tmp_path, monkeypatch):
    monkeypatch.setattr(web_app, "STREAM_LIMITS",
                        dataclasses.replace(web_app.STREAM_LIMITS, **SHORT))
    return web_app.create_app(QuietSession())


def hall_app_of(tmp_path, monkeypatch):
    monkeypatch.setattr(hall_app, "STREAM_LIMITS",
                        dataclasses.replace(hall_app.STREAM_LIMITS, **SHORT))
    service = HallService(parse_broker_url("mqtt://hall:pw@127.0.0.1:1"), tmp_path / "hall",
                          sync=False)
    return hall_app.create_app(service, token="t")


SCOPE = {"type": "http", "http_version": "1.1", "method": "GET", "scheme": "http",
         "path": "/api/events", "raw_path": b"/api/events", "query_string": b"",
         "root_path": "", "headers": [(b"host", b"x")], "client": ("127.0.0.1", 5),
         "server": ("127.0.0.1", 80)}


@pytest.mark.parametrize("make", [board_app, hall_app_of], ids=["board", "hall"])
def test_a_client_that_does_not_read_is_dropped(tmp_path, monkeypatch, make):
    app = make(tmp_path, monkeypatch)
    reader = Reader(takes=2)  # the response's start and the first update, then nothing

    async def serve():
        await asyncio.wait_for(app(dict(SCOPE), reader.receive, reader.send), 30)

    asyncio.run(serve())  # returns: the stream gave the client up
    assert reader.sent[0]["type"] == "http.response.start"
    assert reader.sent[0]["status"] == 200
    assert reader.sent[1]["body"] and reader.blocked == 1
    assert len(app.state.streams) == 0  # its place is free


def test_a_new_stream_drops_the_oldest_past_the_cap():
    streams = Streams(StreamLimits(max_streams=2))
    opened = [EventStream(QuietSession(), streams) for _ in range(3)]
    for stream in opened:
        streams.admit(stream)
    assert [s.dropped for s in opened] == [True, False, False] and len(streams) == 2
    streams.remove(opened[1])
    streams.remove(opened[1])  # twice: harmless
    assert len(streams) == 1


def test_both_servers_keep_the_same_limits_but_the_halls_pace():
    board, hall = web_app.STREAM_LIMITS, hall_app.STREAM_LIMITS
    assert dataclasses.replace(hall, interval=board.interval) == board
    assert hall.send_timeout == board.send_timeout == 10.0
