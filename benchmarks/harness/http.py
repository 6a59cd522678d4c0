"""Calls to a served JSON API (the board's, the hall's) as the benchmarks and the tests
make them: the body, its type and the arbiter's token are set one way, in one copy."""

from __future__ import annotations

import json
import urllib.request


def call(url: str, path: str, body=None, *, token: str | None = None, timeout: float = 30.0,
         content_type: str = "application/json"):
    """GET ``url + path``, or POST ``body`` there (JSON; a str goes as it is, as
    ``content_type``), with ``token`` as the bearer token where given; the answer's JSON."""
    data = None
    if body is not None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data,
                                     method="POST" if data is not None else "GET")
    if data is not None:
        request.add_header("Content-Type", content_type)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())
