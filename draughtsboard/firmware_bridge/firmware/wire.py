"""The wire format of protocol version 1, shared by the firmware and the host.

This one module is the codec on both sides: MicroPython runs it on the Pico and the host's
``draughtsboard.firmware_bridge.codec`` wraps it in typed messages. Keeping a single copy
means the two ends cannot drift apart. Hence the restrictions: only ``struct``, bytes and
plain functions (no dataclasses, no annotations, no exceptions for expected errors: bad
input is reported by returning an error code, which is also cheap on a microcontroller).

A frame on the wire is ``COBS(type | body | crc16be) 0x00``; the CRC is CRC-16/CCITT-FALSE
(poly 0x1021, init 0xFFFF) over type and body. See docs/protocol.md.
"""

import struct

PROTOCOL_VERSION = 1

# Message types. Device -> host: HELLO, SNAPSHOT, HEARTBEAT, ERROR; host -> device: LEDS,
# GET_SNAPSHOT, GET_HELLO; both ways: ACK, NACK.
HELLO = 0x01
SNAPSHOT = 0x02
HEARTBEAT = 0x03
LEDS = 0x04
ACK = 0x05
NACK = 0x06
ERROR = 0x07
GET_SNAPSHOT = 0x08
GET_HELLO = 0x09
SERVICE = 0x0A  # host -> device, only from a service tool: leave the protocol for an update

# Why a frame was rejected (also the reason byte of a NACK).
ERR_BAD_COBS = 1
ERR_BAD_CRC = 2
ERR_UNKNOWN_TYPE = 3
ERR_BAD_LENGTH = 4
ERR_OVERSIZE = 5
ERR_BAD_VALUE = 6
ERROR_NAMES = {
    ERR_BAD_COBS: "bad_cobs",
    ERR_BAD_CRC: "bad_crc",
    ERR_UNKNOWN_TYPE: "unknown_type",
    ERR_BAD_LENGTH: "bad_length",
    ERR_OVERSIZE: "oversize",
    ERR_BAD_VALUE: "bad_value",
}

# Why the device sent a SNAPSHOT.
REASON_CHANGE = 0
REASON_PERIODIC = 1
REASON_REQUEST = 2
REASON_BOOT = 3

# SERVICE actions: what the device does after its ACK (docs/protocol.md, "Service").
SERVICE_REPL = 1  # reset into service mode: the REPL, so mpremote can copy new files
SERVICE_BOOTLOADER = 2  # machine.bootloader(): the USB drive that takes a MicroPython .uf2
SERVICE_MAGIC = b"SRVC"  # after the action byte: a damaged frame cannot become a SERVICE

# ERROR codes sent by the device.
ERROR_LED_COUNT = 1  # a LEDS frame for another number of squares
ERROR_RX_OVERFLOW = 2  # the device dropped input it could not buffer
ERROR_INTERNAL = 3

MAX_RAW = 128  # type + body + crc, decoded; the largest real frame is 35 bytes
MAX_ENCODED = MAX_RAW + 2  # COBS adds one byte per 254 and we allow one spare
MAX_ERROR_TEXT = 48

HELLO_FORMAT = ">BBBBBBBBHIH"  # proto, fw major/minor/patch, size, rows, cols, squares,
HELLO_SIZE = 16  #               boot id, last snapshot seq, heartbeat period ms
SNAPSHOT_HEAD = ">HIIBB"  # boot id, seq, device ms, reason, square count; then the mask
SNAPSHOT_HEAD_SIZE = 12
HEARTBEAT_FORMAT = ">HII"  # boot id, last snapshot seq, device ms
HEARTBEAT_SIZE = 10
LEDS_HEAD = ">IB"  # LED frame seq, square count; then one nibble per square
LEDS_HEAD_SIZE = 5
ACK_FORMAT = ">BI"  # acknowledged type, its seq
ACK_SIZE = 5
NACK_FORMAT = ">BIB"  # type (0 unknown), seq (0 unknown), reason (ERR_*)
NACK_SIZE = 6
SERVICE_FORMAT = ">B4s"  # action, SERVICE_MAGIC
SERVICE_SIZE = 5

# -- CRC-16/CCITT-FALSE -------------------------------------------------------------------


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16_pure(data, crc=0xFFFF, n=-1):
    """CRC-16/CCITT-FALSE of the first ``n`` bytes (all when -1), table driven: the path
    MicroPython takes. An index loop, so that no iterator is allocated on the device."""
    table = _CRC_TABLE
    if n < 0:
        n = len(data)
    for i in range(n):
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ data[i]]
    return crc


try:  # CPython's C implementation is the same CRC (crc_hqx with init 0xFFFF)
    from binascii import crc_hqx as _crc_hqx  # type: ignore[attr-defined]  # CPython only

    def crc16(data, crc=0xFFFF, n=-1):
        return _crc_hqx(data if n < 0 else memoryview(data)[:n], crc)

except ImportError:  # MicroPython
    crc16 = crc16_pure


# -- COBS -----------------------------------------------------------------------------------


def cobs_encode(data):
    """Consistent overhead byte stuffing: the result contains no 0x00 byte."""
    out = bytearray(len(data) + len(data) // 254 + 1)
    return bytes(out[: cobs_encode_into(data, len(data), out)])


def cobs_encode_into(data, n, out):
    """COBS of the first ``n`` bytes of ``data`` written into ``out`` (at least
    ``n + n // 254 + 1`` bytes long); the encoded length. Allocates nothing, so the
    device can send every frame from the same two buffers."""
    code_at = 0
    at = 1
    code = 1
    last = n - 1
    for i in range(n):
        byte = data[i]
        if byte == 0:
            out[code_at] = code
            code_at = at
            at += 1
            code = 1
        else:
            out[at] = byte
            at += 1
            code += 1
            if code == 0xFF and i < last:  # a full block: start another only if data follows
                out[code_at] = code
                code_at = at
                at += 1
                code = 1
    out[code_at] = code
    return at


def cobs_decode(data):
    """Inverse of cobs_encode; None when ``data`` is not a valid COBS block."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            return None
        end = i + code
        if end > n:
            return None
        block = data[i + 1 : end]
        if b"\x00" in block:
            return None
        out.extend(block)
        if code < 0xFF and end < n:
            out.append(0)
        i = end
    return bytes(out)


# -- frames ---------------------------------------------------------------------------------


def encode_frame(msg_type, body=b""):
    """One complete frame, delimiter included."""
    raw = bytearray(1 + len(body) + 2)
    raw[0] = msg_type
    raw[1 : 1 + len(body)] = body
    out = bytearray(len(raw) + len(raw) // 254 + 2)
    return bytes(out[: frame_into(raw, 1 + len(body), out)])


def frame_into(raw, n, out):
    """Frame the message in ``raw[:n]`` (type and body) into ``out``: the CRC is written
    into ``raw[n:n + 2]``, so ``raw`` needs two spare bytes, and ``out`` needs
    ``n + 2 + (n + 2) // 254 + 2`` (``MAX_ENCODED + 1`` for any frame the device sends).
    Returns the frame's length, delimiter included. Allocates nothing."""
    crc = crc16(raw, 0xFFFF, n)
    raw[n] = crc >> 8
    raw[n + 1] = crc & 0xFF
    length = cobs_encode_into(raw, n + 2, out)
    out[length] = 0
    return length + 1


def _body_length_ok(msg_type, body):
    n = len(body)
    if msg_type == SNAPSHOT:
        return n >= SNAPSHOT_HEAD_SIZE and n == SNAPSHOT_HEAD_SIZE + (body[11] + 7) // 8
    if msg_type == LEDS:
        return n >= LEDS_HEAD_SIZE and n == LEDS_HEAD_SIZE + (body[4] + 1) // 2
    if msg_type == HEARTBEAT:
        return n == HEARTBEAT_SIZE
    if msg_type == HELLO:
        return n == HELLO_SIZE
    if msg_type == ACK:
        return n == ACK_SIZE
    if msg_type == NACK:
        return n == NACK_SIZE
    if msg_type == ERROR:
        return 1 <= n <= 1 + MAX_ERROR_TEXT
    if msg_type == GET_SNAPSHOT or msg_type == GET_HELLO:
        return n == 0
    if msg_type == SERVICE:
        return n == SERVICE_SIZE
    return False


KNOWN_TYPES = (
    HELLO, SNAPSHOT, HEARTBEAT, LEDS, ACK, NACK, ERROR, GET_SNAPSHOT, GET_HELLO, SERVICE
)


def decode_frame(segment):
    """(type, body) of one delimiter-free segment, or an ERR_* code. Never raises."""
    if len(segment) > MAX_ENCODED:
        return ERR_OVERSIZE
    raw = cobs_decode(segment)
    if raw is None:
        return ERR_BAD_COBS
    if len(raw) < 3:
        return ERR_BAD_LENGTH
    crc = crc16(raw[:-2])
    if raw[-2] != crc >> 8 or raw[-1] != crc & 0xFF:
        return ERR_BAD_CRC
    msg_type = raw[0]
    if msg_type not in KNOWN_TYPES:
        return ERR_UNKNOWN_TYPE
    body = raw[1:-2]
    if not _body_length_ok(msg_type, body):
        return ERR_BAD_LENGTH
    return (msg_type, body)


class FrameSplitter:
    """Cuts a byte stream at 0x00 delimiters and decodes each frame.

    ``feed`` takes any chunk (a frame may span chunks) and returns a list whose items are
    either ``(type, body)`` or an ERR_* code for a rejected frame. Empty segments (repeated
    delimiters) are ignored; a segment that grows past MAX_ENCODED is discarded up to the
    next delimiter and reported once as ERR_OVERSIZE, so garbage cannot exhaust memory.
    """

    def __init__(self):
        self._buffer = bytearray()
        self._skipping = False

    def reset(self):
        self._buffer = bytearray()
        self._skipping = False

    def feed(self, data):
        items = []
        buffer = self._buffer
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start) if hasattr(data, "find") else _find_zero(data, start)
            if end < 0:
                if not self._skipping:
                    buffer.extend(data[start:])
                    if len(buffer) > MAX_ENCODED:
                        items.append(ERR_OVERSIZE)
                        self._skipping = True
                        buffer = bytearray()
                break
            if self._skipping:
                self._skipping = False
            else:
                buffer.extend(data[start:end])
                if buffer:
                    items.append(decode_frame(bytes(buffer)))
            buffer = bytearray()
            start = end + 1
        self._buffer = buffer
        return items


def _find_zero(data, start):
    for i in range(start, len(data)):
        if data[i] == 0:
            return i
    return -1


# -- message bodies -------------------------------------------------------------------------
# pack_* build bodies; unpack_* return a tuple of fields or None for an invalid value.


def mask_to_bytes(mask, count):
    return mask.to_bytes((count + 7) // 8, "little")


def pack_hello(fw_version, board_size, rows, cols, squares, boot, last_seq, heartbeat_ms):
    return struct.pack(
        HELLO_FORMAT,
        PROTOCOL_VERSION,
        fw_version[0],
        fw_version[1],
        fw_version[2],
        board_size,
        rows,
        cols,
        squares,
        boot,
        last_seq,
        heartbeat_ms,
    )


def unpack_hello(body):
    return struct.unpack(HELLO_FORMAT, body)


def pack_snapshot(boot, seq, device_ms, reason, count, mask):
    head = struct.pack(SNAPSHOT_HEAD, boot, seq, device_ms & 0xFFFFFFFF, reason, count)
    return head + mask_to_bytes(mask, count)


def unpack_snapshot(body):
    boot, seq, device_ms, reason, count = struct.unpack(SNAPSHOT_HEAD, body[:SNAPSHOT_HEAD_SIZE])
    mask = int.from_bytes(bytes(body[SNAPSHOT_HEAD_SIZE:]), "little")
    if mask >> count or reason > REASON_BOOT or boot == 0 or seq == 0:
        return None
    return (boot, seq, device_ms, reason, count, mask)


def pack_heartbeat(boot, last_seq, device_ms):
    return struct.pack(HEARTBEAT_FORMAT, boot, last_seq, device_ms & 0xFFFFFFFF)


def unpack_heartbeat(body):
    return struct.unpack(HEARTBEAT_FORMAT, body)


def pack_leds(seq, nibbles):
    """``nibbles``: one value per square, pattern in bits 0-1 and colour in bits 2-3."""
    count = len(nibbles)
    packed = bytearray((count + 1) // 2)
    for i in range(count):
        packed[i >> 1] |= (nibbles[i] & 0x0F) << (4 * (i & 1))
    return struct.pack(LEDS_HEAD, seq, count) + bytes(packed)


def unpack_leds(body):
    """(seq, nibbles) or None when the padding nibble is not zero."""
    seq, count = struct.unpack(LEDS_HEAD, body[:LEDS_HEAD_SIZE])
    packed = body[LEDS_HEAD_SIZE:]
    if count & 1 and packed[-1] >> 4:
        return None
    nibbles = bytearray(count)
    for i in range(count):
        nibbles[i] = (packed[i >> 1] >> (4 * (i & 1))) & 0x0F
    return (seq, bytes(nibbles))


def pack_ack(of_type, seq):
    return struct.pack(ACK_FORMAT, of_type, seq)


def unpack_ack(body):
    return struct.unpack(ACK_FORMAT, body)


def pack_nack(of_type, seq, reason):
    return struct.pack(NACK_FORMAT, of_type, seq, reason)


def unpack_nack(body):
    return struct.unpack(NACK_FORMAT, body)


def pack_service(action):
    return struct.pack(SERVICE_FORMAT, action, SERVICE_MAGIC)


def unpack_service(body):
    """(action,) or None unless the magic and a known action are there."""
    action, magic = struct.unpack(SERVICE_FORMAT, body)
    if magic != SERVICE_MAGIC or action not in (SERVICE_REPL, SERVICE_BOOTLOADER):
        return None
    return (action,)


def pack_error(code, text):
    data = text.encode() if isinstance(text, str) else bytes(text)
    return bytes((code,)) + data[:MAX_ERROR_TEXT]


def unpack_error(body):
    return (body[0], bytes(body[1:]))
