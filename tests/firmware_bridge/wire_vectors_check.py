"""The wire format's test vectors, checked by whichever interpreter runs this file.

Written for both CPython and MicroPython (no dataclasses, no annotations, only
json and the firmware's own ``wire`` module): tests/firmware_bridge/test_wire_vectors.py
runs it under CPython in-process and under MicroPython's WebAssembly build, on the
vectors of tests/data/wire-vectors.json. ``check(vectors, wire)`` returns the failures,
one line each; an empty list means every vector passed.
"""


def check(vectors, wire):
    failures = []

    def expect(name, got, want):
        if got != want:
            failures.append(f"{name}: got {got!r}, want {want!r}")

    for plain, encoded in vectors["cobs"]:
        plain, encoded = bytes.fromhex(plain), bytes.fromhex(encoded)
        expect(f"cobs_encode {plain[:8]!r}", wire.cobs_encode(plain), encoded)
        expect(f"cobs_decode {encoded[:8]!r}", wire.cobs_decode(encoded), plain)
    for data, crc in vectors["crc"]:
        data = bytes.fromhex(data)
        expect(f"crc16 {data[:8]!r}", wire.crc16(data), crc)
        expect(f"crc16_pure {data[:8]!r}", wire.crc16_pure(data), crc)
    for msg_type, body, frame in vectors["frames"]:
        body, frame = bytes.fromhex(body), bytes.fromhex(frame)
        expect(f"encode_frame {msg_type}", wire.encode_frame(msg_type, body), frame)
        decoded = wire.decode_frame(frame[:-1])
        got = decoded if isinstance(decoded, int) else (decoded[0], bytes(decoded[1]))
        expect(f"decode_frame {msg_type}", got, (msg_type, body))
    for segment, error in vectors["rejects"]:
        expect(f"reject {segment[:16]}", wire.decode_frame(bytes.fromhex(segment)), error)
    for seq, nibbles, body in vectors["leds"]:
        nibbles, body = bytes.fromhex(nibbles), bytes.fromhex(body)
        expect(f"pack_leds {nibbles[:8]!r}", wire.pack_leds(seq, nibbles), body)
        expect(f"unpack_leds {body[:8]!r}", wire.unpack_leds(body), (seq, nibbles))
    stream = bytes.fromhex(vectors["stream"]["hex"])
    for size in vectors["stream"]["chunks"]:
        splitter = wire.FrameSplitter()
        types = []
        for start in range(0, len(stream), size):
            for item in splitter.feed(stream[start : start + size]):
                types.append(item if isinstance(item, int) else item[0])
        expect(f"FrameSplitter in chunks of {size}", types, vectors["stream"]["types"])
    return failures


if __name__ == "__main__":  # under MicroPython: VECTORS is set by the test before this
    import json

    import wire

    print(json.dumps(check(VECTORS, wire)))  # noqa: F821 - defined by the test
