"""Why a match stopped crosses as a message, never a sentence: each board renders it in
its own language, and a reason the other board sends that is not one of ours (an
unknown id, params missing, of the wrong type or too long) is refused in one line."""

from __future__ import annotations

import json

import pytest

from draughtsboard.board.message import Message
from draughtsboard.board.rules.fen import initial_position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.opponents.match_state import MatchRecord, MatchState
from draughtsboard.opponents.match_stops import PARAMS, check, stop
from draughtsboard.words import english, words_for

RUSSIAN = get_variant("russian")
START = initial_position(RUSSIAN).fen()
TAGS = {"Event": "Towns match", "Round": "1", "TimeControl": "600+5"}
SAMPLES = {"ply": 3, "move": "c3-d4", "white": "c3-d4", "black": "a3-b4", "tag": "Round",
           "fen": START, "result": "1-0", "plies": 12, "detail": "name used"}


def sample(message_id: str) -> Message:
    params = {name: SAMPLES[name] for name in PARAMS[message_id]}
    if message_id == "match.stop.apart":
        params = {"white": 5, "black": 2}
    return stop(message_id, **params)


@pytest.mark.parametrize("message_id", sorted(PARAMS))
def test_every_reason_reads_in_every_language_and_crosses_whole(message_id):
    message = sample(message_id)
    assert check(json.loads(json.dumps(message.as_json())), "stop") == message
    stopped = Message.of("match.stopped", name="Anna", detail=message)
    for language in ("en", "ru", "fr", "nl"):
        text = words_for(language)(stopped)
        assert "{" not in text and message_id not in text and "\n" not in text


def test_a_russian_board_says_the_other_boards_stop_in_russian():
    """White's board (English) stops; Black's board, reading the record, holds the same
    reason and says it in Russian: the same sentence in each board's language."""
    white = MatchState("m1", "white", "Anna", "russian", START, TAGS)
    black = MatchState("m1", "black", "Boris", "russian", START, TAGS)
    white.conflict = stop("match.stop.ply_differs", ply=1, white="c3-d4", black="c3-b4")
    black.receive("record", white.record().to_json(), now=1.0)
    assert black.conflict == white.conflict
    said = Message.of("match.stopped", name="Anna", detail=black.conflict)
    assert "ход 1 различается" in words_for("ru")(said) and "судья" in words_for("ru")(said)
    assert "move 1 differs" in english(said)


@pytest.mark.parametrize("bad", [
    "ply 1 differs: a sentence",  # words, not a message
    {"id": "match.stop.whatever"},  # an id not ours
    {"id": "opponent.error.protocol", "params": {"detail": "x"}},  # ours, not a stop
    {"id": "match.stop.ply_differs", "params": {"ply": 1, "white": "c3-d4"}},  # missing
    {"id": "match.stop.ply_differs",
     "params": {"ply": 1, "white": "c3-d4", "black": "a3-b4", "extra": "x"}},
    {"id": "match.stop.ply_differs", "params": {"ply": "1", "white": "a", "black": "b"}},
    {"id": "match.stop.ply_differs", "params": {"ply": 1, "white": "a" * 121, "black": "b"}},
    {"id": "match.stop.apart", "params": {"white": -1, "black": 2}},
    {"id": "match.stop.illegal.white", "params": {"ply": 1, "move": {"id": "side.white"}}},
    {"id": "match.stop.tag", "params": {"tag": "Round", "white": "1\n2", "black": "1"}},
])
@pytest.mark.parametrize("field", ["stop", "refused"])
def test_a_reason_not_ours_is_refused_in_one_line_and_changes_nothing(bad, field):
    white = MatchState("m1", "white", "Anna", "russian", START, TAGS)
    black = MatchState("m1", "black", "Boris", "russian", START, TAGS)
    record = json.loads(white.record().to_json())
    record[field] = bad
    refusal = black.receive("record", json.dumps(record).encode(), now=1.0)
    assert refusal is not None and "refused" in refusal and field in refusal
    assert "\n" not in refusal and len(refusal) < 300
    assert black.conflict is None and black.theirs is None and black.refused == 1


def test_a_record_carries_its_reasons_as_messages():
    record = MatchRecord("m1", "white", "Anna", "russian", START, TAGS,
                         stop=sample("match.stop.ply_differs"),
                         refused=sample("match.stop.name_used.black"))
    data = json.loads(record.to_json())
    assert data["stop"] == {"id": "match.stop.ply_differs",
                            "params": {"black": "a3-b4", "ply": 3, "white": "c3-d4"}}
    assert MatchRecord.from_json(record.to_json()) == record
