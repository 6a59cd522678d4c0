"""The Pico firmware under real MicroPython (its WebAssembly build, run by Node.js).

The codec's vectors pass under both interpreters; the whole firmware (main.py's loop, its
CONFIG, its calls of machine, time, select and sys) boots, speaks the protocol and lights
LEDs on a simulated chip; recorded games replayed through it, over a clean and a faulty
line, record every move and no wrong one. Kept few and short: a MicroPython pass costs
about 0.3 ms here, so a replayed game costs about a third of its own length. The whole
game is marked slow (left out by ``bash scripts/test.sh --fast``).
"""

import json
import pathlib

import pytest

from devtools.pico_sim.device import (
    HARNESS,
    PICO_DIODES,
    MicroPythonDevice,
    flash_image,
    run_script,
    runtime_problem,
)
from draughtsboard.board.ports import LedFrame, LedPattern
from draughtsboard.board.replay import replay_game
from draughtsboard.board.rules import board_geometry, get_variant
from draughtsboard.firmware_bridge import codec
from draughtsboard.firmware_bridge.fakepins import StaticSwitches
from draughtsboard.firmware_bridge.firmware import wire
from draughtsboard.firmware_bridge.virtual import EmulatedVirtualBoard
from draughtsboard.hardware.virtual import simulated_switches

from . import wire_vectors_check
from .test_replay import recorded_game

DATA = pathlib.Path(__file__).parents[1] / "data"
VECTORS = json.loads((DATA / "wire-vectors.json").read_text())

needs_micropython = pytest.mark.skipif(
    runtime_problem() is not None, reason=str(runtime_problem())
)


def test_the_wire_vectors_pass_under_cpython():
    assert wire_vectors_check.check(VECTORS, wire) == []


def test_a_wrong_vector_is_reported():
    broken = json.loads(json.dumps(VECTORS))
    broken["crc"][0][1] ^= 1
    broken["frames"][0][2] = broken["frames"][1][2]
    failures = wire_vectors_check.check(broken, wire)
    assert len(failures) == 4 and failures[0].startswith("crc16 ")


@needs_micropython
def test_the_wire_vectors_pass_under_micropython():
    source = (pathlib.Path(wire_vectors_check.__file__).read_text())
    output = run_script(f"VECTORS = {VECTORS!r}\n{source}")
    assert json.loads(output.strip().splitlines()[-1]) == []


@needs_micropython
def test_the_stand_ins_wrap_their_ticks_bark_and_read_the_matrix_as_a_pico_does():
    check = pathlib.Path(__file__).with_name("pico_shim_check.py").read_text()
    output = run_script(check, modules=HARNESS)
    found = json.loads(output.strip().splitlines()[-1])
    assert found == {"ticks_alloc": 0, "ticks_wrapped": [True, 100], "watchdog": "watchdog",
                     "column": [1, 0]}


class Desk:
    """The firmware under MicroPython on a hand-set clock, its output decoded."""

    def __init__(self, variant="russian", occupied=0b1011, **options):
        self.now = 0.0
        self.switches = StaticSwitches(occupied)
        board = get_variant(variant).geometry
        self.device = MicroPythonDevice(board, self.switches, lambda: self.now, **options)
        self.decoder = codec.FrameDecoder()
        self.raw = bytearray()  # every byte the chip wrote
        self.device.power_on()

    def run(self, seconds, step=0.001):
        """Step the chip for ``seconds``; the messages it sent meanwhile."""
        out = []
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.now += step
            self.device.step()
            data = self.device.take()
            self.raw += data
            out += self.decoder.feed(data)
        return out


@pytest.fixture
def desk():
    desks = []

    def make(*args, **kwargs):
        desks.append(Desk(*args, **kwargs))
        return desks[-1]

    yield make
    for made in desks:
        made.device.close()


@needs_micropython
def test_the_firmware_boots_speaks_and_lights_leds_under_micropython(desk):
    board = desk("russian", occupied=0b1011)
    messages = board.run(0.02)
    hello = next(m for m in messages if isinstance(m, codec.Hello))
    assert (hello.board_size, hello.square_count, hello.rows, hello.cols) == (8, 32, 8, 4)
    first = next(m for m in messages if isinstance(m, codec.SnapshotMessage))
    assert (first.reason, first.occupied) == (wire.REASON_BOOT, 0b1011)

    board.switches.place(21)  # a piece put down: a change snapshot after the debounce
    changed = [m for m in board.run(0.05)
               if isinstance(m, codec.SnapshotMessage) and m.reason == wire.REASON_CHANGE]
    assert changed and changed[0].occupied == 0b1011 | 1 << 20

    frame = LedFrame.from_mapping(32, {1: LedPattern.ON, 17: LedPattern.ON, 32: LedPattern.ON})
    board.device.feed(codec.LedsMessage(1, frame).encode())
    assert codec.Ack(wire.LEDS, 1) in board.run(0.01)
    assert board.device.lit() == {1, 17, 32}  # read back from the 74HC595 chain's outputs
    assert board.device.events == ["boot"] and not board.device.halted


@needs_micropython
def test_switch_diodes_turned_against_the_firmware_read_no_piece(desk):
    """The board is wired, diode for diode: turned the other way, no closed switch reaches
    its column, as on a real matrix."""
    other = {"anode-to-row": "cathode-to-row", "cathode-to-row": "anode-to-row"}
    board = desk("russian", occupied=0b1011, diodes=other[PICO_DIODES])
    first = next(m for m in board.run(0.02) if isinstance(m, codec.SnapshotMessage))
    assert first.occupied == 0


@needs_micropython
def test_a_reset_is_a_new_boot_with_a_new_id(desk):
    board = desk("international", occupied=1 << 49)
    before = next(m for m in board.run(0.01) if isinstance(m, codec.Hello))
    board.device.reset()
    after = next(m for m in board.run(0.01) if isinstance(m, codec.Hello))
    assert after.boot != before.boot and after.square_count == 50
    assert board.device.events == ["boot", "reboot:reset", "boot"]


@needs_micropython
def test_an_exception_in_the_firmware_resets_the_chip_and_says_why(desk):
    board = desk("russian", debounce_scans=0)  # no debounce history: fails at boot
    messages = board.run(0.01)
    errors = [m for m in messages if isinstance(m, codec.Error)]
    assert errors and errors[0].code == wire.ERROR_INTERNAL
    assert board.device.events[:3] == ["boot", "reboot:reset", "boot"]
    assert not board.device.halted


@needs_micropython
def test_the_service_pin_held_at_power_on_leaves_the_chip_to_its_repl(desk):
    service_pin = flash_image(board_geometry(8)).config["service_pin"]
    board = desk("russian", inputs={service_pin: 0})
    board.run(0.01)
    assert board.device.halted and board.device.events == ["boot", "halted"]
    assert b"service mode" in board.raw  # printed on the USB serial line
    assert not codec.FrameDecoder().feed(bytes(board.raw))  # and no frame


def test_a_setting_main_py_does_not_have_is_refused():
    with pytest.raises(ValueError, match="no setting 'scan_hz'"):
        flash_image(board_geometry(8), scan_hz=100)


def micropython_board(fault_rate, seed):
    def open_board(position):
        board = position.variant.geometry
        switches = simulated_switches(board, position.occupancy())
        return EmulatedVirtualBoard(board, switches, fault_rate=fault_rate, seed=seed,
                                    device_factory=MicroPythonDevice)
    return open_board


@pytest.mark.slow
@needs_micropython
@pytest.mark.parametrize("fault_rate", [0.0, 0.02])
def test_a_recorded_game_through_micropython_records_every_move(fault_rate):
    """The first twelve plies of a championship game (two captures among them)."""
    start, moves = recorded_game("russian-ussr-championship-part1.pdn", "russian", 15)
    report = replay_game("ussr 15", start, moves[:12], micropython_board(fault_rate, 1),
                         noise_seed=1, wait_until_ready=10.0)
    assert (report.wrong, report.missing, report.false_alarms, report.notes) == (0, 0, 0, [])
    assert report.recorded == 12


@pytest.mark.slow
@needs_micropython
@pytest.mark.parametrize("fault_rate", [0.0, 0.02])
def test_a_whole_recorded_game_through_micropython(fault_rate):
    """A whole Russian game (about 40 s here). The 10x10 game of the world championship
    takes four times as long, too long for the suite: `benchmarks/firmware_micropython.py
    --fault-rate R` plays it and counts its wrong and missing moves."""
    file, number = "russian-ussr-championship-part1.pdn", 15
    start, moves = recorded_game(file, "russian", number)
    report = replay_game(f"{file} {number}", start, moves, micropython_board(fault_rate, 3),
                         noise_seed=3, wait_until_ready=10.0)
    assert (report.wrong, report.missing, report.false_alarms) == (0, 0, 0)
    assert report.recorded == len(moves)
