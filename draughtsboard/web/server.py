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

import logging
import socket

from draughtsboard.board.message import Message
from draughtsboard.http_limits import bearer_token
from draughtsboard.http_server import Server, ignore_second_signal, server_config
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

    config = server_config(app, is_arbiter)
    server = Server(config, begin_shutdown=session.begin_shutdown,
                    on_signal=lambda name: log.info("%s", session.words(
                        Message.of("cli.signal", signal=name))),
                    on_listening=lambda url: log.info("%s", session.words(
                        Message.of("cli.page", url=url))))
    session.on_failure = lambda: setattr(server, "should_exit", True)
    ignore_second_signal()
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
