"""Irregular moves and the arbiter's corrections in a game in play (virtual time): what
is recorded, what the page shows, and that no flag ever needs a restart to get out of."""

from __future__ import annotations

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.play import ArbiterError
from draughtsboard.recording import Recorder

from ..rendered import in_english

C3, D4, E5, D6, F4, H8 = 22, 18, 15, 10, 19, 4


def test_russian_games_are_played_under_fmjd_and_the_journal_says_so(play):
    assert play.view()["irregularities"] == "fmjd"
    assert play.recorder.game(play.game.game_id).tags["Irregularities"] == "fmjd"


def test_an_irregular_move_the_opponent_plays_on_from_stands_with_its_comment(play):
    v = play.hand(("lift", C3), ("place", E5))
    assert v["state"] == "illegal" and "c3-e5" in in_english(v["pending_irregularity"])
    assert any(e["kind"] == "illegal" for e in v["log"])
    v = play.move(D6, F4, E5)  # Black plays on: d6 takes the white man on e5
    assert v["moves"] == ["c3-e5", "d6:f4"] and v["state"] == "ready"
    assert v["irregular_moves"] == [0]
    pdn = play.export_pdn()
    assert "1. c3-e5 {irregular (FMJD Annex 1, 5.4): a piece moved irregularly; " \
           "allowed to stand [%fen B:W15,21,23-32:B1-12]}" in pdn.replace("\n", " ")
    assert [m.text for m in read_pdn(pdn).games[0].game.moves] == ["c3-e5", "d6:f4"]
    play.close()
    reread = Recorder(play.recorder.directory).game(play.game.game_id)
    assert [m.text for m in reread.moves] == ["c3-e5", "d6:f4"]
    assert reread.position == play.game.tracker.position


def test_the_arbiter_accepts_the_position_on_the_board(play):
    assert play.hand(("lift", C3), ("place", E5))["state"] == "illegal"
    fen = play.arbiter.accept_position(white_to_move=False)
    v = play.view()
    assert v["state"] == "ready" and v["fen"] == fen
    assert v["moves"] == [] and v["white_to_move"] is False
    assert any(e["kind"] == "correction" for e in v["log"])
    game = play.recorder.game(play.game.game_id)
    assert game.position.fen() == fen and [e.kind for e in game.events][-1] == "correction"
    assert play.move(D6, F4, E5)["moves"] == ["d6:f4"]


def test_the_arbiter_takes_back_to_an_earlier_ply(play):
    assert play.move(C3, D4)["moves"] == ["c3-d4"]
    assert len(play.move(9, 13)["moves"]) == 2
    play.arbiter.take_back_to(0)
    v = play.view()
    assert v["state"] == "setup" and v["moves"] == []
    assert sorted(v["intents"]["restore"]) == sorted([9, 13, C3, D4])
    assert play.hand(("setup", None))["state"] == "ready"
    assert play.recorder.game(play.game.game_id).ply == 0 and play.game.moves_recorded == 0
    with pytest.raises(ArbiterError, match="no ply 5"):
        play.arbiter.take_back_to(5)


def test_a_position_the_switches_cannot_tell_needs_a_fen(play):
    assert play.hand(("place", 17))["state"] == "disturbed"  # whose piece is it?
    with pytest.raises(ArbiterError, match="FEN"):
        play.arbiter.accept_position(white_to_move=True)
    fen = "W:W21-32:B1-11,17"  # a black man on b4, and none on h6
    assert play.arbiter.accept_position(white_to_move=True, fen=fen) == fen
    v = play.view()
    assert v["state"] == "setup" and v["intents"]["restore"] == [12]
    assert play.hand(("lift", 12))["state"] == "ready"


def test_a_resumed_game_keeps_its_policy(start_play, tmp_path):
    policies = []
    for irregular in ("restore", None):  # a new game under restore; resumed without a word
        play = start_play(data=tmp_path / "policy", irregular=irregular)
        policies.append(play.game.tracker.policy.name)
        play.close()
    assert policies == ["restore", "restore"]
