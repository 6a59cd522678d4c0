"""The arbiter's corrections through the hall, without a broker: a takeback or a corrected
position the hall ordered is followed when the board's game shows it (and is a claim when
nobody ordered it), a withdrawn result reopens the game in the hall's record, all read
back the same after a restart; the pairings the hall owes its boards are decided by the
rules of `delivery`, with time as an input."""

from __future__ import annotations

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.rules import get_variant, parse_fen
from draughtsboard.hall.arbiter_log import ArbiterLog, Promise
from draughtsboard.hall.delivery import RETRY_AFTER, BoardFacts, Delivery
from draughtsboard.hall.feed import round_games
from draughtsboard.hall.ingest import Ingest
from draughtsboard.hall.pairings import parse_pairings
from draughtsboard.hall.store import HallStore
from tests.hall.words_check import in_english

from .test_trust import GID, Board, hall_texts

FEN = parse_fen(get_variant("russian"), "W:W21,22,23:B9,10").fen()  # as a board writes it


@pytest.fixture
def ingest(tmp_path):
    store = HallStore(tmp_path, sync=False)
    yield Ingest(store)
    store.close()


def reread(ingest: Ingest, tmp_path) -> HallStore:
    ingest.store.close()
    store = HallStore(tmp_path, sync=False)
    store.load()
    return store


def test_a_takeback_the_hall_ordered_is_followed_and_one_nobody_ordered_is_a_claim(
        ingest, tmp_path):
    board = Board(ingest)
    board.state()
    board.play("c3-d4", "f6-g5", "g3-f4", "g7-f6")
    board.game.undo()  # a takeback on the board nobody asked the hall for
    board.game.undo()
    board.state()
    assert hall_texts(ingest) == ["c3-d4", "f6-g5", "g3-f4", "g7-f6"]
    assert ("moves", GID) in ingest.claims.of(1)
    ingest.order(1, GID, "takeback", 2)  # the board answered the arbiter's takeback to 2
    board.state()
    assert hall_texts(ingest) == ["c3-d4", "f6-g5"] and not ingest.claims.of(1)
    board.play("e3-f4")  # play goes on from there
    assert hall_texts(ingest) == ["c3-d4", "f6-g5", "e3-f4"]
    store = reread(ingest, tmp_path)
    assert [p.text for p in store.game(1, GID).game.moves] == ["c3-d4", "f6-g5", "e3-f4"]
    store.close()


def test_a_corrected_position_is_followed_when_ordered_and_the_feed_shows_it(
        ingest, tmp_path):
    board = Board(ingest)
    board.state()
    board.play("c3-d4", "f6-g5")
    board.game.correct(parse_fen(board.game.variant, FEN), "arbiter")
    board.state()
    assert ("moves", GID) in ingest.claims.of(1)  # nobody ordered it: a claim
    assert ingest.store.game(1, GID).corrections == {}
    ingest.order(1, GID, "position", FEN)  # the arbiter's, carried out by the board
    board.state()
    assert ingest.store.game(1, GID).corrections == {2: FEN} and not ingest.claims.of(1)
    board.play("c3-d4")  # legal only from the corrected position
    assert hall_texts(ingest) == ["c3-d4", "f6-g5", "c3-d4"]
    text = round_games(ingest.store, "1", None)[0].pdn
    assert "[%setup " + FEN + "]" in text
    read = read_pdn(text)
    assert read.errors == [] and [m.text for m in read.games[0].game.moves][-1] == "c3-d4"
    delayed = round_games(ingest.store, "1", 1e12)[0].pdn  # the delayed feed too
    assert "[%setup " + FEN + "]" in delayed
    store = reread(ingest, tmp_path)
    assert store.game(1, GID).corrections == {2: FEN} and store.game(1, GID).ply == 3
    store.close()


def test_a_withdrawn_result_reopens_the_game_and_survives_a_restart(ingest, tmp_path):
    board = Board(ingest)
    board.state()
    board.play("c3-d4")
    ingest.arbiter_result(1, GID, "1-0", "adjudicated", 200.0)
    game = ingest.store.game(1, GID)
    ingest.store.withdraw_result(game, 201.0)
    assert not game.finished and game.game.result is None
    board.play("f6-g5")  # the game goes on in the hall's record
    assert hall_texts(ingest) == ["c3-d4", "f6-g5"]
    with pytest.raises(ValueError, match="no result to withdraw"):
        ingest.store.withdraw_result(game, 202.0)
    store = reread(ingest, tmp_path)
    again = store.game(1, GID)
    assert not again.finished and again.ply == 2
    store.close()


def promise(**fields) -> Promise:
    return Promise("2", 7, {"Round": "2", "White": "Ann"}, 0.0, **fields)


def test_a_pairing_waits_for_the_board_and_never_closes_a_game_with_moves():
    delivery = Delivery()
    assert delivery.decide(promise(), None, BoardFacts(False, "g1", 0), 0).state == "waiting"
    assert in_english(delivery.decide(promise(), None, BoardFacts(True, None, None), 0).note) \
        == "waits for the board's game"
    held = delivery.decide(promise(), None, BoardFacts(True, "g1", 12), 0)
    assert held.state == "held" and not held.send and "12 moves" in in_english(held.note)
    assert delivery.decide(promise(), None, BoardFacts(True, "g1", 12, finished=True), 0).send
    named = delivery.decide(promise(close="g1"), None, BoardFacts(True, "g1", 12), 0)
    assert named.send and named.game == "g1"
    assert not delivery.decide(promise(close="g0"), None, BoardFacts(True, "g1", 12), 0).send


def test_a_pairing_is_sent_again_with_backing_off_and_anew_when_the_board_moved_on():
    delivery = Delivery()
    waiting = promise(command="hall-1")
    delivery.sent("hall-1", 100.0)
    facts = BoardFacts(True, "g1", 0)
    times = [t for t in range(100, 400) if delivery.decide(waiting, "g1", facts, t).again]
    assert [b - a for a, b in zip([100, *times], times, strict=False)] == \
        [int(s) for s in RETRY_AFTER] + [60] * (len(times) - len(RETRY_AFTER))
    assert not delivery.decide(waiting, "g1", BoardFacts(False, "g1", 0), 1000).again
    moved = delivery.decide(waiting, "g1", BoardFacts(True, "g2", 0), 1000)
    assert moved.send and moved.game == "g2" and waiting.command is None
    refused = promise(refused=("g2", "moves are not recorded yet"))
    assert delivery.decide(refused, None, BoardFacts(True, "g2", 0), 0).state == "refused"
    assert delivery.decide(refused, None, BoardFacts(True, "g3", 0), 0).send


def test_promises_are_kept_across_a_restart_until_the_board_answers(tmp_path):
    log = ArbiterLog(tmp_path / "arbiter.jsonl", sync=False)
    log.import_pairings(parse_pairings("round,board,white,black,event,time_control\n"
                                       "2,7,Ann,Bob,Open,5400+30\n2,8,Cy,Di,Open,5400+30\n"),
                        1.0)
    log.start("2", [7, 8], 2.0)
    assert sorted(log.promises) == [(7, "2"), (8, "2")]
    assert log.promises[(7, "2")].tags["TimeControl"] == "5400+30"
    log.note("command", 3.0, board=7, id="hall-7", cmd="new_game", game=GID,
             tags=log.promises[(7, "2")].tags)
    log.note("command", 3.0, board=8, id="hall-8", cmd="new_game", game=GID,
             tags=log.promises[(8, "2")].tags)
    log.note("reply", 4.0, board=7, id="hall-7", ok=True, result="00003-20261201-120000")
    log.note("reply", 4.0, board=8, id="hall-8", ok=False, error="not now")
    log.close()
    again = ArbiterLog(tmp_path / "arbiter.jsonl", sync=False)
    assert list(again.promises) == [(8, "2")]
    assert again.promises[(8, "2")].refused == (GID, "not now")  # shown by the promise
    assert 8 not in again.refusals
    assert again.round_games == {(7, "2"): "00003-20261201-120000"}
    again.start("2", [7, 8], 5.0)  # the round started again: board 7 keeps its game
    assert list(again.promises) == [(8, "2")]
    again.note("command", 6.0, board=8, id="hall-9", cmd="withdraw", game=GID)
    again.note("reply", 6.5, board=8, id="hall-9", ok=False, error="no result")
    assert [r.cmd for r in again.refusals[8]] == ["withdraw"]  # on the card until seen
    again.note("clear", 7.0, board=8)
    assert 8 not in again.refusals
    again.close()


def test_a_round_started_twice_sends_no_second_pairing_while_the_first_waits(tmp_path):
    """Start pressed twice while board 7's new_game is on its way: the same promise, so
    its answer delivers the pairing (the second press sends nothing, and leaves nothing
    owed); a refused pairing is tried again on a second press."""
    log = ArbiterLog(tmp_path / "arbiter.jsonl", sync=False)
    log.import_pairings(parse_pairings("round,board,white,black\n2,7,Ann,Bob\n2,8,Cy,Di\n"),
                        1.0)
    log.start("2", [7, 8], 2.0)
    log.note("command", 3.0, board=7, id="hall-7", cmd="new_game", game=GID,
             tags=log.promises[(7, "2")].tags)
    log.note("command", 3.0, board=8, id="hall-8", cmd="new_game", game=GID,
             tags=log.promises[(8, "2")].tags)
    log.note("reply", 3.5, board=8, id="hall-8", ok=False, error="moves not recorded yet")
    log.start("2", [7, 8], 4.0)  # pressed again
    assert log.promises[(7, "2")].command == "hall-7"  # no second new_game for board 7
    assert log.promises[(8, "2")].refused is None  # board 8's is sent again
    delivery = Delivery()
    delivery.sent("hall-7", 3.0)
    decision = delivery.decide(log.promises[(7, "2")], GID, BoardFacts(True, GID, 0), 4.0)
    assert not decision.send and not decision.again
    log.note("reply", 4.5, board=7, id="hall-7", ok=True, result="00007-20261201-120000")
    assert (7, "2") not in log.promises
    assert log.round_games[(7, "2")] == "00007-20261201-120000"
    log.close()
    again = ArbiterLog(tmp_path / "arbiter.jsonl", sync=False)  # read back the same
    assert list(again.promises) == [(8, "2")] and again.promises[(8, "2")].refused is None
    again.close()
