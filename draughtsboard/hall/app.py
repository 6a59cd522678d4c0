"""The hall's web server: the hall page and its live stream, the arbiter console's
actions (behind a token), and the broadcast feed.

`create_app(service, token=..., delay=...)` builds a Starlette app around a
`HallService`. The page is static files and a script that sets text only, under a
Content-Security-Policy; updates are server-sent events (`events`), capped in number.
Request bodies are bounded before they are read.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from draughtsboard.board.game.tags import clean_tags
from draughtsboard.board.message import Listed
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.hall_protocol.messages import GAME_ID
from draughtsboard.http_limits import (
    BodyError,
    SecurityHeaders,
    ascii_number,
    read_body,
    read_json,
    token_matches,
)
from draughtsboard.http_stream import EventStream, Following, StreamLimits, Streams, json_event
from draughtsboard.webkit import kit_routes
from draughtsboard.words import SOURCE_LANGUAGE
from draughtsboard.words.routes import WORDS_ROUTES

from .broadcast import Published, broadcast_games
from .claims import KINDS as CLAIM_KINDS
from .feed import FeedGame, round_games
from .pairings import PairingsError, parse_pairings
from .said import HallError, said, shown
from .views import variants_view

log = logging.getLogger("draughtsboard.hall")

STATIC_PACKAGE = ("draughtsboard.hall", "static")
MAX_BODY = 16 * 1024
MAX_PAIRINGS_BODY = 512 * 1024
STREAM_INTERVAL = 0.1  # seconds: a stream sends at most this often (changes are merged)
# live pages: at most 24 (the oldest is dropped for a new one, and its page reconnects by
# itself), a reader too slow to take an update dropped after 10 s, as the board's page's
STREAM_LIMITS = StreamLimits(interval=STREAM_INTERVAL)


def _error(status: int, text: str, message=None) -> JSONResponse:
    """An error the page shows: ``message`` (its JSON) in the reader's language, else
    ``error``, in English, as it is (a request no page of the hall makes)."""
    body = {"error": text}
    if message is not None:
        body["message"] = message.as_json()
    return JSONResponse(body, status_code=status)


class RequestError(HallError, BodyError):
    """A request the console made that cannot be used, in a message."""


def _refused(message_id: str, **params) -> RequestError:
    return RequestError(said(message_id, **params))


async def _body(request: Request, limit: int) -> bytes:
    return await read_body(request, limit)


async def _json_body(request: Request) -> dict[str, Any]:
    return await read_json(request, MAX_BODY)


def _service(request: Request):
    return request.app.state.service


def current_token(token: Callable[[], str]) -> str:
    """The arbiter's token now (the data directory's file, which `draughtsboard token
    --rotate` may change while the hall runs); a file that cannot be read refuses every
    token, with a log line."""
    try:
        return token()
    except OSError as error:
        log.error("arbiter token: %s", error)
        return ""


def authorised(scope, token: Callable[[], str]) -> bool:
    return token_matches(scope, current_token(token))


def _authorised(request: Request) -> bool:
    return authorised(request.scope, request.app.state.token)


def _board(data: dict[str, Any]) -> int:
    board = data.get("board")
    if isinstance(board, str) and ascii_number(board):
        board = int(board)
    if isinstance(board, bool) or not isinstance(board, int) or not 1 <= board <= 9999:
        raise _refused("console.error.board")
    return board


# -- the page and its data ---------------------------------------------------------------------

async def index(request: Request) -> Response:
    response = await request.app.state.static.get_response("hall.html", request.scope)
    response.headers["cache-control"] = "no-cache"
    return response


async def projector(request: Request) -> Response:
    """The projector view: one round's boards, big, for the playing hall's screen."""
    response = await request.app.state.static.get_response("projector.html", request.scope)
    response.headers["cache-control"] = "no-cache"
    return response


def _overview(service) -> dict[str, Any]:
    return {"hall": service.hall_info(), "variants": variants_view(),
            "boards": [summary for _, summary in service.summaries().values()]}


async def hall(request: Request) -> Response:
    data = await run_in_threadpool(_overview, _service(request))
    return JSONResponse(data, headers={"cache-control": "no-store"})


async def board(request: Request) -> Response:
    text = request.path_params["board"]
    if not ascii_number(text):
        return _error(404, f"no board {text[:12]!r} in this hall")
    number = int(text)
    detail = await run_in_threadpool(_service(request).detail, number)
    if detail is None:
        return _error(404, f"no board {number} in this hall")
    return JSONResponse(detail, headers={"cache-control": "no-store"})


class _HallStream(Following):
    """What one live stream of the hall says (`http_stream.StreamSource`; the stream and
    its limits are `http_stream.EventStream`'s, as the board's page's): the hall now
    (``event: hall``), then each board whose summary changed (``event: boards``, a
    list) and the hall's own news (``event: info``), at most every STREAM_INTERVAL
    seconds."""

    def __init__(self, service) -> None:
        super().__init__(service)
        self.service = service
        self.known: dict = {}
        self.info: Any = None

    async def opening(self) -> str:
        overview = await run_in_threadpool(_overview, self.service)
        self.known = {b: key for b, (key, _) in self.service.summaries().items()}
        self.info = overview["hall"]
        return json_event("hall", overview)

    async def update(self) -> str:
        summaries = await run_in_threadpool(self.service.summaries)
        changed = [s for b, (key, s) in summaries.items() if self.known.get(b) != key]
        self.known = {b: key for b, (key, _) in summaries.items()}
        text = ""
        if changed:
            text += json_event("boards", changed)
        info = self.service.hall_info()
        if info != self.info:
            self.info = info
            text += json_event("info", info)
        return text

    def keepalive(self) -> str:
        return ": keep-alive\n\n"


async def events(request: Request) -> EventStream:
    """``GET /api/events``: the live stream (see `_HallStream`)."""
    return EventStream(_HallStream(_service(request)), request.app.state.streams)


# -- the broadcast feed ---------------------------------------------------------------------------
# The round as lidraughts broadcasts it (`broadcast`: every board in the place it keeps,
# a column game by its tags alone) at games.pdn, games.json and <board>.PDN; the hall's
# own files (`feed`: each board's game as it recorded it, column games too) at hall.pdn and
# <board>.pdn (docs/hall.md, "Broadcasting on lidraughts").

PDN_TYPE = "application/x-draughts-pdn; charset=utf-8"


def _cutoff(request: Request) -> float | None:
    delay = request.app.state.delay
    return _service(request).wall() - delay if delay else None


def _feed(request: Request) -> list[FeedGame]:
    service = _service(request)
    cutoff = _cutoff(request)
    with service.store.lock:
        return round_games(service.store, request.path_params["round"], cutoff,
                           service.arbiter.round_games, service.ingest.contested_rounds())


def _broadcast(request: Request) -> list[Published]:
    service = _service(request)
    cutoff = _cutoff(request)
    round_name = request.path_params["round"]
    with service.store.lock:
        return broadcast_games(service.store, round_name, cutoff, service.arbiter.round_games,
                               service.ingest.contested_rounds(),
                               service.arbiter.pairings.get(round_name, ()))


def _pdn(text: str) -> Response:
    return PlainTextResponse(text, media_type=PDN_TYPE, headers={"cache-control": "no-cache"})


async def round_pdn(request: Request) -> Response:
    games = await run_in_threadpool(_broadcast, request)
    return _pdn("".join(g.pdn for g in games))


async def round_json(request: Request) -> Response:
    """The published round as JSON. ``round`` is an object so that the whole text is
    never a PDN comment and nothing else: lidraughts guesses PDN first, and would take
    ``{"games": []}`` for a PDN game with no moves (docs/hall.md)."""
    games = await run_in_threadpool(_broadcast, request)
    return JSONResponse({"games": [{"board": g.board, "pdn": g.pdn, "result": g.result}
                                   for g in games],
                         "round": {"name": request.path_params["round"],
                                   "boards": [g.board for g in games]}},
                        headers={"cache-control": "no-cache"})


async def board_pdn(request: Request) -> Response:
    """``hall.pdn`` (the hall's own round file), ``<board>.pdn`` (a board's game as it
    recorded it) or ``<board>.PDN`` (its published entry: lidraughts' per-game URL)."""
    name = request.path_params["file"]
    round_name = request.path_params["round"]
    if name == "hall.pdn":
        return _pdn("".join(g.pdn for g in await run_in_threadpool(_feed, request)))
    stem, dot, extension = name.rpartition(".")
    if not dot or extension not in ("pdn", "PDN") or not ascii_number(stem):
        return _error(404, "expected /round/<round>/<board>.pdn")
    number = int(stem)
    if extension == "PDN":
        published = [g for g in await run_in_threadpool(_broadcast, request)
                     if g.board == number]
        if not published:
            return _error(404, f"no lidraughts game on board {number} in round {round_name}")
        return _pdn(published[0].pdn)
    games = [g for g in await run_in_threadpool(_feed, request) if g.board == number]
    if not games:
        return _error(404, f"no game on board {number} in round {round_name}")
    return _pdn(games[0].pdn)


# -- the arbiter console ------------------------------------------------------------------------

def arbiter(action, *, json_body: bool = True):
    async def endpoint(request: Request) -> Response:
        if not _authorised(request):
            return _error(401, "arbiter token required", said("console.error.token"))
        try:
            data: Any = await _json_body(request) if json_body else \
                await _body(request, MAX_PAIRINGS_BODY)
            result = await run_in_threadpool(action, _service(request), data)
        except (BodyError, PairingsError, DraughtsError, ValueError, TypeError) as error:
            return _error(400, str(error), getattr(error, "message", None))
        except ClientDisconnect:
            return _error(400, "the request was cut off", said("console.error.cut_off"))
        except OSError as error:
            return _error(503, f"could not journal the action: {error}",
                          said("console.error.journal", error=str(error)[:300]))
        return JSONResponse({"ok": True, "result": shown(result)})

    return endpoint


def check(service, data) -> Any:
    return said("console.token_accepted")


def pairings(service, body: bytes) -> Any:
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = body.decode("cp1251")
    rows = parse_pairings(text)
    service.import_pairings(rows)
    return [row.to_dict() for row in rows]


def start_round(service, data) -> Any:
    return service.start_round(_round(data))


def _game(data: dict[str, Any], required: bool = False) -> str | None:
    """The game an action is about (the one the arbiter sees on the board's card)."""
    game = data.get("game")
    if game is None and not required:
        return None
    if not isinstance(game, str) or not GAME_ID.match(game):
        raise _refused("console.error.game")
    return game


def declare_result(service, data) -> Any:
    number = _board(data)
    result = str(data.get("result", "")).strip()
    reason = str(data.get("reason", ""))[:200] or "declared by the arbiter in the hall"
    return service.declare_result(number, result, reason, _game(data))


def _claim_fields(data: dict[str, Any]) -> tuple[int, str, str, str]:
    """Board, kind, game and the id of the claim the arbiter read."""
    kind, claim_id = data.get("kind"), data.get("claim")
    if kind not in CLAIM_KINDS:
        raise _refused("console.error.kind", kinds=Listed(CLAIM_KINDS, "or"))
    if not isinstance(claim_id, str) or not 0 < len(claim_id) <= 64:
        raise _refused("console.error.claim")
    number = _board(data)  # (checked before the game, as the arbiter's page expects)
    game = _game(data, required=True)
    assert game is not None  # required: `_game` refuses a missing one
    return number, kind, game, claim_id


def confirm(service, data) -> Any:
    return service.confirm(*_claim_fields(data))


def dismiss(service, data) -> Any:
    return service.dismiss(*_claim_fields(data))


def acknowledge(service, data) -> Any:
    return service.command(_board(data), "acknowledge")


def set_tags(service, data) -> Any:
    tags = data.get("tags")
    if not isinstance(tags, dict) or not tags:
        raise _refused("console.error.tags")
    return service.set_tags(_board(data), clean_tags(tags), _game(data))


def withdraw_result(service, data) -> Any:
    return service.withdraw_result(_board(data), _game(data))


def take_back(service, data) -> Any:
    ply = data.get("ply")
    if isinstance(ply, str) and ascii_number(ply):
        ply = int(ply)
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise _refused("console.error.ply_number")
    return service.take_back(_board(data), ply, _game(data))


def accept_position(service, data) -> Any:
    fen = data.get("fen")
    if not isinstance(fen, str) or not fen.strip() or len(fen) > 1000:
        raise _refused("console.error.fen_missing")
    return service.accept_position(_board(data), fen.strip(), _game(data))


def clock(service, data) -> Any:
    return service.clock(_board(data), str(data.get("action", "")), _game(data))


def _round(data: dict[str, Any]) -> str:
    round_name = str(data.get("round", "")).strip()
    if not round_name or len(round_name) > 20:
        raise _refused("console.error.round")
    return round_name


def start_pairing(service, data) -> Any:
    close = data.get("close")
    if close is not None and (not isinstance(close, str) or not GAME_ID.match(close)):
        raise _refused("console.error.close")
    return service.start_pairing(_board(data), _round(data), restart=data.get("restart") is True,
                                 close=close)


def cancel_pairing(service, data) -> Any:
    return service.cancel_pairing(_board(data), _round(data))


def clear(service, data) -> Any:
    return service.clear(_board(data))


def arbiter_log(service, data) -> Any:
    return service.arbiter.recent(200)


ROUTES = [
    Route("/", index),
    Route("/projector", projector),
    Route("/api/hall", hall),
    Route("/api/events", events),
    Route("/api/board/{board}", board),
    Route("/round/{round}/games.pdn", round_pdn),
    Route("/round/{round}/games.json", round_json),
    Route("/round/{round}/{file}", board_pdn),
    Route("/api/arbiter/check", arbiter(check), methods=["POST"]),
    Route("/api/arbiter/pairings", arbiter(pairings, json_body=False), methods=["POST"]),
    Route("/api/arbiter/start-round", arbiter(start_round), methods=["POST"]),
    Route("/api/arbiter/result", arbiter(declare_result), methods=["POST"]),
    Route("/api/arbiter/confirm", arbiter(confirm), methods=["POST"]),
    Route("/api/arbiter/dismiss", arbiter(dismiss), methods=["POST"]),
    Route("/api/arbiter/acknowledge", arbiter(acknowledge), methods=["POST"]),
    Route("/api/arbiter/tags", arbiter(set_tags), methods=["POST"]),
    Route("/api/arbiter/withdraw", arbiter(withdraw_result), methods=["POST"]),
    Route("/api/arbiter/takeback", arbiter(take_back), methods=["POST"]),
    Route("/api/arbiter/position", arbiter(accept_position), methods=["POST"]),
    Route("/api/arbiter/clock", arbiter(clock), methods=["POST"]),
    Route("/api/arbiter/start-pairing", arbiter(start_pairing), methods=["POST"]),
    Route("/api/arbiter/cancel-pairing", arbiter(cancel_pairing), methods=["POST"]),
    Route("/api/arbiter/clear", arbiter(clear), methods=["POST"]),
    Route("/api/arbiter/log", arbiter(arbiter_log), methods=["POST"]),
]


def create_app(service, *, token: str | Callable[[], str], delay: float = 0.0,
               language: str = SOURCE_LANGUAGE) -> Starlette:
    """The hall's app; ``token`` is the arbiter's token or the function that reads it
    now; ``delay`` (seconds) holds the broadcast feed back; ``language`` is the venue's
    (the projector's, and a person's whose browser has no language with a catalog)."""
    static = StaticFiles(packages=[STATIC_PACKAGE])
    app = Starlette(routes=[*ROUTES, *WORDS_ROUTES, *kit_routes(),
                            Mount("/static", static, name="static")])
    app.state.service = service
    app.state.language = language
    app.state.static = static
    app.state.token = token if callable(token) else (lambda: token)
    app.state.delay = delay
    app.state.streams = Streams(STREAM_LIMITS)
    app.state.started = time.time()
    app.add_middleware(SecurityHeaders)
    return app
