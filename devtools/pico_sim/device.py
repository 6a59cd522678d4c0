"""The Pico firmware under real MicroPython: its WebAssembly build, run by Node.js.

``MicroPythonDevice`` runs the firmware's own ``main.py`` (its main loop, its CONFIG, its
imports of ``machine``, ``time``, ``select``, ``sys``, ``os``) in MicroPython 1.27's
WebAssembly build, with the stand-ins of ``wasm/pico_shim.py`` in place of the chip. It
has the interface of ``emulator.EmulatedDevice`` (``power_on``, ``step``, ``feed``,
``take``, ``reset``), so the virtual bench, the replays and the pseudo-terminal emulator
drive either one.

The device's clock is the host's: at each ``step`` the host sends the time, the switches
and the bytes for the device, and the device runs its main loop until it waits past that
step; it answers with the bytes it wrote and the LEDs it shows. One text line each way
on a pipe (see ``Device.exchange`` in ``wasm/pico_shim.py``).

The runtime is an npm package, installed (pinned by ``wasm/package-lock.json``) with
``npm ci --prefix devtools/pico_sim/wasm``; ``scripts/test.sh`` does that. A source
checkout's tool, never installed (see the package's docstring).
"""

from __future__ import annotations

import ast
import json
import logging
import os
import pprint
import select
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from draughtsboard.board.rules.geometry import Geometry, Numbering, board_name
from draughtsboard.firmware_bridge.fakepins import Switches
from draughtsboard.firmware_bridge.firmware import core

log = logging.getLogger(__name__)

HARNESS = Path(__file__).parent / "wasm"
FIRMWARE = Path(core.__file__).parent
RUNTIME = HARNESS / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
INSTALL_HINT = "npm ci --prefix devtools/pico_sim/wasm (scripts/test.sh does it)"
ANSWER_TIMEOUT = 30.0  # real seconds: a firmware that never waits would hang the host
# In real time each step runs the chip this far past now: a few passes an exchange. This
# build frees memory only between calls from JavaScript, never while the firmware runs,
# and each exchange leaves a few hundred bytes behind: fewer exchanges, slower growth
# (about 2 MB a minute at 5 ms, measured), for input at most this much later.
REALTIME_SLICE_US = 5000
# The interpreter's first heap, what a Pico leaves to Python programs; this build adds
# more when it runs out (it is no limit: the heap figures come from gc.mem_alloc).
DEFAULT_HEAP = 192 * 1024
# The switch diodes of the simulated board, as docs/hardware.md and main.py wire a Pico:
# the selected row driven low, columns pulled up, each diode's cathode towards its row.
PICO_DIODES = "cathode-to-row"


class MicroPythonUnavailable(RuntimeError):
    """Node.js or MicroPython's WebAssembly build is not installed."""


class MicroPythonFailed(RuntimeError):
    """The MicroPython process ended or stopped answering."""


def runtime_problem() -> str | None:
    """Why the firmware cannot run under MicroPython here, in one line; None when it can."""
    if shutil.which("node") is None:
        return "Node.js is not installed (Debian: apt-get install nodejs)"
    if not (RUNTIME / "micropython.mjs").is_file():
        return f"MicroPython's WebAssembly build is not installed: {INSTALL_HINT}"
    return None


def require_runtime() -> None:
    problem = runtime_problem()
    if problem is not None:
        raise MicroPythonUnavailable(problem)


def run_script(source: str, *, modules: Path = FIRMWARE, heap_bytes: int = 1 << 20,
               timeout: float = 60.0) -> str:
    """Run ``source`` under MicroPython with the modules of ``modules`` importable (by
    default the firmware's: ``import wire``); what it printed. A script that fails raises
    `MicroPythonFailed` with the last line of its traceback."""
    require_runtime()
    with tempfile.TemporaryDirectory(prefix="draughtsboard-mpy-") as workdir:
        script = Path(workdir) / "script.py"
        script.write_text(source)
        try:
            done = subprocess.run(
                ["node", str(HARNESS / "run.mjs"), "script", str(script), str(modules),
                 str(heap_bytes)],
                capture_output=True, text=True, timeout=timeout, check=False,
            )
        except subprocess.TimeoutExpired as error:
            raise MicroPythonFailed(f"the MicroPython script ran over {timeout:.0f} s") from error
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise MicroPythonFailed(f"the MicroPython script failed: {last}")
    return done.stdout


# -- what goes on the flash -------------------------------------------------------------------


@dataclass(frozen=True)
class FlashImage:
    """The firmware's files as a builder would copy them to the Pico for one board, and
    that board's wiring as the simulated chip needs it."""

    files: dict[str, bytes]
    config: dict[str, Any]  # main.py's CONFIG as edited
    squares: list[tuple[int, int]]  # per square (from 1): its row pin and column pin
    chain: dict[str, int]  # the 74HC595 chain's data, clock, latch (and enable) pins


def _config_node(tree: ast.Module) -> ast.Assign:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "CONFIG" for target in node.targets
        ):
            return node
    raise MicroPythonFailed("firmware/main.py has no CONFIG = {...} to set for the board")


def flash_image(board: Geometry, **settings: int) -> FlashImage:
    """main.py with CONFIG edited for ``board`` (as its docstring asks a builder
    to), core.py and wire.py. ``settings`` override CONFIG entries of the same names
    (``debounce_scans``, ``heartbeat_ms``...); an unknown name is an error."""
    geometry = board
    from_top = geometry.numbering is Numbering.FROM_TOP_LEFT
    cells = core.matrix_map(geometry.size, from_top)
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    source = (FIRMWARE / "main.py").read_text()
    node = _config_node(ast.parse(source))
    config = ast.literal_eval(node.value)
    for key in ("board_size", "row_pins", "column_pins"):
        if key not in config:
            raise MicroPythonFailed(f"firmware/main.py's CONFIG has no {key!r}")
    if len(config["row_pins"]) < rows or len(config["column_pins"]) < cols:
        raise MicroPythonFailed(f"firmware/main.py's CONFIG has too few pins for "
                                f"the {board_name(board)} board")
    config["board_size"] = geometry.size
    if "from_top" in config:
        config["from_top"] = from_top
    # A smaller board is wired to the first rows and columns of the largest one.
    config["row_pins"] = tuple(config["row_pins"][:rows])
    config["column_pins"] = tuple(config["column_pins"][:cols])
    for key, value in settings.items():
        if key not in config:
            raise ValueError(f"firmware/main.py's CONFIG has no setting {key!r}")
        config[key] = value
    lines = source.splitlines(keepends=True)
    assert node.end_lineno is not None
    text = "CONFIG = " + pprint.pformat(config, sort_dicts=False, width=90) + "\n"
    main = "".join(lines[: node.lineno - 1]) + text + "".join(lines[node.end_lineno :])
    files = {"main.py": main.encode()}
    for path in sorted(FIRMWARE.glob("*.py")):
        if path.name not in ("main.py", "__init__.py"):
            files[path.name] = path.read_bytes()
    squares = [(config["row_pins"][r], config["column_pins"][c]) for r, c in cells]
    chain = {
        role: config[key]
        for role, key in (("data", "sr_data"), ("clock", "sr_clock"), ("latch", "sr_latch"),
                          ("enable", "sr_enable"))
        if key in config
    }
    return FlashImage(files, config, squares, chain)


# -- the device --------------------------------------------------------------------------------


class MicroPythonDevice:
    """A Pico running the firmware under MicroPython, one step at a time on the host's clock.

    ``clock`` gives seconds, virtual or (with ``realtime``) real. In virtual time the chip
    runs every pass up to the host's now, however long the host took; in real time it
    runs on from the host's now, as a chip that was busy would. ``diodes`` is how the
    board's switch diodes are turned (``anode-to-row`` or ``cathode-to-row``); ``inputs``
    the level of other input pins, a button held (pin number: 0 or 1). ``seed`` seeds
    the chip's ``os.urandom`` (its boot ids). ``measure`` makes the chip time and weigh
    each pass of its main loop (see `measurements`). ``device_options`` set CONFIG
    entries of main.py.
    """

    def __init__(
        self,
        board: Geometry,
        switches: Switches,
        clock: Callable[[], float],
        *,
        seed: int | None = 0,
        measure: bool = False,
        heap_bytes: int = DEFAULT_HEAP,
        tx_capacity: int = 1024,
        realtime: bool = False,
        diodes: str = PICO_DIODES,
        inputs: dict[int, int] | None = None,
        **device_options: int,
    ) -> None:
        require_runtime()
        self.board = board
        self.switches = switches
        self.clock = clock
        self.image = flash_image(board, **device_options)
        self.square_count = len(self.image.squares)
        self.realtime = realtime
        self.connected = True
        self.inputs: dict[int, int] = dict(inputs or {})  # other input pins (buttons)
        self.boots = 0
        self.events: list[str] = []
        self.halted = False
        self.left = False  # machine.bootloader(): the firmware is gone
        self.lit_mask = 0
        self._settings = {
            "squares": self.image.squares,
            "chain": self.image.chain,
            "diodes": diodes,
            "seed": (seed or 0) * 2654435761 % (1 << 32) or 1,
            "measure": measure,
            "tx_capacity": tx_capacity,
        }
        self._heap = heap_bytes
        self._rx = bytearray()
        self._tx = bytearray()
        self._wake_us = 0  # the chip's clock when it last handed over
        self._held: list[tuple[int, bytes]] = []  # output not yet due: (time, bytes)
        self._reset_pending = False
        self._process: subprocess.Popen[bytes] | None = None
        self._workdir: tempfile.TemporaryDirectory[str] | None = None
        self._to_device = -1
        self._from_device = -1
        self._pending = bytearray()

    # -- the interface of EmulatedDevice --------------------------------------------------

    def power_on(self) -> None:
        """Start the chip: MicroPython boots and runs main.py up to the host's now."""
        if self._process is None:
            self._start()
        self.step()

    def reset(self) -> None:
        """Reset the chip (as its reset pin would): main.py starts again, a new boot."""
        self._rx.clear()
        self._reset_pending = True
        self._exchange(self._wake_us, self._wake_us)

    def step(self, horizon: float | None = None) -> None:
        """Let the chip run up to the host's now, or further up to ``horizon`` (seconds),
        when the caller knows nothing reaches the chip before then (no switch changes, no
        bytes). The chip stops early when it writes: its output is handed out (`take`)
        once the host's clock reaches the moment it was written."""
        now = self._now_us()
        target = now if horizon is None else max(now, int(round(horizon * 1_000_000)))
        if self.realtime:  # on from now, a few passes (REALTIME_SLICE_US)
            target = max(target, now + REALTIME_SLICE_US)
        while not self.left and self._wake_us < target:
            self._exchange(now if self.realtime else self._wake_us, target)
            if not self.realtime and self._held and self._held[-1][0] > now:
                break  # written ahead of the host's now: it waits for the host
        while self._held and (self.realtime or self._held[0][0] <= now):
            self._tx += self._held.pop(0)[1]

    def feed(self, data: bytes) -> None:
        """Bytes from the host, delivered at the chip's next exchange."""
        self._rx.extend(data)

    def take(self) -> bytes:
        """Everything the chip wrote since the last call."""
        data = bytes(self._tx)
        self._tx.clear()
        return data

    def lit(self) -> set[int]:
        """The squares whose LED the chip lights now."""
        return {n + 1 for n in range(self.square_count) if self.lit_mask >> n & 1}

    @property
    def wake_at(self) -> float:
        """Seconds at which the chip next wants to run."""
        return self._wake_us / 1e6

    def measurements(self) -> dict[str, Any]:
        """What the chip measured of its main loop (with ``measure=True``): heap in bytes
        (``gc.mem_alloc``) and compute time per pass in microseconds of this machine."""
        self._require_running()
        self._send("t")
        return json.loads(self._read_line())

    def close(self) -> None:
        """Stop MicroPython (safe twice)."""
        process, self._process = self._process, None
        if process is not None:
            try:
                self._send("q")
            except OSError:
                pass
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            for fd in (self._to_device, self._from_device):
                os.close(fd)
        if self._workdir is not None:
            self._workdir.cleanup()
            self._workdir = None

    def log_text(self) -> str:
        """What MicroPython printed outside the serial line (the harness's diagnostics)."""
        if self._workdir is None:
            return ""
        path = Path(self._workdir.name) / "stderr.txt"
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> MicroPythonDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the process -------------------------------------------------------------------------

    def _now_us(self) -> int:
        return int(round(self.clock() * 1_000_000))

    def _start(self) -> None:
        workdir = tempfile.TemporaryDirectory(prefix="draughtsboard-pico-")
        self._workdir = workdir
        root = Path(workdir.name)
        flash = root / "flash"
        flash.mkdir()
        for name, data in self.image.files.items():
            (flash / name).write_bytes(data)
        settings = root / "settings.json"
        settings.write_text(json.dumps(self._settings))
        down_read, down_write = os.pipe()
        up_read, up_write = os.pipe()
        stderr = open(root / "stderr.txt", "wb")  # noqa: SIM115 - the child keeps it open
        try:
            self._process = subprocess.Popen(
                ["node", str(HARNESS / "run.mjs"), "device", str(down_read), str(up_write),
                 str(flash), str(settings), str(self._heap)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                pass_fds=(down_read, up_write),
            )
        finally:
            stderr.close()
            os.close(down_read)
            os.close(up_write)
        self._to_device = down_write
        self._from_device = up_read
        self._read_line()  # the first answer: the chip is up, before its first command

    def _require_running(self) -> None:
        if self._process is None:
            raise MicroPythonFailed("the MicroPython device is not running")

    def _send(self, line: str) -> None:
        data = (line + "\n").encode("latin-1")
        while data:
            written = os.write(self._to_device, data)
            data = data[written:]

    def _read_line(self) -> str:
        while b"\n" not in self._pending:
            ready, _, _ = select.select([self._from_device], [], [], ANSWER_TIMEOUT)
            if not ready:
                raise MicroPythonFailed(
                    f"no answer from MicroPython in {ANSWER_TIMEOUT:.0f} s "
                    "(a firmware loop that never waits?)"
                )
            chunk = os.read(self._from_device, 65536)
            if not chunk:
                tail = self.log_text().strip().splitlines()[-3:]
                raise MicroPythonFailed(
                    "the MicroPython process ended" + (f": {' / '.join(tail)}" if tail else "")
                )
            self._pending += chunk
        index = self._pending.index(b"\n")
        line = self._pending[:index].decode("latin-1")
        del self._pending[: index + 1]
        return line

    def _exchange(self, now_us: int, until_us: int) -> None:
        """One command and its answer: the chip runs from ``now_us`` (its clock never runs
        back) until ``until_us`` or until it writes."""
        self._require_running()
        if self._reset_pending:
            self._reset_pending = False
            self._send("R")
            self._read_line()
        occupied = self.switches.occupied
        inputs = ",".join(f"{pin}={level}" for pin, level in self.inputs.items())
        self._send(
            f"s {now_us} {until_us} {occupied:x} {self._rx.hex() or '-'} "
            f"{1 if self.connected else 0}" + (f" {inputs}" if inputs else "")
        )
        self._rx.clear()
        clock, tx, leds, events = self._read_line().split(" ")
        self._wake_us = int(clock)
        if tx != "-":
            self._held.append((self._wake_us, bytes.fromhex(tx)))
        self.lit_mask = int(leds, 16)
        if events != "-":
            self._on_events(events.split(","))

    def _on_events(self, events: list[str]) -> None:
        self.events += events
        for event in events:
            if event == "boot":
                self.boots += 1
                self.halted = False
            elif event == "halted":
                self.halted = True
                log.warning("the firmware stopped under MicroPython: %s",
                            (self.log_text().strip().splitlines() or ["?"])[-1])
            elif event == "bootloader":
                self.left = True
