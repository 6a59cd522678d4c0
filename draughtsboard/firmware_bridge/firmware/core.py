"""Firmware logic: scan and debounce the reed matrix, drive the LEDs, speak the protocol.

Plain Python over a tiny hardware interface, so MicroPython runs it on the Pico and CPython
runs it in tests and in the emulator with fake pins. The hardware object ``hw`` provides:

    hw.ticks_ms() -> int              monotonic milliseconds (may wrap, as on MicroPython)
    hw.ticks_diff(new, old) -> int    signed difference of two ticks_ms values
    hw.set_row(row, active)           select one matrix row (the hardware waits for the
                                      columns to settle before it returns)
    hw.read_columns() -> int          bit c set when the switch in column c of the
                                      selected row is closed (polarity is the hardware's)
    hw.set_led(square, on)            square numbers from 1
    hw.read_into(buffer) -> int       bytes that arrived from the host, put in ``buffer``
                                      (0 when nothing waits)
    hw.write(buffer, n) -> bool       send ``buffer[:n]`` to the host, or drop it (False)
                                      when the host is not reading: never blocks

The device keeps no game state: it publishes the full occupancy whenever it changes and
every ``snapshot_ms``, so that any lost or repeated frame is healed by the next one. To
heal a lost change quickly (a move's in-between states matter to the tracker), a change is
sent ``repeats`` more times, byte for byte, ``repeat_ms`` apart, and a HEARTBEAT naming
the last sequence number goes out every ``heartbeat_ms`` of silence. Once nothing has
changed for ``quiet_after_ms`` the heartbeat slows to every ``quiet_heartbeat_ms``: it
heals a change lost on the line, and at rest there is none to heal, while every beat
wakes the host; the first change brings the fast beats back with it.

A pass of the main loop allocates nothing on a 32-bit MicroPython: the occupancy is kept as
one small integer per matrix row (a 50-square mask would be a heap integer past bit 30),
frames are built in two buffers made at boot, and time is counted in a millisecond
counter that wraps before it outgrows a small integer (``MS_WRAP``).
"""

import struct

try:
    from . import wire
except ImportError:  # on the Pico the files sit flat in the root directory
    import wire  # type: ignore[no-redef, unused-ignore]  # the same module, found flat

FIRMWARE_VERSION = (1, 3, 0)

# Timing defaults (docs/protocol.md, "Timing and redundancy").
HEARTBEAT_MS = 50  # a HEARTBEAT after this long without any frame carrying the seq
QUIET_HEARTBEAT_MS = 200  # the same once nothing has changed for QUIET_AFTER_MS
QUIET_AFTER_MS = 1000
SNAPSHOT_MS = 1000  # a periodic SNAPSHOT at least this often
REPEATS = 2  # copies of a change (or boot) SNAPSHOT sent after the first
REPEAT_MS = 10  # between those copies

SLOW_BLINK_MS = 500  # half period: 1 Hz
FAST_BLINK_MS = 125  # half period: 4 Hz

# The internal millisecond counter wraps here: below 2**30, so a small integer on a 32-bit
# MicroPython, and a multiple of the blink periods, so blinking never stutters at the wrap.
MS_WRAP = 500_000_000
MAX_COLUMNS = 8  # columns of a row: its mask fits a byte


def matrix_map(board_size, from_top):
    """(row, col) of each square number (index 0 = square 1) for the reference wiring.

    Matrix row r is the r-th rank in numbering order (from the top for Russian and
    international boards, from the bottom for Lasca boards); column c is the c-th dark
    square of that rank from the left. Square numbers run along rows, so this is simply
    the numbering cut into ranks.
    """
    cells = []
    for r in range(board_size):
        rank = board_size - 1 - r if from_top else r
        dark_files = [f for f in range(board_size) if (rank + f) % 2 == 0]
        for c in range(len(dark_files)):
            cells.append((r, c))
    return cells


class Debouncer:
    """Per-switch debounce: a switch's state changes after ``scans`` identical readings.

    Works row by row on the column bits (a byte each), with AND/OR over the last ``scans``
    raw readings, so its cost does not grow with the number of switches in a row and it
    allocates nothing.
    """

    def __init__(self, scans, rows):
        self.scans = scans
        self.rows = rows
        self.history = bytearray(scans * rows)  # scans x rows, oldest overwritten first
        self.stable = bytearray(rows)
        self._next = 0

    def update(self, raw):
        """Feed one scan (``raw[r]``: column bits of row r); True when ``stable`` changed."""
        rows = self.rows
        history = self.history
        stable = self.stable
        base = self._next * rows
        for r in range(rows):
            history[base + r] = raw[r]
        self._next += 1
        if self._next == self.scans:
            self._next = 0
        changed = False
        size = len(history)
        for r in range(rows):
            ones = 0xFF
            zeros = 0xFF
            i = r
            while i < size:  # a range with a variable step would allocate on the device
                value = history[i]
                ones &= value
                zeros &= value ^ 0xFF
                i += rows
            new = (stable[r] & (zeros ^ 0xFF)) | ones
            if new != stable[r]:
                stable[r] = new
                changed = True
        return changed


class Firmware:
    """One boot of the device. A reset is a new instance with a new ``boot_id``."""

    def __init__(
        self,
        hw,
        board_size,
        cells,
        boot_id,
        debounce_scans=3,
        heartbeat_ms=HEARTBEAT_MS,
        snapshot_ms=SNAPSHOT_MS,
        repeats=REPEATS,
        repeat_ms=REPEAT_MS,
        quiet_heartbeat_ms=QUIET_HEARTBEAT_MS,
        quiet_after_ms=QUIET_AFTER_MS,
    ):
        self.hw = hw
        self.board_size = board_size
        self.square_count = len(cells)
        self.rows = max(r for r, _ in cells) + 1
        self.cols = max(c for _, c in cells) + 1
        if self.cols > MAX_COLUMNS:
            raise ValueError("at most 8 matrix columns")
        self.boot_id = boot_id & 0xFFFF or 1
        self.heartbeat_ms = heartbeat_ms
        self.quiet_heartbeat_ms = max(heartbeat_ms, quiet_heartbeat_ms)
        self.quiet_after_ms = quiet_after_ms
        self.snapshot_ms = snapshot_ms
        self.repeats = repeats
        self.repeat_ms = repeat_ms
        # _square_of[r * 8 + c]: the square index (0-based) at row r, column c; 255 none.
        self._square_of = bytearray(b"\xff" * (self.rows * MAX_COLUMNS))
        self._row_columns = bytearray(self.rows)  # the column bits that carry a square
        for index, (r, c) in enumerate(cells):
            self._square_of[r * MAX_COLUMNS + c] = index
            self._row_columns[r] |= 1 << c
        self.debouncer = Debouncer(debounce_scans, self.rows)
        self.raw = bytearray(self.rows)  # the last scan, undebounced
        self.occupied_rows = bytearray(self.rows)  # the occupancy last published
        self.splitter = wire.FrameSplitter()
        self.seq = 0
        self.nibbles = bytearray(self.square_count)
        self.led_seq = 0
        self._lit = bytearray(self.square_count)
        self.frames_in = 0
        self.bad_frames_in = 0
        self.frames_dropped = 0  # frames the host was not reading (hw.write said no)
        self.service_request = 0  # a wire.SERVICE_* action the main loop must carry out
        # Frames are built in _raw (type, body, room for the CRC) and encoded into _out.
        self._raw = bytearray(wire.MAX_RAW)
        self._out = bytearray(wire.MAX_ENCODED + 1)
        self._rx = bytearray(64)
        self._mask_bytes = (self.square_count + 7) // 8
        self._start = hw.ticks_ms()
        self._now_ms = 0  # milliseconds since boot, modulo MS_WRAP
        self._wraps = 0
        self._last_heartbeat = 0
        self._last_snapshot = 0
        self._last_change = 0  # the last change (or boot) SNAPSHOT
        # The latest change SNAPSHOT while copies are owed: rebuilt from these fields,
        # so the copies are the same bytes without a buffer kept for them.
        self._repeat_rows = bytearray(self.rows)
        self._repeat_seq = 0
        self._repeat_ms = 0
        self._repeat_reason = 0
        self._repeats_left = 0
        self._last_repeat = 0

    @property
    def occupied(self):
        """The published occupancy as one mask (bit n-1 = square n). For the host and
        tests: on the device a 50-square mask is a heap integer, so the loop never asks."""
        return self.mask_of(self.occupied_rows)

    def mask_of(self, rows):
        mask = 0
        for r in range(self.rows):
            bits = rows[r]
            for c in range(MAX_COLUMNS):
                if bits >> c & 1:
                    mask |= 1 << self._square_of[r * MAX_COLUMNS + c]
        return mask

    # -- time -------------------------------------------------------------------------------

    def uptime_ms(self):
        """Milliseconds since boot modulo ``MS_WRAP``, immune to the wrap of ticks_ms."""
        hw = self.hw
        now = hw.ticks_ms()
        t = self._now_ms + hw.ticks_diff(now, self._start)
        self._start = now
        if t >= MS_WRAP:
            t -= MS_WRAP
            self._wraps += 1
        self._now_ms = t
        return t

    def _device_ms(self, now):
        """The SNAPSHOT and HEARTBEAT ``device_ms``: milliseconds since boot, mod 2**32."""
        if not self._wraps:
            return now
        return (self._wraps * MS_WRAP + now) & 0xFFFFFFFF

    @staticmethod
    def _since(now, then):
        return (now - then) % MS_WRAP

    # -- output ----------------------------------------------------------------------------

    def _send_raw(self, n):
        """Frame and send ``self._raw[:n]``; a frame the host is not reading is dropped."""
        length = wire.frame_into(self._raw, n, self._out)
        if not self.hw.write(self._out, length):
            self.frames_dropped += 1

    def _send_packed(self, msg_type, fmt, *fields):
        """A rare frame (HELLO, ACK, NACK): the argument tuple is the only allocation."""
        raw = self._raw
        raw[0] = msg_type
        struct.pack_into(fmt, raw, 1, *fields)
        self._send_raw(1 + struct.calcsize(fmt))

    def send_hello(self):
        version = FIRMWARE_VERSION
        self._send_packed(
            wire.HELLO, wire.HELLO_FORMAT, wire.PROTOCOL_VERSION, version[0], version[1],
            version[2], self.board_size, self.rows, self.cols, self.square_count,
            self.boot_id, self.seq, self.quiet_heartbeat_ms,
        )

    def _send_snapshot_frame(self, rows, seq, device_ms, reason):
        raw = self._raw
        raw[0] = wire.SNAPSHOT
        struct.pack_into(
            wire.SNAPSHOT_HEAD, raw, 1, self.boot_id, seq, device_ms, reason, self.square_count
        )
        at = 1 + wire.SNAPSHOT_HEAD_SIZE
        for i in range(self._mask_bytes):
            raw[at + i] = 0
        square_of = self._square_of
        for r in range(self.rows):
            bits = rows[r]
            c = 0
            while bits:
                if bits & 1:
                    index = square_of[r * MAX_COLUMNS + c]
                    raw[at + (index >> 3)] |= 1 << (index & 7)
                bits >>= 1
                c += 1
        self._send_raw(at + self._mask_bytes)

    def send_snapshot(self, reason, now):
        self.seq += 1
        self._last_snapshot = now
        self._last_heartbeat = now  # a snapshot proves liveness as well as a heartbeat
        device_ms = self._device_ms(now)
        self._send_snapshot_frame(self.occupied_rows, self.seq, device_ms, reason)
        # A change is news the host must not miss: copies follow. Any newer snapshot
        # replaces the copies owed (it carries the same or a newer occupancy).
        if reason == wire.REASON_CHANGE or reason == wire.REASON_BOOT:
            self._last_change = now
            for r in range(self.rows):
                self._repeat_rows[r] = self.occupied_rows[r]
            self._repeat_seq = self.seq
            self._repeat_ms = device_ms
            self._repeat_reason = reason
            self._repeats_left = self.repeats
            self._last_repeat = now
        else:
            self._repeats_left = 0

    def repeat_snapshot(self, now):
        """Send the latest change SNAPSHOT again, same bytes and seq (the host drops the
        copies it already has by their number)."""
        self._repeats_left -= 1
        self._last_repeat = now
        self._last_heartbeat = now
        self._send_snapshot_frame(
            self._repeat_rows, self._repeat_seq, self._repeat_ms, self._repeat_reason
        )

    def _heartbeat_period(self, now):
        """``heartbeat_ms`` while a change is recent (a lost one is healed at the next
        beat), ``quiet_heartbeat_ms`` once the board has been still for ``quiet_after_ms``."""
        if self._since(now, self._last_change) < self.quiet_after_ms:
            return self.heartbeat_ms
        return self.quiet_heartbeat_ms

    def send_heartbeat(self, now):
        self._last_heartbeat = now
        raw = self._raw
        raw[0] = wire.HEARTBEAT
        struct.pack_into(wire.HEARTBEAT_FORMAT, raw, 1, self.boot_id, self.seq,
                         self._device_ms(now))
        self._send_raw(1 + wire.HEARTBEAT_SIZE)

    def _send_ack(self, of_type, seq):
        self._send_packed(wire.ACK, wire.ACK_FORMAT, of_type, seq)

    def _send_nack(self, of_type, seq, reason):
        self._send_packed(wire.NACK, wire.NACK_FORMAT, of_type, seq, reason)

    def send_error(self, code, text):
        body = wire.pack_error(code, text)
        raw = self._raw
        raw[0] = wire.ERROR
        raw[1 : 1 + len(body)] = body
        self._send_raw(1 + len(body))

    # -- the main loop -------------------------------------------------------------------

    def boot(self):
        """Announce this boot: a delimiter to end any half frame the host holds, HELLO,
        and the first snapshot once the debouncer has settled."""
        self._out[0] = 0
        self.hw.write(self._out, 1)
        self.send_hello()
        for _ in range(self.debouncer.scans):
            self.scan()
            self.debouncer.update(self.raw)
        self._take_stable()
        now = self.uptime_ms()
        self.send_snapshot(wire.REASON_BOOT, now)
        self.show_leds(now)

    def _take_stable(self):
        """Copy the debounced rows into the published ones; True when they differed."""
        stable = self.debouncer.stable
        published = self.occupied_rows
        changed = False
        for r in range(self.rows):
            if published[r] != stable[r]:
                published[r] = stable[r]
                changed = True
        return changed

    def poll(self):
        """One pass of the main loop: input, one scan, timers, LEDs."""
        now = self.uptime_ms()
        n = self.hw.read_into(self._rx)
        if n:
            self.receive(memoryview(self._rx)[:n], now)
        self.scan()
        if self.debouncer.update(self.raw) and self._take_stable():
            self.send_snapshot(wire.REASON_CHANGE, now)
        elif self._repeats_left and self._since(now, self._last_repeat) >= self.repeat_ms:
            self.repeat_snapshot(now)
        elif self._since(now, self._last_snapshot) >= self.snapshot_ms:
            self.send_snapshot(wire.REASON_PERIODIC, now)
        elif self._since(now, self._last_heartbeat) >= self._heartbeat_period(now):
            self.send_heartbeat(now)
        self.show_leds(now)

    def scan(self):
        """Raw occupancy into ``self.raw``: select each row in turn and read the columns."""
        hw = self.hw
        raw = self.raw
        valid = self._row_columns
        for row in range(self.rows):
            hw.set_row(row, True)
            raw[row] = hw.read_columns() & valid[row]
            hw.set_row(row, False)
        return raw

    # -- input -----------------------------------------------------------------------------

    def receive(self, data, now):
        for item in self.splitter.feed(data):
            if isinstance(item, int):
                self.bad_frames_in += 1
                self._send_nack(0, 0, item)
                continue
            self.frames_in += 1
            msg_type, body = item
            if msg_type == wire.LEDS:
                self._apply_leds(body, now)
            elif msg_type == wire.GET_SNAPSHOT:
                self.send_snapshot(wire.REASON_REQUEST, now)
            elif msg_type == wire.GET_HELLO:
                self.send_hello()
            elif msg_type == wire.SERVICE:
                self._service(body)
            # HEARTBEAT, ACK, NACK from the host need no answer.

    def _service(self, body):
        fields = wire.unpack_service(body)
        if fields is None:
            self._send_nack(wire.SERVICE, 0, wire.ERR_BAD_VALUE)
            return
        self._send_ack(wire.SERVICE, fields[0])
        self.service_request = fields[0]  # carried out by the main loop, after the ACK

    def _apply_leds(self, body, now):
        fields = wire.unpack_leds(body)
        if fields is None:
            self._send_nack(wire.LEDS, 0, wire.ERR_BAD_VALUE)
            return
        seq, nibbles = fields
        if len(nibbles) != self.square_count:
            self._send_nack(wire.LEDS, seq, wire.ERR_BAD_VALUE)
            self.send_error(wire.ERROR_LED_COUNT, "led count")
            return
        for i in range(self.square_count):
            self.nibbles[i] = nibbles[i]
        self.led_seq = seq
        self._send_ack(wire.LEDS, seq)
        self.show_leds(now)

    # -- LEDs ------------------------------------------------------------------------------

    def show_leds(self, now):
        """Light each LED per its pattern; blinking is timed here, on the device."""
        slow = (now // SLOW_BLINK_MS) % 2 == 0
        fast = (now // FAST_BLINK_MS) % 2 == 0
        lit = self._lit
        nibbles = self.nibbles
        for i in range(self.square_count):
            pattern = nibbles[i] & 3
            on = 1 if pattern == 1 or (pattern == 2 and slow) or (pattern == 3 and fast) else 0
            if on != lit[i]:
                lit[i] = on
                self.hw.set_led(i + 1, on == 1)  # not kept as a bound method: that allocates
