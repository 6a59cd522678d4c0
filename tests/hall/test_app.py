"""The hall's web server without a broker: the arbiter console behind its token, bodies
bounded before they are read, live streams capped, pairings read by cause, security
headers."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from draughtsboard.hall import app as hall_app
from draughtsboard.hall.app import create_app
from draughtsboard.hall.pairings import PairingsError, parse_pairings
from draughtsboard.hall.service import HallService
from draughtsboard.hall_protocol import parse_broker_url

TOKEN = "hall-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(tmp_path):
    service = HallService(parse_broker_url("mqtt://hall:pw@127.0.0.1:1"), tmp_path,
                          sync=False)  # never started: no broker needed here
    yield TestClient(create_app(service, token=TOKEN))
    service.store.close()
    service.arbiter.close()


def test_the_arbiter_console_needs_the_token(client):
    for path in ("check", "pairings", "start-round", "result", "acknowledge", "tags", "log"):
        assert client.post(f"/api/arbiter/{path}", json={}).status_code == 401
        wrong = {"Authorization": "Bearer nope"}
        assert client.post(f"/api/arbiter/{path}", json={}, headers=wrong).status_code == 401
    assert client.post("/api/arbiter/check", json={}, headers=AUTH).json()["ok"] is True


def test_pairings_are_imported_journalled_and_shown(client, tmp_path):
    text = "round,board,white,black,event\n1,1,Ann,Bob,Open\n1,2,<b>Cy</b>,Di,Open\n"
    answer = client.post("/api/arbiter/pairings", content=text, headers=AUTH)
    assert answer.status_code == 200 and len(answer.json()["result"]) == 2
    hall = client.get("/api/hall").json()
    assert hall["hall"]["rounds"] == ["1"]
    assert [b["board"] for b in hall["boards"]] == [1, 2]
    assert '"type":"pairings"' in (tmp_path / "arbiter.jsonl").read_text()
    refused = client.post("/api/arbiter/start-round", json={"round": "9"}, headers=AUTH).json()
    assert refused == {"error": "no pairings imported for round 9",
                       "message": {"id": "console.error.no_pairings",
                                   "params": {"round": "9"}}}  # the page's language


def test_bodies_are_bounded_and_bad_input_is_refused_by_cause(client):
    big = "x" * (hall_app.MAX_PAIRINGS_BODY + 1)
    assert client.post("/api/arbiter/pairings", content=big, headers=AUTH).json() == \
        {"error": "request too large"}
    huge = {"board": 1, "tags": {"Event": "y" * hall_app.MAX_BODY}}
    assert client.post("/api/arbiter/tags", json=huge, headers=AUTH).json() == \
        {"error": "request too large"}
    bad = [({"board": 1, "result": "1-0"}, "no board 1 in this hall"),
           ({"board": "x"}, "board"), ({"board": "٣"}, "board"),
           ({"board": 1, "tags": {"Result": "1-0"}}, "derived")]
    for body, words in bad:
        path = "/api/arbiter/tags" if "tags" in body else "/api/arbiter/result"
        answer = client.post(path, json=body, headers=AUTH)
        assert answer.status_code == 400 and words in answer.json()["error"]
    not_json = client.post("/api/arbiter/result", content=b"{", headers={
        **AUTH, "Content-Type": "application/json"})
    assert not_json.json() == {"error": "not JSON"}
    assert client.get("/api/board/5").status_code == 404
    for name in ("x.pdn", "³.pdn", "٣.pdn", "1.pdn"):  # only ASCII digits name a board
        assert client.get(f"/round/1/{name}").status_code == 404


def test_a_token_of_any_bytes_is_an_answer_never_an_error(client):
    for token in ("ключ", "tok\u00e9n", "x" * 5000):
        answer = client.post("/api/arbiter/check", json={},
                             headers={"Authorization": f"Bearer {token}".encode()})
        assert answer.status_code == 401


def test_live_streams_are_capped_the_oldest_dropped_and_pages_carry_security_headers(client):
    class Waiting:
        dropped = False

        def drop(self):
            self.dropped = True

    client.app.state.service.closing = True  # a stream sends the hall, then ends
    waiting = [Waiting() for _ in range(hall_app.STREAM_LIMITS.max_streams)]
    for stream in waiting:
        client.app.state.streams.admit(stream)
    answer = client.get("/api/events")
    assert answer.status_code == 200 and answer.text.startswith("event: hall")
    assert waiting[0].dropped and not waiting[1].dropped  # the oldest made room
    page = client.get("/")
    assert page.status_code == 200 and "hall.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/kit/board.js").status_code == 200  # the board page's kit, shared


def test_pairings_are_read_from_csv_or_pdn_and_errors_name_the_line():
    assert [p.board for p in parse_pairings("1,3,A,B\n1,4,C,D\n")] == [3, 4]
    pdn = '[Round "2"]\n[Board "5"]\n[White "Ann"]\n[Black "Bob"]\n*\n\n' \
          '[Round "2"]\n[Board "6"]\n[White "Cy"]\n[Black "Di"]\n*\n'
    assert [(p.round, p.board, p.white) for p in parse_pairings(pdn)] == \
        [("2", 5, "Ann"), ("2", 6, "Cy")]
    for text, words in [("1,x,A,B\n", "line 1: board"), ("1,1,A\n", "line 1"),
                        ("1,1,A,B\n1,1,C,D\n", "twice"), ("", "no pairings"),
                        ("round,board,white,black\n1,2,A\nB,C\n", "line 2")]:
        with pytest.raises(PairingsError, match=words):
            parse_pairings(text)


def test_a_board_number_of_any_length_is_an_answer_not_a_traceback(client):
    for text in ("9" * 5000, "12345678901", "٣", "-1"):
        answer = client.get(f"/api/board/{text}")
        assert answer.status_code == 404 and "no board" in answer.json()["error"]


def test_the_arbiters_result_is_for_the_game_on_the_card(tmp_path):
    """A board's current game can be steered by a board's password; the console names
    the game the arbiter looked at, and the result goes to that one."""
    from draughtsboard.board.game.record import Game
    from draughtsboard.board.rules.variants import get_variant
    from draughtsboard.hall_protocol.games import game_record
    from draughtsboard.hall_protocol.messages import StateMessage

    service = HallService(parse_broker_url("mqtt://hall:pw@127.0.0.1:1"), tmp_path,
                          sync=False, reply_timeout=0.05)
    try:
        client = TestClient(create_app(service, token=TOKEN))
        looked_at, steered = "00002-20261201-120000", "00003-20261201-120000"
        for game_id in (looked_at, steered):  # the second made current by a state
            state = StateMessage(game_record(game_id, Game(get_variant("russian")))).to_json()
            with service.store.lock:
                service.ingest.handle(1, "state", state, 1.0)
        answer = client.post("/api/arbiter/result", headers=AUTH,
                             json={"board": 1, "game": looked_at, "result": "1-0"})
        assert answer.status_code == 200, answer.text
        assert service.store.game(1, looked_at).game.result == "1-0"
        assert service.store.game(1, steered).game.result is None
        bad = client.post("/api/arbiter/result", headers=AUTH,
                          json={"board": 1, "game": "x", "result": "1-0"})
        assert bad.status_code == 400 and "game" in bad.json()["error"]
    finally:
        service.store.close()
        service.arbiter.close()
