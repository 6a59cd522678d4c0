"""Answers to the hall's commands come over a board's topic, so a board's password can
send them: only answers to commands the hall sent that board are written down (a few per
command), and an answer naming a game no board sent does not hide the round's game."""

from __future__ import annotations

import json
import threading

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall.pairings import parse_pairings
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import Reply, StateMessage, StatusMessage
from draughtsboard.hall_protocol.topics import board_topic

from ..web.helpers import wait_until
from .test_bad_input import RawClient


def test_answers_to_commands_the_hall_never_sent_are_not_written(hall, broker):
    service = hall()
    records = len(service.arbiter.journal.records)
    forger = RawClient(broker.venue.board_url(3), "board3")
    try:
        for number in range(300):
            forger.client.publish(board_topic(3, "reply"),
                                  Reply(f"hall-{number:016x}", True, "x").to_json(), qos=1)
        forger.publish(board_topic(3, "reply"), b"not json")
        wait_until(lambda: service.bad_messages >= 301, what="the answers dropped")
        assert len(service.arbiter.journal.records) == records
    finally:
        forger.close()


def test_a_forged_answer_to_new_game_does_not_hide_the_rounds_game(hall, broker):
    service = hall()
    service.import_pairings(parse_pairings("round,board,white,black\n5,1,Ann,Bob\n"))
    board1 = RawClient(broker.venue.board_url(1), "board1")
    try:
        board1.subscribe(board_topic(1, "command"))
        # the board online with its start-up game: the hall sends the pairing to it
        startup = "00001-20261201-110000"
        board1.publish(board_topic(1, "status"),
                       StatusMessage(True, "test", 1.0, startup).to_json(), retain=True)
        board1.publish(board_topic(1, "state"), StateMessage(game_record(
            startup, Game(get_variant("russian")))).to_json(), retain=True)
        wait_until(lambda: service.store.game(1, startup) is not None, what="the start-up game")
        answers = []
        starting = threading.Thread(target=lambda: answers.append(service.start_round("5")))
        starting.start()
        wait_until(lambda: board1.messages, what="the new_game command")
        command = json.loads(board1.messages[0][1])
        forged = "77777-20300101-000000"
        board1.publish(board_topic(1, "reply"), Reply(command["id"], True, forged).to_json())
        starting.join(20)  # the console answers at once; the board's answer comes after
        wait_until(lambda: service.arbiter.round_games.get((1, "5")) == forged,
                   what="the answer taken")
        # the board's real game for the round (as it would come when the board is back)
        game = Game(get_variant("russian"), tags={"Round": "5", "White": "Ann",
                                                   "Black": "Bob"})
        game.play("c3-d4")
        board1.publish(board_topic(1, "state"),
                       StateMessage(game_record("00002-20261201-120000", game)).to_json())
        wait_until(lambda: service.store.game(1, "00002-20261201-120000") is not None,
                   what="the real game")
        from starlette.testclient import TestClient

        from draughtsboard.hall.app import create_app

        client = TestClient(create_app(service, token="t"))
        shown = read_pdn(client.get("/round/5/1.pdn").text).games[0].game
        assert [p.text for p in shown.moves] == ["c3-d4"]  # not hidden
        asked = [a["game"] for a in service.detail(1)["asked_again"]]
        assert forged in asked  # and the named game is asked for, on the card
    finally:
        board1.close()
