"""DXP against a peer that talks as Scan 2.0 does (`scan_peer`): whole games with the board
as initiator, and the game that once stopped after 7 plies. Scan, as follower, plans its
moves on the DXP clock of the game request (minutes for the whole game): once its opening
book runs out (often at its 4th move) it thinks a thirtieth of that clock or more, longer
than the few seconds per move the board used to wait, and the board gave up on it."""

from __future__ import annotations

import random
import threading

import pytest

from draughtsboard.board.rules import get_variant, initial_position
from draughtsboard.opponents import (
    Clocks,
    DxpOpponent,
    OpponentTimeoutError,
    open_opponent,
)

from .games import play_whole_game
from .scan_peer import ScanLikeFollower, scan_think_seconds

INTERNATIONAL = get_variant("international")


def random_choice(seed: str):
    rng = random.Random(seed)

    def choose(position, n):
        return rng.choice(position.legal_moves()), 0.0 if n <= 3 else 11.6
    return choose


class SteppingClock:
    """Our monotonic clock in a test: each look moves it on by ``step`` seconds; a peer
    thread can wait until it reads a time (no sleeping)."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.changed = threading.Condition()

    def __call__(self) -> float:
        with self.changed:
            self.now += self.step
            self.changed.notify_all()
            return self.now

    def release(self) -> None:
        """Let every waiting peer go on (the end of a test)."""
        with self.changed:
            self.now = float("inf")
            self.changed.notify_all()

    def wait_until(self, when: float) -> None:
        with self.changed:
            self.changed.wait_for(lambda: self.now >= when, timeout=30)


def play_out(opponent: DxpOpponent, peer: ScanLikeFollower, opponent_is_white: bool):
    try:
        # no TimeControl: the default 5 s a move
        game = play_whole_game(opponent, INTERNATIONAL, opponent_is_white=opponent_is_white,
                               clocks=Clocks(), level=3, seed="the person")
    finally:
        opponent.close()
    peer.thread.join(timeout=30)
    return game


@pytest.mark.parametrize("scan_is_white", [False, True])
def test_a_whole_game_against_a_scan_like_follower(scan_is_white):
    """The tester's set-up (the board initiates, default time) in both colours: as White
    Scan's first move comes right behind its GAMEACC, in the same read."""
    peer = ScanLikeFollower(random_choice(f"scan {scan_is_white}"))
    opponent = open_opponent(f"dxp:127.0.0.1:{peer.port}", INTERNATIONAL)
    game = play_out(opponent, peer, scan_is_white)
    assert opponent.name == "Scan 2.0"
    assert game.outcome() is not None and game.ply > 10
    assert peer.position == game.position  # Scan's rules saw the same game
    # the request: 5 minutes (50 moves of 5 s) for the game, no move count
    assert peer.received[0] == "R01" + "draughtsboard".ljust(32) + \
        ("W" if scan_is_white else "Z") + "005000A"
    assert peer.exit_reason == "game end with stop code 1"
    assert any(len(m) > 11 for m in peer.sent), "a capture of Scan's was in the game"


def test_scans_first_move_out_of_book_is_waited_for():
    """The game that stopped after 7 plies: Scan answered three moves from its book at
    once and thought about 12 s on the 4th (a 5-minute clock: its allocation), longer than
    the 8.25 s the board used to allow a move without a TimeControl."""
    soft, hard = scan_think_seconds(300.0)
    assert 11 < soft < 12 and 47 < hard < 48
    clock = SteppingClock(0.5)

    def before_move(n):
        if n == 4:
            clock.wait_until(clock.now + soft)

    peer = ScanLikeFollower(random_choice("out of book"), before_move)
    opponent = DxpOpponent(INTERNATIONAL, "127.0.0.1", peer.port, minutes=5, clock=clock)
    opponent.start(initial_position(INTERNATIONAL), opponent_is_white=False)
    person = random.Random("person")
    position = initial_position(INTERNATIONAL)
    waited = 0.0
    for ply in range(1, 9):
        if ply % 2:
            move = person.choice(position.legal_moves())
            opponent.other_side_moved(move)
        else:
            before = clock.now
            move = opponent.move(Clocks())
            waited = clock.now - before
        position = position.play(move)
    opponent.close()
    assert waited > 8.25  # the 4th answer came after the old limit, and was taken
    # GAMEACC and four moves (then perhaps its GAMEEND, answering the board's on close)
    assert [m[0] for m in peer.sent[:5]] == ["A", "M", "M", "M", "M"]
    assert [m[0] for m in peer.sent[5:]] in ([], ["E"])


def test_a_peer_past_its_whole_dxp_clock_times_out_in_one_line():
    clock = SteppingClock(5.0)
    peer = ScanLikeFollower(random_choice("slow"),
                            lambda n: clock.wait_until(clock.now + 10_000))
    opponent = DxpOpponent(INTERNATIONAL, "127.0.0.1", peer.port, minutes=1, clock=clock)
    opponent.start(initial_position(INTERNATIONAL), opponent_is_white=True)
    started = clock.now
    with pytest.raises(OpponentTimeoutError, match=r"its DXP clock \(1 min for the game\) "
                       "ran out") as raised:
        opponent.move(Clocks())
    waited = clock.now - started
    clock.release()
    peer.thread.join(timeout=30)
    assert "\n" not in str(raised.value)
    assert 60 * 1.25 <= waited <= 60 * 1.25 + 2 + 3 * clock.step


def test_the_request_offers_the_time_control_in_whole_minutes():
    peer = ScanLikeFollower(random_choice("offer"))
    opponent = open_opponent(f"dxp:127.0.0.1:{peer.port}", INTERNATIONAL,
                             game_seconds=90.0)
    opponent.start(initial_position(INTERNATIONAL), opponent_is_white=False)
    opponent.close()
    peer.thread.join(timeout=30)
    assert peer.received[0][36:43] == "002000A"  # 90 s: 2 minutes, no move count
    assert peer.clock_seconds == 120.0


def test_scan_ends_the_game_once_the_requested_moves_are_played():
    """Why the board never sends a move count: Scan takes it as the game's length."""
    peer = ScanLikeFollower(random_choice("limit"))
    opponent = DxpOpponent(INTERNATIONAL, "127.0.0.1", peer.port, minutes=5, moves=2)
    opponent.start(initial_position(INTERNATIONAL), opponent_is_white=False)
    position = initial_position(INTERNATIONAL)
    rng = random.Random("limit person")
    for _ in range(2):
        move = rng.choice(position.legal_moves())
        opponent.other_side_moved(move)
        position = position.play(move)
        position = position.play(opponent.move(Clocks()))
    opponent.other_side_moved(rng.choice(position.legal_moves()))
    with pytest.raises(Exception, match="ended the game .no reason given"):
        opponent.move(Clocks())
    assert peer.chats == ["game ended (2 moves played, unknown result)"]
