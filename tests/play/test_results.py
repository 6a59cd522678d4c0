"""Results: a draw the rules declare is offered to the arbiter (not written before), a
declared result has no default and can be withdrawn until the next game starts (virtual
time)."""

from __future__ import annotations

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.game.records import Setter
from draughtsboard.board.rules import get_variant
from draughtsboard.board.rules.draws import REPETITION, draw_rules
from draughtsboard.play import ArbiterError
from draughtsboard.recording import Recorder

from ..rendered import in_english

# White king a1 (29) and men e1, g1; Black king h6 (12) and men b8, d8: the kings shuttle
KINGS = "W:WK29,31,32:BK12,1,2"
SHUTTLE = [(29, 25), (12, 16), (25, 29), (16, 12)]


def repeat_three_times(play) -> dict:
    v = {}
    for start, end in SHUTTLE * 2:
        v = play.move(start, end)
    return v


def test_a_repetition_is_offered_to_the_arbiter_not_written_as_the_result(start_play):
    play = start_play(fen=KINGS)
    v = repeat_three_times(play)
    assert v["result"] is None
    assert in_english(v["draw_claim"]) == {"result": "1/2-1/2",
                                           "reasons": ["threefold repetition"]}
    assert v["log"][-1]["kind"] == "draw" and v["unacknowledged"] == 1
    pdn = play.export_pdn()
    assert '[Result "*"]' in pdn and pdn.rstrip().endswith("*")
    assert "draw by the rules, offered to the arbiter" in pdn
    summary = play.recorder.list_games()[-1]
    assert summary.result == "*" and summary.status == "unfinished"
    # the arbiter accepts: now it is the result, with its reason
    assert play.arbiter.accept_draw() == "1/2-1/2"
    v = play.view()
    assert v["result"] == "1/2-1/2" and v["draw_claim"] is None
    # typed: the rules' reasons, accepted by the arbiter (the result's setter); the page
    # says it in its reader's language, PDN in the English it has always had
    assert in_english(v["result_reason"]) == "threefold repetition (accepted by the arbiter)"
    game = play.recorder.game(play.recorder.list_games()[-1].game_id)
    assert (game.result_why, game.result_by) == ((REPETITION,), Setter.ARBITER)
    assert '[Result "1/2-1/2"]' in play.export_pdn()
    assert "{draw: threefold repetition (accepted by the arbiter)}" in play.export_pdn()
    with pytest.raises(ArbiterError, match="already has a result"):
        play.arbiter.accept_draw()


def test_a_draw_is_offered_once_while_the_same_reasons_hold(start_play):
    play = start_play(fen=KINGS)
    repeat_three_times(play)
    v = {}
    for start, end in SHUTTLE:  # the position repeats again: the same reason holds
        v = play.move(start, end)
    assert [entry["kind"] for entry in v["log"]].count("draw") == 1
    assert play.export_pdn().count("draw by the rules, offered to the arbiter") == 1


def test_no_draw_to_accept_where_the_rules_declare_none(play):
    with pytest.raises(ArbiterError, match="declare no draw"):
        play.arbiter.accept_draw()


def test_a_preset_that_ends_the_game_writes_the_draw_with_a_comment(start_play, monkeypatch):
    # no shipped preset ends the game by itself; one that did would be recorded so
    automatic = draw_rules("russian").__class__(
        "russian", "fmjd-64", draw_rules("russian").rules, automatic=True)
    monkeypatch.setattr("draughtsboard.board.game.record.draw_rules",
                        lambda family, preset=None: automatic)
    play = start_play(fen=KINGS)
    v = repeat_three_times(play)
    assert v["result"] == "1/2-1/2"
    assert "recorded without the arbiter" in v["result_reason"]
    assert "the rules end the game" in play.export_pdn()


def test_the_rules_draw_is_not_the_result_of_a_game_read_back():
    game = Game.from_fen(get_variant("russian"), KINGS)
    for start, end in SHUTTLE * 2:
        game.play(f"{start}-{end}")
    assert game.draw_reason() == REPETITION
    assert game.result_text() == "*"


def test_a_declared_result_needs_a_choice_and_can_be_withdrawn(play):
    with pytest.raises(ArbiterError, match="choose a result"):
        play.arbiter.declare_result("*")
    with pytest.raises(ArbiterError, match="not a result"):
        play.arbiter.declare_result("")
    play.move(22, 18)
    play.arbiter.declare_result("1-0", "Black resigned")
    v = play.view()
    assert v["result"] == "1-0" and v["result_withdrawable"] is True
    assert play.recorder.unfinished_game() is None
    with pytest.raises(ArbiterError, match="withdraw it first"):
        play.arbiter.declare_result("0-1")
    # the arbiter pressed the wrong button: withdrawn, the game goes on
    assert play.arbiter.withdraw_result() == "result 1-0 withdrawn by the arbiter"
    v = play.view()
    assert v["result"] is None and v["result_withdrawable"] is False
    assert play.recorder.unfinished_game()[0] == play.game.game_id
    assert play.move(11, 16)["moves"] == ["c3-d4", "f6-g5"]
    with pytest.raises(ArbiterError, match="no result to withdraw"):
        play.arbiter.withdraw_result()
    pdn = play.export_pdn()
    assert "result 1-0 withdrawn by the arbiter" in pdn and '[Result "*"]' in pdn
    # read again from disk, after a restart: the same open game
    play.close()  # (one writer per data directory)
    with Recorder(play.recorder.directory) as again:
        game = again.game(play.game.game_id)
        assert game.result is None and [m.text for m in game.moves] == ["c3-d4", "f6-g5"]
        assert again.unfinished_game()[0] == play.game.game_id


def test_a_withdrawn_result_after_moves_on_the_board_asks_for_the_position(play):
    play.move(22, 18)
    play.arbiter.declare_result("1/2-1/2")
    # moves made after the result are not recorded ...
    v = play.move(11, 16)
    assert any("after the result" in in_english(e["text"]) for e in v["log"])
    play.arbiter.withdraw_result()
    # ... so the board must show the recorded position again before play goes on
    v = play.view()
    assert v["state"] == "setup"
    assert in_english(v["guidance"][0]["steps"]) == ["Move the piece on g5 to f6"]
    v = play.hand(("lift", 16), ("place", 11))
    assert v["state"] == "ready"
    assert v["moves"] == ["c3-d4"] and v["white_to_move"] is False


def test_the_result_the_rules_impose_stands(play):
    play.arbiter.new_game({"Event": "Endgame"}, fen="W:W22:B18")
    assert play.hand(("setup", None))["state"] == "ready"
    v = play.move(22, 15, 18)
    assert v["result"] is not None and v["result_withdrawable"] is False
    with pytest.raises(ArbiterError, match="its result stands"):
        play.arbiter.withdraw_result()
