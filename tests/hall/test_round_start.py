"""Starting a round on many boards, without a broker (the hall's MQTT client is never
connected; what it publishes is counted): the console's answer waits for the disk once,
not once per board; pressed twice it sends no board a second pairing; a disk that refuses
the arbiter's log sends nothing and says so on each pairing, until it takes writes."""

from __future__ import annotations

import json
import os

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall.pairings import parse_pairings
from draughtsboard.hall.service import HallService
from draughtsboard.hall_protocol import parse_broker_url
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import StateMessage, StatusMessage
from tests.hall.words_check import in_english

BOARDS = 60


@pytest.fixture
def service(tmp_path):
    hall = HallService(parse_broker_url("mqtt://hall:x@127.0.0.1:1"), tmp_path, sync=True,
                       wall=lambda: 1_000.0)
    hall.published = []
    hall.client.publish = lambda topic, payload, qos=0: hall.published.append(
        (topic, json.loads(payload)))
    for board in range(1, BOARDS + 1):  # each online with its start-up game, no moves
        startup = f"{board:05d}-20261201-110000"
        hall.ingest.handle(board, "status",
                           StatusMessage(True, "test", 1.0, startup).to_json(), 1.0)
        hall.ingest.handle(board, "state", StateMessage(game_record(
            startup, Game(get_variant("russian")))).to_json(), 1.0)
    hall.import_pairings(parse_pairings("round,board,white,black\n" + "".join(
        f"1,{board},W{board},B{board}\n" for board in range(1, BOARDS + 1))))
    yield hall
    hall.store.close()
    hall.arbiter.close()


def test_a_round_on_many_boards_is_journalled_with_one_flush(service, monkeypatch):
    flushes = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (flushes.append(fd), real_fsync(fd)))
    rows = service.start_round("1")
    assert [row["state"] for row in rows] == ["sent"] * BOARDS
    assert len(service.published) == BOARDS
    assert len(flushes) <= 2  # the start, then every board's new_game together
    commands = [r for r in service.arbiter.journal.records if r["type"] == "command"]
    assert sorted(r["board"] for r in commands) == list(range(1, BOARDS + 1))


def test_a_round_started_twice_sends_each_board_one_pairing(service):
    service.start_round("1")
    rows = service.start_round("1")  # pressed again before any board answered
    assert [row["state"] for row in rows] == ["sent"] * BOARDS
    assert len(service.published) == BOARDS
    assert len({command["id"] for _, command in service.published}) == BOARDS


def test_a_disk_that_refuses_the_log_sends_nothing_and_says_so(service, monkeypatch):
    def full(records):
        raise OSError(28, "No space left on device")

    start = service.arbiter.journal.append_all
    monkeypatch.setattr(service.arbiter.journal, "append_all",
                        lambda records: full(records) if len(records) > 1 else start(records))
    rows = service.start_round("1")
    assert {row["state"] for row in rows} == {"waiting"}
    assert all("could not journal" in in_english(row["note"]) for row in rows)
    assert service.published == []
    monkeypatch.undo()  # space again: pressed again, they go
    assert {row["state"] for row in service.start_round("1")} == {"sent"}
    assert len(service.published) == BOARDS
