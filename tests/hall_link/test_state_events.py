"""The events a board's state carries to the hall say what they say as messages too, so
the hall's pages show them in their reader's language: the clock's start was once
"clock-start: clock started with the first move" on a Russian page, the board's English
text being all the state carried. An older board's event (text only) still reads, and a
message of the wrong shape is refused in one line."""

from __future__ import annotations

import json

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall_link.outbox import Outbox
from draughtsboard.hall_protocol.messages import MessageError, StateMessage

RUSSIAN = get_variant("russian")


def _state_payload(game: Game) -> bytes:
    out = Outbox().plan("00001-20261207-120000", game, {}, 1000.0)
    return next(p.payload for p in out if p.kind == "state")


def _state(game: Game) -> StateMessage:
    return StateMessage.from_json(_state_payload(game))


def test_an_event_s_message_reaches_the_hall_with_its_text():
    game = Game(RUSSIAN)
    game.add_event("clock-start", "clock started with the first move", t_wall=1000.0,
                   message=Message.of("pdn.text.clock_first_move"))
    game.add_event("note", "an older board's words", t_wall=1001.0)
    events = _state(game).events
    assert events[0]["message"] == {"id": "pdn.text.clock_first_move"}
    assert events[0]["text"] == "clock started with the first move"
    assert "message" not in events[1] and events[1]["text"] == "an older board's words"


def test_an_event_s_message_of_the_wrong_shape_is_refused_in_one_line():
    game = Game(RUSSIAN)
    game.add_event("note", "words", t_wall=1000.0, message=Message.of("pdn.text.clock_first_move"))
    payload = json.loads(_state_payload(game))
    payload["events"][0]["message"] = {"id": "not an id!"}
    with pytest.raises(MessageError, match="events: message: not a message id"):
        StateMessage.from_json(json.dumps(payload).encode())

