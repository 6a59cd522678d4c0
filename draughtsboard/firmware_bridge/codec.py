"""Typed messages over the shared wire format, and a streaming decoder that never raises.

The byte-level work (COBS, CRC, layouts) lives in ``firmware/wire.py`` so that the Pico
and the host run one codec. This module gives the host frozen value objects with paired
``encode()`` / ``decode_message()`` and a ``FrameDecoder`` that counts rejected frames by
cause: a serial line corrupts bytes, and a bad frame must be a statistic, not a crash.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass

from draughtsboard.board.ports import LedFrame, LedPattern
from draughtsboard.firmware_bridge.firmware import wire

log = logging.getLogger(__name__)

# Colour index of the LEDS nibble (bits 2-3); names as in LedFrame.colours.
COLOURS: tuple[str | None, ...] = (None, "red", "green", "blue")
_COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}


@dataclass(frozen=True, slots=True)
class Hello:
    """Device at boot or on request: versions, board layout, its boot id and last seq."""

    firmware: tuple[int, int, int]
    board_size: int
    rows: int
    cols: int
    square_count: int
    boot: int
    last_seq: int
    heartbeat_ms: int
    protocol: int = wire.PROTOCOL_VERSION

    def encode(self) -> bytes:
        """The frame's bytes, ready for the wire."""
        body = wire.pack_hello(
            self.firmware,
            self.board_size,
            self.rows,
            self.cols,
            self.square_count,
            self.boot,
            self.last_seq,
            self.heartbeat_ms,
        )
        if self.protocol != wire.PROTOCOL_VERSION:  # only tests build foreign versions
            body = bytes((self.protocol,)) + body[1:]
        return wire.encode_frame(wire.HELLO, body)


@dataclass(frozen=True, slots=True)
class SnapshotMessage:
    """The full debounced occupancy (never a delta), numbered per boot."""

    boot: int
    seq: int
    device_ms: int
    reason: int
    square_count: int
    occupied: int

    def encode(self) -> bytes:
        """The frame's bytes, ready for the wire."""
        return wire.encode_frame(
            wire.SNAPSHOT,
            wire.pack_snapshot(
                self.boot,
                self.seq,
                self.device_ms,
                self.reason,
                self.square_count,
                self.occupied,
            ),
        )


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Device is alive; ``last_seq`` lets the host notice a lost latest snapshot."""

    boot: int
    last_seq: int
    device_ms: int

    def encode(self) -> bytes:
        return wire.encode_frame(
            wire.HEARTBEAT, wire.pack_heartbeat(self.boot, self.last_seq, self.device_ms)
        )


@dataclass(frozen=True, slots=True)
class LedsMessage:
    """A full LED frame, numbered by the host so the device can acknowledge it."""

    seq: int
    frame: LedFrame

    def encode(self) -> bytes:
        return wire.encode_frame(wire.LEDS, wire.pack_leds(self.seq, leds_nibbles(self.frame)))


@dataclass(frozen=True, slots=True)
class Ack:
    """The receiver accepted frame ``seq`` of type ``of_type``."""
    of_type: int
    seq: int

    def encode(self) -> bytes:
        return wire.encode_frame(wire.ACK, wire.pack_ack(self.of_type, self.seq))


@dataclass(frozen=True, slots=True)
class Nack:
    """The receiver refused frame ``seq`` of type ``of_type``, for ``reason``."""
    of_type: int
    seq: int
    reason: int

    def encode(self) -> bytes:
        return wire.encode_frame(wire.NACK, wire.pack_nack(self.of_type, self.seq, self.reason))


@dataclass(frozen=True, slots=True)
class Error:
    """The device reports a fault (``code``) with a short text."""
    code: int
    text: str

    def encode(self) -> bytes:
        return wire.encode_frame(wire.ERROR, wire.pack_error(self.code, self.text))


@dataclass(frozen=True, slots=True)
class GetSnapshot:
    """The host asks for the current occupancy now."""
    def encode(self) -> bytes:
        return wire.encode_frame(wire.GET_SNAPSHOT)


@dataclass(frozen=True, slots=True)
class GetHello:
    """The host asks the device to introduce itself (after opening the port)."""
    def encode(self) -> bytes:
        return wire.encode_frame(wire.GET_HELLO)


@dataclass(frozen=True, slots=True)
class Service:
    """A service tool asks the device to leave the protocol: ``wire.SERVICE_REPL`` (reset
    into the REPL, for mpremote) or ``wire.SERVICE_BOOTLOADER`` (the UF2 drive). ``play``
    never sends it."""

    action: int

    def encode(self) -> bytes:
        return wire.encode_frame(wire.SERVICE, wire.pack_service(self.action))


Message = (
    Hello | SnapshotMessage | Heartbeat | LedsMessage | Ack | Nack | Error | GetSnapshot | GetHello
    | Service
)


def leds_nibbles(frame: LedFrame) -> bytes:
    """Per-square nibble: pattern in bits 0-1, colour index in bits 2-3."""
    colours = frame.colours or (None,) * len(frame.patterns)
    return bytes(
        int(p) | (_COLOUR_INDEX.get(c, 0) << 2)
        for p, c in zip(frame.patterns, colours, strict=True)
    )


def frame_of_nibbles(nibbles: bytes) -> LedFrame:
    """The LED frame of per-square nibbles (inverse of `leds_nibbles`)."""
    patterns = tuple(LedPattern(n & 3) for n in nibbles)
    colours = tuple(COLOURS[n >> 2] for n in nibbles)
    return LedFrame(patterns, colours if any(colours) else None)


def decode_message(msg_type: int, body: bytes) -> Message | int:
    """The message of a frame that passed CRC and length checks, or ``wire.ERR_BAD_VALUE``."""
    if msg_type == wire.SNAPSHOT:
        fields = wire.unpack_snapshot(body)
        return wire.ERR_BAD_VALUE if fields is None else SnapshotMessage(*fields)
    if msg_type == wire.HEARTBEAT:
        return Heartbeat(*wire.unpack_heartbeat(body))
    if msg_type == wire.HELLO:
        proto, major, minor, patch, size, rows, cols, squares, boot, seq, hb = wire.unpack_hello(
            body
        )
        if boot == 0:
            return wire.ERR_BAD_VALUE
        return Hello((major, minor, patch), size, rows, cols, squares, boot, seq, hb, proto)
    if msg_type == wire.LEDS:
        fields = wire.unpack_leds(body)
        return (
            wire.ERR_BAD_VALUE
            if fields is None
            else LedsMessage(fields[0], frame_of_nibbles(fields[1]))
        )
    if msg_type == wire.ACK:
        return Ack(*wire.unpack_ack(body))
    if msg_type == wire.NACK:
        return Nack(*wire.unpack_nack(body))
    if msg_type == wire.ERROR:
        code, text = wire.unpack_error(body)
        return Error(code, text.decode("ascii", "replace"))
    if msg_type == wire.GET_SNAPSHOT:
        return GetSnapshot()
    if msg_type == wire.GET_HELLO:
        return GetHello()
    if msg_type == wire.SERVICE:
        fields = wire.unpack_service(body)
        return wire.ERR_BAD_VALUE if fields is None else Service(*fields)
    return wire.ERR_UNKNOWN_TYPE  # unreachable: wire.decode_frame filters types


class FrameDecoder:
    """Bytes in any chunking -> messages; rejected frames counted in ``errors`` by cause.

    ``errors`` keys are ``bad_crc``, ``bad_cobs``, ``unknown_type``, ``bad_length``,
    ``oversize`` and ``bad_value``; ``frames_ok`` counts accepted frames.
    """

    def __init__(self) -> None:
        self._splitter = wire.FrameSplitter()
        self.errors: Counter[str] = Counter()
        self.frames_ok = 0

    def reset(self) -> None:
        """Drop a partial frame (the sender restarted)."""
        self._splitter.reset()

    def feed(self, data: bytes) -> list[Message]:
        """The messages that ``data`` completes; bad frames are counted in ``errors``."""
        messages: list[Message] = []
        for item in self._splitter.feed(data):
            if isinstance(item, tuple):
                item = decode_message(*item)
            if isinstance(item, int):
                name = wire.ERROR_NAMES[item]
                self.errors[name] += 1
                log.debug("dropped a frame: %s", name)
            else:
                self.frames_ok += 1
                messages.append(item)
        return messages

    @property
    def bad_frames(self) -> int:
        return sum(self.errors.values())
