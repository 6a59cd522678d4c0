"""What the host does with each message: the protocol's recovery rules, without I/O.

``HostSession`` is fed bytes and the time, and answers with ``Actions``: frames to send,
snapshots to publish, whether to reopen the port. No thread, no clock, no port: every
recovery rule of docs/protocol.md is a plain test on bytes (tests/firmware_bridge).

The invariant that keeps moves from being invented or lost: a snapshot always carries the
full occupancy, so the session only has to publish snapshots newer than the last one it
took (duplicates and copies dropped by sequence number) and make sure it hears the newest
soon: a bad frame (it may have been a snapshot), a heartbeat naming a later sequence
number or a NACK of a request makes it ask for a snapshot at once, and it keeps asking
every ``resync_interval`` until one at least that new arrives; a silent link is reopened.
"Soon" matters: the tracker reads a move from the order of its in-between states, so a
lost change must be healed before the hand makes the next one (tens of milliseconds).
"""

from __future__ import annotations

import enum
import logging
from collections import Counter
from dataclasses import dataclass, field

from draughtsboard.board.ports import LedFrame, Snapshot
from draughtsboard.firmware_bridge import codec
from draughtsboard.firmware_bridge.firmware import wire

log = logging.getLogger(__name__)

# A sequence number this far ahead of the last one cannot come from the same boot without
# a HELLO in between; treat it as damage that slipped past the CRC and ask for a HELLO.
SEQ_WINDOW = 1 << 16
# The heartbeat periods a HELLO may announce (docs/protocol.md: 50 ms). Outside them the
# number is not believed: the dead-link timeout would become minutes, or a storm.
MIN_HEARTBEAT_MS = 5
MAX_HEARTBEAT_MS = 1000


class LinkState(enum.Enum):
    """Where the host is in talking to the device."""
    DOWN = "down"  # no port
    AWAIT_HELLO = "await-hello"  # port open, device unknown: GET_HELLO repeated
    AWAIT_SNAPSHOT = "await-snapshot"  # device known, no snapshot yet: GET_SNAPSHOT repeated
    UP = "up"  # publishing snapshots


@dataclass
class Actions:
    """What the caller must do after a session call."""

    send: list[bytes] = field(default_factory=list)
    publish: list[Snapshot] = field(default_factory=list)
    reopen: bool = False


@dataclass
class LinkStats:
    """Counters a user can read to judge a cable (all since the session was made)."""

    frames_ok: int = 0
    bad_frames: Counter[str] = field(default_factory=Counter)
    snapshots: int = 0
    published: int = 0
    duplicates: int = 0
    gaps: int = 0
    resyncs: int = 0
    device_resets: int = 0
    timeouts: int = 0
    reconnects: int = 0
    led_frames: int = 0
    led_retries: int = 0
    nacks: int = 0
    device_errors: int = 0
    ignored: int = 0
    implausible: int = 0  # HELLO numbers not believed (heartbeat period, sequence number)

    def as_dict(self) -> dict[str, object]:
        data = dict(self.__dict__)
        data["bad_frames"] = dict(self.bad_frames)
        return data


class IncompatibleDevice(ValueError):
    """The device speaks another protocol version or has another board."""


class HostSession:
    """The host end of the protocol for one board of ``square_count`` squares."""

    def __init__(
        self,
        square_count: int,
        *,
        heartbeat_timeout: float = 1.0,
        retry_interval: float = 0.25,
        resync_interval: float = 0.01,
        publish_unchanged: bool = False,
    ) -> None:
        self.square_count = square_count
        self.heartbeat_timeout = heartbeat_timeout
        self.retry_interval = retry_interval
        self.resync_interval = resync_interval
        self.publish_unchanged = publish_unchanged
        self.decoder = codec.FrameDecoder()
        self.stats = LinkStats(bad_frames=self.decoder.errors)
        self.state = LinkState.DOWN
        self.hello: codec.Hello | None = None
        self.incompatible: IncompatibleDevice | None = None
        self.boot: int | None = None
        self.last_seq = 0
        self._fresh_boot = False  # a new boot's first snapshot is taken whatever its number
        self.latest: Snapshot | None = None
        self._want_seq: int | None = None  # a snapshot at least this new is owed to us
        self._last_rx = 0.0
        self._last_request = {wire.GET_HELLO: float("-inf"), wire.GET_SNAPSHOT: float("-inf")}
        self._timeout = heartbeat_timeout
        self._led: codec.LedsMessage | None = None
        self._led_acked = True
        self._led_sent_at = float("-inf")

    # -- port events ---------------------------------------------------------------------

    def connected(self, now: float) -> Actions:
        """The port is open: flush the device's half frame and ask who is there."""
        self.decoder.reset()
        self.state = LinkState.AWAIT_HELLO
        self._led_acked = self._led is None  # the device may have missed it: send again
        self._last_rx = now
        self._last_request[wire.GET_HELLO] = now
        return Actions(send=[b"\x00" + codec.GetHello().encode()])

    def disconnected(self) -> None:
        self.state = LinkState.DOWN
        self.decoder.reset()

    def link_lost(self) -> None:
        """The port failed under us (not closed on purpose): counted, and the link is
        down until ``connected`` is called again."""
        self.stats.reconnects += 1
        self.disconnected()

    # -- bytes in ---------------------------------------------------------------------------

    def receive(self, data: bytes, now: float) -> Actions:
        """Bytes from the device at ``now``: the actions to take (frames to send, snapshots to
        publish, reopen the port)."""
        actions = Actions()
        if self.state is LinkState.DOWN:
            return actions
        decoder = self.decoder
        frames_before = decoder.frames_ok
        bad_before = decoder.bad_frames
        for message in decoder.feed(data):
            self._handle(message, now, actions)
        if decoder.frames_ok != frames_before:
            self._last_rx = now  # any good frame shows the device is alive
        if decoder.bad_frames != bad_before and self.boot is not None:
            # The damaged frame may have been the latest snapshot: ask for one now rather
            # than wait for the next heartbeat to tell.
            if self.state is not LinkState.AWAIT_HELLO:
                self._want(self.last_seq + 1, now, actions)
        self.stats.frames_ok = decoder.frames_ok
        return actions

    def _handle(self, message: codec.Message, now: float, actions: Actions) -> None:
        if isinstance(message, codec.SnapshotMessage):
            self._on_snapshot(message, now, actions)
        elif isinstance(message, codec.Heartbeat):
            self._on_heartbeat(message, now, actions)
        elif isinstance(message, codec.Hello):
            self._on_hello(message, now, actions)
        elif isinstance(message, codec.Ack):
            if self._led is not None and message.of_type == wire.LEDS:
                if message.seq == self._led.seq:
                    self._led_acked = True
        elif isinstance(message, codec.Nack):
            self.stats.nacks += 1
            if self.state is not LinkState.AWAIT_HELLO:
                self._send_leds(now, actions, retry=True)
                if self._want_seq is not None:  # the request may be what was damaged
                    self._request(wire.GET_SNAPSHOT, now, actions, force=True)
        elif isinstance(message, codec.Error):
            self.stats.device_errors += 1
            log.warning("device error %d: %s", message.code, message.text)
        else:  # frames meant for the device (an echo on loop://)
            self.stats.ignored += 1

    def _on_hello(self, hello: codec.Hello, now: float, actions: Actions) -> None:
        if hello.protocol != wire.PROTOCOL_VERSION or hello.square_count != self.square_count:
            self.incompatible = IncompatibleDevice(
                f"device speaks protocol {hello.protocol} with {hello.square_count} squares; "
                f"this host speaks {wire.PROTOCOL_VERSION} with {self.square_count}"
            )
            log.error("%s", self.incompatible)
            return
        self.incompatible = None
        self.hello = hello
        period = hello.heartbeat_ms
        if not MIN_HEARTBEAT_MS <= period <= MAX_HEARTBEAT_MS:
            self.stats.implausible += 1
            log.warning("device announces a heartbeat every %d ms: not believed, %d-%d ms "
                        "assumed", period, MIN_HEARTBEAT_MS, MAX_HEARTBEAT_MS)
            period = min(max(period, MIN_HEARTBEAT_MS), MAX_HEARTBEAT_MS)
        self._timeout = max(self.heartbeat_timeout, 5 * period / 1000)
        if hello.boot != self.boot:
            if self.boot is not None:
                self.stats.device_resets += 1
                log.warning("device reset (boot %04x -> %04x)", self.boot, hello.boot)
            # A new boot: nothing from the old one counts; its first full snapshot is truth.
            # The HELLO's last_seq is not made a floor: a wrong one (damage that passed the
            # CRC, a confused device) would make every real snapshot look like a duplicate.
            self.boot = hello.boot
            self.last_seq = 0
            self._fresh_boot = True
            self._want_seq = None
            self._led_acked = False
            if self.state is LinkState.UP:
                self.state = LinkState.AWAIT_SNAPSHOT
        if self.state is LinkState.AWAIT_HELLO or not self._led_acked:
            self._send_leds(now, actions)
        if self.state is not LinkState.UP:
            self.state = LinkState.AWAIT_SNAPSHOT
            self._want_seq = None if self._fresh_boot else self.last_seq + 1
            self._request(wire.GET_SNAPSHOT, now, actions, force=True)
        elif self.last_seq < hello.last_seq <= self.last_seq + SEQ_WINDOW:
            self._want(hello.last_seq, now, actions)
        elif hello.last_seq > self.last_seq + SEQ_WINDOW:
            self.stats.implausible += 1  # same boot, a number it cannot have reached

    def _on_snapshot(self, message: codec.SnapshotMessage, now: float, actions: Actions) -> None:
        self.stats.snapshots += 1
        if message.boot != self.boot:
            # From a boot we have not been introduced to. (A known boot's snapshots stay
            # trusted while a HELLO is awaited after a reconnection: their numbers order them.)
            self.stats.ignored += 1
            self._request(wire.GET_HELLO, now, actions, self.resync_interval)
            return
        if message.square_count != self.square_count:
            self.stats.ignored += 1
            return
        if self._fresh_boot:
            self._fresh_boot = False  # the boot's first snapshot: its number starts the count
            self.last_seq = message.seq - 1
        if message.seq <= self.last_seq:
            self.stats.duplicates += 1
            return
        if message.seq > self.last_seq + SEQ_WINDOW:
            self.stats.ignored += 1
            self._request(wire.GET_HELLO, now, actions, self.resync_interval)
            return
        if self.state is LinkState.UP and message.seq > self.last_seq + 1:
            self.stats.gaps += 1  # missed ones are healed: this one is the full truth
        self.last_seq = message.seq
        if self._want_seq is not None and message.seq >= self._want_seq:
            self._want_seq = None
            self._last_request[wire.GET_SNAPSHOT] = float("-inf")  # answered: none owed
        self.state = LinkState.UP
        latest = self.latest
        if latest is None or self.publish_unchanged or message.occupied != latest.occupied:
            if latest is not None and now < latest.timestamp:
                now = latest.timestamp  # a clock stepped back: never publish out of order
            self.latest = Snapshot(message.occupied, now)
            self.stats.published += 1
            actions.publish.append(self.latest)

    def _on_heartbeat(self, beat: codec.Heartbeat, now: float, actions: Actions) -> None:
        if self.boot is None:
            return
        if beat.boot != self.boot:
            self._request(wire.GET_HELLO, now, actions, self.resync_interval)
        elif self.last_seq < beat.last_seq <= self.last_seq + SEQ_WINDOW:
            self._want(beat.last_seq, now, actions)  # the newest snapshot was lost

    def _want(self, seq: int, now: float, actions: Actions) -> None:
        """A snapshot numbered ``seq`` or later is owed: ask now, unless a request went
        out less than ``resync_interval`` ago (``tick`` asks again when it has)."""
        if self._want_seq is None:
            self.stats.resyncs += 1
            self._want_seq = seq
        else:
            self._want_seq = max(self._want_seq, seq)
        self._request(wire.GET_SNAPSHOT, now, actions, self.resync_interval)

    def _request(
        self,
        msg_type: int,
        now: float,
        actions: Actions,
        interval: float | None = None,
        force: bool = False,
    ) -> None:
        interval = self.retry_interval if interval is None else interval
        if force or now - self._last_request[msg_type] >= interval:
            self._last_request[msg_type] = now
            actions.send.append(wire.encode_frame(msg_type))

    # -- LEDs ------------------------------------------------------------------------------

    def show(self, frame: LedFrame, now: float) -> Actions:
        """Make ``frame`` the one the device should show; sent now if the device is known."""
        if len(frame.patterns) != self.square_count:
            raise ValueError(
                f"LED frame has {len(frame.patterns)} squares, the board {self.square_count}"
            )
        seq = self._led.seq + 1 if self._led else 1
        self._led = codec.LedsMessage(seq, frame)
        self._led_acked = False
        self.stats.led_frames += 1
        actions = Actions()
        if self.state in (LinkState.AWAIT_SNAPSHOT, LinkState.UP):
            self._send_leds(now, actions)
        return actions

    def _send_leds(self, now: float, actions: Actions, retry: bool = False) -> None:
        if self._led is None or (retry and self._led_acked):
            return
        if retry:
            self.stats.led_retries += 1
        self._led_sent_at = now
        actions.send.append(self._led.encode())

    @property
    def leds_acknowledged(self) -> bool:
        return self._led_acked

    @property
    def quiet(self) -> bool:
        """Nothing to send on a timer: the link is up, no snapshot is owed and the LEDs are
        acknowledged. Until the device next writes, the session will not send anything."""
        return (self.state is LinkState.UP and self._want_seq is None
                and (self._led is None or self._led_acked))

    # -- time --------------------------------------------------------------------------------

    def tick(self, now: float) -> Actions:
        """Timers: heartbeat timeout, request retries, LED retransmission."""
        actions = Actions()
        state = self.state
        if state is LinkState.DOWN:
            return actions
        if now - self._last_rx > self._timeout:
            self.stats.timeouts += 1
            log.warning("no frame from the device for %.1f s: reconnecting", now - self._last_rx)
            actions.reopen = True
            self.state = LinkState.AWAIT_HELLO
            self._last_rx = now
            return actions
        if state is LinkState.AWAIT_HELLO:
            self._request(wire.GET_HELLO, now, actions)
        elif state is LinkState.AWAIT_SNAPSHOT or self._want_seq is not None:
            self._request(wire.GET_SNAPSHOT, now, actions, self.resync_interval)
        if (
            state is not LinkState.AWAIT_HELLO
            and not self._led_acked
            and now - self._led_sent_at >= self.retry_interval
        ):
            self._send_leds(now, actions, retry=True)
        return actions
