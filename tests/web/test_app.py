"""The page's HTTP API on a live simulated session: hands, PDN, and the arbiter's token."""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():
    # Starlette 1.x suggests httpx2 for its TestClient; httpx is what it runs on today.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from draughtsboard.board.message import Message
from draughtsboard.web.app import create_app
from draughtsboard.words import words_for

from .helpers import TOKEN, XSS, wait_until

ARBITER_ACTIONS = [
    ("new-game", {"tags": {"Event": "Club night"}}),
    ("tags", {"tags": {"White": "Someone else"}}),
    ("result", {"result": "1-0", "reason": "Black resigned"}),
    ("acknowledge", {}),
    ("withdraw-result", {}),
    ("accept-draw", {}),
    ("clock", {"action": "start"}),
    ("accept-position", {"white_to_move": False}),
    ("take-back", {"ply": 0}),
]


@pytest.fixture
def client(session):
    with TestClient(create_app(session), client=("127.0.0.1", 50000)) as test_client:
        yield test_client


def state(client) -> dict:
    return client.get("/api/state").json()


def play(client, session, *actions) -> None:
    plies = session.game.moves_recorded
    response = client.post("/api/hands", json={"actions": [list(a) for a in actions]})
    assert response.status_code == 200, response.text
    wait_until(lambda: session.game.moves_recorded > plies, what="the move to be recorded")


def test_page_and_assets_are_served_with_a_strict_policy(client):
    page = client.get("/")
    assert page.status_code == 200
    assert "<script src=\"/static/app.js\"" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/style.css").status_code == 200
    # the kit the hall's pages share, at the same address: scripts as modules need their type
    for name in ("dom.js", "clock.js", "board.js", "net.js"):
        kit = client.get("/kit/" + name)
        assert kit.status_code == 200 and kit.headers["content-type"].startswith("text/javascript")


def test_the_view_shows_the_position_and_the_tags_as_data(client):
    view = state(client)
    assert view["variant"] == "russian" and view["white_to_move"] is True
    assert view["columns"]["22"] == "w" and view["columns"]["1"] == "b"
    assert view["tags"]["White"] == XSS  # data in JSON; the page sets it as text
    assert view["state"] == "ready" and view["hands"] is True


def test_hands_play_a_move_and_the_pdn_has_it(client, session):
    play(client, session, ("lift", 22), ("place", 18))
    view = wait_until(lambda: (v := state(client))["moves"] == ["c3-d4"] and v)
    assert view["white_to_move"] is False
    pdn = client.get("/api/game.pdn")
    assert pdn.status_code == 200
    assert "attachment" in pdn.headers["content-disposition"]
    assert "1. c3-d4" in pdn.text


def test_an_illegal_move_is_flagged_until_restored(client, session):
    client.post("/api/hands", json={"actions": [["lift", 21], ["place", 13]]})
    view = wait_until(lambda: "illegal" in (v := state(client))["flags"] and v)
    assert 13 in view["intents"]["illegal"] and set(view["intents"]["restore"]) == {13, 21}
    assert view["leds"]["13"] == ["fast_blink", "red"]
    assert view["unacknowledged"] == 1
    client.post("/api/hands", json={"actions": [["lift", 13], ["place", 21]]})
    view = wait_until(lambda: (v := state(client))["state"] == "ready" and v)
    assert view["flags"] == [] and view["moves"] == []


def test_hands_refuse_nonsense(client):
    assert client.post("/api/hands", json={"actions": [["lift", 99]]}).status_code == 400
    assert client.post("/api/hands", json={"actions": [["throw", 1]]}).status_code == 400
    assert client.post("/api/hands", content=b"actions", headers={
        "content-type": "text/plain"}).status_code == 400


@pytest.mark.slow
@pytest.mark.parametrize("action,body", ARBITER_ACTIONS, ids=[a for a, _ in ARBITER_ACTIONS])
@pytest.mark.parametrize("token", [None, "wrong-token", ""], ids=["none", "wrong", "empty"])
def test_arbiter_actions_need_the_token(client, session, action, body, token):
    client.post("/api/hands", json={"actions": [["lift", 21], ["place", 13]]})  # a flag
    wait_until(lambda: state(client)["unacknowledged"] == 1)
    before = state(client)
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    response = client.post(f"/api/arbiter/{action}", json=body, headers=headers)
    assert response.status_code == 401
    after = state(client)
    for key in ("game_id", "tags", "result", "unacknowledged", "moves"):
        assert after[key] == before[key], key


def test_new_game_with_the_token(client, session):
    play(client, session, ("lift", 22), ("place", 18))
    old = session.game.game_id
    response = client.post("/api/arbiter/new-game", json={"tags": {"Event": "Club night"}},
                           headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200, response.text
    view = state(client)
    assert view["game_id"] != old and view["moves"] == []
    assert view["tags"]["Event"] == "Club night"
    assert view["state"] == "setup" and view["flags"] == ["restore"]  # the board is wrong
    assert session.game.recorder.load(old).result_text() == "*"
    client.post("/api/hands", json={"actions": [["setup", None]]})
    wait_until(lambda: state(client)["state"] == "ready")


def test_set_tags_with_the_token_survives_a_resume(client, session):
    response = client.post("/api/arbiter/tags", json={"tags": {"Round": "3"}},
                           headers={"X-Arbiter-Token": TOKEN})
    assert response.status_code == 200, response.text
    assert state(client)["tags"]["Round"] == "3"
    assert '[Round "3"]' in client.get("/api/game.pdn").text
    bad = client.post("/api/arbiter/tags", json={"tags": {"Bad Name": "x"}},
                      headers={"X-Arbiter-Token": TOKEN})
    assert bad.status_code == 400


def test_declare_result_with_the_token(client, session):
    headers = {"Authorization": f"Bearer {TOKEN}"}
    bad = client.post("/api/arbiter/result", json={"result": "3-0"}, headers=headers)
    assert bad.status_code == 400
    response = client.post("/api/arbiter/result", json={"result": "0-1", "reason": "resigned"},
                           headers=headers)
    assert response.status_code == 200, response.text
    view = state(client)
    assert view["result"] == "0-1" and view["result_reason"] == "resigned"
    assert session.game.recorder.unfinished_game() is None


def test_acknowledge_with_the_token(client, session):
    client.post("/api/hands", json={"actions": [["lift", 21], ["place", 13]]})
    wait_until(lambda: state(client)["unacknowledged"] == 1)
    response = client.post("/api/arbiter/acknowledge", json={},
                           headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200 and response.json()["result"] == 1
    assert state(client)["unacknowledged"] == 0


def test_the_view_is_json_with_a_version(client):
    text = client.get("/api/state").text
    assert json.loads(text)["version"] >= 1


def test_accept_position_and_take_back_with_the_token(client, session):
    headers = {"Authorization": f"Bearer {TOKEN}"}
    client.post("/api/hands", json={"actions": [["lift", 22], ["place", 15]]})  # c3-e5
    wait_until(lambda: state(client)["state"] == "illegal")
    response = client.post("/api/arbiter/accept-position", json={"white_to_move": False},
                           headers=headers)
    assert response.status_code == 200, response.text
    wait_until(lambda: state(client)["state"] == "ready")
    assert state(client)["white_to_move"] is False
    response = client.post("/api/arbiter/take-back", json={"ply": 3}, headers=headers)
    assert response.status_code == 400 and "no ply 3" in response.json()["error"]
    # the refusal as a message too, for the page to say in its reader's language
    said = Message.from_json(response.json()["message"])
    assert words_for("ru")(said) == "нет полухода 3: партия на полуходе 0"
    for body in ({"white_to_move": "yes"}, {"white_to_move": True, "fen": 7}):
        response = client.post("/api/arbiter/accept-position", json=body, headers=headers)
        assert response.status_code == 400
    response = client.post("/api/arbiter/take-back", json={"ply": "1"}, headers=headers)
    assert response.status_code == 400
