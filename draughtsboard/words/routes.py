"""The catalogs on the web: ``/words/catalog.json`` and ``/words/words.js``, mounted by the
board's page and the hall alike (docs/languages.md).

The catalog answered is the language asked for (``?lang=ru``: a choice remembered on the
device), else the first of the browser's Accept-Language that has a catalog, else the
server's own (``app.state.language``: the board's ``--language`` or the venue's). With
``?venue=1`` (the projector) the browser's languages are not asked: a hall's screen speaks
the venue's language unless someone chose another on that screen.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .catalog import catalog_languages, load_catalog
from .choose import choose_language


@cache
def catalog_body(language: str) -> bytes:
    """The catalog of ``language`` as the page receives it, with the languages a person
    can switch to (each named in itself)."""
    data = load_catalog(language).as_json()
    data["languages"] = [{"code": code, "name": load_catalog(code).name}
                         for code in catalog_languages()]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


@cache
def _script() -> bytes:
    return resources.files("draughtsboard.words").joinpath("static", "words.js").read_bytes()


async def catalog(request: Request) -> Response:
    asked = request.query_params.get("lang", "")[:20]
    venue = request.query_params.get("venue") == "1"
    language = choose_language(asked, None if venue else request.headers.get("accept-language"),
                               request.app.state.language)
    return Response(catalog_body(language), media_type="application/json",
                    headers={"cache-control": "no-cache", "vary": "accept-language",
                             "content-language": language})


async def script(request: Request) -> Response:
    return Response(_script(), media_type="text/javascript",
                    headers={"cache-control": "no-cache"})


WORDS_ROUTES = [Route("/words/catalog.json", catalog), Route("/words/words.js", script)]

__all__ = ["WORDS_ROUTES", "catalog_body"]
