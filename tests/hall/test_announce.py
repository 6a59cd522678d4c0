"""When the ingest thread tells the page that the hall changed: within a bound in time,
however busy the hall is (time is an input; no thread, no sleep).

The cause this pins: the page was told after 50 messages or when the queue ran dry. With
a hundred boards the queue never ran dry, so a move waited for 49 other messages before
the page heard of it (0.4 s at a hundred messages a second; p95 of a move's way to the
page over 800 ms)."""

from draughtsboard.hall.announce import EVERY, Announcer


def ingest_loop(arrivals: list[float], until: float, announcer: Announcer) -> list[float]:
    """The ingest thread's loop (`HallService._run`) in virtual time: it waits for the next
    message no longer than the announcer allows (at most 0.1 s), handles it, and tells the
    page when it is due. The times the page was told."""
    told, now, pending = [], 0.0, sorted(arrivals)
    while now < until:
        waited = announcer.wait(now, 0.1)
        if pending and pending[0] <= now + waited:
            now = max(now, pending.pop(0))
            announcer.changed()  # a message handled
        else:
            now += waited if waited > 0 else 0.001
        if announcer.due(now):
            told.append(now)
    return told


def test_a_hall_whose_queue_never_runs_dry_tells_the_page_within_the_bound():
    # a hundred boards, a move every two seconds each: a ply and a state per move, a
    # message every 10 ms, never a quiet moment
    arrivals = [i * 0.01 for i in range(300)]
    told = ingest_loop(arrivals, 3.0, Announcer())
    for made in arrivals:
        first = next(t for t in told if t >= made)
        assert first - made <= EVERY + 1e-9, made
    assert len(told) <= 3.0 / EVERY + 1  # and the streams are woken at most 20 times a second


def test_a_change_after_a_quiet_spell_is_told_at_once():
    announcer = Announcer()
    assert announcer.due(10.0) is False  # nothing to tell
    announcer.changed()
    assert announcer.due(10.0) is True
    assert announcer.due(10.0) is False  # told once
    announcer.changed()
    assert announcer.due(10.0 + EVERY / 2) is False  # a busy spell: gathered ...
    assert announcer.due(10.0 + EVERY) is True  # ... and told within EVERY


def test_the_ingest_thread_waits_no_longer_than_a_change_it_holds_allows():
    announcer = Announcer()
    assert announcer.wait(5.0, 0.1) == 0.1  # nothing held: the longest wait
    announcer.changed()
    assert announcer.due(5.0)
    announcer.changed()
    assert abs(announcer.wait(5.01, 0.1) - (EVERY - 0.01)) < 1e-9
    assert announcer.wait(5.01, 0.02) == 0.02  # the caller's bound (the next tick) first
    assert announcer.wait(6.0, 0.1) == 0.0  # overdue: no waiting at all


def test_one_lone_message_is_told_when_it_is_handled():
    told = ingest_loop([1.234], 2.0, Announcer())
    assert told == [1.234]
