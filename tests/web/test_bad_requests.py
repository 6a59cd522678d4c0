"""Issue 16, cases 4 and 7 at the HTTP level: every bad request is a 4xx with a one-line
reason (never a 500), a body is refused by its length before the token is checked, and a
simulated board's hands answer only on loopback unless the app allows remote hands."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from draughtsboard.web.app import MAX_BODY, create_app

from .helpers import TOKEN

AUTH = {"authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(session):
    with TestClient(create_app(session), raise_server_exceptions=False,
                    client=("127.0.0.1", 50000)) as test_client:
        yield test_client


def one_line_4xx(response, status=None):
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    if status is not None:
        assert response.status_code == status, response.text
    reason = response.json()["error"]
    assert reason and "\n" not in reason and "Traceback" not in reason
    return reason


def test_a_non_ascii_token_is_refused_not_a_500(client):
    response = client.post("/api/arbiter/check", json={},
                           headers={"x-arbiter-token": "tökén".encode()})
    assert one_line_4xx(response, 401) == "arbiter token required"


BAD_BODIES = [
    ("/api/hands", b'{"actions": [["lift", Infinity]]}', "not a number"),
    ("/api/hands", b'{"actions": [["lift", NaN]]}', "not a number"),
    ("/api/hands", b'{"actions": [["lift", 1e300]]}', "square"),
    ("/api/hands", b'{"actions": [["lift", 2.5]]}', "square"),
    ("/api/hands", b'{"actions": [["lift", true]]}', "square"),
    ("/api/hands", b'{"actions": [["lift"]]}', "each must be"),
    ("/api/hands", b'{"actions": "lift"}', "actions"),
    ("/api/hands", b'{"actions": [[1, 2]]}', "each must be"),
    ("/api/hands", b'{"actions": [["fly", 3]]}', "unknown hand action"),
    ("/api/hands", b'{"actions": [["lift", 99999999999999999999999]]}', "no square"),
    ("/api/hands", b"[" * 5000 + b"]" * 5000, "nested"),
    ("/api/hands", b"\xff\xfe", ""),
    ("/api/arbiter/new-game", b'{"fen": 5}', "fen: expected a string"),
    ("/api/arbiter/new-game", b'{"fen": ["W:W22:B18"]}', "fen: expected a string"),
    ("/api/arbiter/new-game", b'{"fen": "W:W99:B1"}', ""),
    ("/api/arbiter/new-game", b'{"fen": "W:W:B"}', "cannot start here"),
    ("/api/arbiter/new-game", b'{"fen": "B:W21:B"}', "cannot start here"),
    ("/api/arbiter/new-game", b'{"tags": {"White": 5}}', "every value must be a string"),
    ("/api/arbiter/new-game", b'{"tags": []}', "tags"),
    ("/api/arbiter/tags", b'{"tags": {}}', "non-empty"),
    ("/api/arbiter/tags", b'{"tags": {"White": null}}', "string"),
    ("/api/arbiter/result", b'{"result": 1}', "result: expected a string"),
    ("/api/arbiter/result", b'{"result": "1-0", "reason": {}}', "reason"),
    ("/api/arbiter/result", b'{"result": "3-0"}', "not a result"),
    ("/api/arbiter/repair", b'{"action": "explode"}', "resume"),
    ("/api/arbiter/repair", b'{"action": "resume"}', "no damaged journal"),
    ("/api/arbiter/check", b"[]", "expected a JSON object"),
    ("/api/arbiter/check", b"{", ""),
]


@pytest.mark.parametrize(("path", "body", "words"), BAD_BODIES,
                         ids=[f"{p}:{b[:24]!r}" for p, b, _ in BAD_BODIES])
def test_every_bad_body_is_a_4xx_with_a_one_line_reason(client, path, body, words):
    response = client.post(path, content=body,
                           headers={"content-type": "application/json", **AUTH})
    reason = one_line_4xx(response)
    assert words in reason


def test_a_body_over_the_limit_is_refused_by_its_length_before_the_token(client):
    response = client.post("/api/arbiter/check", content=b"x" * 10,
                           headers={"content-length": "500000000",
                                    "content-type": "application/json"})
    assert one_line_4xx(response, 413).startswith("request body over")
    response = client.post("/api/arbiter/check", content=b"{}",
                           headers={"content-length": "12x", "content-type": "application/json"})
    one_line_4xx(response, 400)


def test_a_body_without_a_length_is_read_no_further_than_the_limit(session):
    import asyncio

    app = create_app(session)
    received = []
    sent = []

    async def receive():
        received.append(65536)
        return {"type": "http.request", "body": b" " * 65536, "more_body": True}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/hands", "headers": [
        (b"content-type", b"application/json"), (b"transfer-encoding", b"chunked")],
        "query_string": b"", "client": ("127.0.0.1", 1), "server": ("t", 80),
        "scheme": "http", "root_path": "", "http_version": "1.1", "app": app}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 413
    assert sum(received) <= MAX_BODY + 65536  # one chunk past the limit, no more


def test_a_small_chunked_body_still_works(client, session):
    def chunks():
        yield b'{"actions": '
        yield b'[["lift", 22]]}'

    response = client.post("/api/hands", content=chunks(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 200, response.text


def test_simulated_hands_answer_only_on_loopback(session):
    body = {"actions": [["lift", 22]]}
    with TestClient(create_app(session), client=("192.0.2.7", 5000)) as remote:
        response = remote.post("/api/hands", json=body)
        assert "only on this machine" in one_line_4xx(response, 403)
        assert remote.get("/api/state").status_code == 200  # watching is for everyone
    with TestClient(create_app(session), client=("127.0.0.1", 5000)) as local:
        assert local.post("/api/hands", json=body).status_code == 200
    with TestClient(create_app(session, allow_remote_hands=True),
                    client=("192.0.2.7", 5000)) as allowed:
        assert allowed.post("/api/hands", json={"actions": [["place", 22]]}).status_code == 200


def test_a_flood_of_one_log_line_is_cut_to_one_per_interval():
    import logging

    from draughtsboard.logs import RateLimitFilter

    now = [0.0]
    limit = RateLimitFilter(interval=10.0, clock=lambda: now[0])

    def record(message):
        return logging.LogRecord("uvicorn.error", logging.WARNING, __file__, 1, message,
                                 None, None)

    passed = [limit.filter(record("Exceeded concurrency limit.")) for _ in range(500)]
    assert passed.count(True) == 1
    assert limit.filter(record("another message"))
    now[0] = 11.0
    again = record("Exceeded concurrency limit.")
    assert limit.filter(again) and "499 more like it not logged" in again.msg


def test_a_journal_changed_under_the_board_answers_503_not_400(session, client):
    """Storage, not bad input: another process appended to the game's journal."""
    with session.game.recorder.path_of(session.game.game_id).open("ab") as other_writer:
        other_writer.write(b"00000000 {}\n")
    response = client.post("/api/arbiter/tags", json={"tags": {"Event": "Final"}},
                           headers=AUTH)
    assert response.status_code == 503, response.text
    assert "another process is writing it" in response.json()["error"]
