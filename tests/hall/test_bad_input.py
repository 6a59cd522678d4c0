"""Bad input through a real broker: the ACL refuses a board that writes under another
board's number, and malformed, oversized, out-of-order and illegal messages are logged
with the board's number and dropped while the other boards play on."""

from __future__ import annotations

import random
import threading

import paho.mqtt.client as mqtt

from draughtsboard.hall_protocol import parse_broker_url
from draughtsboard.hall_protocol.connect import make_client
from draughtsboard.hall_protocol.messages import MAX_PAYLOAD, MoveRecord, PlyMessage
from draughtsboard.hall_protocol.topics import board_topic
from tests.hall.words_check import in_english

from ..web.helpers import wait_until
from .test_live import board_moves, hall_moves, play_random


class RawClient:
    """A plain MQTT client with one board's (or anyone's) credentials."""

    def __init__(self, url: str, client_id: str) -> None:
        self.client = make_client(parse_broker_url(url), client_id)
        self.acks: dict[int, object] = {}
        self.granted: list = []
        self.messages: list[tuple[str, bytes]] = []
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, m.payload))
        self.done = threading.Condition()
        self.client.on_publish = self._published
        self.client.on_subscribe = self._subscribed
        address = parse_broker_url(url)
        self.client.connect(address.host, address.port)
        self.client.loop_start()

    def _published(self, client, userdata, mid, reason_code, properties) -> None:
        with self.done:
            self.acks[mid] = reason_code
            self.done.notify_all()

    def _subscribed(self, client, userdata, mid, reason_codes, properties) -> None:
        with self.done:
            self.granted = list(reason_codes)
            self.done.notify_all()

    def publish(self, topic: str, payload: bytes, retain: bool = False):
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        with self.done:
            assert self.done.wait_for(lambda: info.mid in self.acks, 10), "no PUBACK"
            return self.acks[info.mid]

    def subscribe(self, topic: str):
        self.granted = []
        self.client.subscribe(topic, qos=1)
        with self.done:
            assert self.done.wait_for(lambda: self.granted, 10), "no SUBACK"
            return self.granted[0]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_the_acl_refuses_a_board_writing_under_another_number(hall, broker):
    service = hall()
    board3 = RawClient(broker.venue.board_url(3), "intruder")
    try:
        move = MoveRecord("c3-d4", (22, 18))
        forged = PlyMessage("00001-20261130-120000", 1, 1, move).to_json()
        refused = board3.publish(board_topic(4, "ply"), forged)
        assert refused.is_failure and refused.getName() == "Not authorized"
        assert board3.publish(board_topic(4, "command"), b"{}").is_failure
        # reading another board's commands: mosquitto grants the subscription but
        # delivers nothing the ACL forbids. The hall sends to board 4, then to board 3:
        # once board 3's arrives, board 4's would have arrived before it (same sender).
        board3.subscribe(board_topic(4, "command"))
        board3.subscribe(board_topic(3, "command"))
        service.send_command(4, "acknowledge")
        service.send_command(3, "acknowledge")
        wait_until(lambda: board3.messages, what="board 3's own command")
        assert [topic for topic, _ in board3.messages] == [board_topic(3, "command")]
        accepted = board3.publish(board_topic(3, "status"), b'{"v":1,"online":true}')
        assert not accepted.is_failure
        wait_until(lambda: service.ingest.live(3).online, what="board 3's own status")
        assert 4 not in service.ingest.boards and 4 not in service.store.games
    finally:
        board3.close()


def test_bad_messages_are_dropped_and_the_other_boards_play_on(hall, boards, broker):
    service = hall()
    one = boards(1)
    rogue = RawClient(broker.venue.board_url(5), "rogue")
    game = "00001-20261130-120000"
    try:
        for kind, payload in [
            ("state", b"not json at all"),
            ("state", b"\xff\xfe\x00"),
            ("state", b'{"v": 2, "game": "x"}'),
            ("state", b'[1, 2, 3]'),
            ("state", b"{" * 100_000),
            ("ply", b"x" * (MAX_PAYLOAD + 10)),
            ("state", b'{"v":1,"game":"' + game.encode() + b'","variant":"chess",'
                      b'"tags":{},"moves":[],"changes":0}'),
            ("ply", PlyMessage(game, 3, 3, MoveRecord("c3-d4", (22, 18))).to_json()),
            ("status", b'{"v":1,"online":"yes"}'),
        ]:
            assert not rogue.publish(board_topic(5, kind), payload).is_failure
        # a real game start, then an illegal move for it
        good_state = (b'{"v":1,"game":"' + game.encode() + b'","variant":"russian",'
                      b'"tags":{"Round":"1"},"moves":[],"changes":0}')
        rogue.publish(board_topic(5, "state"), good_state)
        illegal = PlyMessage(game, 1, 1, MoveRecord("a1-h8", (29, 4))).to_json()
        rogue.publish(board_topic(5, "ply"), illegal)
        play_random(one, 4, random.Random(2))
        wait_until(lambda: hall_moves(service, 1) == board_moves(one),
                   what="board 1 to play on")
        wait_until(lambda: service.bad_messages >= 8, what="the bad messages counted")
        with service.store.lock:
            problems = service.ingest.live(5).problems
            said = [in_english(p) for p in problems]
            assert said and any("a1-h8" in p or "illegal" in p.lower() for p in said)
            assert service.store.latest(5).ply == 0  # nothing invented
        assert service.detail(5)["needs"]  # the arbiter sees that board 5 sends bad data
    finally:
        rogue.close()


def test_a_bug_on_one_boards_message_does_not_stop_the_hall(hall, boards, broker,
                                                            monkeypatch):
    """An exception the hall did not foresee, on board 5's message, would have ended its
    ingest thread: no board's moves would have reached the record again."""
    service = hall()
    real = service.ingest.handle

    def handle(board, kind, payload, received):
        if board == 5:
            raise RuntimeError("a bug")
        return real(board, kind, payload, received)

    monkeypatch.setattr(service.ingest, "handle", handle)
    rogue = RawClient(broker.venue.board_url(5), "five")
    try:
        assert not rogue.publish(board_topic(5, "status"), b'{"v":1,"online":true}').is_failure
        wait_until(lambda: service.internal_errors >= 1, what="the failure counted")
        one = boards(1)
        play_random(one, 3, random.Random(4))
        wait_until(lambda: hall_moves(service, 1) == board_moves(one) and board_moves(one),
                   what="board 1's moves in the hall after the failure")
        with service.store.lock:
            assert any("the hall failed on it" in in_english(p)
                   for p in service.ingest.live(5).problems)
    finally:
        rogue.close()


def test_a_client_without_a_password_is_refused(broker):
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    outcome = []
    client.on_connect = lambda c, u, f, reason, p: outcome.append(reason)
    client.connect("127.0.0.1", broker.venue.port)
    client.loop_start()
    try:
        wait_until(lambda: outcome, what="the broker's answer")
        assert outcome[0].is_failure
    finally:
        client.loop_stop()


def test_a_second_hall_on_one_data_directory_stops_in_one_line(tmp_path, capsys):
    from draughtsboard import cli
    from draughtsboard.recording import DataDirLock

    data = tmp_path / "hall"
    with DataDirLock(data):  # a hall already running on the directory
        status = cli.main(["hall", "--broker", "mqtt://hall:pw@127.0.0.1:1", "--data",
                           str(data), "--listen", "127.0.0.1:0"])
    err = capsys.readouterr().err
    assert status == cli.EXIT_BUSY, err
    assert err.strip().splitlines()[-1].startswith("draughtsboard hall: data directory")


def test_a_hall_keeps_its_broker_identity_across_restarts_and_two_halls_differ(tmp_path):
    from draughtsboard.hall.service import hall_client_id

    first = hall_client_id(tmp_path / "main-hall")
    assert first == hall_client_id(str(tmp_path / "main-hall"))  # a restart: same session
    assert first != hall_client_id(tmp_path / "standby-hall")  # no fight over one id
