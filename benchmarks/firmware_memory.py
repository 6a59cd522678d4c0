"""Heap bytes the Pico firmware's main loop allocates per pass, under a 32-bit MicroPython.

The firmware logic (``core.py`` and ``wire.py``) runs in MicroPython's WebAssembly port
(32-bit, small integers up to 2**30 like the RP2040's) on a stand-in for the pins, with
the international start position on the switches (squares 1-20 and 31-50: masks past bit
30 are heap integers there). ``gc.mem_alloc()`` is read before and after 1000 passes with
the collector off, quiet and with a change every 100 passes.

    .venv/bin/python -m benchmarks.firmware_memory [--firmware DIR] [--package DIR]

``--firmware`` measures another copy of the firmware (for example an older one from
``git show``); ``--package`` is where ``@micropython/micropython-webassembly-pyscript``
is installed (default: the checkout's Pico simulation, ``devtools/pico_sim/wasm``, the
version its lock file pins: ``npm ci --prefix devtools/pico_sim/wasm``, which
``scripts/test.sh`` runs).
Goal: 0 bytes a pass. The last line is JSON for scripts.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

from devtools.pico_sim.device import HARNESS, runtime_problem

FIRMWARE = pathlib.Path(__file__).resolve().parent.parent / "draughtsboard/firmware_bridge/firmware"

RUNNER = """
import { loadMicroPython } from "%(module)s";
import fs from "fs";
const mp = await loadMicroPython({heapsize: 256 * 1024, linebuffer: true,
                                  stdout: (line) => process.stdout.write(line + "\\n")});
for (const name of ["wire.py", "core.py"])
    mp.FS.writeFile("/" + name, fs.readFileSync("%(firmware)s/" + name));
mp.runPython(fs.readFileSync("%(payload)s", "utf8"));
"""

PAYLOAD = """
import gc, sys
sys.path.append("/")
import core

class Pins:
    # The firmware's hardware interface, in whichever form the firmware asks for it.
    def __init__(self):
        self.t = 0
        self.row = 0
        self.rows = bytearray(10)
    def ticks_ms(self): return self.t
    def ticks_diff(self, new, old): return new - old
    def set_row(self, row, active):
        if active: self.row = row
    def read_columns(self): return self.rows[self.row]
    def set_led(self, square, on): pass
    def read_into(self, buffer): return 0
    def read(self): return b""
    def write(self, data, n=None): return True

pins = Pins()
for r in range(10):
    pins.rows[r] = 0b11111 if r < 4 or r > 5 else 0
firmware = core.Firmware(pins, 10, core.matrix_map(10, True), 0x1234, debounce_scans=5)
firmware.boot()

def run(passes, change_every):
    before = gc.mem_alloc()
    for i in range(passes):
        pins.t += 1
        if change_every and i %% change_every == 0:
            pins.rows[9] ^= 1
        firmware.poll()
    return (gc.mem_alloc() - before) / passes

run(200, 0)
gc.collect()
gc.disable()
quiet = run(%(passes)d, 0)
gc.collect()
moving = run(%(passes)d, 100)
print("RESULT", quiet, moving, sys.maxsize)
"""


def package_dir(given: str | None) -> pathlib.Path:
    if given:
        return pathlib.Path(given)
    problem = runtime_problem()
    if problem is not None:
        sys.exit(f"firmware_memory: {problem}")
    return HARNESS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--firmware", default=str(FIRMWARE))
    parser.add_argument("--package", default=None)
    parser.add_argument("--passes", type=int, default=1000)
    args = parser.parse_args()
    root = package_dir(args.package)
    module = root / "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"
    with tempfile.TemporaryDirectory() as work:
        payload = pathlib.Path(work, "payload.py")
        payload.write_text(PAYLOAD % {"passes": args.passes})
        runner = pathlib.Path(work, "run.mjs")
        runner.write_text(RUNNER % {"module": module.as_posix(), "payload": payload,
                                    "firmware": pathlib.Path(args.firmware).resolve()})
        out = subprocess.run(["node", str(runner)], capture_output=True, text=True,
                             timeout=300)
    line = next((l for l in out.stdout.splitlines() if l.startswith("RESULT")), None)
    if line is None:
        sys.exit(f"firmware_memory: MicroPython said:\n{out.stdout}{out.stderr}")
    _, quiet, moving, maxsize = line.split()
    print(f"MicroPython WebAssembly, small integers up to {int(maxsize).bit_length()} bits; "
          f"firmware: {args.firmware}")
    print(f"10x10 start position, {args.passes} passes of the main loop each:")
    print(f"  quiet board:             {float(quiet):8.1f} bytes allocated a pass (goal 0)")
    print(f"  a change every 100:      {float(moving):8.1f} bytes allocated a pass")
    print(json.dumps({"bytes_per_pass_quiet": round(float(quiet), 2),
                      "bytes_per_pass_changing": round(float(moving), 2)}))


if __name__ == "__main__":
    main()
