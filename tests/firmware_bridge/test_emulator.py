"""The firmware, a damaged cable and the host together: the host's view of the board must
end up right, and must never show a board that never was."""

import random

import pytest

from draughtsboard.board.ports import LedFrame, LedPattern, mask_from_squares
from draughtsboard.board.rules.geometry import board_geometry
from draughtsboard.firmware_bridge.emulator import SocketEmulator, VirtualBench
from draughtsboard.firmware_bridge.faults import FaultyPipe
from draughtsboard.firmware_bridge.link import SerialLink
from draughtsboard.firmware_bridge.session import LinkState
from draughtsboard.hardware.virtual import simulated_switches

INTERNATIONAL_START = mask_from_squares(list(range(1, 21)) + list(range(31, 51)))
SETTLE = 2.5  # virtual seconds: a periodic snapshot (1 s) plus a retry or two


def random_play(bench, rng, changes, check_every=5):
    """Lift and place pieces at random, holding each state 20-300 ms; every few changes
    hold still and check that the host sees the board as it is."""
    switches = bench.switches
    for n in range(changes):
        occupied = [s for s in range(1, 51) if switches.occupied >> (s - 1) & 1]
        empty = [s for s in range(1, 51) if not switches.occupied >> (s - 1) & 1]
        if rng.random() < 0.5 and occupied:
            switches.lift(rng.choice(occupied))
        elif empty:
            switches.place(rng.choice(empty))
        bench.run(rng.uniform(0.02, 0.3))
        if n % check_every == check_every - 1:
            assert bench.run_until(lambda: bench.host_sees == switches.occupied, SETTLE)


def assert_host_saw_only_real_boards(bench):
    assert bench.published
    never_were = [s for s in bench.published if s.occupied not in bench.history]
    assert never_were == []
    times = [s.timestamp for s in bench.published]
    assert times == sorted(times)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_noisy_cable_neither_invents_nor_loses_a_board(seed):
    switches = simulated_switches(board_geometry(10), INTERNATIONAL_START)
    bench = VirtualBench(board_geometry(10), switches, fault_rate=0.02, seed=seed)
    random_play(bench, random.Random(seed), changes=80)
    assert bench.run_until(lambda: bench.host_sees == bench.switches.occupied, SETTLE)
    assert_host_saw_only_real_boards(bench)
    stats = bench.session.stats
    assert sum(stats.bad_frames.values()) > 0  # the faults did happen
    assert stats.device_resets == 0


def test_without_faults_every_change_is_published_in_order():
    switches = simulated_switches(board_geometry(10), INTERNATIONAL_START)
    bench = VirtualBench(board_geometry(10), switches)
    bench.run(0.05)
    states = [switches.occupied]
    for square, placed in [(32, False), (28, True), (19, False), (23, True), (33, False)]:
        switches.place(square) if placed else switches.lift(square)
        states.append(switches.occupied)
        bench.run(0.05)
    assert [s.occupied for s in bench.published] == states
    assert bench.session.stats.bad_frames == {}


def test_a_device_reset_in_the_middle_of_a_capture_recovers_the_right_board():
    # White 32 takes 27 and 18 in one capture, landing on 23 then 12... here simply:
    # lift the capturing piece, reset, land, remove the captured pieces.
    switches = simulated_switches(board_geometry(10), mask_from_squares([32, 27, 18, 5]))
    bench = VirtualBench(board_geometry(10), switches, fault_rate=0.02, seed=7)
    assert bench.run_until(lambda: bench.host_sees == switches.occupied, SETTLE)
    leds = LedFrame.from_mapping(50, {27: LedPattern.FAST_BLINK, 18: LedPattern.FAST_BLINK})
    bench.show(leds)
    switches.lift(32)
    bench.run(0.1)
    bench.reset_device()  # the watchdog bites mid-capture
    switches.place(12)
    bench.run(0.1)
    switches.lift(27)
    bench.run(0.1)
    switches.lift(18)
    assert bench.run_until(lambda: bench.host_sees == mask_from_squares([12, 5]), SETTLE)
    assert bench.session.stats.device_resets == 1
    assert_host_saw_only_real_boards(bench)
    # the LED frame was shown again after the reset, and the device blinks it
    assert bench.run_until(lambda: bench.session.leds_acknowledged, SETTLE)
    assert bench.device.firmware.nibbles[26] & 3 == LedPattern.FAST_BLINK


def test_a_reset_whose_boot_bytes_are_lost_is_still_recovered():
    switches = simulated_switches(board_geometry(8), 0b1)
    bench = VirtualBench(board_geometry(8), switches)
    bench.run(0.1)
    switches.occupied = 0b110
    bench.up.rate = 1.0  # the cable eats everything while the device reboots
    bench.up.kinds = ("drop",)
    bench.reset_device()
    bench.run(0.01)
    bench.up.rate = 0.0
    assert bench.run_until(lambda: bench.host_sees == 0b110, 3.0)
    assert bench.session.stats.device_resets == 1


def test_the_fault_pipe_is_reproducible_and_keeps_order_when_delaying():
    data = bytes(range(1, 256)) * 20
    outputs = []
    for _ in range(2):
        pipe = FaultyPipe(0.05, seed=4, kinds=("delay",), max_delay=0.01)
        pipe.push(data, 0.0)
        outputs.append(pipe.pull(0.0) + pipe.pull(10.0))
    assert outputs[0] == outputs[1] == data
    damaged = FaultyPipe(0.05, seed=4)
    damaged.push(data, 0.0)
    assert damaged.pull(10.0) != data and sum(damaged.faults.values()) > 0


def test_over_a_socket_with_faults_resets_and_an_unplugged_cable():
    switches = simulated_switches(board_geometry(10), INTERNATIONAL_START)
    states = {switches.occupied}
    with SocketEmulator(board_geometry(10), switches, fault_rate=0.02, seed=3) as emulator:
        with SerialLink(emulator.url, 50, backoff=(0.01, 0.05)) as link:
            seen = []

            def host_sees(occupied):
                def caught_up():
                    while (snapshot := link.read(timeout=0)) is not None:
                        seen.append(snapshot.occupied)
                    latest = link.latest()
                    return latest is not None and latest.occupied == occupied

                return link.wait_until(caught_up, 5.0)

            assert host_sees(switches.occupied)
            for step, square in enumerate([32, 33, 19, 20]):
                switches.lift(square)
                states.add(switches.occupied)
                if step == 1:
                    emulator.reset()
                if step == 2:
                    emulator.unplug()
                assert host_sees(switches.occupied)
            assert set(seen) <= states
            assert link.stats.device_resets == 1
            assert link.stats.reconnects >= 1
            assert link.state is LinkState.UP


def test_the_firmware_scans_the_simulated_boards_matrix_wiring_faults_and_all():
    """One model of the switch matrix: the emulated microcontroller drives the rows and
    reads the columns of the hardware layer's simulated board, so a reed stuck shut and a
    cut row wire are the same faults to it as to the Pi's drivers."""
    from draughtsboard.hardware.config import builtin_config
    from draughtsboard.hardware.simulation import SimulatedBoard, WiringFault

    board = board_geometry(8)
    faults = [WiringFault.parse("stuck:17"), WiringFault.parse("row:0:open")]
    switches = SimulatedBoard(builtin_config(board), occupied=[1, 2, 5, 32], faults=faults)
    bench = VirtualBench(board, switches)
    # row 0 holds squares 1-4: cut, they read open; 17 reads closed with nothing on it
    assert bench.run_until(lambda: bench.host_sees == mask_from_squares([5, 17, 32]), SETTLE)
