"""The broadcast feed read back with the project's PDN reader and with pydraughts: the
moves the boards recorded, the results they or the arbiter set, and the delay."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from starlette.testclient import TestClient

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall.app import create_app
from draughtsboard.hall.ingest import Ingest
from draughtsboard.hall.store import HallStore
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import MoveRecord, PlyMessage, StateMessage
from tests.hall.words_check import in_english

from ..web.helpers import wait_until
from .test_live import board_moves, hall_moves, play_random

draughts_pdn = pytest.importorskip("draughts.PDN")


def test_the_feed_holds_the_boards_moves_for_both_readers(hall, boards):
    service = hall()
    one = boards(1, variant="international", tags={"Round": "3"})
    two = boards(2, variant="international", tags={"Round": "3"})
    rng = random.Random(13)
    for _ in range(4):
        play_random(one, 3, rng)
        play_random(two, 3, rng)
    one.session.arbiter.declare_result("2-0", "White resigned on the board")
    for board in (one, two):
        wait_until(lambda b=board: hall_moves(service, b.number) == board_moves(b),
                   what="every move in the hall")
    # a resignation the position does not prove: the board's claim, until confirmed
    game_one = service.store.latest(1).game_id
    wait_until(lambda: ("result", game_one) in service.ingest.claims.of(1),
               what="board 1's claimed result")
    client = TestClient(create_app(service, token="tok"))
    claimed = read_pdn(client.get("/round/3/1.pdn").text).games[0].game
    assert claimed.result_text() == "*"
    assert "claims 2-0" in in_english(service.detail(1)["claims"][0]["text"])
    service.confirm(1, "result", game_one, service.ingest.claims.get(1, "result", game_one).id)
    assert service.store.latest(1).result_source == "arbiter"
    text = client.get("/round/3/games.pdn").text
    ours = read_pdn(text)
    assert ours.errors == []
    assert [[m.text for m in g.game.moves] for g in ours.games] == \
        [board_moves(one), board_moves(two)]
    assert [g.game.result_text() for g in ours.games] == ["2-0", "*"]
    theirs = draughts_pdn.PDNReader(pdn_text=text).games
    assert [g.moves for g in theirs] == [board_moves(one), board_moves(two)]
    assert [g.tags.get("Result") for g in theirs] == ["2-0", "*"]
    as_json = client.get("/round/3/games.json").json()
    assert "".join(g["pdn"] for g in as_json["games"]) == text
    assert [g["board"] for g in as_json["games"]] == [1, 2]
    assert [g["result"] for g in as_json["games"]] == ["2-0", "*"]  # as the PDN says
    single = client.get("/round/3/2.pdn")
    assert single.status_code == 200 and read_pdn(single.text).games[0].game.ply == \
        len(board_moves(two))
    assert client.get("/round/3/7.pdn").status_code == 404
    # an empty round: not a text lidraughts would take for PDN (test_lidraughts_broadcast)
    assert client.get("/round/4/games.json").json() == \
        {"games": [], "round": {"name": "4", "boards": []}}


def _state(game: Game, game_id: str) -> bytes:
    return StateMessage(game_record(game_id, game)).to_json()


def test_the_delayed_feed_shows_each_game_as_it_stood(tmp_path):
    store = HallStore(tmp_path, sync=False)
    ingest = Ingest(store)
    variant = get_variant("russian")
    game = Game(variant, tags={"Round": "1"})
    gid = "00001-20261130-120000"
    ingest.handle(1, "state", _state(game, gid), now=1000.0)
    for seq, text in enumerate(["c3-d4", "f6-g5", "g3-f4"], 1):
        played = game.play(text)
        move = MoveRecord(played.text, played.move.path, played.move.captures)
        ingest.handle(1, "ply", PlyMessage(gid, seq, seq, move).to_json(), now=1000.0 + 60 * seq)
    game.set_result("1-0", "resigned")
    ingest.handle(1, "state", _state(game, gid), now=1290.0)
    claim = ingest.claims.get(1, "result", gid)
    ingest.confirm(1, "result", gid, claim.id, now=1300.0)  # a resignation: the arbiter confirms it
    clock = {"now": 1000.0}

    class Service:
        def __init__(self) -> None:
            self.store = store
            # no round started by the hall, no pairings imported
            self.arbiter = SimpleNamespace(round_games={}, pairings={})
            self.ingest = SimpleNamespace(contested_rounds=set)  # no question open

        def wall(self) -> float:
            return clock["now"]

    client = TestClient(create_app(Service(), token="tok", delay=100.0))

    def shown() -> tuple[list[str], str]:
        read = read_pdn(client.get("/round/1/games.pdn").text).games
        if not read:
            return [], ""
        return [m.text for m in read[0].game.moves], read[0].game.result_text()

    clock["now"] = 1050.0  # the game started 50 s ago: not yet public
    assert shown() == ([], "")
    clock["now"] = 1150.0
    assert shown() == ([], "*")
    clock["now"] = 1185.0
    assert shown() == (["c3-d4"], "*")
    clock["now"] = 1390.0
    assert shown() == (["c3-d4", "f6-g5", "g3-f4"], "*")
    clock["now"] = 1400.0
    assert shown() == (["c3-d4", "f6-g5", "g3-f4"], "1-0")
