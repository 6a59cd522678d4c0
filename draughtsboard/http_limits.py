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
both.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

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
    return bool(given) and bool(token) and secrets.compare_digest(
        given, token.encode("utf-8", "replace"))


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

    def connection_made(self, transport) -> None:  # type: ignore[override]
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
