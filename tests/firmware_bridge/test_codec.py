"""The codec on bytes: known vectors, round trips and every way a frame is rejected."""

import pytest

from draughtsboard.board.ports import LedFrame, LedPattern
from draughtsboard.firmware_bridge import codec
from draughtsboard.firmware_bridge.firmware import wire

MESSAGES = [
    codec.Hello((1, 2, 3), 10, 10, 5, 50, 0xBEEF, 7, 200),
    codec.SnapshotMessage(0xBEEF, 8, 123456, wire.REASON_CHANGE, 50, (1 << 50) - 1),
    codec.SnapshotMessage(1, 1, 0, wire.REASON_BOOT, 25, 0b1010),
    codec.Heartbeat(0xBEEF, 8, 2**32 - 1),
    codec.LedsMessage(
        3,
        LedFrame.from_mapping(
            50, {1: LedPattern.FAST_BLINK, 2: LedPattern.SLOW_BLINK, 50: LedPattern.ON}
        ),
    ),
    codec.LedsMessage(4, LedFrame((LedPattern.ON,) * 25, ("red",) + (None,) * 24)),
    codec.Ack(wire.LEDS, 3),
    codec.Nack(0, 0, wire.ERR_BAD_CRC),
    codec.Error(wire.ERROR_LED_COUNT, "led count"),
    codec.GetSnapshot(),
    codec.GetHello(),
]


def raw_frame(raw: bytes) -> bytes:
    """A frame around arbitrary decoded bytes (no CRC added)."""
    return wire.cobs_encode(raw) + b"\x00"


def with_crc(raw: bytes) -> bytes:
    return raw_frame(raw + wire.crc16(raw).to_bytes(2, "big"))


def decode_all(data: bytes) -> tuple[list, codec.FrameDecoder]:
    decoder = codec.FrameDecoder()
    return decoder.feed(data), decoder


@pytest.mark.parametrize(
    "plain, encoded",
    [
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
        (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
        (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
        (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    ],
)
def test_cobs_matches_the_published_examples(plain, encoded):
    assert wire.cobs_encode(plain) == encoded
    assert wire.cobs_decode(encoded) == plain


def test_crc16_is_ccitt_false_on_both_paths():
    assert wire.crc16(b"123456789") == 0x29B1
    assert wire.crc16_pure(b"123456789") == 0x29B1
    data = bytes(range(256)) * 3
    assert wire.crc16(data) == wire.crc16_pure(data)


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_round_trips(message):
    messages, decoder = decode_all(message.encode())
    assert messages == [message]
    assert decoder.frames_ok == 1 and decoder.bad_frames == 0


def test_a_stream_decodes_the_same_in_any_chunking():
    stream = b"".join(m.encode() for m in MESSAGES)
    for size in (1, 2, 3, 7, 64, len(stream)):
        decoder = codec.FrameDecoder()
        out = []
        for i in range(0, len(stream), size):
            out += decoder.feed(stream[i : i + size])
        assert out == MESSAGES


def test_repeated_delimiters_are_not_frames():
    messages, decoder = decode_all(b"\x00\x00" + codec.GetHello().encode() + b"\x00\x00")
    assert messages == [codec.GetHello()]
    assert decoder.bad_frames == 0


def test_bad_crc_is_counted_and_dropped():
    frame = bytearray(MESSAGES[1].encode())
    frame[frame.index(b"\xff\xff")] ^= 0x01  # one bit of the occupancy mask
    messages, decoder = decode_all(bytes(frame) + codec.GetHello().encode())
    assert messages == [codec.GetHello()]
    assert decoder.errors == {"bad_crc": 1}


def test_bad_cobs_is_counted():
    # code byte 0x09 promises 8 data bytes, only 2 follow
    messages, decoder = decode_all(b"\x09\x01\x02\x00")
    assert messages == [] and decoder.errors == {"bad_cobs": 1}


def test_unknown_type_is_counted():
    messages, decoder = decode_all(with_crc(b"\x7f"))
    assert messages == [] and decoder.errors == {"unknown_type": 1}


@pytest.mark.parametrize(
    "raw",
    [
        b"\x09",  # shorter than type + crc
        b"\x08\x00",  # GET_SNAPSHOT with a body
        bytes([wire.HEARTBEAT]) + bytes(9),
        bytes([wire.HELLO]) + bytes(17),
        bytes([wire.SNAPSHOT]) + bytes(11),  # head cut short
        bytes([wire.SNAPSHOT]) + bytes(11) + b"\x32" + bytes(6),  # 50 squares need 7 bytes
        bytes([wire.LEDS]) + bytes(4) + b"\x32" + bytes(24),  # 50 squares need 25 bytes
        bytes([wire.ACK]) + bytes(4),
        bytes([wire.NACK]) + bytes(7),
        bytes([wire.ERROR]),
        bytes([wire.ERROR]) + b"x" * 50,
    ],
)
def test_bad_length_is_counted(raw):
    frame = raw_frame(raw) if len(raw) < 3 else with_crc(raw)
    messages, decoder = decode_all(frame)
    assert messages == [] and decoder.errors == {"bad_length": 1}


@pytest.mark.parametrize(
    "body_type, body",
    [
        (wire.SNAPSHOT, wire.pack_snapshot(1, 1, 0, 0, 4, 0b10000)),  # mask past the count
        (wire.SNAPSHOT, wire.pack_snapshot(0, 1, 0, 0, 4, 1)),  # boot id 0
        (wire.SNAPSHOT, wire.pack_snapshot(1, 0, 0, 0, 4, 1)),  # seq 0
        (wire.SNAPSHOT, wire.pack_snapshot(1, 1, 0, 9, 4, 1)),  # unknown reason
        (wire.LEDS, wire.pack_leds(1, bytes(3))[:-1] + b"\x10"),  # padding nibble set
        (wire.HELLO, wire.pack_hello((1, 0, 0), 8, 8, 4, 32, 0, 0, 200)),  # boot id 0
    ],
)
def test_bad_values_are_counted(body_type, body):
    messages, decoder = decode_all(wire.encode_frame(body_type, body))
    assert messages == [] and decoder.errors == {"bad_value": 1}


def test_oversize_garbage_is_skipped_to_the_next_delimiter():
    garbage = b"\x55" * (wire.MAX_ENCODED * 3)
    decoder = codec.FrameDecoder()
    out = []
    for i in range(0, len(garbage), 10):
        out += decoder.feed(garbage[i : i + 10])
    out += decoder.feed(b"\x00" + codec.GetHello().encode())
    assert out == [codec.GetHello()]
    assert decoder.errors == {"oversize": 1}


def test_a_lost_delimiter_costs_both_frames_but_not_the_third():
    a, b, c = (m.encode() for m in MESSAGES[1:4])
    messages, decoder = decode_all(a[:-1] + b + c)
    assert messages == [MESSAGES[3]]
    assert decoder.bad_frames == 1


def test_reset_drops_a_partial_frame():
    decoder = codec.FrameDecoder()
    decoder.feed(MESSAGES[1].encode()[:5])
    decoder.reset()
    assert decoder.feed(codec.GetHello().encode()) == [codec.GetHello()]
    assert decoder.bad_frames == 0


def test_led_frames_keep_patterns_and_known_colours():
    frame = LedFrame(
        (LedPattern.ON, LedPattern.OFF, LedPattern.SLOW_BLINK),
        ("green", "purple", None),
    )
    (decoded,), _ = decode_all(codec.LedsMessage(9, frame).encode())
    assert decoded.frame.patterns == frame.patterns
    assert decoded.frame.colours == ("green", None, None)  # unknown names -> default colour
