"""The one live-update stream (server-sent events) of both web servers: the board's page
(`web.app`) and the hall's (`hall.app`).

What a stream says is its source's (`StreamSource`: what a new page is sent first, what
is new after a change, a keep-alive); how it is sent is written once here, with the same
limits for both servers (`StreamLimits`):

* at most ``max_streams`` at once: a new one drops the oldest (`Streams`), so streams
  cannot use up the connections the server admits;
* a client that takes longer than ``send_timeout`` to accept one update (a slow or
  stalled reader, whose socket buffer is full) is dropped and its connection closed;
* the queue between the source and a stream is bounded at one: a change only wakes the
  stream, which then sends what is new at that moment, so a burst of changes is one
  update and nothing piles up behind a slow reader;
* a keep-alive after ``keepalive`` seconds of quiet, and at least ``interval`` seconds
  between two updates (a hall of many boards sends one update for many changes).

A stream ends when the client goes, when its source is closing (the server stops), or
when it is dropped.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class StreamLimits:
    max_streams: int = 24  # well under the requests admitted
    send_timeout: float = 10.0  # seconds a stream may take to accept one update
    keepalive: float = 15.0  # seconds of quiet before a keep-alive
    interval: float = 0.0  # seconds at least between two updates


class Publisher(Protocol):
    """What a stream follows (the board's play session, the hall's service):
    ``subscribe(wake)`` calls ``wake()`` (from any thread) on every change and returns
    what unsubscribes; ``closing`` is true once the owner stops."""

    @property
    def closing(self) -> bool: ...

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]: ...


class StreamSource(Publisher, Protocol):
    """What one stream says, following a `Publisher`: ``opening()`` is the first text
    sent, ``update()`` what is new since the last one ("" when nothing is),
    ``keepalive()`` the text of a quiet moment."""

    async def opening(self) -> str: ...

    async def update(self) -> str: ...

    def keepalive(self) -> str: ...


class Following:
    """The `Publisher` half of a `StreamSource`, the same for every source: a stream
    wakes at each change its publisher publishes and ends when the publisher closes.
    A source adds what it says (``opening``, ``update``, ``keepalive``)."""

    def __init__(self, publisher: Publisher) -> None:
        self.publisher = publisher

    @property
    def closing(self) -> bool:
        return self.publisher.closing

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        return self.publisher.subscribe(wake)


def json_event(name: str, data: Any) -> str:
    """One named event of a stream whose data is ``data`` as compact JSON (on one line,
    as an event's ``data:`` must be)."""
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


class Streams:
    """The open streams of one app, at most ``limits.max_streams``: the oldest is
    dropped for a new one."""

    def __init__(self, limits: StreamLimits | None = None) -> None:
        self.limits = limits or StreamLimits()
        self._open: list[EventStream] = []

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, stream: EventStream) -> None:
        while len(self._open) >= self.limits.max_streams:
            self._open.pop(0).drop()  # the oldest makes room
        self._open.append(stream)

    def remove(self, stream: EventStream) -> None:
        if stream in self._open:
            self._open.remove(stream)


HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"),
           (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no"),
           # a stream that ends frees its connection at once (the page's EventSource
           # opens a new one), not after a keep-alive wait
           (b"connection", b"close")]


class EventStream:
    """One live stream, an ASGI app: its source's texts sent under `Streams`' limits."""

    def __init__(self, source: StreamSource, streams: Streams) -> None:
        self.source = source
        self.streams = streams
        self.limits = streams.limits
        self.ready = asyncio.Event()
        self.dropped = False

    def drop(self) -> None:
        self.dropped = True
        self.ready.set()

    async def __call__(self, scope, receive, send) -> None:
        loop = asyncio.get_running_loop()
        source = self.source

        def wake() -> None:
            loop.call_soon_threadsafe(self.ready.set)

        self.streams.admit(self)
        unsubscribe = source.subscribe(wake)

        async def watch_disconnect() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            self.drop()

        watcher = asyncio.ensure_future(watch_disconnect())
        try:
            await self._send(send, {"type": "http.response.start", "status": 200,
                                    "headers": HEADERS})
            await self._body(send, await source.opening())
            while not source.closing and not self.dropped:
                try:
                    await asyncio.wait_for(self.ready.wait(), self.limits.keepalive)
                except TimeoutError:
                    await self._body(send, source.keepalive())
                    continue
                self.ready.clear()
                if self.dropped:
                    break
                text = await source.update()
                if text and not self.dropped:
                    await self._body(send, text)
                    if self.limits.interval:
                        await asyncio.sleep(self.limits.interval)
            await self._send(send, {"type": "http.response.body", "body": b"",
                                    "more_body": False})
        except (TimeoutError, OSError):
            self.dropped = True  # a client too slow or gone: the server closes its connection
        finally:
            watcher.cancel()
            unsubscribe()
            self.streams.remove(self)

    async def _body(self, send, text: str) -> None:
        await self._send(send, {"type": "http.response.body", "body": text.encode(),
                                "more_body": True})

    async def _send(self, send, message) -> None:
        await asyncio.wait_for(send(message), self.limits.send_timeout)
