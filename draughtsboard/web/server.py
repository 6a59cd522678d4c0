"""Serving the page: uvicorn in the main thread, the session's controller beside it.

SIGINT and SIGTERM (systemd's stop) make uvicorn finish its requests, the live streams
end, then the controller thread stops after the snapshot it is handling; every record in
the journal was synced when it was written, so nothing is left to flush.
"""

from __future__ import annotations

import logging
import os
import signal
import sys

import uvicorn

from .app import create_app

log = logging.getLogger("draughtsboard.web")

_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3,
             logging.CRITICAL: 2}


class _JournaldFormatter(logging.Formatter):
    """``<priority>`` before each line: journald reads it as the line's level."""

    def format(self, record: logging.LogRecord) -> str:
        priority = _PRIORITY.get(record.levelno, 6)
        return f"<{priority}>" + super().format(record)


def configure_logging(level: int = logging.INFO) -> None:
    """Log lines to stderr; under systemd (``JOURNAL_STREAM`` set) with journald
    priorities and without timestamps (journald adds its own)."""
    handler = logging.StreamHandler(sys.stderr)
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(_JournaldFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


class _Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, session) -> None:
        super().__init__(config)
        self.session = session
        self.address: tuple[str, int] | None = None

    def handle_exit(self, sig, frame) -> None:
        log.info("signal %s: stopping", signal.Signals(sig).name)
        self.session.begin_shutdown()  # live streams end, so the server need not wait
        super().handle_exit(sig, frame)

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        for server in self.servers:
            for sock in server.sockets:
                host, port = sock.getsockname()[:2]
                self.address = (host, port)
                log.info("the board's page: http://%s:%d/", host, port)


def _ignore(signum, frame) -> None:
    """Installed before uvicorn's own handlers: uvicorn raises the signal again after its
    graceful shutdown, and this makes that second delivery harmless (exit status 0)."""


def serve(session, host: str = "127.0.0.1", port: int = 8080) -> int:
    """Start the session, serve its page until SIGINT/SIGTERM, stop everything; 0 if the
    controller ran to the end without an error."""
    app = create_app(session)
    config = uvicorn.Config(app, host=host, port=port, log_config=None, access_log=False,
                            lifespan="off", loop="asyncio", http="h11", ws="none",
                            timeout_graceful_shutdown=3)
    server = _Server(config, session)
    session.on_failure = lambda: setattr(server, "should_exit", True)
    signal.signal(signal.SIGTERM, _ignore)
    signal.signal(signal.SIGINT, _ignore)
    session.start()
    log.info("arbiter token: %s", session.token)
    try:
        server.run()
    finally:
        session.stop()
    if not server.started:
        log.error("could not listen on %s:%d", host, port)
        return 1
    return 1 if session.error else 0
