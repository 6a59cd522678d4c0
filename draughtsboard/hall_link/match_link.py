"""A board's seat in a match between boards, over MQTT: the transport of
`draughtsboard.opponents.board_match` (it knows the topics and the broker, never the
game).

The board publishes under its own seat, ``draughtsboard/v1/match/<match>/<seat>/``: its
``record`` (QoS 1, retained: a board that comes back, or a bridge that reconnects, gets
the latest at once), its ``beat`` (QoS 0, every second or so) and its ``presence``
(retained ``online``; its Last Will says ``offline`` when it goes without a goodbye). It
subscribes to the other seat's three topics and hands each message on as it came. The
session is kept by the broker (`hall_protocol.connect`), and paho reconnects for ever:
what cannot go now goes when it can. The broker's ACL lets the board write its own seat
only (docs/hall.md, "A match between towns").

The client id is the seat's name with a random part drawn at start: a second login
with the seat's password (a stolen one) gets another id, so it cannot take the board's
session over without a trace; should the broker still end the board's session because
another client took its id, the log says so (and the other board sees a pause, as for
any cut).
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable

from draughtsboard.hall_protocol.broker import BrokerAddress
from draughtsboard.hall_protocol.connect import connect, make_client, reason_failed
from draughtsboard.hall_protocol.topics import MATCH_KINDS, MATCH_SEATS, match_topic

log = logging.getLogger("draughtsboard.hall_link.match")

PAYLOAD_LIMIT = 512 * 1024  # bytes: anything longer is not handed on
SESSION_TAKEN_OVER = 0x8E  # MQTT v5 reason code: another client connected with our id


class MatchLink:
    """The seat ``seat`` of match ``match`` on the broker at ``address``."""

    def __init__(self, address: BrokerAddress, match: str, seat: str) -> None:
        if seat not in MATCH_SEATS:
            raise ValueError(f"seat {seat!r}: expected white or black")
        self.address, self.match, self.seat = address, match, seat
        self.peer = "black" if seat == "white" else "white"
        self.topics = {kind: match_topic(match, seat, kind) for kind in MATCH_KINDS}
        self.peer_topics = {match_topic(match, self.peer, kind): kind for kind in MATCH_KINDS}
        self._deliver: Callable[[str, bytes], None] | None = None
        self._connected = threading.Event()
        self._closed = False
        self.client_id = f"draughtsboard-match-{match}-{seat}-{secrets.token_hex(4)}"
        self.client = make_client(address, self.client_id,
                                  logger=logging.getLogger("draughtsboard.hall_link.mqtt"))
        self.client.will_set(self.topics["presence"], b"offline", qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def open(self, deliver: Callable[[str, bytes], None]) -> None:
        self._deliver = deliver
        log.info("match %s: the %s seat through %s", self.match, self.seat, self.address)
        connect(self.client, self.address)

    def publish(self, kind: str, payload: bytes) -> None:
        if kind not in self.topics or self._closed:
            return
        lasting = kind != "beat"
        self.client.publish(self.topics[kind], payload, qos=1 if lasting else 0,
                            retain=lasting)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._connected.is_set():
                info = self.client.publish(self.topics["presence"], b"offline", qos=1,
                                           retain=True)
                info.wait_for_publish(2.0)
        except (RuntimeError, ValueError):
            pass  # (not connected: the Will says it)
        self.client.disconnect()
        self.client.loop_stop()

    # -- paho's thread -------------------------------------------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if reason_failed(reason_code):
            log.warning("match %s: the broker refused the %s seat: %s", self.match,
                        self.seat, reason_code)
            return
        self._connected.set()
        log.info("match %s: connected", self.match)
        client.subscribe([(topic, 1) for topic in self.peer_topics])
        client.publish(self.topics["presence"], b"online", qos=1, retain=True)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if getattr(reason_code, "value", None) == SESSION_TAKEN_OVER:
            log.error("match %s: another login took the %s seat's session over (client id "
                      "%s): the broker's passwords may be known to someone else", self.match,
                      self.seat, self.client_id)
        elif self._connected.is_set() and reason_failed(reason_code):
            log.warning("match %s: lost the broker (%s); trying again", self.match,
                        reason_code)
        elif self._connected.is_set():  # a normal disconnection: this board's own stop
            log.info("match %s: disconnected from the broker (%s)", self.match, reason_code)
        self._connected.clear()

    def _on_message(self, client, userdata, message) -> None:
        kind = self.peer_topics.get(message.topic)
        deliver = self._deliver
        if kind is None or deliver is None or len(message.payload) > PAYLOAD_LIMIT:
            return
        deliver(kind, bytes(message.payload))
