"""The board's web page: a live view for everyone, the hands of a simulated board, and the
arbiter's actions behind a token.

`create_app(session)` builds a Starlette app around a `PlaySession`; the arbiter's
actions go to its desk (``session.arbiter``), the coach's requests to the coach it is
given. Live updates are server-sent events: each is the session's whole view as
JSON, sent when a new one is ready. Nothing in the page is built from HTML strings: the
script sets text only, and a Content-Security-Policy forbids inline scripts besides.

One client cannot exhaust the server: a request body is refused by its Content-Length, or
read no further than ``MAX_BODY``, before any route or token check (`http_limits.BodyLimit`,
which also reads every JSON body the same way for both servers); live
streams are capped (the oldest is dropped for a new one) and a client too slow to take
an update is dropped (`http_stream`, the same stream as the hall's); every bad request is a 4xx
with a one-line reason. A simulated board's hands answer only on loopback unless the app
was made with ``allow_remote_hands``.
"""

from __future__ import annotations

import ipaddress
import math
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from draughtsboard.board.message import Message
from draughtsboard.http_limits import (
    BodyLimit,
    SecurityHeaders,
    failure_status,
    failure_text,
    read_json,
)
from draughtsboard.http_stream import EventStream, Following, StreamLimits, Streams, json_event
from draughtsboard.play.coach import Coach
from draughtsboard.play.session import PlaySession
from draughtsboard.speech.spoken import Heard, what_changed
from draughtsboard.webkit import kit_routes
from draughtsboard.words import SOURCE_LANGUAGE
from draughtsboard.words.routes import WORDS_ROUTES

from .ask_routes import ASK_ROUTES
from .coach_routes import COACH_ROUTES
from .opponent_routes import OPPONENT_ROUTES

STATIC_PACKAGE = ("draughtsboard.web", "static")
MAX_BODY = 16 * 1024
STREAM_LIMITS = StreamLimits()  # live streams: at most 24, a slow reader dropped after 10 s


def _error(status: int, text: str, said: Message | None = None) -> JSONResponse:
    """An error's answer: ``error`` its one line in English (for scripts and logs),
    ``message`` the same as a message's JSON when there is one, for the page to show in
    its reader's language (the page has words of its own for the others)."""
    body: dict[str, Any] = {"error": " ".join(str(text).split())[:300]}
    if said is not None:
        body["message"] = said.as_json()
    return JSONResponse(body, status_code=status)


def _failure(error: Exception) -> JSONResponse:
    """An error answered by its cause (`http_limits.failure_status`): bad input 400, busy
    409, storage or a board that did not answer 503; anything else is a bug, raised."""
    status = failure_status(error)
    if status is None:
        raise error
    return _error(status, failure_text(error), getattr(error, "said", None))


async def _json_body(request: Request) -> dict[str, Any]:
    return await read_json(request, MAX_BODY)


def _text(data: dict, key: str, default: str = "") -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise ValueError(f"{key}: expected a string")
    return value


def _tags(data: dict, required: bool) -> dict[str, str]:
    tags = data.get("tags")
    if tags is None and not required:
        return {}
    if not isinstance(tags, dict) or (required and not tags):
        raise ValueError("tags: expected a non-empty object" if required
                         else "tags: expected an object")
    if not all(isinstance(v, str) for v in tags.values()):
        raise ValueError("tags: every value must be a string")
    return tags


def _square(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int | float) or (
            isinstance(value, float) and not (math.isfinite(value) and value.is_integer())):
        raise ValueError(f"square {value!r}: expected a square number")
    return int(value)


def _is_loopback(host: str | None) -> bool:
    if not host:
        return False
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name, not an address: not known to be this machine


def _token_of(request: Request) -> str | None:
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return request.headers.get("x-arbiter-token")


def _session(request: Request) -> PlaySession:
    return request.app.state.session


async def index(request: Request) -> Response:
    response = await request.app.state.static.get_response("index.html", request.scope)
    response.headers["cache-control"] = "no-cache"
    return response


async def state(request: Request) -> Response:
    _, text = _session(request).view()
    return Response(text, media_type="application/json", headers={"cache-control": "no-store"})


class _BoardStream(Following):
    """What one live stream of the board says (`http_stream.StreamSource`; the stream
    and its limits are `http_stream.EventStream`'s): the view now, then every new one.

    Each view is followed by an ``event: now`` with the board's wall clock (and so is
    each keep-alive), so that a page on a phone whose clock differs, or a board whose
    clock the network has not set yet, counts the game clock right.

    When a view brings something to say, an ``event: spoken`` follows it: the sentences
    the board itself speaks (`spoken.what_changed`: moves, flags, the opponent's move,
    the result), as a list of ``{"kind", "messages"}`` with each message's JSON, for the
    page's live regions and its reader's own speech. Each stream keeps what it told its
    page, so each thing is said once, and a page that (re)connects hears only what is
    new after it came."""

    def __init__(self, session: PlaySession) -> None:
        super().__init__(session)
        self.session = session
        self.heard: Heard | None = None
        self.last = -1

    async def opening(self) -> str:
        self.last, text = self.session.view()
        self._spoken()  # what stands now is not news
        return f"id: {self.last}\ndata: {text}\n\n" + self.keepalive()

    async def update(self) -> str:
        version, text = self.session.view()
        if version == self.last:
            return ""
        self.last = version
        return f"id: {version}\ndata: {text}\n\n" + self._spoken() + self.keepalive()

    def keepalive(self) -> str:
        return f"event: now\ndata: {self.session.wall():.3f}\n\n"

    def _spoken(self) -> str:
        """The ``spoken`` event for what is new since this stream last looked ("" when
        nothing is)."""
        game_id, game, view = self.session.published()
        if game is None:
            return ""
        self.heard, news = what_changed(self.heard, game_id, game, view)
        if not news:
            return ""
        said = [{"kind": a.kind, "messages": [m.as_json() for m in a.messages]} for a in news]
        return json_event("spoken", said)


async def events(request: Request) -> EventStream:
    """``GET /api/events``: the live stream (see `_BoardStream`)."""
    return EventStream(_BoardStream(_session(request)), request.app.state.streams)


async def hands(request: Request) -> Response:
    """The simulated board's hands: ``{"actions": [["lift", 22], ["place", 18]]}``."""
    if not request.app.state.allow_remote_hands and not _is_loopback(
            request.client.host if request.client else None):
        return _error(403, "the simulated board's hands answer only on this machine "
                           "(play --allow-remote-hands opens them to the network)")
    try:
        data = await _json_body(request)
        raw = data.get("actions", [])
        if not isinstance(raw, list) or len(raw) > 200:
            raise ValueError("actions: expected a list of at most 200 [action, square] pairs")
        actions = []
        for item in raw:
            if not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str):
                raise ValueError("actions: each must be [\"lift\"|\"place\"|\"toggle\", square]")
            actions.append((item[0], _square(item[1])))
    except (ValueError, TypeError) as error:
        return _error(400, str(error))
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
    except Exception as error:  # noqa: BLE001 - answered by its cause, or raised
        return _failure(error)
    name = f"{session.game.game_id or 'game'}.pdn"
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
        except Exception as error:  # noqa: BLE001 - answered by its cause, or raised
            return _failure(error)
        return JSONResponse({"ok": True, "result": result})

    return endpoint


def new_game(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/new-game``: ``{"tags": {...}, "fen": "..."}``."""
    return session.arbiter.new_game(_tags(data, required=False), _text(data, "fen") or None)


def set_tags(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/tags``: ``{"tags": {...}}``."""
    return session.arbiter.set_tags(_tags(data, required=True))


def declare_result(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/result``: ``{"result": "1-0", "reason": "..."}``."""
    return session.arbiter.declare_result(_text(data, "result"), _text(data, "reason"))


def repair(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/repair``: ``{"action": "resume"}``: a damaged journal is resumed
    from its last good record (a copy of the damaged file is kept); a new game is
    ``new-game``."""
    return session.arbiter.repair(_text(data, "action"))


def withdraw_result(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/withdraw-result``: the result is taken back."""
    return session.arbiter.withdraw_result()


def accept_draw(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/accept-draw``: the draw the rules declare is recorded."""
    return session.arbiter.accept_draw()


def clock(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/clock``: ``{"action": "start" | "pause" | "resume"}``."""
    return session.arbiter.clock_action(str(data.get("action", "")))


def acknowledge(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/acknowledge``: the flags are seen."""
    return session.arbiter.acknowledge()


def accept_position(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/accept-position``: ``{"white_to_move": true, "fen": "..."}``
    (``fen`` optional: without it, the position the board shows)."""
    white = data.get("white_to_move")
    if not isinstance(white, bool):
        raise ValueError("white_to_move: expected true or false")
    fen = data.get("fen") or None
    if fen is not None and not isinstance(fen, str):
        raise ValueError("fen: expected a string")
    return session.arbiter.accept_position(white, fen)


def take_back(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/take-back``: ``{"ply": 12}`` (0: the start)."""
    ply = data.get("ply")
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise ValueError("ply: expected a whole number")
    return session.arbiter.take_back_to(ply)


def check_token(session: PlaySession, data: dict) -> Any:
    """``POST /api/arbiter/check``: whether the token is accepted."""
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
    Route("/api/arbiter/withdraw-result", arbiter(withdraw_result), methods=["POST"]),
    Route("/api/arbiter/accept-draw", arbiter(accept_draw), methods=["POST"]),
    Route("/api/arbiter/clock", arbiter(clock), methods=["POST"]),
    Route("/api/arbiter/acknowledge", arbiter(acknowledge), methods=["POST"]),
    Route("/api/arbiter/repair", arbiter(repair), methods=["POST"]),
    Route("/api/arbiter/accept-position", arbiter(accept_position), methods=["POST"]),
    Route("/api/arbiter/take-back", arbiter(take_back), methods=["POST"]),
    *COACH_ROUTES,
    *OPPONENT_ROUTES,
    *ASK_ROUTES,
]


def create_app(session: PlaySession, *, coach: Coach | None = None,
               allow_remote_hands: bool = False, language: str = SOURCE_LANGUAGE) -> Starlette:
    """The web app for one play session (kept on ``app.state.session``) and its coach,
    if it has one (``app.state.coach``); ``language`` is the board's, which a person's
    browser gets when none of its languages has a catalog."""
    static = StaticFiles(packages=[STATIC_PACKAGE])
    app = Starlette(routes=[*ROUTES, *WORDS_ROUTES, *kit_routes(),
                            Mount("/static", static, name="static")])
    app.state.session = session
    app.state.language = language
    app.state.coach = coach
    app.state.static = static
    app.state.streams = Streams(STREAM_LIMITS)
    app.state.allow_remote_hands = allow_remote_hands
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, limit=MAX_BODY)  # last: outermost, before routes and tokens
    return app
