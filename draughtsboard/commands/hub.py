"""`draughtsboard hub`: the built-in engine as a Hub engine on standard input and output.

Draughts GUIs and scripts that speak the Hub protocol (version 2, as documented with Scan
3.1) can use the engine in every variant (docs/opponents.md names the variants). The
protocol's state is `opponents.hub_engine.HubEngineSession`; here are only the threads:
this one reads lines and answers at once (``ping`` while thinking too), one worker runs
each search and writes its ``done``. End of input is taken as the GUI gone: the command
stops at once, as the protocol asks.
"""

from __future__ import annotations

import sys
import threading
from typing import TextIO

from draughtsboard.opponents.hub_engine import HubEngineSession, run_search
from draughtsboard.opponents.hub_text import MAX_LINE


def add_parsers(subparsers) -> None:
    parser = subparsers.add_parser(
        "hub", help="the built-in engine as a Hub-protocol engine on stdin/stdout",
        description="Speak the Hub protocol (version 2) on standard input and output: "
                    "every variant, levels 1-10 (docs/opponents.md).")
    parser.set_defaults(handler=run)


def run(args) -> int:
    return serve(sys.stdin, sys.stdout)


def serve(lines_in: TextIO, lines_out: TextIO) -> int:
    """Answer the protocol until ``quit`` or the end of input."""
    session = HubEngineSession()
    lock = threading.Lock()
    stop = threading.Event()
    worker: threading.Thread | None = None

    def write(line: str) -> None:
        with lock:
            lines_out.write(line + "\n")
            lines_out.flush()

    def search(order) -> None:
        try:
            lines = run_search(order, stop)
        except Exception as error:  # noqa: BLE001 - the GUI gets one line, not silence
            lines = [f'error message="search failed: {type(error).__name__}"']
        session.search_done()
        for line in lines:
            write(line)

    while True:
        text = lines_in.readline(MAX_LINE + 1)
        if not text:
            stop.set()
            return 0
        if len(text) > MAX_LINE:  # skip the rest of an overlong line
            while text and not text.endswith("\n"):
                text = lines_in.readline(MAX_LINE + 1)
            write('error message="line too long"')
            continue
        if worker is not None and not worker.is_alive():
            worker = None
        reply = session.receive(text)
        for line in reply.lines:
            write(line)
        if reply.stop:
            stop.set()
        if reply.quit:
            if worker is not None:
                worker.join()
            return 0
        if reply.search is not None:
            if worker is not None:
                worker.join()  # its done is out; the session said it was finished
            stop.clear()
            worker = threading.Thread(target=search, args=(reply.search,),
                                      name="hub-search", daemon=True)
            worker.start()
