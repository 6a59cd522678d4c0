"""``draughtsboard hall``: the hall service and its web server in one process.

uvicorn runs in the main thread; the service's MQTT and ingest threads beside it. SIGINT
and SIGTERM end the live streams, stop the server, then the service (its journals are
synced record by record, nothing is left to flush). After a crash, a restart reads the
journals back and the boards' retained states fill in the rest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from draughtsboard.board.message import Message
from draughtsboard.http_server import Server, ignore_second_signal, server_config
from draughtsboard.words import SOURCE_LANGUAGE, words_for

from .app import authorised, create_app

log = logging.getLogger("draughtsboard.hall")


def serve(service, *, token: Callable[[], str], token_source: Message, delay: float,
          host: str, port: int, language: str = SOURCE_LANGUAGE) -> int:
    """Serve the hall until SIGINT/SIGTERM. ``token`` reads the arbiter's token now;
    ``token_source`` says where it is kept, for the log (the token itself is never
    logged: logs travel). ``language`` is the venue's (docs/languages.md): its start-up
    lines are said in it."""
    say = words_for(language)
    app = create_app(service, token=token, delay=delay, language=language)
    config = server_config(app, lambda scope: authorised(scope, token), host=host, port=port)
    server = Server(config, begin_shutdown=service.begin_shutdown,
                    on_signal=lambda name: log.info("%s", say(
                        Message.of("cli.signal", signal=name))),
                    on_listening=lambda url: log.info("%s", say(
                        Message.of("cli.hall.page", url=url))))
    ignore_second_signal()
    service.start()
    log.info("%s", say(Message.of("cli.hall.token", source=token_source)))
    if delay:
        # the delay holds back the feed only: the hall page is the arbiters' live view
        log.warning("%s", say(Message.of("cli.hall.delay", minutes=f"{delay / 60:g}")))
    try:
        server.run()
    finally:
        service.stop()
    if not server.started:
        log.error("could not listen on %s:%d", host, port)
        return 1
    return 0
