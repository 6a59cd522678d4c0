"""What ships is what runs on the board: the Pico simulation (MicroPython's WebAssembly
build, its chip stand-ins and its Node runtime) is a checkout's tool, devtools/pico_sim,
never in the package; ``emulate --micropython`` finds it there or says in one line why
it cannot run."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import tomllib

import pytest

from draughtsboard.firmware_bridge import pico_sim

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "draughtsboard"


def test_the_package_holds_no_simulation_harness_nor_node_runtime():
    harness = [str(path.relative_to(ROOT)) for path in PACKAGE.rglob("*")
               if path.suffix in {".mjs", ".js"} and "static" not in path.parts
               or path.name in {"package.json", "package-lock.json", "node_modules",
                                "pico_shim.py", "pico_boot.py"}]
    assert harness == []


def test_the_wheel_takes_no_data_file_of_the_harness():
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = settings["package-data"]["draughtsboard"]
    assert not [p for p in patterns if "wasm" in p or ".mjs" in p or "package" in p]
    assert settings["packages"]["find"]["include"] == ["draughtsboard*"]


def test_a_checkout_finds_the_micropython_device():
    from devtools.pico_sim.device import MicroPythonDevice

    assert pico_sim.micropython_device() is MicroPythonDevice


def test_a_checkout_not_on_the_import_path_is_found_by_its_file(monkeypatch):
    monkeypatch.setitem(sys.modules, pico_sim.MODULE, None)  # not importable by name
    loaded = []
    real = pico_sim.importlib.util.spec_from_file_location

    def spy(name, path):
        loaded.append(path)
        return real(name, path)

    monkeypatch.setattr(pico_sim.importlib.util, "spec_from_file_location", spy)
    assert pico_sim.micropython_device().__name__ == "MicroPythonDevice"
    assert loaded == [ROOT / "devtools" / "pico_sim" / "device.py"]


def test_without_the_harness_the_reason_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, pico_sim.MODULE, None)
    monkeypatch.setattr(pico_sim, "CHECKOUT_FILE", tmp_path / "device.py")
    with pytest.raises(pico_sim.PicoSimMissing, match="source checkout only") as caught:
        pico_sim.micropython_device()
    assert isinstance(caught.value, ImportError) and "\n" not in str(caught.value)


def test_an_installed_package_says_so_in_one_line(tmp_path):
    """The package's files alone, as installed (no checkout around them): exit 69, one
    line."""
    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "draughtsboard",
                    ignore=shutil.ignore_patterns("__pycache__"))
    run = subprocess.run([sys.executable, "-m", "draughtsboard", "emulate", "--pty",
                          "--micropython"], capture_output=True, text=True, timeout=60,
                         cwd=tmp_path, stdin=subprocess.DEVNULL,
                         env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 69
    assert run.stderr.splitlines() == [
        "draughtsboard emulate: not installed here: the firmware under MicroPython "
        "(--micropython) runs from a source checkout only (devtools/pico_sim), not from an "
        "installed package"]
