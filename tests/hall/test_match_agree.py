"""A match both boards agree on, on real brokers (two `draughtsboard play` processes on
the simulated board, each through its own town's mosquitto, the brokers bridged as
``venue --match`` writes them): one result through a restart, a stop on one board stops
both, a clock bounded by what the receiving board saw, a finished game a forged
withdrawal cannot reopen, and no change of who plays a seat without the arbiter's token.
A forger holds one seat's broker password, as a stolen one would."""

from __future__ import annotations

import json
import random
import signal
import threading
import time
import urllib.error

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.rules.fen import initial_position
from draughtsboard.board.rules.notation import format_move
from draughtsboard.hall.towns import match_user
from draughtsboard.hall_protocol.topics import match_topic
from draughtsboard.opponents import match_state
from draughtsboard.opponents.match_state import MatchRecord, plies_of
from draughtsboard.words import english

from ..web.helpers import TOKEN, PlayProcess, wait_until
from .test_bad_input import RawClient
from .test_match import RUSSIAN, SEED, board, bridged_towns, carry_out, journal, make_move

pytestmark = pytest.mark.broker

AGREED = {"Event": "Towns match", "Round": "1", "TimeControl": "600+5"}


@pytest.fixture
def towns(tmp_path):
    """(white town, black town, their brokers): white's hosts, black's bridges to it."""
    with bridged_towns(tmp_path) as found:
        yield found


def both_know_each_other(white: PlayProcess, black: PlayProcess) -> None:
    wait_until(lambda: white.state()["tags"].get("Black") == "Boris"
               and black.state()["tags"].get("White") == "Anna", timeout=30,
               what="each board to know the other's player")


def play(white: PlayProcess, black: PlayProcess, game: Game, rng: random.Random,
         count: int) -> None:
    """``count`` plies more, each made on its mover's board and carried out on the other."""
    for _ in range(count):
        ply = game.ply
        move = rng.choice(game.position.legal_moves())
        mover, other = (white, black) if ply % 2 == 0 else (black, white)
        make_move(mover, move, ply)
        carry_out(other, ply)
        game.play(move)


def forger(town, seat: str, name: str = "forger") -> RawClient:
    """A client with ``seat``'s own broker password (on that seat's town's broker)."""
    return RawClient(f"mqtt://{match_user('m1', seat)}:{town.board_password}"
                     f"@{town.host}:{town.port}", name)


def retained_record(client: RawClient, seat: str) -> dict:
    """The record ``seat``'s board last published, as the broker keeps it."""
    topic = match_topic("m1", seat, "record")
    client.subscribe(topic)
    found = wait_until(lambda: [p for t, p in client.messages if t == topic],
                       timeout=20, what=f"{seat}'s record")
    return json.loads(found[-1])


def stopped(play_process: PlayProcess) -> str | None:
    """The one line the page shows of a stopped match, in English (None: not stopped):
    why it stopped crosses as a message (`match_stops`), rendered on each page."""
    error = play_process.state()["opponent"]["error"]
    if not error:
        return None
    assert error["id"] == "match.stopped", error
    return english(Message.from_json(error["params"]["detail"]))


def test_a_result_crosses_after_a_restart_of_either_board(tmp_path, towns):
    """Issue 44, 1: black's board restarted mid-game writes its clocks back at another
    precision than white's holds; black's resignation still crosses."""
    white_town, black_town, _ = towns
    with board(tmp_path, white_town, "Anna") as white:
        black = board(tmp_path, black_town, "Boris")
        try:
            both_know_each_other(white, black)
            rng, game = random.Random(SEED), Game(RUSSIAN, initial_position(RUSSIAN))
            play(white, black, game, rng, 2)
            assert black.stop(signal.SIGKILL if rng.random() < 0.5 else signal.SIGTERM) \
                in (0, -signal.SIGKILL)
            black = board(tmp_path, black_town, "Boris")
            wait_until(lambda: len(black.state()["moves"]) == 2, timeout=30,
                       what="black's board resumed")
            black.hands(("setup", None))  # (the simulated board shows the game again)
            play(white, black, game, rng, 2)
            black.post("/api/arbiter/result", {"result": "1-0", "reason": "resigned"},
                       token=TOKEN)
            wait_until(lambda: white.state()["result"] is not None, timeout=20,
                       what="the resignation taken on the white board")
            assert white.stop(signal.SIGTERM) == 0
            assert black.stop(signal.SIGTERM) == 0
        finally:
            black.kill()
    white_game = journal(tmp_path / "white-board")
    black_game = journal(tmp_path / "black-board")
    assert (white_game.result, black_game.result) == ("1-0", "1-0")
    assert [m.text for m in white_game.moves] == [m.text for m in black_game.moves]


@pytest.mark.parametrize("forged_seat", ["white", "black"])
def test_a_stop_on_one_board_stops_both_with_the_same_line(tmp_path, towns, forged_seat):
    """Issue 44, 2: with one seat's password, a record holding a move of that seat its
    player never made is carried out on the other board; the forged seat's own board
    stops the match, says so in its record, and the other board stops too: the same line
    on both pages, and no clock running on either."""
    white_town, black_town, _ = towns
    town = white_town if forged_seat == "white" else black_town
    with board(tmp_path, white_town, "Anna") as white, \
            board(tmp_path, black_town, "Boris") as black:
        both_know_each_other(white, black)
        rng, game = random.Random(SEED), Game(RUSSIAN, initial_position(RUSSIAN))
        play(white, black, game, rng, 2 if forged_seat == "white" else 3)
        own, victim = (white, black) if forged_seat == "white" else (black, white)
        client = forger(town, forged_seat)
        try:
            other_seat = "black" if forged_seat == "white" else "white"
            record = retained_record(client, other_seat)  # (the same plies as ours)
            assert len(record["plies"]) == game.ply
            move = rng.choice(game.position.legal_moves())
            plies = plies_of(_played(game, move, record["plies"][-1]["clock"]))
            name = "Anna" if forged_seat == "white" else "Boris"
            forged = MatchRecord("m1", forged_seat, name, "russian", game.start.fen(),
                                 AGREED, plies)
            client.publish(match_topic("m1", forged_seat, "record"), forged.to_json(),
                           retain=True)
            carry_out(victim, game.ply)  # shown there as the opponent's move
            line = wait_until(lambda: stopped(own), timeout=20, what="the own board stops")
            wait_until(lambda: stopped(victim) == line, timeout=20,
                       what="the other board stopped with the same line")
        finally:
            client.close()
        for side in (white, black):
            view = side.state()
            assert view["clocks"]["since"] is None, view["clocks"]  # no clock running
            assert "\n" not in stopped(side)
        assert "Traceback" not in white.stderr + black.stderr


def _played(game: Game, move, clock) -> Game:
    """``game`` with ``move`` played after it, recorded with ``clock``."""
    copy = Game(RUSSIAN, initial_position(RUSSIAN))
    for played in game.moves:
        copy.play(format_move(copy.position, played.move))
        copy.replace_last(clock=played.clock)
    copy.play(format_move(copy.position, move))
    copy.replace_last(clock=tuple(clock))
    return copy


class Beating:
    """A forger's beats on its seat every half second (as a board's): the other board
    hears it and keeps the match clock running."""

    def __init__(self, client: RawClient, seat: str) -> None:
        self.client, self.seat = client, seat
        self.holds = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.wait(0.5):
            self.client.client.publish(match_topic("m1", self.seat, "beat"),
                                       json.dumps({"v": 2, "holds": self.holds}), qos=0)

    def close(self) -> None:
        self.done.set()
        self.thread.join(5)


def test_no_time_used_is_not_believed_after_the_board_watched_the_mover_think(
        tmp_path, towns):
    """Issue 44, 3: White's seat played by a forger with White's password. Black's board
    watches White think for six seconds; White's record then says White used nothing:
    Black's board records its own measurement (at most what White had, less the thinking
    it saw less the link's tolerance, plus the increment) and its arbiter's log says so."""
    white_town, black_town, _ = towns
    start = initial_position(RUSSIAN)
    client = forger(white_town, "white")
    beating = Beating(client, "white")
    try:
        client.publish(match_topic("m1", "white", "presence"), b"online", retain=True)
        game = Game(RUSSIAN, start)

        def send(plies) -> None:
            record = MatchRecord("m1", "white", "Anna", "russian", start.fen(), AGREED,
                                 plies)
            client.publish(match_topic("m1", "white", "record"), record.to_json(),
                           retain=True)

        send(())
        with board(tmp_path, black_town, "Boris") as black:
            wait_until(lambda: black.state()["tags"].get("White") == "Anna", timeout=30,
                       what="black's board to know the forger's name")
            rng = random.Random(SEED)
            move = rng.choice(game.position.legal_moves())
            game.play(format_move(game.position, move))
            game.replace_last(clock=(600.0, 600.0))
            send(plies_of(game))
            carry_out(black, 0)
            reply = rng.choice(game.position.legal_moves())
            make_move(black, reply, 1)
            record = retained_record(client, "black")
            assert len(record["plies"]) == 2
            white_had, black_had = record["plies"][1]["clock"]
            game.play(format_move(game.position, reply))
            game.replace_last(clock=(white_had, black_had))
            send(plies_of(game))  # White holds Black's move: White's thinking starts
            beating.holds = 2
            shown = wait_until(lambda: (c := black.state()["clocks"])["running"] == "white"
                               and c["since"] is not None and c, timeout=20,
                               what="White's clock running on black's board")
            wait_until(lambda: time.time() - shown["since"] >= 6.0, timeout=20,
                       what="six seconds of White's thinking")
            move = rng.choice(game.position.legal_moves())
            game.play(format_move(game.position, move))
            game.replace_last(clock=(white_had + 5.0, black_had))  # "no time used"
            send(plies_of(game))
            carry_out(black, 2)
            ids = [entry["text"].get("id") for entry in black.state()["log"]
                   if isinstance(entry["text"], dict)]
            assert "match.log.clock_refused" in ids
            assert black.stop(signal.SIGTERM) == 0
    finally:
        beating.close()
        client.close()
    recorded = journal(tmp_path / "black-board").moves[2].clock
    assert recorded[0] <= white_had - (6.0 - 2.0) + 5.0 + 0.001, (recorded, white_had)
    assert recorded[1] == black_had


def test_a_forged_withdrawal_never_reopens_a_finished_game(tmp_path, towns):
    """Issue 44, 4: Boris resigned (1-0 on both boards). With White's password, a record
    with no result and a withdrawal, then one with 0-1: Boris's board keeps 1-0 and shows
    each as a claim to its arbiter; both PDNs end 1-0."""
    white_town, black_town, _ = towns
    with board(tmp_path, white_town, "Anna") as white, \
            board(tmp_path, black_town, "Boris") as black:
        both_know_each_other(white, black)
        rng, game = random.Random(SEED), Game(RUSSIAN, initial_position(RUSSIAN))
        play(white, black, game, rng, 4)
        black.post("/api/arbiter/result", {"result": "1-0", "reason": "resigned"},
                   token=TOKEN)
        wait_until(lambda: white.state()["result"] is not None, timeout=20,
                   what="the resignation taken on the white board")
        client = forger(white_town, "white")
        try:
            record = retained_record(client, "black")  # (the same plies as white's)
            base = {"v": match_state.VERSION, "match": "m1", "seat": "white",
                    "name": "Anna", "variant": "russian", "start": record["start"],
                    "tags": AGREED, "plies": record["plies"]}
            # the same attack in the words of each version of the record
            withdrawal = {"withdrawn": [4]} if match_state.VERSION >= 2 else {
                "withdrawn": 1, "declined": ["1-0", 0]}
            for forged in ({**base, **withdrawal},
                           {**base, **withdrawal, "result": "0-1",
                            "reason": "resigned", "by": "arbiter"}):
                client.publish(match_topic("m1", "white", "record"),
                               json.dumps(forged).encode(), retain=True)
                claim = wait_until(lambda: black.state()["opponent"]["claim"], timeout=20,
                                   what="the forged record shown as a claim")
                assert black.state()["result"] == "1-0", claim
                assert "\n" not in json.dumps(claim)
        finally:
            client.close()
        for side in (white, black):
            assert side.stop(signal.SIGTERM) == 0
    assert journal(tmp_path / "white-board").result == "1-0"
    assert journal(tmp_path / "black-board").result == "1-0"


def test_who_plays_a_seat_is_the_arbiters_to_change(tmp_path, towns):
    """Issue 44, 5: a match that stopped (the boards were started with other rounds)
    does not go on against the built-in engine for anyone who asks: in a tournament
    game `POST /api/opponent/continue` needs the arbiter's token."""
    white_town, black_town, _ = towns
    with board(tmp_path, white_town, "Anna") as white, \
            PlayProcess(tmp_path / "black-board", "--opponent", black_town.board_url(),
                        "--opponent-side", "white", "--tag", "Event=Towns match",
                        "--tag", "Round=2", "--tag", "TimeControl=600+5",
                        "--tag", "Black=Boris") as black:
        for side in (white, black):
            wait_until(lambda side=side: stopped(side), timeout=30, what="the match stops")
        tags = white.state()["tags"]
        with pytest.raises(urllib.error.HTTPError) as refused:
            white.post("/api/opponent/continue", {"level": 1})
        assert refused.value.code == 401
        view = white.state()
        assert view["tags"] == tags and stopped(white)  # nobody plays Black but Boris
        assert white.post("/api/opponent/continue", {"level": 1}, token=TOKEN)["ok"]
        wait_until(lambda: white.state()["opponent"]["error"] is None, timeout=10,
                   what="the built-in engine plays on")
        assert black.stop(signal.SIGTERM) == 0
        assert white.stop(signal.SIGTERM) == 0
