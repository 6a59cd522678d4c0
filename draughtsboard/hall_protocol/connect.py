"""A paho-mqtt 2.x client set up the same way at both ends: MQTT v5, a session the
broker keeps across reconnections (commands queued for a board that is away reach it
when it is back), quick reconnects, bounded queues, and credentials that never reach a
log."""

from __future__ import annotations

import logging
import ssl

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from .broker import BrokerAddress

SESSION_EXPIRY = 7 * 24 * 3600  # seconds the broker keeps an absent client's session
KEEPALIVE = 10  # seconds: a dead link is noticed within 1.5 times this
MAX_QUEUED = 20_000  # messages paho holds unsent: a bound, never reached in play


class _QuietReconnects(logging.Filter):
    """paho logs each failed write while the broker is away at ERROR, once a second; the
    clients log the loss and the return of the broker themselves, once. Everything else
    paho logs (a callback's exception above all) passes."""

    NOISE = ("Client is not connected", "failed to receive on socket",
             "failed to send on socket")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not any(noise in message for noise in self.NOISE)


def make_client(address: BrokerAddress, client_id: str, *,
                logger: logging.Logger | None = None) -> mqtt.Client:
    """A client ready for `connect` (nothing is sent before that)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=mqtt.MQTTv5, transport=address.transport)
    if address.username:
        client.username_pw_set(address.username, address.password)
    if address.tls:
        client.tls_set(cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(min_delay=1, max_delay=2)  # back within 2 s of the broker
    client.max_queued_messages_set(MAX_QUEUED)
    client.max_inflight_messages_set(100)
    client.suppress_exceptions = True  # a callback's bug is logged, the network loop lives
    if logger is not None:
        if not any(isinstance(f, _QuietReconnects) for f in logger.filters):
            logger.addFilter(_QuietReconnects())
        client.enable_logger(logger)
    return client


def connect(client: mqtt.Client, address: BrokerAddress, keepalive: int = KEEPALIVE) -> None:
    """Start connecting in the background (paho's own thread reconnects for ever)."""
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = SESSION_EXPIRY
    client.connect_async(address.host, address.port, keepalive=keepalive, clean_start=False,
                         properties=properties)
    client.loop_start()


def reason_failed(reason_code) -> bool:
    """Whether a paho v2 reason code (or a plain int) is a failure."""
    is_failure = getattr(reason_code, "is_failure", None)
    if is_failure is not None:
        return bool(is_failure)
    return int(reason_code) >= 0x80
