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


def create_app(session) -> Starlette:
    """The web app for one play session."""
    static = StaticFiles(packages=[STATIC_PACKAGE])

    async def index(request: Request) -> Response:
        response = await static.get_response("index.html", request.scope)
        response.headers["cache-control"] = "no-cache"
        return response

    async def state(request: Request) -> Response:
        _, text = session.view()
        return Response(text, media_type="application/json",
                        headers={"cache-control": "no-store"})

    async def events(request: Request) -> Response:
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
                                 headers={"cache-control": "no-store",
                                          "x-accel-buffering": "no"})

    async def hands(request: Request) -> Response:
        try:
            data = await _json_body(request)
            actions = [(str(a), int(s) if s is not None else 0)
                       for a, s in data.get("actions", [])]
        except (ValueError, TypeError) as error:
            return _error(400, str(error))
        if len(actions) > 200:
            return _error(400, "too many actions")
        try:
            session.hand(actions)
        except PermissionError as error:
            return _error(403, str(error))
        except ValueError as error:
            return _error(400, str(error))
        return JSONResponse({"ok": True})

    async def pdn(request: Request) -> Response:
        try:
            text = await run_in_threadpool(session.export_pdn)
        except (DraughtsError, RuntimeError) as error:
            return _error(503, str(error))
        name = f"{session.game_id or 'game'}.pdn"
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"content-disposition": f'attachment; filename="{name}"',
                                 "cache-control": "no-store"})

    def arbiter(handler):
        async def endpoint(request: Request) -> Response:
            if not session.check_token(_token_of(request)):
                return _error(401, "arbiter token required")
            try:
                data = await _json_body(request)
                result = await handler(data)
            except (ValueError, TypeError, DraughtsError) as error:
                return _error(400, str(error))
            except (RuntimeError, TimeoutError) as error:
                return _error(503, str(error))
            return JSONResponse({"ok": True, "result": result})

        return endpoint

    async def new_game(data: dict) -> Any:
        tags = data.get("tags") or {}
        if not isinstance(tags, dict):
            raise ValueError("tags: expected an object")
        fen = data.get("fen") or None
        return await run_in_threadpool(session.new_game, tags, fen)

    async def set_tags(data: dict) -> Any:
        tags = data.get("tags")
        if not isinstance(tags, dict) or not tags:
            raise ValueError("tags: expected a non-empty object")
        return await run_in_threadpool(session.set_tags, tags)

    async def result(data: dict) -> Any:
        return await run_in_threadpool(session.declare_result, str(data.get("result", "")),
                                       str(data.get("reason", "")))

    async def acknowledge(data: dict) -> Any:
        return await run_in_threadpool(session.acknowledge)

    async def check(data: dict) -> Any:
        return "token accepted"

    routes = [
        Route("/", index),
        Route("/api/state", state),
        Route("/api/events", events),
        Route("/api/hands", hands, methods=["POST"]),
        Route("/api/game.pdn", pdn),
        Route("/api/arbiter/check", arbiter(check), methods=["POST"]),
        Route("/api/arbiter/new-game", arbiter(new_game), methods=["POST"]),
        Route("/api/arbiter/tags", arbiter(set_tags), methods=["POST"]),
        Route("/api/arbiter/result", arbiter(result), methods=["POST"]),
        Route("/api/arbiter/acknowledge", arbiter(acknowledge), methods=["POST"]),
        Mount("/static", static, name="static"),
    ]
    app = Starlette(routes=routes)
    app.add_middleware(_SecurityHeaders)
    return app
