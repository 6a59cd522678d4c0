"""The board's health as the arbiter reads it: stuck switches and chattering reeds named,
and a board that needs the arbiter for them; a malformed report is left out."""

from __future__ import annotations

from draughtsboard.hall.ingest import BoardLive
from draughtsboard.hall.views import health_notes, needs_arbiter


def test_stuck_and_chattering_switches_are_sentences_and_need_the_arbiter():
    health = {"error": None, "chattering": [9],
              "stuck": [{"square": 17, "closed": True, "seconds": 95},
                        {"square": 4, "closed": False, "seconds": 120}]}
    assert health_notes(health) == [
        "switch chatters (a loose or failing reed) on square(s) 9",
        "switch 17 closed where no piece should be for 95 s: stuck, or a piece out of place",
        "switch 4 open under a piece for 120 s: stuck, or a piece out of place"]
    live = BoardLive(online=True, seen=True, health={"stuck": health["stuck"]})
    assert "board health" in needs_arbiter(live, None)
    assert "board health" not in needs_arbiter(BoardLive(online=True, seen=True,
                                                         health={"stuck": []}), None)


def test_a_malformed_health_report_is_left_out():
    assert health_notes("nonsense") == []
    assert health_notes({"stuck": ["x", {"square": "1"}, 5], "chattering": ["a"],
                         "error": 7}) == []
    assert health_notes({"error": "controller died"}) == ["board error: controller died"]
