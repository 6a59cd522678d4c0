"""The hall's protocol alone, without a broker: topics read back only when they are a
board's, commands read back as they were sent and refused when forged, and the modes a
message may carry are the program's modes."""

from __future__ import annotations

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
