"""Serving the page: uvicorn in the main thread, the session's controller beside it.

SIGINT and SIGTERM (systemd's stop) make uvicorn finish its requests, the live streams
end, then the controller thread stops after the snapshot it is handling; every record in
the journal was synced when it was written, so nothing is left to flush.

The socket is bound first (`bind_socket`), before the session opens a game, so a port in
use stops `play` before it writes anything. Connections are capped below the process's
file-descriptor limit and requests admitted with a share kept for the arbiter's token
(`draughtsboard.http_limits`), and the lines a flood of clients makes the server and the
event loop log are rate-limited (`draughtsboard.logs`, set up by the command), so one
client can neither make the page unreachable nor fill the disk with log.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket

import uvicorn

from draughtsboard.board.message import Message
from draughtsboard.http_limits import admission, admitting_protocol, bearer_token
from draughtsboard.play.coach import Coach
from draughtsboard.play.session import PlaySession

from .app import create_app

log = logging.getLogger("draughtsboard.web")

def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on (host, port); `OSError` with a one-line reason if not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise OSError(error.errno, f"cannot listen on {host}:{port}: "
                                   f"{error.strerror or error}") from None
    except (OverflowError, ValueError) as error:
        sock.close()
        raise OSError(0, f"cannot listen on {host}:{port}: {error}") from None
    sock.set_inheritable(True)
    return sock


TICK = 0.5  # seconds between two looks of the server at its own state


class _Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, session: PlaySession) -> None:
        super().__init__(config)
        self.session = session
        self.address: tuple[str, int] | None = None

    async def main_loop(self) -> None:
        """uvicorn's loop, ticking every `TICK` seconds instead of every 0.1 s: on an idle
        board its ten wake-ups a second were a fifth of the process's CPU. A tick
        refreshes the Date header (``on_tick`` does that when its counter is a multiple
        of 10) and notices a stop; a signal is answered within one tick."""
        ticks = 0
        should_exit = await self.on_tick(0)
        while not should_exit:
            ticks = (ticks + 1) % 86400
            await asyncio.sleep(TICK)
            should_exit = await self.on_tick(10 * ticks)

    def handle_exit(self, sig, frame) -> None:
        log.info("%s", self.session.words(Message.of("cli.signal",
                                                      signal=signal.Signals(sig).name)))
        self.session.begin_shutdown()  # live streams end, so the server need not wait
        super().handle_exit(sig, frame)

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        for server in self.servers:
            for sock in server.sockets:
                host, port = sock.getsockname()[:2]
                self.address = (host, port)
                url = f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
                log.info("%s", self.session.words(Message.of("cli.page", url=url)))


def _ignore(signum, frame) -> None:
    """Installed before uvicorn's own handlers: uvicorn raises the signal again after its
    graceful shutdown, and this makes that second delivery harmless (exit status 0)."""


def serve(session: PlaySession, host: str = "127.0.0.1", port: int = 8080, *,
          sock: socket.socket | None = None, coach: Coach | None = None,
          allow_remote_hands: bool = False, voice=None) -> int:
    """Start the session, serve its page (and the coach's requests, with a coach) until
    SIGINT/SIGTERM, stop everything; 0 if the controller ran to the end without an
    error. ``sock``: a socket bound already (`bind_socket`); without it one is bound
    here, before the session starts. ``voice``: the board's speaker (``say(text)``, its
    ``language``), which says a player's questions aloud (`ask_routes`); ``None`` when
    the board does not speak."""
    if sock is None:
        sock = bind_socket(host, port)
    app = create_app(session, coach=coach, allow_remote_hands=allow_remote_hands,
                     language=session.language)
    app.state.voice = voice

    def is_arbiter(scope) -> bool:
        token = bearer_token(scope)
        return token is not None and session.check_token(token.decode("utf-8", "replace"))

    config = uvicorn.Config(app, log_config=None, access_log=False,
                            lifespan="off", loop="asyncio",
                            http=admitting_protocol(admission(is_arbiter)), ws="none",
                            timeout_graceful_shutdown=3, limit_concurrency=None,
                            timeout_keep_alive=5, h11_max_incomplete_event_size=16 * 1024)
    server = _Server(config, session)
    session.on_failure = lambda: setattr(server, "should_exit", True)
    signal.signal(signal.SIGTERM, _ignore)
    signal.signal(signal.SIGINT, _ignore)
    session.start()
    log.info("%s", session.words(Message.of("cli.token.line", token=session.token)))
    try:
        server.run(sockets=[sock])
    finally:
        session.stop()
        sock.close()
    if not server.started:
        log.error("could not serve on %s", sock)
        return 1
    return 1 if session.error else 0
