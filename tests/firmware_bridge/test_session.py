"""The host's recovery rules, as scripted conversations on bytes with time passed in."""

import pytest

from draughtsboard.board.ports import LedFrame, LedPattern, Snapshot
from draughtsboard.firmware_bridge import codec
from draughtsboard.firmware_bridge.firmware import wire
from draughtsboard.firmware_bridge.session import HostSession, LinkState

BOOT = 0x1111
SQUARES = 32


def hello(boot=BOOT, last_seq=0, squares=SQUARES, protocol=wire.PROTOCOL_VERSION):
    return codec.Hello((1, 0, 0), 8, 8, 4, squares, boot, last_seq, 200, protocol).encode()


def snap(seq, occupied, boot=BOOT, reason=wire.REASON_CHANGE):
    return codec.SnapshotMessage(boot, seq, seq * 10, reason, SQUARES, occupied).encode()


def beat(last_seq, boot=BOOT):
    return codec.Heartbeat(boot, last_seq, 0).encode()


def decoded(frames):
    return [m for f in frames for m in codec.FrameDecoder().feed(f)]


@pytest.fixture
def session():
    return HostSession(SQUARES)


def up(session, occupied=0b1, now=0.0):
    """Connect, introduce the device and take its boot snapshot."""
    assert decoded(session.connected(now).send) == [codec.GetHello()]
    assert decoded(session.receive(hello(), now).send) == [codec.GetSnapshot()]
    assert session.receive(snap(1, occupied), now).publish == [Snapshot(occupied, now)]
    assert session.state is LinkState.UP


def test_the_first_snapshot_after_hello_is_published(session):
    up(session, 0b101)
    assert session.latest == Snapshot(0b101, 0.0)


def test_snapshots_before_hello_are_not_trusted(session):
    session.connected(0.0)
    actions = session.receive(snap(5, 0b1), 0.5)
    assert actions.publish == []
    assert decoded(actions.send) == [codec.GetHello()]


def test_changes_are_published_and_unchanged_periodic_snapshots_are_not(session):
    up(session)
    assert session.receive(snap(2, 0b11), 1.0).publish == [Snapshot(0b11, 1.0)]
    assert session.receive(snap(3, 0b11, reason=wire.REASON_PERIODIC), 2.0).publish == []


def test_a_duplicate_is_dropped_by_sequence_number(session):
    up(session)
    session.receive(snap(2, 0b11), 1.0)
    actions = session.receive(snap(2, 0b11) + snap(2, 0b11), 1.1)
    assert actions.publish == [] and session.stats.duplicates == 2


def test_an_old_snapshot_cannot_undo_a_newer_one(session):
    up(session)
    session.receive(snap(3, 0b111), 1.0)
    assert session.receive(snap(2, 0b11), 1.1).publish == []
    assert session.latest.occupied == 0b111


def test_a_gap_is_healed_by_the_full_snapshot_that_follows(session):
    up(session)
    actions = session.receive(snap(4, 0b1001), 1.0)
    assert actions.publish == [Snapshot(0b1001, 1.0)]
    assert session.stats.gaps == 1 and actions.send == []


def test_a_heartbeat_naming_a_lost_snapshot_asks_for_one(session):
    up(session)
    actions = session.receive(beat(2), 1.0)
    assert decoded(actions.send) == [codec.GetSnapshot()]
    assert session.stats.resyncs == 1
    # not answered: asked again after the resync interval (10 ms), not before
    assert session.tick(1.005).send == []
    assert session.receive(beat(2), 1.008).send == []
    assert decoded(session.tick(1.011).send) == [codec.GetSnapshot()]
    session.receive(snap(3, 0b11, reason=wire.REASON_REQUEST), 1.03)
    assert session.tick(1.1).send == [] and session.stats.resyncs == 1


def test_a_heartbeat_in_step_asks_nothing(session):
    up(session)
    assert session.receive(beat(1), 1.0).send == []


def test_hello_after_a_reset_resends_leds_and_takes_the_next_snapshot_as_truth(session):
    up(session, 0b1111)
    frame = LedFrame.from_mapping(SQUARES, {5: LedPattern.FAST_BLINK})
    session.show(frame, 1.0)
    session.receive(codec.Ack(wire.LEDS, 1).encode(), 1.0)
    session.receive(snap(9, 0b1110), 2.0)
    actions = session.receive(hello(boot=0x2222), 3.0)
    assert decoded(actions.send) == [codec.LedsMessage(1, frame), codec.GetSnapshot()]
    assert session.stats.device_resets == 1
    # seq 1 of the new boot is news, however small its number
    published = session.receive(snap(1, 0b0110, boot=0x2222, reason=wire.REASON_BOOT), 3.1)
    assert published.publish == [Snapshot(0b0110, 3.1)]


def test_a_reset_whose_hello_was_lost_is_noticed_from_the_boot_id(session):
    up(session)
    actions = session.receive(snap(1, 0b10, boot=0x3333), 1.0)
    assert actions.publish == [] and decoded(actions.send) == [codec.GetHello()]
    session.receive(hello(boot=0x3333, last_seq=1), 1.1)
    assert session.receive(snap(2, 0b10, boot=0x3333), 1.2).publish == [Snapshot(0b10, 1.2)]


def test_a_repeated_hello_of_the_same_boot_changes_nothing(session):
    up(session)
    session.receive(snap(2, 0b11), 1.0)
    actions = session.receive(hello(last_seq=2), 1.1)
    assert actions.send == [] and session.stats.device_resets == 0
    assert session.state is LinkState.UP


def test_silence_is_a_timeout_that_reopens_and_says_hello_again(session):
    up(session)
    assert not session.tick(0.9).reopen
    actions = session.tick(1.01)
    assert actions.reopen and session.stats.timeouts == 1
    assert decoded(session.connected(1.02).send) == [codec.GetHello()]
    # the same device answers: no reset, and the next newer snapshot is published
    session.receive(hello(last_seq=4), 1.1)
    assert session.stats.device_resets == 0
    assert session.receive(snap(5, 0b111), 1.2).publish == [Snapshot(0b111, 1.2)]


def test_unacknowledged_led_frames_are_repeated_until_acknowledged(session):
    up(session, now=1.0)
    frame = LedFrame.from_mapping(SQUARES, {1: LedPattern.ON})
    assert decoded(session.show(frame, 1.0).send) == [codec.LedsMessage(1, frame)]
    assert session.tick(1.1).send == []
    assert decoded(session.tick(1.26).send) == [codec.LedsMessage(1, frame)]
    session.receive(codec.Ack(wire.LEDS, 1).encode(), 1.3)
    assert session.tick(1.6).send == []
    assert session.leds_acknowledged and session.stats.led_retries == 1


def test_a_nack_resends_the_unacknowledged_frame_at_once(session):
    up(session)
    frame = LedFrame.from_mapping(SQUARES, {2: LedPattern.ON})
    session.show(frame, 1.0)
    actions = session.receive(codec.Nack(0, 0, wire.ERR_BAD_CRC).encode(), 1.01)
    assert decoded(actions.send) == [codec.LedsMessage(1, frame)]


def test_leds_shown_before_the_device_is_known_go_out_after_hello(session):
    session.connected(0.0)
    frame = LedFrame.from_mapping(SQUARES, {3: LedPattern.SLOW_BLINK})
    assert session.show(frame, 0.0).send == []
    assert codec.LedsMessage(1, frame) in decoded(session.receive(hello(), 0.1).send)


def test_a_frame_of_the_wrong_size_is_a_caller_error(session):
    with pytest.raises(ValueError, match="50 squares"):
        session.show(LedFrame.blank(50), 0.0)


def test_an_incompatible_device_is_reported_not_trusted(session):
    session.connected(0.0)
    session.receive(hello(squares=50), 0.1)
    assert session.incompatible is not None and session.state is LinkState.AWAIT_HELLO
    session.receive(hello(protocol=2), 0.2)
    assert "protocol 2" in str(session.incompatible)


def test_bad_frames_are_counted_never_fatal(session):
    up(session)
    session.receive(b"\x07\x01\x00garbage\x00" + bytes(300) + b"\xff" * 300, 1.0)
    assert session.stats.bad_frames and session.state is LinkState.UP


def test_own_frames_echoed_back_are_ignored(session):
    up(session)
    session.receive(codec.GetSnapshot().encode(), 1.0)
    assert session.stats.ignored == 1


def test_a_bad_frame_asks_for_a_snapshot_at_once_it_might_have_been_one(session):
    up(session, now=0.9)
    damaged = bytearray(snap(2, 0b11))
    damaged[3] ^= 0x10
    actions = session.receive(bytes(damaged), 1.0)
    assert decoded(actions.send) == [codec.GetSnapshot()] and session.stats.resyncs == 1
    # more damage within the resync interval asks nothing more; the tick asks again after it
    assert session.receive(bytes(damaged), 1.005).send == []
    assert decoded(session.tick(1.021).send) == [codec.GetSnapshot()]
    # a copy of the lost change (same seq) answers it as well as the requested snapshot
    assert session.receive(snap(2, 0b11), 1.03).publish == [Snapshot(0b11, 1.03)]
    assert session.tick(1.2).send == []


def test_copies_of_a_snapshot_already_taken_are_dropped(session):
    up(session)
    assert session.receive(snap(2, 0b11), 1.0).publish == [Snapshot(0b11, 1.0)]
    assert session.receive(snap(2, 0b11) + snap(2, 0b11), 1.01).publish == []
    assert session.stats.duplicates == 2 and session.stats.resyncs == 0


def test_a_nack_while_a_snapshot_is_owed_repeats_the_request_at_once(session):
    up(session)
    session.receive(beat(2), 1.0)
    actions = session.receive(codec.Nack(0, 0, wire.ERR_BAD_CRC).encode(), 1.002)
    assert decoded(actions.send) == [codec.GetSnapshot()]


def test_an_unknown_boot_asks_hello_again_soon_not_after_the_slow_retry(session):
    up(session)
    assert decoded(session.receive(beat(1, boot=0x3333), 1.0).send) == [codec.GetHello()]
    assert session.receive(beat(1, boot=0x3333), 1.005).send == []
    assert decoded(session.receive(beat(1, boot=0x3333), 1.02).send) == [codec.GetHello()]


def test_published_snapshots_never_go_back_in_sequence_or_time(session):
    up(session, now=1.0)
    session.receive(snap(5, 0b111), 2.0)
    for seq in (2, 3, 4, 5):
        assert session.receive(snap(seq, 0b1), 2.1).publish == []
    assert session.latest == Snapshot(0b111, 2.0)


def test_a_clock_stepping_back_cannot_publish_out_of_order(session):
    up(session, now=1.0)
    session.receive(snap(2, 0b11), 2.0)
    assert session.receive(snap(3, 0b111), 1.5).publish == [Snapshot(0b111, 2.0)]
