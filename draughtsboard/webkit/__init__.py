"""The pages' one front-end kit: ES modules that the board's page and the hall's pages
(the hall, its console and a board's detail, the projector) import from one address.

Each page used to carry its own copy of the board grid and its keys, of the clock's
format and of the little DOM and request helpers, and the copies drifted (two clocks for
one game, ArrowLeft doing two things). The kit is written once, in ``static/``, and both
servers mount it at ``/kit`` with `KIT_ROUTES`: ``dom.js`` (``el``, ``setText``),
``clock.js`` (the clock's one rounding rule), ``board.js`` (the board widget: its grid,
the keys that walk it, the names of squares, pieces and PDN tags) and ``net.js`` (JSON
requests and the live stream). The words still come from the catalogs
(``/words/words.js``, the global ``Words``); the kit writes none.
"""

from __future__ import annotations

from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

KIT_PATH = "/kit"
KIT_PACKAGE = ("draughtsboard.webkit", "static")


def kit_routes() -> list[Mount]:
    """The kit's mount, for a server's routes (each app gets its own ``StaticFiles``)."""
    return [Mount(KIT_PATH, StaticFiles(packages=[KIT_PACKAGE]), name="kit")]


__all__ = ["KIT_PACKAGE", "KIT_PATH", "kit_routes"]
