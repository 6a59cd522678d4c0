"""Issue 16, case 9 (the serial host's part): HELLO numbers are checked, and a link that
is down or a port that cannot be opened is an error in the log and on the page."""

from __future__ import annotations

import logging
import threading

import pytest
import serial

from draughtsboard.board.ports import LedFrame
from draughtsboard.firmware_bridge import codec
from draughtsboard.firmware_bridge.firmware import wire
from draughtsboard.firmware_bridge.link import SerialLink
from draughtsboard.firmware_bridge.session import HostSession, LinkState

SQUARES = 32


def hello(boot=1, last_seq=0, heartbeat_ms=50):
    return codec.Hello((1, 0, 0), 8, 8, 4, SQUARES, boot, last_seq, heartbeat_ms).encode()


def snapshot(seq, occupied, boot=1):
    return codec.SnapshotMessage(boot, seq, 0, 0, SQUARES, occupied).encode()


def connected(session, now=0.0):
    session.connected(now)
    return session


def test_a_huge_last_seq_in_a_new_boots_hello_does_not_freeze_the_board():
    session = connected(HostSession(SQUARES))
    session.receive(hello(boot=1), 0.01)
    assert session.receive(snapshot(1, 0b1), 0.02).publish
    # the device reboots; its HELLO is corrupted (or confused) into a huge last_seq
    session.receive(hello(boot=2, last_seq=4_000_000_000), 0.03)
    published = session.receive(snapshot(1, 0b11, boot=2), 0.04).publish
    assert [s.occupied for s in published] == [0b11]  # the real snapshot is taken
    published = session.receive(snapshot(2, 0b111, boot=2), 0.05).publish
    assert [s.occupied for s in published] == [0b111]
    assert session.receive(snapshot(2, 0b1, boot=2), 0.06).publish == []  # a copy: dropped
    assert session.state is LinkState.UP


def test_a_huge_last_seq_for_the_same_boot_is_counted_not_chased():
    session = connected(HostSession(SQUARES))
    session.receive(hello(boot=1), 0.01)
    session.receive(snapshot(1, 0b1), 0.02)
    actions = session.receive(hello(boot=1, last_seq=4_000_000_000), 0.03)
    assert session.stats.implausible == 1
    assert wire.encode_frame(wire.GET_SNAPSHOT) not in actions.send
    assert session.receive(snapshot(2, 0b11), 0.04).publish  # the count goes on


def test_a_huge_heartbeat_period_does_not_make_the_dead_link_timeout_minutes(caplog):
    session = connected(HostSession(SQUARES, heartbeat_timeout=1.0))
    with caplog.at_level(logging.WARNING):
        session.receive(hello(heartbeat_ms=65535), 0.01)
    assert session.stats.implausible == 1 and "not believed" in caplog.text
    session.receive(snapshot(1, 0b1), 0.02)
    assert not session.tick(4.0).reopen
    assert session.tick(6.0).reopen  # 5 x the largest believable period, not 5 minutes


@pytest.mark.slow
def test_a_port_that_cannot_be_opened_is_an_error_and_a_problem_for_the_page(caplog):
    now = [0.0]

    def refuse(url, **options):
        raise serial.SerialException(f"could not open port {url}: No such file")

    with caplog.at_level(logging.ERROR, logger="draughtsboard.firmware_bridge.link"):
        link = SerialLink("/dev/ttyNONE", SQUARES, serial_for_url=refuse,
                          clock=lambda: now[0], backoff=(0.001, 0.001))
        try:
            assert link.wait_until(lambda: link.problem() is not None, 5)
            assert "cannot open /dev/ttyNONE" in link.problem()
        finally:
            link.close()
    errors = [r for r in caplog.records if "cannot open /dev/ttyNONE" in r.getMessage()]
    assert len(errors) == 1  # logged once, not at every retry


class Silent:
    """A port on which the device says nothing, ever."""

    in_waiting = 0

    def read(self, n):
        return b""

    def write(self, data):
        return len(data)

    def close(self):
        pass


def test_a_link_that_stays_down_is_a_problem_after_a_grace_period():
    now = [0.0]

    link = SerialLink("loop://", SQUARES, serial_for_url=lambda url, **o: Silent(),
                      clock=lambda: now[0])
    try:
        link.wait_until(lambda: link.state is LinkState.AWAIT_HELLO, 5)
        assert link.problem() is None  # a reconnection takes a moment: not an alarm yet
        now[0] = 3.0
        link.show(LedFrame.blank(SQUARES))
        assert link.problem() == "loop://: no answer from the device"
    finally:
        link.close()


def test_while_it_reopens_after_a_silence_the_link_says_the_device_does_not_answer():
    """A silent device makes the session reopen the port; between closing and opening
    it again the link is down, and the page must not say "the port is closed" then (it
    once did, now and then, when it asked at that moment). The second open is held here
    so that the moment lasts."""
    now = [0.0]
    opens: list[int] = []
    second_open = threading.Event()
    release = threading.Event()

    def open_port(url, **options):
        opens.append(1)
        if len(opens) == 2:
            second_open.set()
            release.wait(10)
        return Silent()

    link = SerialLink("loop://", SQUARES, serial_for_url=open_port, clock=lambda: now[0])
    try:
        link.wait_until(lambda: link.state is LinkState.AWAIT_HELLO, 5)
        now[0] = 3.0  # three seconds without a frame: the session asks for a reopen
        assert second_open.wait(10)
        assert link.state is LinkState.DOWN
        assert link.problem() == "loop://: no answer from the device"
    finally:
        release.set()
        link.close()
