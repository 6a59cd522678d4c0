"""Firmware logic: scan and debounce the reed matrix, drive the LEDs, speak the protocol.

Plain Python over a tiny hardware interface, so MicroPython runs it on the Pico and CPython
runs it in tests and in the emulator with fake pins. The hardware object ``hw`` provides:

    hw.ticks_ms() -> int              monotonic milliseconds (may wrap, as on MicroPython)
    hw.ticks_diff(new, old) -> int    signed difference of two ticks_ms values
    hw.set_row(row, active)           drive one matrix row
    hw.read_columns() -> int          bit c set when the switch in column c of the
                                      active row is closed
    hw.set_led(square, on)            square numbers from 1
    hw.read() -> bytes                whatever arrived from the host (b"" when nothing)
    hw.write(data)                    send to the host

The device keeps no game state: it publishes the full occupancy whenever it changes and
every ``snapshot_ms``, so that any lost or repeated frame is healed by the next one. To
heal a lost change quickly (a move's in-between states matter to the tracker), a change is
sent ``repeats`` more times, byte for byte, ``repeat_ms`` apart, and a HEARTBEAT naming
the last sequence number goes out every ``heartbeat_ms`` of silence.
"""

try:
    from . import wire
except ImportError:  # on the Pico the files sit flat in the root directory
    import wire

FIRMWARE_VERSION = (1, 1, 0)

# Timing defaults (docs/protocol.md, "Timing and redundancy").
HEARTBEAT_MS = 50  # a HEARTBEAT after this long without any frame carrying the seq
SNAPSHOT_MS = 1000  # a periodic SNAPSHOT at least this often
REPEATS = 2  # copies of a change (or boot) SNAPSHOT sent after the first
REPEAT_MS = 10  # between those copies

SLOW_BLINK_MS = 500  # half period: 1 Hz
FAST_BLINK_MS = 125  # half period: 4 Hz


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

    Works on whole masks with bitwise AND/OR over the last ``scans`` raw readings, so the
    cost per scan does not grow with the number of switches.
    """

    def __init__(self, scans, initial=0):
        self.scans = scans
        self.history = [initial] * scans
        self.stable = initial
        self._next = 0

    def update(self, raw):
        history = self.history
        history[self._next] = raw
        self._next = (self._next + 1) % self.scans
        ones = raw
        zeros = ~raw
        for value in history:
            ones &= value
            zeros &= ~value
        self.stable = (self.stable & ~zeros) | ones
        return self.stable


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
    ):
        self.hw = hw
        self.board_size = board_size
        self.square_count = len(cells)
        self.rows = max(r for r, _ in cells) + 1
        self.cols = max(c for _, c in cells) + 1
        self.boot_id = boot_id & 0xFFFF or 1
        self.heartbeat_ms = heartbeat_ms
        self.snapshot_ms = snapshot_ms
        self.repeats = repeats
        self.repeat_ms = repeat_ms
        # Per row, (column bit, square bit) pairs: the scan loop does no lookups.
        self._row_bits = [[] for _ in range(self.rows)]
        for index, (r, c) in enumerate(cells):
            self._row_bits[r].append((1 << c, 1 << index))
        self.debouncer = Debouncer(debounce_scans)
        self.splitter = wire.FrameSplitter()
        self.seq = 0
        self.occupied = 0
        self.nibbles = bytearray(self.square_count)
        self.led_seq = 0
        self._lit = [False] * self.square_count
        self.frames_in = 0
        self.bad_frames_in = 0
        self._start = hw.ticks_ms()
        self._now_ms = 0
        self._last_heartbeat = 0
        self._last_snapshot = 0
        self._repeat_frame = b""  # the latest change SNAPSHOT, while copies are owed
        self._repeats_left = 0
        self._next_repeat = 0

    # -- time -------------------------------------------------------------------------------

    def uptime_ms(self):
        """Milliseconds since boot, immune to the wrap of ticks_ms."""
        hw = self.hw
        now = hw.ticks_ms()
        self._now_ms += hw.ticks_diff(now, self._start)
        self._start = now
        return self._now_ms

    # -- output ----------------------------------------------------------------------------

    def _send(self, msg_type, body=b""):
        self.hw.write(wire.encode_frame(msg_type, body))

    def send_hello(self):
        self._send(
            wire.HELLO,
            wire.pack_hello(
                FIRMWARE_VERSION,
                self.board_size,
                self.rows,
                self.cols,
                self.square_count,
                self.boot_id,
                self.seq,
                self.heartbeat_ms,
            ),
        )

    def send_snapshot(self, reason, now):
        self.seq += 1
        self._last_snapshot = now
        self._last_heartbeat = now  # a snapshot proves liveness as well as a heartbeat
        frame = wire.encode_frame(
            wire.SNAPSHOT,
            wire.pack_snapshot(
                self.boot_id, self.seq, now, reason, self.square_count, self.occupied
            ),
        )
        self.hw.write(frame)
        # A change is news the host must not miss: copies follow. Any newer snapshot
        # replaces the copies owed (it carries the same or a newer occupancy).
        if reason == wire.REASON_CHANGE or reason == wire.REASON_BOOT:
            self._repeat_frame = frame
            self._repeats_left = self.repeats
            self._next_repeat = now + self.repeat_ms
        else:
            self._repeats_left = 0

    def repeat_snapshot(self, now):
        """Send the latest change SNAPSHOT again, same bytes and seq (the host drops the
        copies it already has by their number)."""
        self._repeats_left -= 1
        self._next_repeat = now + self.repeat_ms
        self._last_heartbeat = now
        self.hw.write(self._repeat_frame)

    def send_heartbeat(self, now):
        self._last_heartbeat = now
        self._send(wire.HEARTBEAT, wire.pack_heartbeat(self.boot_id, self.seq, now))

    # -- the main loop -------------------------------------------------------------------

    def boot(self):
        """Announce this boot: a delimiter to end any half frame the host holds, HELLO,
        and the first snapshot once the debouncer has settled."""
        self.hw.write(b"\x00")
        self.send_hello()
        for _ in range(self.debouncer.scans):
            self.occupied = self.debouncer.update(self.scan())
        now = self.uptime_ms()
        self.send_snapshot(wire.REASON_BOOT, now)
        self.show_leds(now)

    def poll(self):
        """One pass of the main loop: input, one scan, timers, LEDs."""
        now = self.uptime_ms()
        data = self.hw.read()
        if data:
            self.receive(data, now)
        stable = self.debouncer.update(self.scan())
        if stable != self.occupied:
            self.occupied = stable
            self.send_snapshot(wire.REASON_CHANGE, now)
        elif self._repeats_left and now - self._next_repeat >= 0:
            self.repeat_snapshot(now)
        elif now - self._last_snapshot >= self.snapshot_ms:
            self.send_snapshot(wire.REASON_PERIODIC, now)
        elif now - self._last_heartbeat >= self.heartbeat_ms:
            self.send_heartbeat(now)
        self.show_leds(now)

    def scan(self):
        """Raw occupancy: drive each row in turn and read the columns."""
        hw = self.hw
        mask = 0
        row = 0
        for pairs in self._row_bits:
            hw.set_row(row, True)
            columns = hw.read_columns()
            hw.set_row(row, False)
            if columns:
                for column_bit, square_bit in pairs:
                    if columns & column_bit:
                        mask |= square_bit
            row += 1
        return mask

    # -- input -----------------------------------------------------------------------------

    def receive(self, data, now):
        for item in self.splitter.feed(data):
            if isinstance(item, int):
                self.bad_frames_in += 1
                self._send(wire.NACK, wire.pack_nack(0, 0, item))
                continue
            self.frames_in += 1
            msg_type, body = item
            if msg_type == wire.LEDS:
                self._apply_leds(body, now)
            elif msg_type == wire.GET_SNAPSHOT:
                self.send_snapshot(wire.REASON_REQUEST, now)
            elif msg_type == wire.GET_HELLO:
                self.send_hello()
            # HEARTBEAT, ACK, NACK from the host need no answer.

    def _apply_leds(self, body, now):
        fields = wire.unpack_leds(body)
        if fields is None:
            self._send(wire.NACK, wire.pack_nack(wire.LEDS, 0, wire.ERR_BAD_VALUE))
            return
        seq, nibbles = fields
        if len(nibbles) != self.square_count:
            self._send(wire.NACK, wire.pack_nack(wire.LEDS, seq, wire.ERR_BAD_VALUE))
            self._send(wire.ERROR, wire.pack_error(wire.ERROR_LED_COUNT, "led count"))
            return
        self.nibbles = bytearray(nibbles)
        self.led_seq = seq
        self._send(wire.ACK, wire.pack_ack(wire.LEDS, seq))
        self.show_leds(now)

    # -- LEDs ------------------------------------------------------------------------------

    def show_leds(self, now):
        """Light each LED per its pattern; blinking is timed here, on the device."""
        slow = (now // SLOW_BLINK_MS) % 2 == 0
        fast = (now // FAST_BLINK_MS) % 2 == 0
        lit = self._lit
        set_led = self.hw.set_led
        for i in range(self.square_count):
            pattern = self.nibbles[i] & 3
            on = pattern == 1 or (pattern == 2 and slow) or (pattern == 3 and fast)
            if on != lit[i]:
                lit[i] = on
                set_led(i + 1, on)
