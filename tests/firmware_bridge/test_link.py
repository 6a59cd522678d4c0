"""SerialLink over pyserial's loop:// : whatever the link writes, it reads back, so a test
plays the device by writing frames into the same port. Threads are awaited on events."""

import serial

from draughtsboard.board.ports import LedFrame, LedPattern, LedSink, SensorSource, Snapshot
from draughtsboard.firmware_bridge import codec
from draughtsboard.firmware_bridge.firmware import wire
from draughtsboard.firmware_bridge.link import SerialLink
from draughtsboard.firmware_bridge.session import HostSession, LinkState

SQUARES = 32
WAIT = 5.0


class Ports:
    """A serial_for_url that records every port it opens and can refuse to open."""

    def __init__(self, failures=0):
        self.opened = []
        self.failures = failures

    def __call__(self, url, **kwargs):
        if self.failures:
            self.failures -= 1
            raise serial.SerialException(f"could not open port {url}")
        port = serial.serial_for_url(url, **kwargs)
        self.opened.append(port)
        return port

    def device_writes(self, *messages):
        self.opened[-1].write(b"".join(m.encode() for m in messages))


def hello(boot=0x99, last_seq=0):
    return codec.Hello((1, 0, 0), 8, 8, 4, SQUARES, boot, last_seq, 200)


def snap(seq, occupied, boot=0x99):
    return codec.SnapshotMessage(boot, seq, 0, wire.REASON_CHANGE, SQUARES, occupied)


def open_link(ports, **session_options):
    session = HostSession(SQUARES, **session_options)
    return SerialLink(
        "loop://", SQUARES, session=session, serial_for_url=ports, backoff=(0.001, 0.01)
    )


def test_the_link_is_a_sensor_source_and_a_led_sink():
    ports = Ports()
    with open_link(ports) as link:
        assert isinstance(link, SensorSource) and isinstance(link, LedSink)
        assert link.square_count == SQUARES


def test_snapshots_come_out_of_read_after_hello():
    ports = Ports()
    with open_link(ports) as link:
        assert link.wait_until(lambda: link.state is LinkState.AWAIT_HELLO, WAIT)
        ports.device_writes(hello(), snap(1, 0b1011))
        snapshot = link.read(timeout=WAIT)
        assert isinstance(snapshot, Snapshot) and snapshot.occupied == 0b1011
        assert link.latest() == snapshot
        assert link.read(timeout=0) is None


def test_garbage_on_the_line_is_counted_and_the_link_carries_on():
    ports = Ports()
    with open_link(ports) as link:
        assert link.wait_until(lambda: link.state is LinkState.AWAIT_HELLO, WAIT)
        ports.opened[-1].write(b"\x03\x11\x22\x00\xff\xfe\x00")
        ports.device_writes(hello(), snap(1, 0b1))
        assert link.read(timeout=WAIT).occupied == 0b1
        assert link.stats.bad_frames == {"bad_length": 1, "bad_cobs": 1}


def test_led_frames_go_out_and_are_retried_until_acknowledged():
    ports = Ports()
    with open_link(ports, retry_interval=0.01) as link:
        assert link.wait_until(lambda: link.state is LinkState.AWAIT_HELLO, WAIT)
        ports.device_writes(hello(), snap(1, 0))
        assert link.wait_for_up(WAIT)
        link.show(LedFrame.from_mapping(SQUARES, {4: LedPattern.ON}))
        assert link.wait_until(lambda: link.stats.led_retries >= 2, WAIT)
        ports.device_writes(codec.Ack(wire.LEDS, 1))
        assert link.wait_until(lambda: link.session.leds_acknowledged, WAIT)


def test_the_port_is_opened_again_after_failures_with_backoff():
    ports = Ports(failures=3)
    with open_link(ports) as link:
        assert link.wait_until(lambda: bool(ports.opened), WAIT)
        assert ports.failures == 0


def test_an_unplugged_port_is_reopened_and_the_device_introduced_again():
    ports = Ports()
    with open_link(ports) as link:
        assert link.wait_until(lambda: link.state is LinkState.AWAIT_HELLO, WAIT)
        ports.device_writes(hello(), snap(1, 0b1))
        assert link.read(timeout=WAIT).occupied == 0b1
        ports.opened[-1].close()  # the cable is pulled
        assert link.wait_until(lambda: len(ports.opened) == 2, WAIT)
        assert link.wait_until(lambda: link.state is LinkState.AWAIT_HELLO, WAIT)
        assert link.stats.reconnects == 1
        ports.device_writes(hello(last_seq=7), snap(8, 0b11))
        assert link.read(timeout=WAIT).occupied == 0b11


def test_a_silent_device_times_out_and_the_port_is_reopened():
    ports = Ports()
    with open_link(ports, heartbeat_timeout=0.05) as link:
        assert link.wait_until(lambda: link.state is LinkState.AWAIT_HELLO, WAIT)
        ports.device_writes(codec.Hello((1, 0, 0), 8, 8, 4, SQUARES, 1, 0, 5), snap(1, 0, 1))
        assert link.wait_for_up(WAIT)
        assert link.wait_until(lambda: link.stats.timeouts >= 1, WAIT)
        assert link.wait_until(lambda: len(ports.opened) >= 2, WAIT)


def test_close_is_safe_twice():
    link = open_link(Ports())
    link.close()
    link.close()


def test_a_waiting_read_returns_when_woken_and_a_quiet_link_blocks_longer():
    """The session's controller is woken for a command; a link with nothing to time reads
    its port with the longer timeout (a heartbeat comes within 50 ms anyway)."""
    from draughtsboard.firmware_bridge.link import QUIET_POLL
    from tests.hardware.woken import a_waiting_read_returns_when_woken
    from tests.web.helpers import wait_until

    ports = Ports()
    with open_link(ports) as link:
        assert link.wait_until(lambda: ports.opened, WAIT)
        ports.device_writes(hello(), snap(1, 0b1))
        assert link.wait_for_up(WAIT)
        assert link.read(timeout=WAIT).occupied == 0b1
        wait_until(lambda: ports.opened[-1].timeout == QUIET_POLL, WAIT, what="a quiet read")
        assert a_waiting_read_returns_when_woken(link)
