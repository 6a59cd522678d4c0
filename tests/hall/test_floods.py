"""One board's flood never delays another board: the hall's inbox takes the boards in
turn, bounds each board's queue, and hands each board at most so many messages a second;
log lines about a board's bad messages are a few a minute, counted."""

from __future__ import annotations

from draughtsboard.hall.inbox import BoardInbox
from draughtsboard.hall.log_limit import LogLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_flooding_board_waits_for_its_own_messages_not_the_others():
    clock = Clock()
    inbox = BoardInbox(per_board=500, rate=100.0, burst=100.0, clock=clock)
    for number in range(10_000):
        inbox.put(3, ("ply", number))
    assert inbox.dropped(3) == 9_500 and inbox.waiting() == 500
    inbox.put(1, ("ply", "honest"))
    taken = [inbox.take(0) for _ in range(3)]
    assert (1, ("ply", "honest")) in taken  # within the first turns, not after 500
    assert [item for board, item in taken if board == 3][0] == ("ply", 9_500)  # oldest kept


def test_a_board_gets_at_most_its_rate_of_messages_a_second():
    clock = Clock()
    inbox = BoardInbox(per_board=2000, rate=100.0, burst=50.0, clock=clock)
    for number in range(2000):
        inbox.put(3, number)
    handled = 0
    for _ in range(1000):  # ten seconds of virtual time, looked at every 10 ms
        while inbox.take(0) is not None:
            handled += 1
        clock.now += 0.01
    assert 50 + 1000 - 2 <= handled <= 50 + 1000  # the burst, then 100 a second
    assert inbox.take(0) is not None  # the rest still waits its turn


def test_log_lines_about_one_board_are_few_and_say_how_many_were_held():
    clock = Clock()
    limiter = LogLimiter(interval=10.0, clock=clock)
    lines = []
    for number in range(10_000):
        clock.now = number * 0.005  # 10,000 bad messages in 50 s
        suffix = limiter.allow(("bad", 3))
        if suffix is not None:
            lines.append(suffix)
        if number == 5000:
            assert limiter.allow(("bad", 1)) == ""  # another board's line is not hidden
    assert len(lines) == 5 and lines[0] == "" and "1999 more like it" in lines[1]


def test_big_messages_are_bounded_in_bytes_queued_and_handled_a_second():
    clock = Clock()
    inbox = BoardInbox(per_board=500, per_board_bytes=4_000_000, byte_rate=500_000,
                       byte_burst=1_000_000, clock=clock)
    for number in range(100):  # 47 MB of valid-looking states
        inbox.put(3, number, 475_000)
    assert inbox.waiting() == 8 and inbox.dropped(3) == 92  # 4 MB at most held
    inbox.put(1, "honest", 2_000)
    taken = [inbox.take(0) for _ in range(3)]
    assert (1, "honest") in taken
    handled = sum(1 for board, _ in taken if board == 3)
    clock.now += 1.0  # a second: about 500 KB more of board 3
    while inbox.take(0) is not None:
        handled += 1
    assert handled == 3  # 1 MB burst (2 states), then 475 KB of the next second


def test_a_message_bigger_than_the_queue_replaces_what_waited_and_takes_one_turn():
    """A message that alone outgrows a board's queue in bytes pushes out everything that
    waited. The board kept its place in the turns; it once took a second place too, and
    the ingest thread then took from an empty queue (IndexError: the hall stopped)."""
    inbox = BoardInbox(per_board_bytes=1000, clock=Clock())
    inbox.put(3, "small", 100)
    assert inbox.put(3, "huge", 5000) is False  # "small" dropped to make room
    assert inbox.take(timeout=0) == (3, "huge")
    assert inbox.take(timeout=0) is None
    assert inbox.dropped(3) == 1
