"""Irregular moves and the arbiter's corrections in a live play session: what is recorded,
what the page shows, and that no flag ever needs a restart to get out of."""

from __future__ import annotations

import json

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.play import ArbiterError
from draughtsboard.recording import Recorder

from .helpers import wait_until

C3, D4, E5, D6, F4, H8 = 22, 18, 15, 10, 19, 4


def view(session) -> dict:
    return json.loads(session.view()[1])


def hands_until(session, actions, predicate, what=""):
    session.hand(actions)
    return wait_until(lambda: (v := view(session)) and predicate(v) and v, what=what)


def test_russian_games_are_played_under_fmjd_and_the_journal_says_so(session):
    v = view(session)
    assert v["irregularities"] == "fmjd"
    assert session.recorder.game(session.game_id).tags["Irregularities"] == "fmjd"


def test_an_irregular_move_the_opponent_plays_on_from_stands_with_its_comment(session):
    v = hands_until(session, [("lift", C3), ("place", E5)], lambda v: v["state"] == "illegal")
    assert "c3-e5" in v["pending_irregularity"]
    assert any(e["kind"] == "illegal" for e in v["log"])
    # Black plays on: d6 takes the white man on e5
    v = hands_until(session, [("lift", D6), ("place", F4), ("lift", E5)],
                    lambda v: len(v["moves"]) == 2, "the irregular move and the reply")
    assert v["moves"] == ["c3-e5", "d6:f4"] and v["state"] == "ready"
    assert v["irregular_moves"] == [0]
    pdn = session.export_pdn()
    assert "1. c3-e5 {irregular (FMJD Annex 1, 5.4): a piece moved irregularly; " \
           "allowed to stand [%fen B:W15,21,23-32:B1-12]}" in pdn.replace("\n", " ")
    assert [m.text for m in read_pdn(pdn).games[0].game.moves] == ["c3-e5", "d6:f4"]
    reread = Recorder(session.recorder.directory).game(session.game_id)
    assert [m.text for m in reread.moves] == ["c3-e5", "d6:f4"]
    assert reread.position == session.tracker.position


def test_the_arbiter_accepts_the_position_on_the_board(session):
    hands_until(session, [("lift", C3), ("place", E5)], lambda v: v["state"] == "illegal")
    fen = session.accept_position(white_to_move=False)
    v = wait_until(lambda: (v := view(session)) and v["state"] == "ready" and v)
    assert v["fen"] == fen and v["moves"] == [] and v["white_to_move"] is False
    assert any(e["kind"] == "correction" for e in v["log"])
    game = Recorder(session.recorder.directory).game(session.game_id)
    assert game.position.fen() == fen
    assert [e.kind for e in game.events][-1] == "correction"
    v = hands_until(session, [("lift", D6), ("place", F4), ("lift", E5)],
                    lambda v: v["moves"] == ["d6:f4"])


def test_the_arbiter_takes_back_to_an_earlier_ply(session):
    hands_until(session, [("lift", C3), ("place", D4)], lambda v: v["moves"] == ["c3-d4"])
    hands_until(session, [("lift", 9), ("place", 13)], lambda v: len(v["moves"]) == 2)
    session.take_back_to(0)
    v = wait_until(lambda: (v := view(session)) and v["state"] == "setup" and v)
    assert v["moves"] == [] and sorted(v["intents"]["restore"]) == sorted([9, 13, C3, D4])
    v = hands_until(session, [("setup", None)], lambda v: v["state"] == "ready")
    assert Recorder(session.recorder.directory).game(session.game_id).ply == 0
    with pytest.raises(ArbiterError, match="no ply 5"):
        session.take_back_to(5)


def test_a_position_the_switches_cannot_tell_needs_a_fen(session):
    hands_until(session, [("place", 17)], lambda v: v["state"] == "disturbed")  # whose?
    with pytest.raises(ArbiterError, match="FEN"):
        session.accept_position(white_to_move=True)
    fen = "W:W21-32:B1-11,17"  # a black man on b4, and none on h6
    assert session.accept_position(white_to_move=True, fen=fen) == fen
    v = wait_until(lambda: (v := view(session)) and v["state"] == "setup" and v)
    assert v["intents"]["restore"] == [12]
    hands_until(session, [("lift", 12)], lambda v: v["state"] == "ready")


def test_a_resumed_game_keeps_its_policy(tmp_path):
    from draughtsboard.board.rules import initial_position
    from draughtsboard.board.rules.variants import get_variant
    from draughtsboard.hardware.backends import open_simulated_board
    from draughtsboard.play import PlaySession

    variant = get_variant("russian")
    occupied = [n for n in variant.geometry.numbers
                if initial_position(variant).occupancy() >> (n - 1) & 1]
    policies = []
    for irregular in ("restore", None):  # a new game under restore; resumed without a word
        board = open_simulated_board("russian", occupied=occupied, real_time=True)
        recorder = Recorder(tmp_path / "data")
        session = PlaySession("russian", board, board, recorder, hands=board.simulation,
                              irregular=irregular, backend="sim")
        session.start()
        try:
            policies.append(session.tracker.policy.name)
        finally:
            session.stop()
            board.close()
            recorder.close()
    assert policies == ["restore", "restore"]
