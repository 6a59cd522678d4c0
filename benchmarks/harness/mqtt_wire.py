"""MQTT 3.1.1 packets written by hand, as an attacker sends them on a plain socket (no
client library to refuse a packet the protocol allows but the broker must not)."""

from __future__ import annotations


def mqtt_string(text: str) -> bytes:
    """A UTF-8 string field: its length in two bytes, then the bytes."""
    data = text.encode()
    return len(data).to_bytes(2, "big") + data


def remaining_length(size: int) -> bytes:
    """A fixed header's "remaining length": seven bits a byte, the high bit for "more"."""
    out = bytearray()
    while True:
        byte, size = size % 128, size // 128
        out.append(byte | (0x80 if size else 0))
        if not size:
            return bytes(out)


def connect_packet(client_id: str, username: str, password: str) -> bytes:
    """CONNECT with a clean session, a user name and a password, keep-alive 60 s."""
    body = (mqtt_string("MQTT") + bytes([4, 0xC2]) + (60).to_bytes(2, "big")
            + mqtt_string(client_id) + mqtt_string(username) + mqtt_string(password))
    return b"\x10" + remaining_length(len(body)) + body


def publish_header(topic: str, size: int) -> bytes:
    """The start of a QoS 0 PUBLISH to ``topic`` announcing ``size`` bytes of payload."""
    header = mqtt_string(topic)
    return b"\x30" + remaining_length(len(header) + size) + header
