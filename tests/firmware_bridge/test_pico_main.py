"""The Pico's main.py under CPython, on stand-ins for its MicroPython modules: the wiring's
polarity, the settle time, the watchdog, writes that never block, reset on an exception
and the ways back to the REPL."""

from __future__ import annotations

import pytest

from draughtsboard.firmware_bridge import codec
from draughtsboard.firmware_bridge.firmware import core, wire

from .pico import WDT, Pico


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the service flag file lands here


def snapshots(data: bytes) -> list[codec.SnapshotMessage]:
    return [m for m in codec.FrameDecoder().feed(data) if isinstance(m, codec.SnapshotMessage)]


def test_the_matrix_is_active_low_with_pull_ups_and_idle_rows_high():
    pico = Pico()
    assert pico.run(5) == "running"
    for number in pico.column_pins:
        pin = pico.pin(number)
        assert (pin.mode, pin.pull) == (pin.IN, pin.PULL_UP)
    for number in pico.row_pins:
        assert (pico.pin(number).mode, pico.pin(number).value_) == (1, 1)  # idle: high


def test_a_closed_switch_pulling_its_column_low_is_seen_on_its_square():
    pico = Pico()
    pico.close_switch(0, 0)  # square 1 (b10)
    pico.close_switch(9, 4)  # square 50 (i1)
    pico.close_switch(4, 2)  # square 23 (f6)
    pico.run(20)
    latest = snapshots(pico.take())[-1]
    assert latest.occupied == (1 << 0) | (1 << 49) | (1 << 22)


def test_without_the_settle_time_the_previous_row_shows_as_a_ghost():
    """The rise time of a pulled-up column: read at once after selecting the next row,
    it still shows the switch of the row before (the fake columns take 15 us)."""
    settled, hasty = Pico(), Pico({"settle_us": 0})
    for pico in (settled, hasty):
        pico.close_switch(0, 1)  # square 2 only
        pico.run(20)
    assert snapshots(settled.take())[-1].occupied == 1 << 1
    assert snapshots(hasty.take())[-1].occupied == (1 << 1) | (1 << 6)  # ghost on square 7


def test_the_watchdog_starts_after_the_service_check_and_is_fed_every_pass():
    pico = Pico()
    pico.run(30)
    (watchdog,) = WDT.made
    assert watchdog.timeout == pico.config["watchdog_ms"]
    assert watchdog.feeds == 30
    assert pico.kbd_intr == -1


def test_a_host_that_stops_reading_loses_frames_not_the_scan():
    pico = Pico()
    pico.host_reading = False
    pico.close_switch(2, 2)
    assert pico.run(200) == "running"  # nothing blocked: 200 passes, the watchdog fed
    assert pico.take() == b""
    assert WDT.made[0].feeds == 200
    pico.host_reading = True
    pico.open_switch(2, 2)
    pico.run(100)
    assert snapshots(pico.take())  # a fresh boot reports again


def test_an_exception_in_the_loop_resets_the_device_after_saying_why():
    pico = Pico()
    pico.run(3)
    pico.take()
    original = pico.main.PicoHardware.read_columns
    calls = []

    def failing(self):
        calls.append(1)
        if len(calls) > 10:
            raise OSError(5, "EIO")
        return original(self)

    pico.main.PicoHardware.read_columns = failing
    try:
        assert pico.run(50) == "reset"
    finally:
        pico.main.PicoHardware.read_columns = original
    assert pico.resets == 1
    errors = [m for m in codec.FrameDecoder().feed(pico.take()) if isinstance(m, codec.Error)]
    assert errors and errors[-1].code == wire.ERROR_INTERNAL and "EIO" in errors[-1].text


def test_the_service_pin_held_at_power_on_leaves_the_repl_alone():
    pico = Pico()
    pico.board.service_held = True
    assert pico.run(10) == "returned"
    assert WDT.made == [] and pico.kbd_intr is None  # Ctrl-C works: mpremote gets in


def test_a_service_frame_resets_into_service_mode_once():
    pico = Pico()
    pico.feed(codec.Service(wire.SERVICE_REPL).encode())
    assert pico.run(10) == "reset"
    assert codec.Ack(wire.SERVICE, wire.SERVICE_REPL) in codec.FrameDecoder().feed(pico.take())
    assert pico.run(10) == "returned"  # the boot after the reset: service mode
    assert pico.run(10) == "running"  # and the one after that is a normal boot again


def test_a_service_frame_can_ask_for_the_usb_bootloader():
    pico = Pico()
    pico.feed(codec.Service(wire.SERVICE_BOOTLOADER).encode())
    assert pico.run(10) == "reset"
    assert pico.bootloaders == 1


def test_a_service_frame_without_its_magic_is_refused():
    body = bytes((wire.SERVICE_REPL,)) + b"XXXX"
    pico = Pico()
    pico.feed(wire.encode_frame(wire.SERVICE, body))
    assert pico.run(10) == "running"
    messages = codec.FrameDecoder().feed(pico.take())
    assert codec.Nack(wire.SERVICE, 0, wire.ERR_BAD_VALUE) in messages


def test_the_leds_stay_dark_until_the_first_frame_is_latched():
    pico = Pico()
    enable = pico.config["sr_enable"]
    pico.run(1)
    assert pico.pin(enable).value_ == 0  # after the first flush: outputs on
    fresh = Pico()
    hw = fresh.main.PicoHardware(fresh.config, 50)
    assert fresh.pin(enable).value_ == 1  # before: off (and pulled up in hardware)
    hw.flush_leds()
    assert fresh.pin(enable).value_ == 0


@pytest.mark.parametrize("size,from_top", [(8, True), (7, False)])
def test_smaller_boards_use_the_first_rows_and_columns(size, from_top):
    pico = Pico({"board_size": size, "from_top": from_top})
    pico.close_switch(size - 1, 0)
    pico.run(20)
    hello = next(m for m in codec.FrameDecoder().feed(pico.take()) if isinstance(m, codec.Hello))
    assert (hello.board_size, hello.rows, hello.cols) == (size, size, 4)
    assert len(core.matrix_map(size, from_top)) == hello.square_count
