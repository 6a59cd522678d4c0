"""One rule for a request body on both servers (the board's page and the hall): bounded by
its length before it is read, JSON only as an object of plain JSON."""

from __future__ import annotations

import asyncio

import pytest
from starlette.requests import Request

from draughtsboard.http_limits import BodyError, parse_json_object, read_json


def request(body: bytes, content_type: str = "application/json",
            length: str | None = None) -> Request:
    headers = [(b"content-type", content_type.encode())]
    if length is not None:
        headers.append((b"content-length", length.encode()))
    sent = False

    async def receive():
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return Request({"type": "http", "method": "POST", "headers": headers}, receive)


@pytest.mark.parametrize(("body", "reason"), [
    (b'{"x": NaN}', "NaN is not a number here"),
    (b'{"x": -Infinity}', "-Infinity is not a number here"),
    (b"[" * 5000 + b"]" * 5000, "JSON nested too deeply"),
    (b"{", "not JSON"),
    (b"\xff\xfe", "not JSON"),
    (b"[1]", "expected a JSON object"),
])
def test_what_is_not_a_plain_json_object_is_refused_with_its_cause(body, reason):
    with pytest.raises(BodyError, match=f"^{reason}$"):
        parse_json_object(body)
    assert parse_json_object(b"") == {} and parse_json_object(b'{"a": 1.5}') == {"a": 1.5}


def test_a_body_is_bounded_by_its_length_and_its_type():
    read = lambda *args, **kw: asyncio.run(read_json(request(*args, **kw), 16))  # noqa: E731
    assert read(b'{"a": 1}') == {"a": 1}
    with pytest.raises(BodyError, match="request too large"):
        read(b'{"a": "' + b"x" * 20 + b'"}')
    with pytest.raises(BodyError, match="request too large"):
        read(b"{}", length="17")  # refused by the length it declares, before reading
    with pytest.raises(BodyError, match="bad Content-Length"):
        read(b"{}", length="٣")
    with pytest.raises(BodyError, match="send JSON"):
        read(b"{}", content_type="text/plain")
