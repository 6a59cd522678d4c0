"""Config files: the shipped examples load, and every mistake gets one clear line."""

from __future__ import annotations

import textwrap

import pytest

from draughtsboard.board.rules import get_variant
from draughtsboard.board.rules.geometry import Numbering, board_geometry
from draughtsboard.hardware.config import ConfigError, builtin_config, load_config, parse_config
from draughtsboard.hardware.layout import CORNERS, LINES, corner_map

GOOD = textwrap.dedent("""
    [board]
    size = 8
    numbering = "top-left"

    [matrix]
    rows = [5, 6, 12, 13, 16, 19, 20, 21]
    columns = [22, 23, 24, 25]
    polarity = "active-low"

    [leds]
    driver = "shift-register"
    interface = "bitbang"
    data = 10
    clock = 11
    latch = 8
    enable = 18

    [buttons]
    hint = 26
""")


def problems(text: str) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, "board.toml")
    error = caught.value
    assert isinstance(error, ValueError)
    assert all("\n" not in p for p in error.problems)
    assert str(error).splitlines() == [f"board.toml: {p}" for p in error.problems]
    return error.problems


@pytest.mark.parametrize("variant", ["russian", "international", "lasca", "column",
                                     "column-7x7"])
def test_a_reference_wiring_is_shipped_for_every_game_s_board(variant):
    board = get_variant(variant).geometry
    config = builtin_config(board)
    assert config.geometry is board and config.square_count == board.square_count


def test_a_config_names_its_board_and_not_a_game():
    config = parse_config(GOOD)
    assert config.geometry is board_geometry(8) and config.board == "8x8"
    other = parse_config(GOOD.replace('"top-left"', '"bottom-left"'))
    assert other.geometry.numbering is Numbering.FROM_BOTTOM_LEFT
    assert other.board == "8x8-bottom-left"
    usual = parse_config(GOOD.replace('numbering = "top-left"\n', ""))
    assert usual.geometry is board_geometry(8)
    assert problems(GOOD.replace("size = 8", 'size = 8\nvariant = "russian"'))[0].startswith(
        "board.variant: a board config names its board, not a game: write size and "
        "numbering")


def test_a_good_file_loads(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(GOOD)
    config = load_config(path)
    assert config.matrix.rows == (5, 6, 12, 13, 16, 19, 20, 21)
    assert config.matrix.active_low and config.matrix.debounce == 3
    assert config.matrix.scan_rate == 100 and config.matrix.settle_us == 30
    assert config.matrix.squares[0] == (1, 2, 3, 4)
    assert config.leds.interface == "bitbang" and config.leds.order[:3] == (1, 2, 3)
    assert config.leds.enable == 18
    assert dict(config.buttons) == {"hint": 26}


def test_a_pin_used_twice():
    assert problems(GOOD.replace("enable = 18", "enable = 22")) == [
        "leds.enable: pin 22 is already used by matrix.columns[0]"]


def test_spi_holds_the_pins_the_chain_does_not_use():
    """With SPI enabled the kernel holds BCM 7-11: 7 (CE1) and 9 (MISO) cannot be rows."""
    rows = "rows = [5, 6, 12, 13, 16, 19, 20, 21]"
    text = GOOD.replace('"bitbang"', '"spi"').replace(rows, "rows = [2, 3, 4, 5, 6, 7, 9, 13]")
    assert problems(text) == [
        "SPI0 MISO (held by the kernel while SPI is enabled for the LED chain): pin 9 is "
        "already used by matrix.rows[6]",
        "SPI0 CE1 (held by the kernel while SPI is enabled for the LED chain): pin 7 is "
        "already used by matrix.rows[5]",
    ]
    # bit-banged, the same pins are plain GPIO
    assert parse_config(text.replace('"spi"', '"bitbang"')).matrix.rows[5] == 7


def test_parts_nothing_uses_are_refused_with_the_reason():
    text = GOOD.replace("hint = 26", "hint = 26\nclock = 17") + "\n[buzzer]\npin = 4\n"
    assert problems(text) == [
        "[buzzer]: nothing sounds a buzzer yet: leave it off the board and the config",
        "buttons.clock: no such button (known: hint, ask); nothing listens to a clock or confirm "
        "button yet",
    ]


def test_the_gpio_matrix_leds_are_gone_with_a_pointer_to_the_chain():
    text = GOOD[:GOOD.index("[leds]")] + '[leds]\ndriver = "gpio-matrix"\n'
    assert problems(text) == [
        "leds.driver: 'gpio-matrix' is gone: a matrix refreshed by a Python thread flickers "
        "while the engine thinks; wire a 74HCT595 chain (docs/building.md)"]


def test_the_settle_time_is_bounded():
    text = GOOD.replace('polarity = "active-low"', "settle_us = 5000")
    assert problems(text) == ["matrix.settle_us: must be 0-1000 microseconds, got 5000"]


def test_a_count_that_does_not_match_the_board():
    text = GOOD.replace("19, 20, 21]", "19, 20]")
    assert problems(text) == ["matrix.rows: 7 pins given, the 8x8 board needs 8"]


def test_a_size_that_is_no_board_and_wiring_for_another_size():
    assert problems(GOOD.replace("size = 8", "size = 9")) == [
        "board.size: 9 is no board here (one of 7, 8, 10)"]
    assert problems(GOOD.replace("size = 8", "size = 10"))[0] == \
        "matrix.rows: 8 pins given, the 10x10 board needs 10"


def test_an_unknown_driver():
    assert problems(GOOD.replace('"shift-register"', '"ws2812"')) == [
        "leds.driver: unknown driver 'ws2812' (known: none, shift-register)"]


def test_a_pin_outside_the_bcm_range():
    assert problems(GOOD.replace("hint = 26", "hint = 40")) == [
        "buttons.hint: 40 is not a BCM pin (0-27)"]


def test_a_missing_key():
    assert problems(GOOD.replace("columns = [22, 23, 24, 25]\n", "")) == [
        "matrix.columns: required key is missing"]


def test_a_missing_section():
    text = '[board]\nsize = 8\n' + GOOD[GOOD.index("[leds]"):]
    assert problems(text) == ["[matrix]: required section is missing"]


def test_an_unknown_numbering_and_polarity():
    assert problems(GOOD.replace('"top-left"', '"spiral"')) == [
        "board.numbering: unknown numbering 'spiral' (known: top-left, bottom-left)"]
    assert problems(GOOD.replace('"active-low"', '"low"')) == [
        "matrix.polarity: unknown polarity 'low' (known: active-low, active-high)"]


def test_wrong_types_and_values():
    text = GOOD.replace('polarity = "active-low"', 'debounce = 0\nscan_rate = "fast"')
    assert problems(text) == [
        "matrix.debounce: must be positive, got 0",
        "matrix.scan_rate: must be int/float, got 'fast'",
    ]


def test_every_problem_is_reported_at_once():
    text = (GOOD.replace("hint = 26", "hint = 99")
                .replace('"shift-register"', '"neopixel"')
                .replace("columns = [22, 23, 24, 25]", "columns = [22, 23, 24]"))
    assert problems(text) == [
        "matrix.columns: 3 pins given, the 8x8 board needs 4",
        "leds.driver: unknown driver 'neopixel' (known: none, shift-register)",
        "buttons.hint: 99 is not a BCM pin (0-27)",
    ]


def test_not_toml_and_unreadable_files(tmp_path):
    assert problems("[board\n")[0].startswith("not valid TOML:")
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "nowhere.toml")
    assert caught.value.problems == ["cannot read: No such file or directory"]


def test_an_explicit_matrix_map_is_checked():
    good = [[4, 3, 2, 1], [8, 7, 6, 5]] + [[4 * r + 4 - c for c in range(4)] for r in range(2, 8)]
    text = GOOD.replace('polarity = "active-low"', f"squares = {good}")
    assert parse_config(text).matrix.squares[0] == (4, 3, 2, 1)
    bad = [row[:] for row in good]
    bad[1][0] = 4
    text = GOOD.replace('polarity = "active-low"', f"squares = {bad}")
    assert problems(text) == [
        "matrix.squares: square 4 appears at (0, 0) and (1, 0)",
        "matrix.squares: squares [8] have no switch",
    ]


@pytest.mark.parametrize("size", [8, 10, 7])
@pytest.mark.parametrize("origin", CORNERS)
@pytest.mark.parametrize("rows_along", LINES)
def test_every_wiring_orientation_covers_the_board_once(size, origin, rows_along):
    geometry = board_geometry(size)
    table = corner_map(geometry, origin, rows_along)
    squares = sorted(s for row in table for s in row if s)
    assert squares == list(geometry.numbers)


def test_a_rotated_wiring_starts_at_its_corner():
    geometry = board_geometry(8)
    assert corner_map(geometry, "top-left", "ranks")[0] == (1, 2, 3, 4)
    assert corner_map(geometry, "bottom-right", "ranks")[0] == (32, 31, 30, 29)
    lasca = board_geometry(7)
    assert corner_map(lasca, "bottom-left", "files")[0] == (1, 8, 15, 22)


def test_toml_that_tomllib_refuses_in_other_ways_is_still_a_config_error():
    # Found by benchmarks/fuzz_inputs.py: these escaped as ValueError and RecursionError.
    for text in ["size = 1" + "0" * 5000 + "\n", "rows = " + "[" * 5000 + "]" * 5000 + "\n"]:
        with pytest.raises(ConfigError, match="not valid TOML"):
            parse_config(text, "fuzz.toml")
def test_the_irregularity_policy_and_its_leds_are_read_and_checked():
    from draughtsboard.hardware.config import ConfigError, builtin_config, parse_config

    base = builtin_config(board_geometry(8))
    assert (base.irregular, base.irregularity_leds) == (None, True)
    from importlib import resources

    text = resources.files("draughtsboard.hardware").joinpath("configs/8x8.toml").read_text()
    config = parse_config(text + '\n[irregularities]\npolicy = "restore"\nboard_leds = false\n')
    assert (config.irregular, config.irregularity_leds) == ("restore", False)
    with pytest.raises(ConfigError, match="irregularities.policy: unknown policy 'lenient'"):
        parse_config(text + '\n[irregularities]\npolicy = "lenient"\n')
    with pytest.raises(ConfigError, match="irregularities.board_leds"):
        parse_config(text + '\n[irregularities]\nboard_leds = "no"\n')
