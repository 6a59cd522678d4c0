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
import time

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.fen import initial_position
from draughtsboard.board.rules.notation import format_move
from draughtsboard.hall.towns import match_user
from draughtsboard.hall_protocol.topics import match_topic
from draughtsboard.opponents.match_state import MatchRecord, plies_of

from ..web.helpers import TOKEN, PlayProcess, wait_until
from .test_bad_input import RawClient
from .test_match import RUSSIAN, SEED, board, carry_out, journal, make_move, towns  # noqa: F401

pytestmark = pytest.mark.broker

AGREED = {"Event": "Towns match", "Round": "1", "TimeControl": "600+5"}


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
    """The one line the page shows of a stopped match (None: not stopped)."""
    error = play_process.state()["opponent"]["error"]
    return error["params"].get("detail") if error else None


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
