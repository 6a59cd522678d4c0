"""The Pico firmware type-checked against MicroPython's published stubs for the Pico.

mypy checks main.py, core.py and wire.py with micropython-rp2-rpi-pico-stubs as the
typeshed, so every call of machine, time, select, sys and micropython must match the real
API of MicroPython 1.27 on the RP2040 (a Pin constant, a function that exists, argument
types). A canary file with three wrong calls rides along: the check is seen to fail.
"""

import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "draughtsboard" / "firmware_bridge" / "firmware"
STUBS = ROOT / ".micropython-stubs"
CONFIG = pathlib.Path(__file__).with_name("mypy-pico.ini")

CANARY = '''
import machine
import time

pin = machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_DWN)
time.sleep_ms("1")
machine.watchdog_feed()
'''


@pytest.mark.slow
@pytest.mark.skipif(not (STUBS / "machine.pyi").is_file(),
                    reason="the MicroPython stubs are not installed: run scripts/test.sh")
@pytest.mark.skipif(shutil.which("mypy", path=str(pathlib.Path(sys.executable).parent)) is None,
                    reason="mypy is not installed: pip install -e '.[test]'")
def test_the_firmware_matches_the_micropython_api_of_the_pico(tmp_path):
    package = tmp_path / "firmware"
    package.mkdir()
    for path in FIRMWARE.glob("*.py"):
        shutil.copy(path, package / path.name)
    (package / "canary.py").write_text(CANARY)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(CONFIG),
         "--custom-typeshed-dir", str(STUBS), "--cache-dir", str(tmp_path / "cache"),
         "-p", "firmware"],
        cwd=tmp_path, env={"MYPYPATH": str(STUBS), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=300, check=False,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    firmware_errors = [line for line in errors if not line.startswith("firmware/canary.py")]
    assert firmware_errors == [], done.stdout
    assert len(errors) == 3, done.stdout  # the canary's three wrong calls
