"""A board's queue of the hall's commands is bounded, and a resend of a game replaces the
one still waiting for that game: a flood of requests cannot grow the board's memory or
hold its link for minutes, and the arbiter's commands are never merged away."""

from __future__ import annotations

from draughtsboard.hall_link.command_queue import CommandQueue
from draughtsboard.hall_protocol.messages import Command


def resend(game: str, first: int | None = None, number: int = 0) -> bytes:
    return Command(f"resend-{number}", "resend", game, first=first,
                   last=first).to_json()


def test_a_newer_resend_of_a_game_replaces_the_waiting_one():
    queue = CommandQueue()
    game = "00001-20261201-120000"
    for number in range(1000):
        queue.put(resend(game, first=1 + number % 5, number=number))
    taken = queue.take_all()
    assert len(taken) == 1 and Command.from_json(taken[0]).id == "resend-999"
    assert queue.take_all() == []


def test_a_flood_of_resends_for_made_up_games_is_bounded_and_spares_the_arbiter():
    queue = CommandQueue(limit=100)
    queue.put(Command("hall-1", "result", "00001-20261201-120000", result="1-0").to_json())
    for number in range(10_000):
        queue.put(resend(f"{number + 10:05d}-20261201-120000", number=number))
    queue.put(Command("hall-2", "acknowledge", "00001-20261201-120000").to_json())
    taken = [Command.from_json(p) for p in queue.take_all()]
    assert len(taken) == 100 and queue.dropped == 9_902
    ids = [c.id for c in taken]
    assert ids[0] == "hall-1" and ids[-1] == "hall-2"  # the arbiter's both kept


def test_a_payload_that_is_not_json_is_kept_for_its_answer():
    queue = CommandQueue()
    queue.put(b"\xff not json")
    assert queue.take_all() == [b"\xff not json"]
