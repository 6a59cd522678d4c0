"""The reference firmware on fake pins, in virtual time: a session with a Pico on the desk."""

import ast
import pathlib

import pytest

from draughtsboard.board.ports import LedFrame, LedPattern
from draughtsboard.board.rules import get_variant
from draughtsboard.board.rules.geometry import Numbering
from draughtsboard.firmware_bridge import codec
from draughtsboard.firmware_bridge.fakepins import FakePins
from draughtsboard.firmware_bridge.firmware import core, wire
from draughtsboard.hardware.virtual import simulated_switches

FIRMWARE_DIR = pathlib.Path(core.__file__).parent


class Desk:
    """A device on fake pins with a hand-set clock and a decoder on its output."""

    def __init__(self, variant="international", occupied=0, ticks_period=1 << 30, start=0.0):
        geometry = get_variant(variant).geometry
        self.cells = core.matrix_map(geometry.size, geometry.numbering is Numbering.FROM_TOP_LEFT)
        self.now = start
        self.switches = simulated_switches(geometry, occupied)
        self.pins = FakePins(self.cells, self.switches, lambda: self.now, ticks_period)
        self.firmware = core.Firmware(self.pins, geometry.size, self.cells, boot_id=0x4242)
        self.decoder = codec.FrameDecoder()

    def messages(self):
        return self.decoder.feed(self.pins.take())

    def run(self, seconds, step=0.001):
        """Poll once per ``step`` for ``seconds``; the messages sent meanwhile."""
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.now += step
            self.firmware.poll()
        return self.messages()


def snapshots(messages):
    return [m for m in messages if isinstance(m, codec.SnapshotMessage)]


def test_boot_sends_hello_then_the_settled_occupancy():
    desk = Desk(occupied=0b1011)
    desk.firmware.boot()
    hello, snapshot = desk.messages()
    # HELLO names the longest silence, the quiet heartbeat: the host's dead-link timeout
    assert hello == codec.Hello(core.FIRMWARE_VERSION, 10, 10, 5, 50, 0x4242, 0,
                                core.QUIET_HEARTBEAT_MS)
    assert (snapshot.seq, snapshot.reason, snapshot.occupied) == (1, wire.REASON_BOOT, 0b1011)


@pytest.mark.parametrize("variant", ["russian", "international", "lasca"])
def test_matrix_map_follows_the_variant_numbering_rank_by_rank(variant):
    geometry = get_variant(variant).geometry
    top = geometry.numbering is Numbering.FROM_TOP_LEFT
    cells = core.matrix_map(geometry.size, top)
    assert len(cells) == geometry.square_count
    for number in geometry.numbers:
        file, rank = geometry.coords(number)
        row = geometry.size - 1 - rank if top else rank
        assert cells[number - 1] == (row, file // 2)


@pytest.mark.parametrize("variant", ["russian", "international", "lasca"])
def test_every_square_is_seen_through_the_matrix(variant):
    desk = Desk(variant)
    for square in range(1, len(desk.cells) + 1):
        desk.switches.occupied = 1 << (square - 1)
        assert desk.firmware.mask_of(desk.firmware.scan()) == 1 << (square - 1)


def test_a_change_is_published_after_the_debounce_scans_once():
    desk = Desk()
    desk.firmware.boot()
    desk.messages()
    desk.switches.place(17)
    desk.firmware.poll()
    desk.firmware.poll()
    assert snapshots(desk.messages()) == []  # 2 of 3 identical scans
    desk.firmware.poll()
    (snapshot,) = snapshots(desk.messages())
    assert (snapshot.seq, snapshot.reason, snapshot.occupied) == (2, wire.REASON_CHANGE, 1 << 16)
    # then the same frame twice more, 10 ms apart, and nothing new
    assert snapshots(desk.run(0.05)) == [snapshot, snapshot]


def test_copies_of_a_change_are_the_same_bytes_and_a_newer_change_replaces_them():
    desk = Desk()
    desk.firmware.boot()
    desk.run(0.05)
    desk.switches.place(17)
    desk.pins.take()
    desk.run(0.003)
    first = desk.pins.take()
    desk.run(0.010)
    assert desk.pins.take() == first  # a copy, byte for byte: same seq
    desk.switches.place(18)  # before the second copy is due
    messages = snapshots(desk.run(0.05))
    assert [(s.seq, s.occupied) for s in messages] == [(3, 0b11 << 16)] * 3


def test_a_requested_snapshot_is_not_repeated():
    desk = Desk(occupied=1)
    desk.firmware.boot()
    desk.run(0.05)
    desk.pins.feed(codec.GetSnapshot().encode())
    assert [s.reason for s in snapshots(desk.run(0.05))] == [wire.REASON_REQUEST]


def test_switch_bounce_shorter_than_the_debounce_is_ignored():
    desk = Desk()
    desk.firmware.boot()
    desk.messages()
    for _ in range(20):
        desk.switches.place(3)
        desk.firmware.poll()
        desk.switches.lift(3)
        desk.firmware.poll()
    assert snapshots(desk.messages()) == []


def test_heartbeats_and_periodic_snapshots_keep_coming_when_nothing_changes():
    desk = Desk(occupied=0b110)
    desk.firmware.boot()
    desk.messages()
    messages = desk.run(3.05)
    beats = [m for m in messages if isinstance(m, codec.Heartbeat)]
    boot_copies, periodic = snapshots(messages)[:2], snapshots(messages)[2:]
    assert [s.seq for s in boot_copies] == [1, 1]  # the boot snapshot is repeated twice
    assert [s.reason for s in periodic] == [wire.REASON_PERIODIC] * 3
    assert all(s.occupied == 0b110 for s in periodic)
    assert beats[-1].last_seq == periodic[-1].seq - 1  # the last beat came before it
    # Copies of the boot snapshot carry its time, 0. Then a frame at least every 50 ms
    # for QUIET_AFTER_MS after the boot (a lost snapshot is healed that fast), then at
    # least every QUIET_HEARTBEAT_MS: a still board wakes the host five times a second.
    times = [m.device_ms for m in messages if m not in boot_copies]
    lively = [t for t in times if t <= core.QUIET_AFTER_MS]
    quiet = [t for t in times if t >= core.QUIET_AFTER_MS]
    assert max(b - a for a, b in zip(lively, lively[1:], strict=False)) == core.HEARTBEAT_MS
    assert max(b - a for a, b in zip(quiet, quiet[1:], strict=False)) == core.QUIET_HEARTBEAT_MS
    assert 17 <= len(beats) <= 19 + 9  # 19 in the first second, 4 or 5 in each after


def test_a_change_brings_the_fast_heartbeat_back():
    """A still board beats slowly; a lifted piece makes its change snapshot (and copies)
    and fast beats again, so a change lost on the line is named within 50 ms."""
    desk = Desk(occupied=0b110)
    desk.firmware.boot()
    desk.run(2.0)
    desk.messages()
    desk.switches.lift(2)
    messages = desk.run(0.5)
    change = [s for s in snapshots(messages) if s.reason == wire.REASON_CHANGE]
    assert [s.occupied for s in change] == [0b100] * 3  # the change and its two copies
    after = [m.device_ms for m in messages if isinstance(m, codec.Heartbeat)]
    assert len(after) >= 8
    assert max(b - a for a, b in zip(after, after[1:], strict=False)) == core.HEARTBEAT_MS


def test_get_snapshot_and_get_hello_are_answered():
    desk = Desk(occupied=1)
    desk.firmware.boot()
    desk.messages()
    desk.pins.feed(codec.GetSnapshot().encode() + codec.GetHello().encode())
    messages = desk.run(0.001)
    assert [type(m) for m in messages] == [codec.SnapshotMessage, codec.Hello]
    assert messages[0].reason == wire.REASON_REQUEST
    assert messages[1].last_seq == messages[0].seq


def test_led_frames_are_acknowledged_and_blink_on_the_device():
    desk = Desk()
    desk.firmware.boot()
    desk.messages()
    frame = LedFrame.from_mapping(
        50, {1: LedPattern.ON, 2: LedPattern.SLOW_BLINK, 3: LedPattern.FAST_BLINK}
    )
    desk.pins.feed(codec.LedsMessage(7, frame).encode())
    assert codec.Ack(wire.LEDS, 7) in desk.run(0.001)
    seen = {1: set(), 2: set(), 3: set(), 4: set()}
    transitions = {2: 0, 3: 0}
    previous = set(desk.pins.lit())
    for _ in range(1000):  # one second
        desk.run(0.001)
        lit = desk.pins.lit()
        for square in seen:
            seen[square].add(square in lit)
        for square in transitions:
            transitions[square] += (square in lit) != (square in previous)
        previous = lit
    assert seen == {1: {True}, 2: {True, False}, 3: {True, False}, 4: {False}}
    assert transitions[2] in (1, 2) and transitions[3] in (7, 8)  # 1 Hz and 4 Hz


def test_a_led_frame_for_another_board_is_refused():
    desk = Desk()
    desk.firmware.boot()
    desk.messages()
    desk.pins.feed(codec.LedsMessage(1, LedFrame.from_mapping(32, {1: LedPattern.ON})).encode())
    messages = desk.run(0.001)
    assert codec.Nack(wire.LEDS, 1, wire.ERR_BAD_VALUE) in messages
    assert any(isinstance(m, codec.Error) for m in messages)
    assert desk.pins.lit() == set()


def test_a_corrupted_frame_from_the_host_is_nacked_and_the_next_one_served():
    desk = Desk()
    desk.firmware.boot()
    desk.messages()
    bad = bytearray(codec.LedsMessage(1, LedFrame.from_mapping(50, {1: 1})).encode())
    bad[-3] ^= 0x40
    desk.pins.feed(bytes(bad) + codec.GetSnapshot().encode())
    messages = desk.run(0.001)
    assert messages[0] == codec.Nack(0, 0, wire.ERR_BAD_CRC)
    assert isinstance(messages[1], codec.SnapshotMessage)
    assert desk.firmware.bad_frames_in == 1


def test_a_reset_is_a_new_boot_that_says_hello_with_a_new_boot_id():
    desk = Desk(occupied=0b1)
    desk.firmware.boot()
    desk.run(0.5)
    desk.firmware = core.Firmware(desk.pins, 10, desk.cells, boot_id=0x0777)
    desk.firmware.boot()
    hello, snapshot = desk.messages()
    assert (hello.boot, hello.last_seq) == (0x0777, 0)
    assert (snapshot.boot, snapshot.seq, snapshot.occupied) == (0x0777, 1, 0b1)


def test_uptime_survives_the_wrap_of_ticks_ms():
    desk = Desk(ticks_period=1 << 12, start=4.0)  # ticks wrap every 4.096 s
    desk.firmware.boot()
    desk.messages()
    desk.run(1.0, step=0.01)
    assert 990 <= desk.firmware.uptime_ms() <= 1010


@pytest.mark.parametrize("name", ["wire.py", "core.py", "main.py"])
def test_firmware_sources_stay_within_micropython(name):
    tree = ast.parse((FIRMWARE_DIR / name).read_text())
    banned_modules = {"dataclasses", "typing", "__future__", "enum", "abc"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not {a.name for a in node.names} & banned_modules
        if isinstance(node, ast.ImportFrom):
            assert node.module not in banned_modules
        assert not isinstance(node, ast.AnnAssign | ast.JoinedStr | ast.Match)
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None
            assert all(a.annotation is None for a in node.args.args)
