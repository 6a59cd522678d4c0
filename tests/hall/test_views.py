"""The board's health as the arbiter reads it: stuck switches and chattering reeds named,
and a board that needs the arbiter for them; a malformed report is left out."""

from __future__ import annotations

from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall.ingest import BoardLive
from draughtsboard.hall.views import health_notes, needs_arbiter
from tests.hall.words_check import in_english


def test_stuck_and_chattering_switches_are_sentences_and_need_the_arbiter():
    health = {"error": None, "chattering": [9],
              "stuck": [{"square": 17, "closed": True, "seconds": 95},
                        {"square": 4, "closed": False, "seconds": 120}]}
    assert [in_english(n) for n in health_notes(health, get_variant("russian"))] == [
        # squares as the game writes them
        "switch chatters (a loose or failing reed) on square b6",
        "switch under b4 closed where no piece should be for 95 s: stuck, or a piece out "
        "of place",
        "switch under h8 open under a piece for 120 s: stuck, or a piece out of place"]
    assert in_english(health_notes(health, get_variant("international"))[1]).startswith(
        "switch under 17 closed")  # the international game numbers its squares
    assert health_notes({"stuck": [{"square": 33, "closed": True}]},
                        get_variant("russian")) == []  # no such square on the board
    live = BoardLive(online=True, seen=True, health={"stuck": health["stuck"]})
    assert "board health" in [in_english(n) for n in needs_arbiter(live, None)]
    assert not needs_arbiter(BoardLive(online=True, seen=True, health={"stuck": []}), None)


def test_a_malformed_health_report_is_left_out():
    assert health_notes("nonsense") == []
    assert health_notes({"stuck": ["x", {"square": "1"}, 5], "chattering": ["a"],
                         "error": 7}) == []
    assert [in_english(n) for n in health_notes({"error": "controller died"})] == \
        ["board error: controller died"]
