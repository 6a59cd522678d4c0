"""The hall's protocol alone, without a broker: topics read back only when they are a
board's, commands read back as they were sent and refused when forged, and the modes a
message may carry are the program's modes."""

from __future__ import annotations

import json

import pytest

from draughtsboard.board.mode import Mode
from draughtsboard.hall_protocol.messages import MODES, Command, MessageError
from draughtsboard.hall_protocol.topics import board_topic, parse_topic


def test_a_board_topic_reads_back_and_anything_else_is_nobody_s():
    assert parse_topic(board_topic(12, "ply")) == (12, "ply")
    assert parse_topic(board_topic(9999, "command")) == (9999, "command")
    for topic in ("draughtsboard/v1/board/0/ply", "draughtsboard/v1/board/012/ply",
                  "draughtsboard/v1/board/12/ply/x",
                  "draughtsboard/v2/board/12/ply", "draughtsboard/v1/board/12/secret"):
        assert parse_topic(topic) is None, topic
    with pytest.raises(ValueError):
        board_topic(10_000, "ply")


def test_a_topic_with_other_digits_names_no_board():
    assert parse_topic("draughtsboard/v1/board/٣/ply") is None


def test_a_command_reads_back_as_sent_and_a_forged_one_is_refused():
    sent = Command("c1", "new_game", "00001-20260101-120000", tags={"White": "Ann"},
                   fen="W:W22:B18")
    assert Command.from_json(sent.to_json()) == sent
    for forged in (b'{"id": "c2", "cmd": "format_disk"}', b'{"id": "c3", "cmd": "resend"}',
                   b'{"id": "c4", "cmd": "result", "game": "../../etc"}', b"[]"):
        with pytest.raises(MessageError):
            Command.from_json(forged)


def test_the_modes_a_message_carries_are_the_program_s_modes():
    assert set(MODES) == {mode.value for mode in Mode}


# -- a result's reason, typed ------------------------------------------------------------------

def _state_with(key, value) -> bytes:
    from draughtsboard.board.game.record import Game
    from draughtsboard.board.rules.variants import get_variant
    from draughtsboard.hall_protocol.games import game_record
    from draughtsboard.hall_protocol.messages import StateMessage

    payload = StateMessage(game_record("00001-20261130-120000",
                                       Game(get_variant("russian")))).to_json()
    data = json.loads(payload)
    data[key] = value
    return json.dumps(data).encode()


def test_a_rules_reason_crosses_the_wire_typed_beside_its_english():
    from draughtsboard.board.game.record import Game
    from draughtsboard.board.game.records import Setter
    from draughtsboard.board.rules.draws import REPETITION, Reason, ReasonCode
    from draughtsboard.board.rules.variants import get_variant
    from draughtsboard.hall_protocol.games import game_record
    from draughtsboard.hall_protocol.messages import GameRecord

    game = Game(get_variant("russian"))
    game.set_result("1/2-1/2", Reason(ReasonCode.KINGS_ONLY, 15))
    record = game_record("00001-20261130-120000", game)
    fields = record.fields()
    assert fields["result_reason"] == "draw: 15 moves with kings only, no man moved and " \
        "no capture"  # what a hall before the typed reason reads
    assert fields["result_rule"] == {"code": "kings_only", "count": 15}
    assert "result_rules" not in fields
    assert GameRecord.from_fields(json.loads(json.dumps(fields))) == record
    # a draw the board's arbiter accepted: every rule's reason, a list
    game.set_result("1/2-1/2", (REPETITION, Reason(ReasonCode.KINGS_ONLY, 15)),
                    Setter.ARBITER)
    record = game_record("00001-20261130-120000", game)
    fields = record.fields()
    assert fields["result_rules"] == [{"code": "repetition"},
                                      {"code": "kings_only", "count": 15}]
    assert "result_rule" not in fields and fields["result_reason"].endswith(
        "(accepted by the arbiter)")
    assert GameRecord.from_fields(json.loads(json.dumps(fields))) == record
    game.set_result("1-0", "White resigned")  # a person's words: no rule, nothing sent
    fields = game_record("00001-20261130-120000", game).fields()
    assert "result_rule" not in fields and "result_rules" not in fields
    assert fields["result_reason"] == "White resigned"
    parsed = GameRecord.from_fields(fields)
    assert (parsed.result_rule, parsed.result_rules) == (None, ())


@pytest.mark.parametrize("key, value, why", [
    ("result_rule", [{"code": "kings_only", "count": 15}], "{code, count}"),
    ("result_rule", {"code": "no_such_rule", "count": 15}, "a code the rules know"),
    ("result_rule", {"code": "kings_only"}, "whole number"),
    ("result_rule", {"code": "kings_only", "count": 10 ** 9}, "whole number"),
    ("result_rule", {"code": "kings_only", "count": 0}, "whole number"),
    ("result_rule", {"code": "kings_only", "count": True}, "whole number"),
    ("result_rule", {"code": "repetition", "count": 3}, "no count"),
    ("result_rules", {"code": "kings_only"}, "a list"),
    ("result_rules", ["kings_only"], "{code, count}"),
    ("result_rules", [{"code": "no_such_rule"}], "a code the rules know"),
    ("result_rules", [{"code": "repetition"}] * 9, "a list"),
])
def test_a_bad_rules_reason_makes_the_message_bad(key, value, why):
    from draughtsboard.hall_protocol.messages import StateMessage

    with pytest.raises(MessageError, match=key) as error:
        StateMessage.from_json(_state_with(key, value))
    assert why in str(error.value)
