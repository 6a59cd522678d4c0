"""Boards, a real mosquitto and the hall, together: moves reach the hall, outages of the
broker, a board or the hall lose nothing, commands reach the boards."""

from __future__ import annotations

import random

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
    return [p.text for p in board.recorder.game(board.session.game_id).moves]


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
        assert live.current == one.session.game_id
