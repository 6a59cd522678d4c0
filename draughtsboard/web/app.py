"""The board's web page: a live view for everyone, the hands of a simulated board, and the
arbiter's actions behind a token.

`create_app(session)` builds a Starlette app around a `PlaySession` (or anything with the
same methods). Live updates are server-sent events: each is the session's whole view as
JSON, sent when a new one is ready. Nothing in the page is built from HTML strings: the
script sets text only, and a Content-Security-Policy forbids inline scripts besides.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from draughtsboard.board.rules.errors import DraughtsError

from .coach_routes import COACH_ROUTES

STATIC_PACKAGE = ("draughtsboard.web", "static")
MAX_BODY = 16 * 1024
KEEPALIVE_SECONDS = 15.0
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class _SecurityHeaders:
    """Pure ASGI middleware (streams pass through untouched) adding the headers above."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


async def _json_body(request: Request) -> dict[str, Any]:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ValueError("send JSON (Content-Type: application/json)")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ValueError("request too large")
    data = json.loads(body or b"{}")
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    return data


def _token_of(request: Request) -> str | None:
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return request.headers.get("x-arbiter-token")


def _session(request: Request):
    return request.app.state.session


async def index(request: Request) -> Response:
    response = await request.app.state.static.get_response("index.html", request.scope)
    response.headers["cache-control"] = "no-cache"
    return response


async def state(request: Request) -> Response:
    _, text = _session(request).view()
    return Response(text, media_type="application/json", headers={"cache-control": "no-store"})


async def events(request: Request) -> Response:
    """The view now, then every new one, as server-sent events (a comment line keeps an
    idle connection open)."""
    session = _session(request)
    loop = asyncio.get_running_loop()
    ready = asyncio.Event()

    def wake() -> None:
        loop.call_soon_threadsafe(ready.set)

    async def stream():
        unsubscribe = session.subscribe(wake)
        try:
            last, text = session.view()
            yield f"id: {last}\ndata: {text}\n\n"
            while not session.closing:
                try:
                    await asyncio.wait_for(ready.wait(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                ready.clear()
                version, text = session.view()
                if version != last:
                    last = version
                    yield f"id: {version}\ndata: {text}\n\n"
        finally:
            unsubscribe()

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"cache-control": "no-store", "x-accel-buffering": "no"})


async def hands(request: Request) -> Response:
    """The simulated board's hands: ``{"actions": [["lift", 22], ["place", 18]]}``."""
    try:
        data = await _json_body(request)
        actions = [(str(a), int(s) if s is not None else 0) for a, s in data.get("actions", [])]
    except (ValueError, TypeError) as error:
        return _error(400, str(error))
    if len(actions) > 200:
        return _error(400, "too many actions")
    try:
        _session(request).hand(actions)
    except PermissionError as error:
        return _error(403, str(error))
    except ValueError as error:
        return _error(400, str(error))
    return JSONResponse({"ok": True})


async def pdn(request: Request) -> Response:
    session = _session(request)
    try:
        text = await run_in_threadpool(session.export_pdn)
    except (DraughtsError, RuntimeError) as error:
        return _error(503, str(error))
    name = f"{session.game_id or 'game'}.pdn"
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{name}"',
                             "cache-control": "no-store"})


# -- the arbiter's actions: a token, a JSON body, an answer from the session ---------------------

def arbiter(action):
    """An endpoint that checks the arbiter's token, reads the JSON body and runs
    ``action(session, data)`` in a worker thread (the session's calls block)."""

    async def endpoint(request: Request) -> Response:
        session = _session(request)
        if not session.check_token(_token_of(request)):
            return _error(401, "arbiter token required")
        try:
            data = await _json_body(request)
            result = await run_in_threadpool(action, session, data)
        except (ValueError, TypeError, DraughtsError) as error:
            return _error(400, str(error))
        except (RuntimeError, TimeoutError) as error:
            return _error(503, str(error))
        return JSONResponse({"ok": True, "result": result})

    return endpoint


def new_game(session, data: dict) -> Any:
    tags = data.get("tags") or {}
    if not isinstance(tags, dict):
        raise ValueError("tags: expected an object")
    return session.new_game(tags, data.get("fen") or None)


def set_tags(session, data: dict) -> Any:
    tags = data.get("tags")
    if not isinstance(tags, dict) or not tags:
        raise ValueError("tags: expected a non-empty object")
    return session.set_tags(tags)


def declare_result(session, data: dict) -> Any:
    return session.declare_result(str(data.get("result", "")), str(data.get("reason", "")))


def acknowledge(session, data: dict) -> Any:
    return session.acknowledge()


def check_token(session, data: dict) -> Any:
    return "token accepted"


ROUTES = [
    Route("/", index),
    Route("/api/state", state),
    Route("/api/events", events),
    Route("/api/hands", hands, methods=["POST"]),
    Route("/api/game.pdn", pdn),
    Route("/api/arbiter/check", arbiter(check_token), methods=["POST"]),
    Route("/api/arbiter/new-game", arbiter(new_game), methods=["POST"]),
    Route("/api/arbiter/tags", arbiter(set_tags), methods=["POST"]),
    Route("/api/arbiter/result", arbiter(declare_result), methods=["POST"]),
    Route("/api/arbiter/acknowledge", arbiter(acknowledge), methods=["POST"]),
    *COACH_ROUTES,
]


def create_app(session) -> Starlette:
    """The web app for one play session (kept on ``app.state.session``)."""
    static = StaticFiles(packages=[STATIC_PACKAGE])
    app = Starlette(routes=[*ROUTES, Mount("/static", static, name="static")])
    app.state.session = session
    app.state.static = static
    app.add_middleware(_SecurityHeaders)
    return app
