"""The one uvicorn server both web servers run: the board's page (`web.server`) and the
hall's (`hall.server`).

What they share, written once: the uvicorn settings that keep one client from making
the page unreachable (connections admitted with a share kept for the arbiter's token,
`http_limits`; small request heads; short keep-alive), a main loop that wakes twice a
second instead of ten times (on an idle board its wake-ups were a fifth of the
process's CPU), a stop on SIGINT and SIGTERM that first ends the live streams (so the
server need not wait for them), and the address it listens on, said once started.
What differs is given: what stops the owner's streams, and the lines to log.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

import uvicorn

from draughtsboard.http_limits import admission, admitting_protocol

TICK = 0.5  # seconds between two looks of the server at its own state


def server_config(app, is_arbiter: Callable[[object], bool], **where) -> uvicorn.Config:
    """uvicorn's settings for ``app``, as both servers use them; ``is_arbiter(scope)``
    says whether a request carries the arbiter's token (admitted first). ``where``:
    ``host`` and ``port`` when the server binds its own socket."""
    return uvicorn.Config(app, **where, log_config=None, access_log=False, lifespan="off",
                          loop="asyncio", http=admitting_protocol(admission(is_arbiter)),
                          ws="none", timeout_graceful_shutdown=3, limit_concurrency=None,
                          timeout_keep_alive=5, h11_max_incomplete_event_size=16 * 1024)


class Server(uvicorn.Server):
    """uvicorn's server with the page's ways: ``begin_shutdown()`` (the owner's live
    streams end) on a stop signal, ``on_signal(name)`` and ``on_listening(url)`` to say
    so, and the address it listens on once started (``address``)."""

    def __init__(self, config: uvicorn.Config, *, begin_shutdown: Callable[[], None],
                 on_signal: Callable[[str], None], on_listening: Callable[[str], None]) -> None:
        super().__init__(config)
        self.begin_shutdown = begin_shutdown
        self.on_signal = on_signal
        self.on_listening = on_listening
        self.address: tuple[str, int] | None = None

    async def main_loop(self) -> None:
        """uvicorn's loop, ticking every `TICK` seconds instead of every 0.1 s. A tick
        refreshes the Date header (``on_tick`` does that when its counter is a multiple
        of 10) and notices a stop; a signal is answered within one tick."""
        ticks = 0
        should_exit = await self.on_tick(0)
        while not should_exit:
            ticks = (ticks + 1) % 86400
            await asyncio.sleep(TICK)
            should_exit = await self.on_tick(10 * ticks)

    def handle_exit(self, sig, frame) -> None:
        self.on_signal(signal.Signals(sig).name)
        self.begin_shutdown()  # live streams end, so the server need not wait
        super().handle_exit(sig, frame)

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        for server in self.servers:
            for sock in server.sockets:
                host, port = sock.getsockname()[:2]
                self.address = (host, port)
                self.on_listening(url_of(host, port))


def url_of(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _ignore(signum, frame) -> None:
    """Installed before uvicorn's own handlers: uvicorn raises the signal again after its
    graceful shutdown, and this makes that second delivery harmless (exit status 0)."""


def ignore_second_signal() -> None:
    """Make uvicorn's re-raised SIGINT/SIGTERM harmless (call before `Server.run`)."""
    signal.signal(signal.SIGTERM, _ignore)
    signal.signal(signal.SIGINT, _ignore)
