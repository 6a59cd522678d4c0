"""A seeded fuzz run of a match between two boards in virtual time: restarts of either
board and cuts of the link at random plies, thinking times on both boards' clocks, and
resignations, agreed draws and withdrawals (by one arbiter, then the other) at random
points. In every game both journals hold the same moves, the same clocks at the
match's resolution (milliseconds) and the same result, or both boards stopped with the
same line; a withdrawal by one arbiter alone shows the disagreement on both pages.

Slow: ``MATCH_FUZZ_SEEDS=FIRST:COUNT`` picks the games (default ``7000:40``)::

    MATCH_FUZZ_SEEDS=7000:40 .venv/bin/python -m pytest tests/play/test_match_fuzz.py -m slow
"""

from __future__ import annotations

import os
import random

import pytest

from draughtsboard.board.message import Message
from draughtsboard.opponents.match_state import at_resolution
from draughtsboard.words import english

from .test_board_match import (
    Wire,
    beats,
    board,
    carry_out_theirs,
    play_own_move,
    restart,
    settle_both,
)
from .virtual import STEP, VirtualPlay

pytestmark = pytest.mark.slow

NAMES = {"white": "Anna", "black": "Boris"}


def seeds() -> range:
    first, count = os.environ.get("MATCH_FUZZ_SEEDS", "7000:40").split(":")
    return range(int(first), int(first) + int(count))


class Match:
    """Two boards across a wire, restartable."""

    def __init__(self, tmp_path, rng: random.Random) -> None:
        self.tmp_path, self.rng = tmp_path, rng
        self.wire = Wire()
        self.plays = {seat: board(tmp_path, self.wire, seat, NAMES[seat])
                      for seat in ("white", "black")}
        self.settle()

    @property
    def white(self) -> VirtualPlay:
        return self.plays["white"]

    @property
    def black(self) -> VirtualPlay:
        return self.plays["black"]

    def settle(self) -> None:
        settle_both(self.white, self.black)

    def both_wait(self, seconds: float) -> None:
        """Time passes on both boards, beats going both ways while the wire is up."""
        while seconds > 0:
            step = min(1.0, seconds)
            beats(self.white, self.black)
            for play in (self.white, self.black):
                play.wait(step)
            self.settle()
            seconds -= step

    def restart(self, seat: str) -> None:
        self.plays[seat] = restart(self.tmp_path, self.wire, self.plays[seat], seat,
                                   NAMES[seat])
        self.settle()
        self.both_wait(STEP)

    def game(self, seat: str):
        play = self.plays[seat]
        return play.recorder.game(play.game.game_id)

    def stopped(self, seat: str) -> str | None:
        error = self.plays[seat].view()["opponent"]["error"]
        if not error:
            return None
        # (why it stopped crosses as a message: the same one, rendered on each page)
        return english(Message.from_json(error["params"]["detail"])) \
            if error["id"] == "match.stopped" else error["params"].get("detail")

    def claim(self, seat: str):
        return self.plays[seat].view()["opponent"]["claim"]

    def ply(self) -> None:
        """One ply: its mover thinks (both clocks see it), plays, the other carries out."""
        game = self.game("white")
        mover = "white" if game.position.white_to_move else "black"
        other = "black" if mover == "white" else "white"
        self.both_wait(self.rng.uniform(0.0, 6.0))
        cut = self.rng.random() < 0.12
        if cut:
            self.wire.cut()
            self.both_wait(self.rng.uniform(0.0, 5.0))
        beats(self.white, self.black)
        play_own_move(self.plays[mover], self.rng)
        self.settle()
        if cut:
            self.both_wait(self.rng.uniform(0.0, 5.0))
            self.wire.mend()
            self.both_wait(STEP)
        if self.rng.random() < 0.1:
            self.restart(self.rng.choice(("white", "black")))
        self.both_wait(self.rng.uniform(0.0, 2.0))
        carry_out_theirs(self.plays[other])
        self.settle()
        if self.rng.random() < 0.1:
            self.restart(self.rng.choice(("white", "black")))

    def close(self) -> None:
        for play in self.plays.values():
            play.close()


def one_game(tmp_path, seed: int) -> str:
    """One game of the fuzz run; how it ended (for the run's summary)."""
    rng = random.Random(seed)
    match = Match(tmp_path, rng)
    try:
        ending = "open"
        for _ in range(rng.randint(2, 30)):
            if match.game("white").position.is_game_over() or \
                    match.stopped("white") or match.stopped("black"):
                break
            match.ply()
            if rng.random() < 0.08:
                ending = result_and_withdrawals(match, rng)
                if ending != "reopened":
                    break
        else:
            if rng.random() < 0.7:
                ending = result_and_withdrawals(match, rng)
        match.both_wait(STEP)
        match.both_wait(STEP)
        check_agreed(match)
        line = match.stopped("white")
        return ending if not line else f"stopped: {line}"
    finally:
        match.close()


def result_and_withdrawals(match: Match, rng: random.Random) -> str:
    """A resignation or an agreed draw, sometimes withdrawn: by one arbiter (both pages
    show the disagreement), then the other (the game open again)."""
    if match.stopped("white") or match.stopped("black") or \
            match.game("white").ply != match.game("black").ply:
        return "open"
    loser = rng.choice(("white", "black"))
    if rng.random() < 0.3:  # an agreed draw: offered on one board, accepted on the other
        first = loser
        match.plays[first].arbiter.declare_result("1-1", "agreed")
        match.both_wait(STEP)
        other = "black" if first == "white" else "white"
        assert match.claim(other) is not None
        match.plays[other].arbiter.declare_result("1-1", "agreed")
        ending = "draw"
    else:
        result = "0-1" if loser == "white" else "1-0"
        match.plays[loser].arbiter.declare_result(result, "resigned")
        ending = "resigned"
    match.both_wait(STEP)
    results = {seat: match.game(seat).result for seat in ("white", "black")}
    assert results["white"] == results["black"] is not None, results
    if rng.random() < 0.4:  # withdrawn: one arbiter, then the other
        first = rng.choice(("white", "black"))
        other = "black" if first == "white" else "white"
        match.plays[first].arbiter.withdraw_result()
        match.both_wait(STEP)
        if rng.random() < 0.3:
            seat = rng.choice(("white", "black"))
            match.restart(seat)
            if seat == other:  # a finished game is not resumed: a new game, refused
                return "stopped after a restart"
        assert match.game(first).result is None
        assert match.game(other).result is not None  # never by itself
        assert match.claim(first) is not None and match.claim(other) is not None
        match.plays[other].arbiter.withdraw_result()
        match.both_wait(STEP)
        assert match.game("white").result is None and match.game("black").result is None
        assert match.claim("white") is None and match.claim("black") is None
        return "reopened"
    return ending


def check_agreed(match: Match) -> None:
    white_stop, black_stop = match.stopped("white"), match.stopped("black")
    if white_stop or black_stop:
        assert white_stop == black_stop, (white_stop, black_stop)
        assert "\n" not in white_stop
        return
    white, black = match.game("white"), match.game("black")
    if white.ply != black.ply:  # the last move still to carry out
        pending = match.plays["black" if white.ply > black.ply else "white"]
        carry_out_theirs(pending)
        match.both_wait(STEP)
        white, black = match.game("white"), match.game("black")
    assert [m.text for m in white.moves] == [m.text for m in black.moves]
    assert [at_resolution(m.clock) for m in white.moves] == \
        [at_resolution(m.clock) for m in black.moves]
    assert white.result == black.result
    for play in match.plays.values():
        ids = [entry["text"].get("id") for entry in play.view()["log"]
               if isinstance(entry["text"], dict)]
        assert "match.log.clock_refused" not in ids  # an honest board is believed


@pytest.mark.parametrize("seed", seeds())
def test_both_boards_agree_in_every_game(tmp_path, seed):
    one_game(tmp_path, seed)
