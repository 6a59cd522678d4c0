"""The broker's configuration as `draughtsboard venue` writes it, tried with one board's
password against the others: a client id is its user name (no one throws another board
off or takes its queued commands), and a message bigger than the protocol allows is
refused by the broker before anyone holds it."""

from __future__ import annotations

import socket
import threading

import pytest

from benchmarks.harness.mqtt_wire import connect_packet, publish_header
from draughtsboard.hall.venue import VenueError, write_venue
from draughtsboard.hall_protocol import parse_broker_url
from draughtsboard.hall_protocol.connect import connect, make_client
from draughtsboard.hall_protocol.messages import MAX_PAYLOAD
from draughtsboard.hall_protocol.topics import board_topic

from ..web.helpers import wait_until
from .test_bad_input import RawClient


class Watched:
    """A client that keeps the broker's session (as boards and the hall do) and notes
    its connections, disconnections and messages."""

    def __init__(self, url: str, client_id: str, subscribe: str | None = None) -> None:
        self.address = parse_broker_url(url)
        self.client = make_client(self.address, client_id)
        self.connects, self.disconnects, self.messages = 0, 0, []
        self.lock = threading.Lock()

        def connected(client, userdata, flags, reason, properties):
            with self.lock:
                self.connects += 1
            if subscribe:
                client.subscribe(subscribe, qos=1)

        def disconnected(client, userdata, flags, reason, properties):
            with self.lock:
                self.disconnects += 1

        self.client.on_connect = connected
        self.client.on_disconnect = disconnected
        self.client.on_message = lambda c, u, m: self.messages.append(m.payload)
        connect(self.client, self.address)
        wait_until(lambda: self.connects >= 1, what=f"{client_id} to connect")

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_another_boards_password_cannot_throw_a_board_off(broker):
    one = Watched(broker.venue.board_url(1), "draughtsboard-board-1")
    try:
        for stolen_id in ("draughtsboard-board-1", "board1"):
            intruder = Watched(broker.venue.board_url(3), stolen_id)
            intruder.stop()
        assert (one.connects, one.disconnects) == (1, 0)
        assert "as board3" in broker.log and "as draughtsboard-board-1" not in broker.log
    finally:
        one.stop()


def test_a_command_queued_for_an_absent_board_waits_for_that_board(broker):
    command_topic = board_topic(1, "command")
    one = Watched(broker.venue.board_url(1), "draughtsboard-board-1", subscribe=command_topic)
    wait_until(lambda: "u'board1'" in broker.log, what="board 1 in the broker's log")
    one.stop()  # away; the broker keeps its session
    hall = RawClient(broker.venue.hall_url(), "hall")
    try:
        hall.publish(command_topic, b'{"v":1,"id":"hall-1","cmd":"acknowledge"}')
        intruder = Watched(broker.venue.board_url(3), "draughtsboard-board-1",
                           subscribe=command_topic)
        intruder.stop()
        again = Watched(broker.venue.board_url(1), "draughtsboard-board-1")
        wait_until(lambda: again.messages, what="the queued command")
        assert b"hall-1" in again.messages[0] and intruder.messages == []
        again.stop()
    finally:
        hall.close()


def announce_a_huge_publish(url: str, topic: str, size: int) -> bytes:
    """Log in on a plain socket (as an attacker would, no client library refusing) and
    announce a PUBLISH of ``size`` bytes; what the broker answers to it (b"": it closed
    the connection)."""
    address = parse_broker_url(url)
    with socket.create_connection((address.host, address.port), timeout=10) as sock:
        sock.sendall(connect_packet("x", address.username, address.password))
        assert sock.recv(4)[:1] == b"\x20"  # CONNACK
        try:
            sock.sendall(publish_header(topic, size) + b"x" * 1000)
            return sock.recv(100)
        except ConnectionResetError:
            return b""  # closed, with data of ours unread


def test_a_message_bigger_than_the_protocol_allows_is_refused_by_its_header(broker):
    hall = Watched(broker.venue.hall_url(), "hall", subscribe="draughtsboard/v1/#")
    try:
        assert announce_a_huge_publish(broker.venue.board_url(3), board_topic(3, "state"),
                                       100 * 1024 * 1024) == b""
        assert "disconnected due to oversize packet" in broker.log
        board3 = RawClient(broker.venue.board_url(3), "board3")
        board3.publish(board_topic(3, "status"), b"small")
        wait_until(lambda: hall.messages, what="the small message")
        assert [len(m) for m in hall.messages] == [5]
        assert broker.process.poll() is None
        board3.close()
    finally:
        hall.stop()


@pytest.mark.parametrize("listen", ["127.0.0.1\nallow_anonymous true:1883", "host name:1",
                                    "127.0.0.1:99999", "127.0.0.1:٣"])
def test_a_listener_that_is_not_an_address_and_port_is_refused(tmp_path, capsys, listen):
    from draughtsboard.cli import main

    assert main(["venue", "--boards", "2", "--out", str(tmp_path), "--listen", listen]) == 64
    assert "expected HOST:PORT" in capsys.readouterr().err
    assert not (tmp_path / "mosquitto.conf").exists()
    with pytest.raises(VenueError):
        write_venue(tmp_path, 2, host="127.0.0.1\nallow_anonymous true", port=1883)


def test_the_generated_config_bounds_messages_and_queues(open_folder):
    venue = write_venue(open_folder, 2, port=18830)
    lines = venue.config.read_text().splitlines()
    assert f"message_size_limit {MAX_PAYLOAD + 4096}" in lines
    assert f"max_packet_size {MAX_PAYLOAD + 8192}" in lines
    assert any(line.startswith("max_queued_bytes ") for line in lines)
    assert lines.index("use_username_as_clientid true") > lines.index("listener 18830 127.0.0.1")
    assert "allow_anonymous false" in lines and "allow_anonymous true" not in lines
