"""A round's pairings delivered to boards through a real mosquitto: a board that is off
when the round starts gets its pairing when it comes back, a game with moves is never
closed without the arbiter naming it, a round started twice changes nothing that was
delivered, and a board's game restarted by the arbiter becomes the round's game."""

from __future__ import annotations

import json
import random

from draughtsboard.hall.pairings import parse_pairings
from tests.hall.words_check import in_english

from ..web.helpers import wait_until
from .test_live import play_random

PAIRINGS = ("round,board,white,black\n"
            "2,1,Ann,Bob\n2,2,Cy,Di\n2,3,Ed,Flo\n")


def delivered(service, board: int, round_name: str = "2") -> str | None:
    state = service.pairing_state(board, round_name)
    return state["game"] if state["state"] == "delivered" else None


def decided(service, board: int, round_name: str) -> dict | None:
    """The board's pairing state once the hall has decided on what it knows of the
    board's game (not ``waiting`` for it)."""
    row = service.pairing_state(board, round_name)
    return row if row["state"] != "waiting" else None


def test_a_board_off_at_the_round_start_gets_its_pairing_when_it_comes_back(
        hall, boards, tmp_path, broker):
    from .conftest import LinkedBoard

    service = hall()
    one, two, three = boards(1), boards(2), boards(3)
    wait_until(lambda: all(service.ingest.live(n).current for n in (1, 2, 3)),
               what="the boards' games in the hall")
    three.close()  # switched off before the round starts
    wait_until(lambda: not service.ingest.live(3).online, what="board 3 offline")
    service.import_pairings(parse_pairings(PAIRINGS))
    rows = {row["board"]: row for row in service.start_round("2")}
    assert rows[1]["state"] == rows[2]["state"] == "sent"
    assert rows[3]["state"] == "waiting"
    assert in_english(rows[3]["note"]) == "waits for the board (offline)"
    wait_until(lambda: delivered(service, 1) and delivered(service, 2), what="boards 1, 2")
    summary = service.summaries()[3][1]
    assert summary["pairing"]["white"] == "Ed" and any("round 2 pairing" in in_english(need)
                                                       for need in summary["needs"])
    again = LinkedBoard(tmp_path, broker, 3)  # back: it resumes its own game first
    try:
        wait_until(lambda: delivered(service, 3), what="board 3's pairing")
        game = again.session.published()[1]
        assert (game.tags["White"], game.tags["Round"]) == ("Ed", "2")
        assert delivered(service, 3) == again.session.game.game_id
        # once the hall has the new game (asked for until its state comes), nothing waits
        wait_until(lambda: not service.summaries()[3][1]["needs"], what="board 3 settled")
    finally:
        again.close()
    assert one.session.published()[1].tags["White"] == "Ann"
    assert two.session.published()[1].tags["White"] == "Cy"


def test_a_game_with_moves_waits_for_the_arbiter_and_a_second_start_changes_nothing(
        hall, boards):
    service = hall()
    one, two = boards(1), boards(2)
    rng = random.Random(4)
    play_random(two, 3, rng)  # board 2 is still playing its game
    before = two.session.game.game_id
    wait_until(lambda: service.pairing_state(2, "2")["state"] == "not started" and
               service.store.game(2, before) is not None and
               service.store.game(2, before).ply == 3, what="board 2's moves in the hall")
    service.import_pairings(parse_pairings("round,board,white,black\n2,1,Ann,Bob\n2,2,Cy,Di\n"))
    rows = {row["board"]: row for row in service.start_round("2")}
    assert rows[2]["state"] == "held" and rows[2]["moves"] == 3, rows
    wait_until(lambda: delivered(service, 1), what="board 1's pairing")
    first_of_one = delivered(service, 1)
    play_random(one, 2, rng)  # board 1 plays its round game
    rows = {row["board"]: row for row in service.start_round("2")}  # pressed again
    assert rows[1]["state"] == "delivered" and rows[2]["state"] == "held"
    assert one.session.game.game_id == first_of_one and one.session.game.moves_recorded == 2
    assert two.session.game.game_id == before and two.session.game.moves_recorded == 3
    # the arbiter names board 2's game: now it is closed for the pairing
    row = service.start_pairing(2, "2", close=before)
    assert row["state"] == "sent", row
    wait_until(lambda: delivered(service, 2), what="board 2's pairing")
    assert two.session.published()[1].tags["White"] == "Cy"
    assert two.recorder.game(before).ply == 3  # closed with its moves, never lost
    # board 1's game restarted by the arbiter: its new game is the round's game
    row = service.start_pairing(1, "2", restart=True)
    assert row["state"] == "held"  # it has moves: the arbiter must name it
    row = service.start_pairing(1, "2", restart=True, close=first_of_one)
    wait_until(lambda: delivered(service, 1) not in (None, first_of_one),
               what="board 1's game restarted")
    assert delivered(service, 1) == one.session.game.game_id
    assert one.recorder.game(first_of_one).ply == 2

    def closed_by_the_arbiter(board: int, game_id: str) -> bool:
        game = service.store.game(board, game_id)
        return game is not None and game.finished and game.result_source == "arbiter"

    # the games closed for the pairings are the arbiter's closing, and no question
    wait_until(lambda: closed_by_the_arbiter(1, first_of_one) and
               closed_by_the_arbiter(2, before), what="the closed games in the hall")
    wait_until(lambda: not service.ingest.claims.of(1) and not service.ingest.claims.of(2),
               what="no claim left")
    assert not service.summaries()[1][1]["needs"] and not service.summaries()[2][1]["needs"]


def test_a_command_sent_again_is_carried_out_once(boards, broker):
    """The hall sends a pairing again when no answer came: the board answers the same id
    with the same answer, and starts one game; a new id about the closed game is refused."""
    from draughtsboard.hall_protocol.messages import Command, Reply
    from draughtsboard.hall_protocol.topics import board_topic

    from .test_bad_input import RawClient

    one = boards(1)
    first = one.session.game.game_id
    hall = RawClient(broker.venue.hall_url(), "hall")
    reply_topic = board_topic(1, "reply")

    def answers() -> list:
        return [payload for topic, payload in hall.messages if topic == reply_topic]

    try:
        assert hall.subscribe(reply_topic) is not None
        # the board says it is online after it subscribed to its commands (one connection
        # keeps its order): a command sent before would find no subscriber
        assert hall.subscribe(board_topic(1, "status")) is not None
        wait_until(lambda: any(topic.endswith("/status") and json.loads(payload)["online"]
                               for topic, payload in hall.messages), what="board 1 online")
        command = Command("hall-twice", "new_game", first, tags={"Round": "2", "White": "Ann"})
        for _ in range(3):
            hall.publish(board_topic(1, "command"), command.to_json())
        late = Command("hall-late", "new_game", first, tags={"Round": "2"})
        hall.publish(board_topic(1, "command"), late.to_json())
        wait_until(lambda: len(answers()) == 4, what="four answers")
        replies = [Reply.from_json(payload) for payload in answers()]
    finally:
        hall.close()
    assert [(r.id, r.ok) for r in replies] == [("hall-twice", True)] * 3 + [("hall-late", False)]
    assert len({r.result for r in replies[:3]}) == 1 == len(one.recorder.game_ids()) - 1
    assert one.session.game.game_id == replies[0].result != first


def test_a_game_closed_unfinished_is_abandoned_and_never_asked_for_again(hall, boards):
    """The start-up game a round's pairing closes arrives as ``*``: the hall shows it
    abandoned, and asks for nothing of the board, now or after a restart."""
    service = hall()
    one = boards(1)
    startup = one.session.game.game_id
    wait_until(lambda: service.ingest.live(1).current == startup, what="board 1 known")
    service.import_pairings(parse_pairings("round,board,white,black\n2,1,Ann,Bob\n"))
    service.start_round("2")
    wait_until(lambda: delivered(service, 1), what="the pairing")

    def closed() -> bool:
        game = service.store.game(1, startup)
        return game is not None and game.finished

    wait_until(closed, what="the start-up game closed in the hall")
    games = {g["game"]: in_english(g["state"]) for g in service.detail(1)["games"]}
    assert games == {startup: "abandoned", delivered(service, 1): "in play"}
    later = service.wall() + 3600
    with service.store.lock:
        assert service.ingest.missing(later) == []
    service.stop()
    again = hall()
    wait_until(lambda: again.ingest.live(1).online, what="the board seen again")
    with again.store.lock:
        assert again.store.game(1, startup).finished
        assert again.ingest.missing(again.wall() + 3600) == []


def test_pairings_owed_to_a_board_come_one_at_a_time_each_after_the_last_game_ends(
        hall, boards, tmp_path, broker):
    """Rounds 2 and 3 started while board 2 is off: back, it gets round 2's pairing, and
    round 3's only once its round 2 game has its result (the arbiter's, here); board 1,
    still playing round 2 when round 3 starts, gets round 3 by itself at its result."""
    from .conftest import LinkedBoard

    service = hall()
    one, two = boards(1), boards(2)
    wait_until(lambda: all(service.ingest.live(n).current for n in (1, 2)), what="boards")
    two.close()
    wait_until(lambda: not service.ingest.live(2).online, what="board 2 offline")
    service.import_pairings(parse_pairings("round,board,white,black\n2,1,Ann,Bob\n"
                                           "2,2,Cy,Di\n3,1,Ann,Di\n3,2,Cy,Bob\n"))
    service.start_round("2")
    wait_until(lambda: delivered(service, 1, "2"), what="board 1's round 2")
    play_random(one, 2, random.Random(6))
    rows = {row["board"]: row for row in service.start_round("3")}
    assert rows[1]["state"] == "held" and rows[2]["state"] == "waiting", rows
    assert in_english(service.pairing_state(2, "3")["note"]) == "after round 2's pairing"
    again = LinkedBoard(tmp_path, broker, 2)
    try:
        wait_until(lambda: delivered(service, 2, "2"), what="board 2's round 2")
        round_two = again.session.game.game_id
        # once the hall has the round 2 game (it may not yet: "waits for the board's game")
        state = wait_until(lambda: decided(service, 2, "3"), what="round 3's pairing decided")
        assert state["state"] == "held" and "round 2's game" in in_english(state["note"]), state
        assert again.session.game.game_id == round_two  # not closed for round 3
        service.declare_result(2, "1-0", "Black lost on time")
        wait_until(lambda: delivered(service, 2, "3"), what="board 2's round 3, by itself")
        assert again.session.published()[1].tags["Round"] == "3"
        assert again.recorder.game(round_two).result == "1-0"
    finally:
        again.close()
    service.declare_result(1, "0-1", "White resigned")
    wait_until(lambda: delivered(service, 1, "3"), what="board 1's round 3, by itself")
    assert one.session.published()[1].tags["Black"] == "Di"
