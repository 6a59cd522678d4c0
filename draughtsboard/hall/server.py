"""``draughtsboard hall``: the hall service and its web server in one process.

uvicorn runs in the main thread; the service's MQTT and ingest threads beside it. SIGINT
and SIGTERM end the live streams, stop the server, then the service (its journals are
synced record by record, nothing is left to flush). After a crash, a restart reads the
journals back and the boards' retained states fill in the rest.
"""

from __future__ import annotations

import logging
import signal
from collections.abc import Callable

import uvicorn

from draughtsboard.http_limits import admission, admitting_protocol
from draughtsboard.words import SOURCE_LANGUAGE

from .app import authorised, create_app

log = logging.getLogger("draughtsboard.hall")


class _Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, service) -> None:
        super().__init__(config)
        self.service = service

    def handle_exit(self, sig, frame) -> None:
        log.info("signal %s: stopping", signal.Signals(sig).name)
        self.service.begin_shutdown()
        super().handle_exit(sig, frame)

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        for server in self.servers:
            for sock in server.sockets:
                host, port = sock.getsockname()[:2]
                log.info("the hall's page: http://%s:%d/", host, port)


def _ignore(signum, frame) -> None:
    """uvicorn raises the signal again after its graceful shutdown: harmless here."""


def serve(service, *, token: Callable[[], str], token_source: str, delay: float, host: str,
          port: int, language: str = SOURCE_LANGUAGE) -> int:
    """Serve the hall until SIGINT/SIGTERM. ``token`` reads the arbiter's token now;
    ``token_source`` says where it is kept, for the log (the token itself is never
    logged: logs travel). ``language`` is the venue's (docs/languages.md)."""
    app = create_app(service, token=token, delay=delay, language=language)
    arbiter = admission(lambda scope: authorised(scope, token))
    config = uvicorn.Config(app, host=host, port=port, log_config=None, access_log=False,
                            lifespan="off", loop="asyncio", http=admitting_protocol(arbiter),
                            ws="none", timeout_graceful_shutdown=3,
                            limit_concurrency=None, timeout_keep_alive=5,
                            h11_max_incomplete_event_size=16 * 1024)
    server = _Server(config, service)
    signal.signal(signal.SIGTERM, _ignore)
    signal.signal(signal.SIGINT, _ignore)
    service.start()
    log.info("arbiter token: %s", token_source)
    if delay:
        # the delay holds back the feed only: the hall page is the arbiters' live view
        log.warning("the broadcast feed (/round/...) is %g minute(s) behind; the hall page "
                    "and /api/* are live: publish only /round/... beyond the arbiters' "
                    "network", delay / 60)
    try:
        server.run()
    finally:
        service.stop()
    if not server.started:
        log.error("could not listen on %s:%d", host, port)
        return 1
    return 0
