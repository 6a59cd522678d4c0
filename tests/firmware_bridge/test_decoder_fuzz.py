"""The decoder on arbitrary bytes: nothing escapes, nothing unsent is accepted."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draughtsboard.firmware_bridge import codec
from draughtsboard.firmware_bridge.firmware import wire

VALID = [
    codec.SnapshotMessage(0x1234, 5, 1000, wire.REASON_CHANGE, 50, 0x3_FFFF_0000_FFFF),
    codec.Heartbeat(0x1234, 5, 1200),
    codec.Hello((1, 0, 0), 10, 10, 5, 50, 0x1234, 4, 200),
    codec.Ack(wire.LEDS, 2),
]


def assert_every_accepted_frame_was_sent_verbatim(stream: bytes, messages: list) -> None:
    """An accepted message's canonical frame (valid CRC by construction) occurs in the
    input, so no frame with a bad CRC got through."""
    for message in messages:
        assert message.encode()[:-1] in stream


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.binary(max_size=600), st.integers(1, 64))
def test_random_bytes_never_raise(stream, chunk):
    decoder = codec.FrameDecoder()
    messages = []
    for i in range(0, len(stream), chunk):
        messages += decoder.feed(stream[i : i + chunk])
    assert_every_accepted_frame_was_sent_verbatim(stream, messages)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.lists(st.sampled_from(range(len(VALID))), min_size=1, max_size=12),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(1, 255)), max_size=6),
    st.binary(max_size=40),
)
def test_corrupted_streams_of_valid_frames(order, flips, noise):
    stream = bytearray(b"".join(VALID[i].encode() for i in order) + noise)
    for position, xor in flips:
        stream[position % len(stream)] ^= xor
    stream = bytes(stream)
    messages = codec.FrameDecoder().feed(stream)
    assert_every_accepted_frame_was_sent_verbatim(stream, messages)
    assert all(m in VALID for m in messages if not isinstance(m, codec.Error))


def test_single_byte_errors_inside_a_frame_are_always_caught():
    """CRC-16 catches every burst of up to 16 bits: try every byte and every xor value
    on a snapshot frame; a change must never yield a different snapshot."""
    frame = VALID[0].encode()
    for position in range(len(frame) - 1):
        for xor in range(1, 256):
            corrupted = bytearray(frame)
            corrupted[position] ^= xor
            messages = codec.FrameDecoder().feed(bytes(corrupted))
            assert all(m == VALID[0] for m in messages), (position, xor, messages)
