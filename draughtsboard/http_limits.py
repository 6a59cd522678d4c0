"""What both web servers (a board's page and the hall) keep to, whatever their clients do:
limits, and the security headers of every answer.

Both servers (a board's page and the hall) run uvicorn on a Raspberry Pi, where a few
hundred connections is all the file descriptors and memory there are. A client that
connects and never finishes its request, or drips it in a byte at a time, would hold a
connection for ever; enough of them and every page request is refused. The protocol here
gives every request a deadline for its headers, and admits requests by `Admission`:

* open connections are capped below the process's file-descriptor limit (one past the
  cap is closed at once);
* requests in progress (live streams included) are capped, and a share of them is kept
  for requests that carry the arbiter's token: a flood of page loads, live streams or
  half-sent requests (which are connections, not requests) can make the public wait for
  a 503, never the arbiter.

`SecurityHeaders` adds the same content-security and framing headers to every answer of
both, and `failure_status` answers every error by its cause.

Request bodies are read one way by both (`read_body`, `read_json`, and `BodyLimit` in
front of a whole app): refused by their declared length before anything is read, read no
further than the limit, and JSON taken only as an object of plain JSON (``NaN`` and
``Infinity`` are not numbers here; nesting too deep is refused, not a crash).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_CONNECTIONS = 64  # requests in progress at once, live streams included
ARBITER_SHARE = 8  # ... of which this many are kept for requests with the arbiter's token
MAX_OPEN_CONNECTIONS = 512  # open connections (a file descriptor each)
HEADER_TIMEOUT = 10.0  # seconds a request has for its headers (new or kept-alive connection)
RESERVED_FDS = 40  # journal, serial port, GPIO, logs ... besides the connections


def ascii_number(text: str) -> bool:
    """Whether ``text`` is a number written in ASCII digits (``str.isdigit`` also says
    yes to ``³`` and ``٣``, which ``int`` then refuses or reads as 3)."""
    return 0 < len(text) <= 9 and text.isascii() and text.isdigit()


def bearer_token(scope) -> bytes | None:
    """The token of an ``Authorization: Bearer`` (or ``X-Arbiter-Token``) header, as the
    bytes that came (any bytes: never decoded, so never an error)."""
    for name, value in scope.get("headers") or ():
        if name == b"authorization" and value[:7].lower() == b"bearer ":
            return value[7:].strip() or None
        if name == b"x-arbiter-token":
            return value.strip() or None
    return None


def token_matches(scope, token: str) -> bool:
    """Whether the request carries ``token`` (compared in constant time, as bytes)."""
    given = bearer_token(scope)
    if not given or not token:
        return False
    return secrets.compare_digest(given, token.encode("utf-8", "replace"))


@dataclass(frozen=True)
class Admission:
    """Who is served when many ask at once: ``requests`` in progress at most, the last
    ``arbiter_share`` of them only for requests ``is_arbiter`` says yes to; at most
    ``connections`` open."""

    requests: int = MAX_CONNECTIONS
    arbiter_share: int = ARBITER_SHARE
    connections: int = MAX_OPEN_CONNECTIONS
    is_arbiter: Callable[[dict], bool] = lambda scope: False

    def admits(self, in_progress: int, scope) -> bool:
        """Whether a request may start while ``in_progress`` run (itself included)."""
        if in_progress <= self.requests - self.arbiter_share:
            return True
        return in_progress <= self.requests and self.is_arbiter(scope)


def admission(is_arbiter: Callable[[dict], bool]) -> Admission:
    """The admission for this process: the caps, lowered to fit its file-descriptor
    limit (raised to its hard limit first)."""
    room = connection_room()
    requests = max(4, min(MAX_CONNECTIONS, room))
    return Admission(requests, min(ARBITER_SHARE, requests // 4),
                     max(requests, min(MAX_OPEN_CONNECTIONS, room)), is_arbiter)


class HeaderDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for every request's headers: a client that
    connects and sends nothing, or drips its headers, on a new connection or on a kept-
    alive one after a response, is closed after ``HEADER_TIMEOUT`` seconds. (uvicorn
    times out only connections that send nothing at all after a response, and any byte
    cancels that, so without this a few dozen dripping connections would hold the
    connection cap for ever and every page request would get 503.)"""

    ADMISSION: Admission | None = None  # set by `admitting_protocol`

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.ADMISSION is not None:
            self.limit_concurrency = None  # `Admission` decides instead
            self.app = _Admitted(self.app, self.ADMISSION, self.tasks)

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm_header_deadline()
        if self.ADMISSION is not None and len(self.connections) > self.ADMISSION.connections:
            transport.abort()  # past the descriptors there are: closed before anything

    def on_response_complete(self) -> None:
        # armed before uvicorn starts a pipelined request: that request ends the wait
        self._header_deadline.cancel()
        self._arm_header_deadline()
        super().on_response_complete()

    def _arm_header_deadline(self) -> None:
        """Close the connection unless a request begins within ``HEADER_TIMEOUT``
        (a new request is a new cycle: the one current now is the one waited after)."""
        self._header_deadline = self.loop.call_later(HEADER_TIMEOUT, self._header_timeout,
                                                     self.cycle)

    def _header_timeout(self, waited_after) -> None:
        if self.cycle is waited_after and not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc) -> None:
        self._header_deadline.cancel()
        super().connection_lost(exc)


def admitting_protocol(rules: Admission) -> type[HeaderDeadlineProtocol]:
    """The header-deadline protocol admitting requests by ``rules`` (uvicorn's own
    ``limit_concurrency`` is left unset: it counts half-sent requests' connections and
    knows no arbiter)."""
    return type("AdmittingProtocol", (HeaderDeadlineProtocol,), {"ADMISSION": rules})


class _Admitted:
    """The app behind `Admission`: a request past the caps is answered 503 at once."""

    def __init__(self, app, rules: Admission, tasks: set) -> None:
        self.app = app
        self.rules = rules
        self.tasks = tasks  # the server's requests in progress (this one included)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and not self.rules.admits(len(self.tasks), scope):
            body = b"busy: too many requests at once; try again in a moment\n"
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                    (b"content-length", str(len(body)).encode()),
                                    (b"retry-after", b"2"), (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def connection_room() -> int:
    """How many connections the file-descriptor limit (raised to its hard limit first)
    leaves room for."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or hard > soft:
            wanted = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
            if wanted > soft:
                resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
                soft = wanted
    except (ImportError, ValueError, OSError):
        return MAX_CONNECTIONS
    return max(4, (soft - RESERVED_FDS) // 2)


SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Pure ASGI middleware (streams pass through untouched) adding `SECURITY_HEADERS` to
    every answer."""

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


def failure_status(error: BaseException) -> int | None:
    """The HTTP status of an error, by its cause; ``None`` for a bug (a 500).

    * busy, another process has the data (``BlockingIOError``: `DataDirBusyError`): 409;
    * storage, the record could not be kept (``OSError``: a full disk, a journal that is
      damaged or changed under its writer, `RecordingError`), or the board did not answer
      in time (``RuntimeError``, ``TimeoutError``): 503;
    * bad input (``ValueError``, ``TypeError``: the core's `DraughtsError`, a bad body,
      an action refused as asked): 400.
    """
    if isinstance(error, BlockingIOError):
        return 409
    if isinstance(error, (OSError, RuntimeError)):
        return 503
    if isinstance(error, (ValueError, TypeError)):
        return 400
    return None


def failure_text(error: BaseException) -> str:
    """The one-line reason sent with `failure_status`."""
    if isinstance(error, TimeoutError) or (isinstance(error, RuntimeError) and not str(error)):
        return str(error) or "the board did not answer in time"
    if isinstance(error, OSError) and not isinstance(error, BlockingIOError):
        return f"could not record: {error.strerror or error}"
    return str(error) or type(error).__name__


# -- request bodies ---------------------------------------------------------------------------

BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


class BodyError(ValueError):
    """A request body that cannot be used; its cause in one line (400, or 413 past the
    limit from `BodyLimit`)."""


def _declared_length(text: str | None, limit: int) -> None:
    if text is None:
        return
    if not ascii_number(text.strip()):
        raise BodyError("bad Content-Length")
    if int(text.strip()) > limit:
        raise BodyError("request too large")


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused past ``limit`` bytes (by its declared length first,
    then while it is read)."""
    _declared_length(request.headers.get("content-length"), limit)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyError("request too large")
        chunks.append(chunk)
    return b"".join(chunks)


def _not_a_number(name: str) -> float:
    raise BodyError(f"{name} is not a number here")


def parse_json_object(body: bytes) -> dict[str, Any]:
    """A JSON object from a body (empty: ``{}``); `BodyError` with the cause otherwise."""
    try:
        data = json.loads(body or b"{}", parse_constant=_not_a_number)
    except RecursionError:
        raise BodyError("JSON nested too deeply") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BodyError("not JSON") from None
    if not isinstance(data, dict):
        raise BodyError("expected a JSON object")
    return data


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object (``Content-Type: application/json``, at most ``limit``
    bytes); `BodyError` with the cause otherwise."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise BodyError("send JSON (Content-Type: application/json)")
    return parse_json_object(await read_body(request, limit))


class BodyLimit:
    """Pure ASGI middleware, outermost: a request whose Content-Length is over ``limit``
    (or not a number) is answered 413 (400) before anything reads it; a body without a
    length (chunked) is read up to ``limit`` here, and refused past it, then handed on.
    So neither a route nor the token check ever sees more than ``limit`` bytes."""

    def __init__(self, app, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("method") not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            try:
                _declared_length(length.decode("latin-1"), self.limit)
            except BodyError as error:
                await self._refuse(error, scope, receive, send)
            else:
                await self.app(scope, receive, send)
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(BodyError("request too large"), scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, error: BodyError, scope, receive, send) -> None:
        status = 413 if str(error) == "request too large" else 400
        text = f"request body over {self.limit} bytes" if status == 413 else str(error)
        await JSONResponse({"error": text}, status_code=status)(scope, receive, send)
