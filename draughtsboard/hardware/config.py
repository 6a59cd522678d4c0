"""The board's wiring as a TOML file: read, checked, and turned into frozen values.

A config describes a board, not a game: its geometry (``[board]``: ``size`` and
``numbering``) and its wiring (``[matrix]``, ``[leds]`` ...). The same 8x8 wood plays
Russian and Russian column draughts; which game is played is ``play --variant``'s choice.

A wrong config on a Pi must cost the builder one look, not a debugging session, so every
problem is collected (not just the first) and reported as one line naming its key; nothing
here raises anything but :class:`ConfigError`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from draughtsboard.board.rules.geometry import (
    USUAL_NUMBERING,
    Geometry,
    Numbering,
    board_geometry,
    board_name,
)

from .layout import CORNERS, LINES, MatrixMap, check_map, corner_map, matrix_shape

BCM_PINS = range(0, 28)
LED_DRIVERS = ("none", "shift-register")
SHIFT_INTERFACES = ("bitbang", "spi")
BUTTONS = ("hint", "ask")  # the buttons something listens to (docs/hardware.md)
# SPI0 as the LED chain uses it: with SPI enabled the kernel holds all five pins, so the
# two the chain does not use (MISO, CE1) cannot be matrix rows or buttons either.
SPI0 = {"clock": 11, "data": 10, "miso": 9, "ce0": 8, "ce1": 7}
POLARITIES = ("active-low", "active-high")
IRREGULARITY_POLICIES = ("fmjd", "restore")  # draughtsboard.board.tracker.policy


class ConfigError(ValueError):
    """A board config that cannot be used; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str], source: str = "config") -> None:
        self.problems = list(problems)
        self.source = source
        super().__init__("\n".join(f"{source}: {p}" for p in self.problems))


@dataclass(frozen=True)
class MatrixConfig:
    """The reed-switch matrix: rows driven, columns read."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    squares: MatrixMap
    active_low: bool = True
    debounce: int = 3
    scan_rate: float = 100.0
    settle_us: int = 30  # after selecting a row, before reading the columns (real pins only)


@dataclass(frozen=True)
class LedConfig:
    """The LED driver. ``order[k]`` is the square on shift-register output ``k`` (0 = none).

    ``enable`` is the pin on the chain's OE (active low, pulled up on the board): the
    outputs stay off until the first frame is latched, so a board never lights random
    LEDs while the Pi boots."""

    driver: str = "none"
    interface: str = "spi"
    data: int | None = None
    clock: int | None = None
    latch: int | None = None
    order: tuple[int, ...] = ()
    active_high: bool = True
    enable: int | None = None


@dataclass(frozen=True)
class BoardConfig:
    """A checked board config: the board's geometry, the switch matrix, the LEDs, buzzer
    and buttons."""
    geometry: Geometry
    matrix: MatrixConfig
    leds: LedConfig = field(default_factory=LedConfig)
    buttons: tuple[tuple[str, int], ...] = ()
    source: str = "config"
    # [irregularities]: the policy (fmjd or restore; None: the variant's) and whether a
    # flagged irregularity lights the board in tournament mode (the organiser's choice)
    irregular: str | None = None
    irregularity_leds: bool = True

    @property
    def size(self) -> int:
        return self.geometry.size

    @property
    def square_count(self) -> int:
        return self.geometry.square_count

    @property
    def board(self) -> str:
        """The board's name (``8x8``, `board_name`)."""
        return board_name(self.geometry)


def load_config(path: str | Path) -> BoardConfig:
    """Read and check a config file; ConfigError (one line per problem) on any failure."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # the BOM some editors write
    except OSError as error:
        raise ConfigError([f"cannot read: {error.strerror or error}"], source) from None
    except UnicodeDecodeError as error:
        raise ConfigError([f"not UTF-8 text: {error.reason} at byte {error.start}"],
                          source) from None
    return parse_config(text, source)


def parse_config(text: str, source: str = "config") -> BoardConfig:
    """Read and check config text; `ConfigError` (one line per problem) on any failure."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError([f"not valid TOML: {error}"], source) from None
    except RecursionError:  # arrays nested thousands deep
        raise ConfigError(["not valid TOML: nested too deeply"], source) from None
    except ValueError as error:  # tomllib's own checks, e.g. an integer of 5,000 digits
        raise ConfigError([f"not valid TOML: {str(error).split(';')[0]}"], source) from None
    return config_from_dict(data, source)


def builtin_config(board: Geometry) -> BoardConfig:
    """The reference wiring shipped for a board (``configs/8x8.toml`` ...), numbered as
    ``board`` is."""
    name = f"{board.size}x{board.size}"
    path = f"configs/{name}.toml"
    try:
        text = resources.files("draughtsboard.hardware").joinpath(path).read_text()
    except FileNotFoundError:
        raise ConfigError([f"no reference wiring for a {board_name(board)} board"],
                          "builtin") from None
    data = tomllib.loads(text)
    data["board"] = {**data["board"], "numbering": board.numbering.value}
    return config_from_dict(data, path)


# -- reading ----------------------------------------------------------------------------

_MISSING = object()


class _Reader:
    """Reads keys with types, collecting problems instead of raising."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.problems: list[str] = []
        self.pins: dict[int, str] = {}

    def section(self, name: str, required: bool = True) -> dict[str, Any] | None:
        value = self.data.get(name, _MISSING)
        if value is _MISSING:
            if required:
                self.problems.append(f"[{name}]: required section is missing")
            return None
        if not isinstance(value, dict):
            self.problems.append(f"{name}: must be a table [{name}]")
            return None
        return value

    def get(self, table: dict, where: str, key: str, kind: type | tuple, default=_MISSING):
        value = table.get(key, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                self.problems.append(f"{where}.{key}: required key is missing")
                return None
            return default
        if isinstance(value, bool) and kind in (int, float, (int, float)):
            self.problems.append(f"{where}.{key}: must be a number, got {value!r}")
            return None
        if not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            self.problems.append(f"{where}.{key}: must be {names}, got {value!r}")
            return None
        return value

    def choice(self, table: dict, where: str, key: str, known: tuple[str, ...], default=_MISSING,
               what: str = "value"):
        value = self.get(table, where, key, str, default)
        if value is not None and value not in known:
            self.problems.append(
                f"{where}.{key}: unknown {what} {value!r} (known: {', '.join(known)})")
            return None
        return value

    def pin(self, table: dict, where: str, key: str, required: bool = True) -> int | None:
        value = self.get(table, where, key, int, _MISSING if required else None)
        if value is None:
            return None
        return self.claim(value, f"{where}.{key}")

    def pin_list(self, table: dict, where: str, key: str, count: int, what: str) -> tuple[int, ...]:
        value = self.get(table, where, key, list)
        if value is None:
            return ()
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in value):
            self.problems.append(f"{where}.{key}: must be a list of BCM pin numbers")
            return ()
        if len(value) != count:
            self.problems.append(
                f"{where}.{key}: {len(value)} pins given, {what} needs {count}")
        for i, pin in enumerate(value):
            self.claim(pin, f"{where}.{key}[{i}]")
        return tuple(value)

    def claim(self, pin: int, name: str) -> int | None:
        if pin not in BCM_PINS:
            self.problems.append(
                f"{name}: {pin} is not a BCM pin ({BCM_PINS[0]}-{BCM_PINS[-1]})")
            return None
        if pin in self.pins:
            self.problems.append(f"{name}: pin {pin} is already used by {self.pins[pin]}")
            return None
        self.pins[pin] = name
        return pin

    def positive(self, table: dict, where: str, key: str, kind, default):
        value = self.get(table, where, key, kind, default)
        if value is not None and value <= 0:
            self.problems.append(f"{where}.{key}: must be positive, got {value!r}")
            return None
        return value


def _square_map(reader: _Reader, table: dict, where: str, geometry, default_origin: str,
                default_rows_along: str) -> MatrixMap:
    """An explicit ``squares`` table, or the map of ``origin`` and ``rows_along``."""
    rows, columns = matrix_shape(geometry.size)
    explicit = table.get("squares")
    if explicit is not None:
        if not (isinstance(explicit, list)
                and all(isinstance(row, list) and all(isinstance(s, int) for s in row)
                        for row in explicit)):
            reader.problems.append(f"{where}.squares: must be a list of lists of square numbers")
            return ()
        if len(explicit) != rows or any(len(row) != columns for row in explicit):
            reader.problems.append(
                f"{where}.squares: must be {rows} rows of {columns} square numbers "
                f"(0 where a row is shorter)")
            return ()
        for problem in check_map(tuple(map(tuple, explicit)), geometry.square_count):
            reader.problems.append(f"{where}.squares: {problem}")
        return tuple(tuple(row) for row in explicit)
    origin = reader.choice(table, where, "origin", CORNERS, default_origin, "corner")
    rows_along = reader.choice(table, where, "rows_along", LINES, default_rows_along, "line")
    if origin is None or rows_along is None:
        return ()
    return corner_map(geometry, origin, rows_along)


def config_from_dict(data: dict[str, Any], source: str = "config") -> BoardConfig:
    """Check a parsed TOML document and build the config; ConfigError lists every problem."""
    reader = _Reader(data)
    board = reader.section("board")
    geometry = _geometry(reader, board) if board is not None else None
    matrix_table = reader.section("matrix")
    matrix = None
    default_origin = "top-left"
    if geometry is not None and geometry.number_at(0, 0) == 1:
        default_origin = "bottom-left"
    if matrix_table is not None and geometry is not None:
        n_rows, n_columns = matrix_shape(geometry.size)
        board_name = f"the {geometry.size}x{geometry.size} board"
        rows = reader.pin_list(matrix_table, "matrix", "rows", n_rows, board_name)
        columns = reader.pin_list(matrix_table, "matrix", "columns", n_columns, board_name)
        polarity = reader.choice(matrix_table, "matrix", "polarity", POLARITIES, "active-low",
                                 "polarity")
        squares = _square_map(reader, matrix_table, "matrix", geometry, default_origin, "ranks")
        debounce = reader.positive(matrix_table, "matrix", "debounce", int, 3)
        scan_rate = reader.positive(matrix_table, "matrix", "scan_rate", (int, float), 100.0)
        settle = reader.get(matrix_table, "matrix", "settle_us", int, 30)
        if settle is not None and not 0 <= settle <= 1000:
            reader.problems.append(f"matrix.settle_us: must be 0-1000 microseconds, got {settle}")
            settle = None
        matrix = MatrixConfig(rows, columns, squares, polarity != "active-high",
                              debounce or 3, float(scan_rate or 100.0),
                              30 if settle is None else settle)
    leds = LedConfig()
    leds_table = reader.section("leds", required=False)
    if leds_table is not None and geometry is not None:
        leds = _leds(reader, leds_table, geometry, default_origin)
    if reader.section("buzzer", required=False) is not None:
        reader.problems.append("[buzzer]: nothing sounds a buzzer yet: leave it off the board "
                               "and the config")
    buttons: list[tuple[str, int]] = []
    buttons_table = reader.section("buttons", required=False)
    if buttons_table is not None:
        for name in buttons_table:
            if name not in BUTTONS:
                reader.problems.append(
                    f"buttons.{name}: no such button (known: {', '.join(BUTTONS)}); nothing "
                    "listens to a clock or confirm button yet")
                continue
            pin = reader.pin(buttons_table, "buttons", name)
            if pin is not None:
                buttons.append((name, pin))
    irregular, irregularity_leds = None, True
    irregular_table = reader.section("irregularities", required=False)
    if irregular_table is not None:
        irregular = reader.choice(irregular_table, "irregularities", "policy",
                                  IRREGULARITY_POLICIES, None, "policy")
        irregularity_leds = reader.get(irregular_table, "irregularities", "board_leds", bool,
                                       True)
    if reader.problems:
        raise ConfigError(reader.problems, source)
    assert geometry is not None and matrix is not None
    return BoardConfig(geometry, matrix, leds, tuple(buttons), source,
                       irregular, True if irregularity_leds is None else irregularity_leds)


def _geometry(reader: _Reader, board: dict) -> Geometry | None:
    """``[board]``: ``size`` (7, 8 or 10) and ``numbering`` (where square 1 is; default the
    usual one for the size). A config from before names a game instead (``variant``):
    refused with what to write."""
    if "variant" in board:
        reader.problems.append(
            "board.variant: a board config names its board, not a game: write size and "
            "numbering (e.g. size = 8, numbering = \"top-left\") and choose the game with "
            "play --variant")
        return None
    size = reader.get(board, "board", "size", int)
    if size is None:
        return None
    if size not in USUAL_NUMBERING:
        sizes = ", ".join(str(n) for n in sorted(USUAL_NUMBERING))
        reader.problems.append(f"board.size: {size} is no board here (one of {sizes})")
        return None
    numbering = reader.choice(board, "board", "numbering", tuple(n.value for n in Numbering),
                              USUAL_NUMBERING[size].value, "numbering")
    if numbering is None:
        return None
    return board_geometry(size, numbering)


def _leds(reader: _Reader, table: dict, geometry, default_origin: str) -> LedConfig:
    if table.get("driver") == "gpio-matrix":
        reader.problems.append(
            "leds.driver: 'gpio-matrix' is gone: a matrix refreshed by a Python thread "
            "flickers while the engine thinks; wire a 74HCT595 chain (docs/building.md)")
        return LedConfig()
    driver = reader.choice(table, "leds", "driver", LED_DRIVERS, what="driver")
    if driver == "shift-register":
        interface = reader.choice(table, "leds", "interface", SHIFT_INTERFACES, "spi",
                                  "interface")
        data = reader.pin(table, "leds", "data")
        clock = reader.pin(table, "leds", "clock")
        latch = reader.pin(table, "leds", "latch")
        enable = reader.pin(table, "leds", "enable", required=False)
        if interface == "spi" and (data, clock) == (SPI0["data"], SPI0["clock"]):
            for name in ("miso", "ce0", "ce1"):
                if SPI0[name] != latch:
                    reader.claim(SPI0[name], f"SPI0 {name.upper()} (held by the kernel "
                                 "while SPI is enabled for the LED chain)")
        order = table.get("order")
        count = geometry.square_count
        if order is None:
            order = list(range(1, count + 1))
        elif not (isinstance(order, list) and all(isinstance(s, int) for s in order)):
            reader.problems.append("leds.order: must be a list of square numbers (0 = unused)")
            order = []
        else:
            used = [s for s in order if s]
            if sorted(used) != list(range(1, count + 1)):
                reader.problems.append(
                    f"leds.order: must name each of the {count} squares exactly once")
        active_high = reader.get(table, "leds", "active_high", bool, True)
        return LedConfig(driver, interface or "spi", data, clock, latch, tuple(order),
                         bool(active_high), enable)
    return LedConfig()
