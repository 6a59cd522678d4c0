"""The arbiter's console through a real mosquitto to a board in play: a result with its
reason and its withdrawal, a result the variant does not have refused, a takeback to a
ply and an accepted position followed by the hall's record, the clock, a command to a
board the hall does not know refused (no card appears for it), refusals shown on the
board's card until seen, and the token kept in the hall's data directory."""

from __future__ import annotations

import random

import pytest

from draughtsboard.board.rules import parse_fen
from draughtsboard.hall.pairings import parse_pairings
from tests.hall.words_check import in_english

from ..web.helpers import wait_until
from .test_live import board_moves, hall_moves, play_random


def started(service, one) -> str:
    service.import_pairings(parse_pairings(
        "round,board,white,black,event,time_control\n3,1,Ann,Bob,Open,600+5\n"))
    service.start_round("3")
    wait_until(lambda: service.pairing_state(1, "3")["state"] == "delivered",
               what="the pairing")
    wait_until(lambda: service.ingest.live(1).current == one.session.game.game_id and
               service.store.game(1, one.session.game.game_id) is not None,
               what="the round's game in the hall")
    return one.session.game.game_id


def test_results_corrections_and_the_clock_from_the_console(hall, boards):
    service = hall()
    one = boards(1)
    game_id = started(service, one)
    assert one.session.published()[1].tags["TimeControl"] == "600+5"
    assert service.clock(1, "start")["ok"] is True
    rng = random.Random(8)
    play_random(one, 4, rng)
    wait_until(lambda: hall_moves(service, 1) == board_moves(one), what="the moves")

    with pytest.raises(ValueError, match="not a result of Russian draughts"):
        service.declare_result(1, "2-0", "")  # recorded as 1-0 before: now refused
    answer = service.declare_result(1, "1-0", "Black resigned")
    assert answer["ok"] is True and one.session.published()[1].result == "1-0"
    with service.store.lock:
        assert service.store.game(1, game_id).game.result_reason == "Black resigned"
    answer = service.withdraw_result(1)
    assert answer["ok"] is True and in_english(answer["recorded"]).startswith("result withdrawn")
    wait_until(lambda: one.session.published()[1].result is None, what="the board reopened")
    with service.store.lock:
        assert not service.store.game(1, game_id).finished

    assert service.take_back(1, 2)["ok"] is True  # to after move 1... of Black
    wait_until(lambda: hall_moves(service, 1) == board_moves(one) and
               len(hall_moves(service, 1)) == 2, what="the takeback in the hall")
    assert not service.ingest.claims.of(1)

    fen = parse_fen(one.session.game.variant, "W:W21,22,23:B9,10").fen()
    assert service.accept_position(1, fen)["ok"] is True
    wait_until(lambda: service.store.game(1, game_id).corrections == {2: fen},
               what="the correction in the hall")
    one.session.hand([("setup", 0)])  # the pieces as the corrected position has them
    wait_until(lambda: one.session.game.tracker.state.value == "ready", what="the board set up")
    one.play(next(m for m in one.legal() if m.path == (22, 18)))
    wait_until(lambda: hall_moves(service, 1) == board_moves(one) and
               len(hall_moves(service, 1)) == 3, what="a move after the correction")
    assert not service.ingest.claims.of(1) and not service.summaries()[1][1]["needs"]
    text = service.detail(1)
    assert text["numbered_moves"][-1]["number"] == 2 and text["results"][1] == "1/2-1/2"
    assert text["results"][-1] == "0-0"  # both lose: in the hall's list as in the board's
    answer = service.declare_result(1, "0-0", "both forfeited")
    assert answer["ok"] is True and one.session.published()[1].result == "0-0"


def test_a_refusal_stays_on_the_card_until_seen_and_an_unknown_board_is_refused(hall, boards):
    service = hall()
    one = boards(1)
    started(service, one)
    answer = service.withdraw_result(1)  # nothing to withdraw: the board says so
    assert answer["ok"] is False and "no result" in answer["error"]
    summary = service.summaries()[1][1]
    assert summary["refused"][0]["cmd"] == "withdraw"
    assert any(in_english(need).startswith("withdrawing the result refused")
               for need in summary["needs"])
    service.clear(1)
    assert not service.summaries()[1][1]["needs"]
    with pytest.raises(ValueError, match="no board 9 in this hall"):
        service.command(9, "acknowledge")
    with pytest.raises(ValueError, match="no board 9"):
        service.declare_result(9, "1-0", "")
    assert 9 not in service.summaries() and service.detail(9) is None
