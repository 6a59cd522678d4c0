"""Boards, a real mosquitto and the hall, together: moves reach the hall, outages of the
broker, a board or the hall lose nothing, commands reach the boards."""

from __future__ import annotations

import random

import pytest

from ..web.helpers import wait_until


def hall_ply(service, board: int) -> int:
    with service.store.lock:
        latest = service.store.latest(board)
        return latest.ply if latest else -1


def hall_moves(service, board: int) -> list[str]:
    with service.store.lock:
        latest = service.store.latest(board)
        return [p.text for p in latest.game.moves] if latest else []


def board_moves(board) -> list[str]:
    return [p.text for p in board.recorder.game(board.session.game.game_id).moves]


def play_random(board, count: int, rng: random.Random) -> None:
    for _ in range(count):
        moves = board.legal()
        if not moves:
            return
        board.play(rng.choice(moves))


def test_moves_reach_the_hall(hall, boards):
    service = hall()
    one, two = boards(1), boards(2)
    rng = random.Random(3)
    play_random(one, 6, rng)
    play_random(two, 4, rng)
    wait_until(lambda: hall_moves(service, 1) == board_moves(one), what="board 1's moves")
    wait_until(lambda: hall_moves(service, 2) == board_moves(two), what="board 2's moves")
    with service.store.lock:
        live = service.ingest.live(1)
        assert live.online and live.software == "test"
        assert live.current == one.session.game.game_id


def test_a_broker_killed_and_restarted_loses_no_move(hall, boards, broker):
    service = hall()
    one = boards(1)
    rng = random.Random(5)
    play_random(one, 3, rng)
    wait_until(lambda: hall_ply(service, 1) == 3, what="the first moves")
    broker.kill()
    wait_until(lambda: not one.link.connected, what="the board to notice")
    play_random(one, 4, rng)  # play never waits for the network
    assert one.session.game.moves_recorded == 7
    broker.start()
    wait_until(lambda: hall_moves(service, 1) == board_moves(one), timeout=20,
               what="the moves played while the broker was down")


def test_the_hall_restarted_rebuilds_from_its_journal_and_the_boards(hall, boards):
    service = hall()
    one, two = boards(1), boards(2)
    rng = random.Random(7)
    play_random(one, 2, rng)
    wait_until(lambda: hall_ply(service, 1) == 2, what="the first moves")
    service.stop()
    play_random(one, 3, rng)
    play_random(two, 2, rng)
    again = hall()
    assert hall_ply(again, 1) >= 2  # read back from the hall's own journal
    wait_until(lambda: hall_moves(again, 1) == board_moves(one), what="board 1 complete")
    wait_until(lambda: hall_moves(again, 2) == board_moves(two), what="board 2 complete")


def test_a_board_that_restarts_publishes_from_its_journal(hall, boards, tmp_path, broker):
    from .conftest import LinkedBoard

    service = hall()
    one = boards(1)
    rng = random.Random(11)
    play_random(one, 3, rng)
    wait_until(lambda: hall_ply(service, 1) == 3, what="the first moves")
    game_id = one.session.game.game_id
    one.link.client.loop_stop()  # the network goes first, as when a board dies
    play_random(one, 2, rng)  # never published
    one.session.stop()
    one.board.close()
    one.recorder.close()
    again = LinkedBoard(tmp_path, broker, 1)  # resumes from its journal
    try:
        assert again.session.game.game_id == game_id
        wait_until(lambda: hall_moves(service, 1) == board_moves(again),
                   what="the moves the board had not published")
    finally:
        again.close()


def test_the_arbiter_commands_reach_the_board(hall, boards):
    from draughtsboard.hall.pairings import parse_pairings

    service = hall()
    one = boards(1)
    wait_until(lambda: service.ingest.live(1).current == one.session.game.game_id,
               what="the hall to know board 1's game")
    first_game = one.session.game.game_id
    service.import_pairings(parse_pairings("round,board,white,black\n2,1,Ann,Bob\n"))
    answers = service.start_round("2")
    assert answers[0]["state"] == "sent", answers  # the console's answer comes at once
    wait_until(lambda: service.pairing_state(1, "2")["state"] == "delivered",
               what="board 1's answer")
    assert one.session.published()[1].tags["White"] == "Ann"
    wait_until(lambda: service.ingest.live(1).current == one.session.game.game_id,
               what="the new game in the hall")
    # the same command again (as a redelivery would be) is refused: the game moved on
    again = service.answer(*service.send_command(1, "new_game", game=first_game,
                                                 tags={"Round": "9"}))
    assert again["ok"] is False and one.session.published()[1].tags["Round"] == "2"
    play_random(one, 2, random.Random(1))
    answer = service.declare_result(1, "1-0", "adjudicated")
    assert answer["ok"] is True, answer  # the board did it too
    latest = service.store.latest(1)  # in the hall's record at once, the arbiter's
    assert (latest.finished, latest.game.result, latest.result_source) == \
        (True, "1-0", "arbiter")
    assert service.command(1, "acknowledge")["ok"] is True
    resend = service.answer(*service.send_command(1, "resend", game=one.session.game.game_id,
                                                  first=1, last=2))
    assert resend == {"ok": True, "result": 2, "error": ""}
    journalled = [(r["type"], r.get("cmd")) for r in service.arbiter.journal.records]
    assert ("pairings", None) in journalled and ("command", "result") in journalled
    assert sum(kind == "reply" for kind, _ in journalled) >= 4


@pytest.mark.parametrize("backend, counter", [("sim", "scans"),
                                              ("serial-emulated", "frames_ok")])
def test_draughtsboard_play_joins_the_hall_without_logging_its_password(
        hall, broker, tmp_path, backend, counter):
    from ..web.helpers import PlayProcess

    service = hall()
    password = broker.venue.board_passwords[6]
    with PlayProcess(tmp_path / "play6", "--backend", backend, "--hall",
                     broker.venue.board_url(6), "--board", "6", "--tag", "Round=5") as play:
        wait_until(lambda: service.ingest.live(6).online, what="board 6 online")
        with service.store.lock:
            live = service.ingest.live(6)
            assert live.software and counter in live.health and live.health["error"] is None
        play.hands(("lift", 22), ("place", 18))
        wait_until(lambda: hall_moves(service, 6) == ["c3-d4"], what="the move in the hall")
        assert play.stop() == 0
    wait_until(lambda: not service.ingest.live(6).online, what="board 6 offline")
    assert password not in play.stderr
    assert "board6:***@" in play.stderr


def test_a_game_that_ends_unseen_by_the_link_reaches_the_hall_whole(hall, boards):
    """Its last move and result can come just before the next game starts, faster than
    the link looks: the link sends the ended game from the journal."""
    service = hall()
    one = boards(1)
    rng = random.Random(17)
    play_random(one, 2, rng)
    first = one.session.game.game_id
    wait_until(lambda: hall_ply(service, 1) == 2, what="the first moves")
    frozen = one.session.published()
    one.session.published = lambda: frozen  # the link sees nothing of what follows
    try:
        play_random(one, 1, rng)
        one.session.arbiter.declare_result("0-1", "White resigned")
        one.session.arbiter.new_game({"Round": "2"})
    finally:
        del one.session.published
    one.session.hand([("setup", 0)])  # the pieces back to the start: the link wakes
    wait_until(lambda: one.session.game.tracker.state.value == "ready", what="the new game set up")
    wait_until(lambda: ("result", first) in service.ingest.claims.of(1),
               what="the first game's end, claimed")
    claim = service.ingest.claims.get(1, "result", first)
    service.confirm(1, "result", first, claim.id)  # a resignation: the arbiter confirms it
    with service.store.lock:
        ended = service.store.game(1, first)
        assert ended.ply == 3 and ended.game.result == "0-1"
        assert [p.text for p in ended.game.moves] == \
            [p.text for p in one.recorder.game(first).moves]
