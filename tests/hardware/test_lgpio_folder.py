"""Issue 46, item 1: ``play`` and ``diag`` from a folder they cannot write to, with lgpio
installed. lgpio's import makes a pipe in its working folder (``LG_WD``, else the
current one); the simulator must not import it at all, and the GPIO backend must point it
at the board's own runtime folder first (`draughtsboard.hardware.lgpio_dir`).

The real lgpio is absent here: ``tests/data/stub_lgpio/lgpio.py`` does what its import does. The
unwritable folder is a folder without write permission, or for root, who ignores those,
``/proc``, where nobody can make a pipe.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from draughtsboard.hardware.lgpio_dir import prepare_lgpio

from ..cli_helpers import running

STUB = Path(__file__).parents[1] / "data" / "stub_lgpio"


def _can_make_pipe(folder: Path) -> bool:
    probe = folder / ".probe-pipe"
    try:
        os.mkfifo(probe)
    except OSError:
        return False
    probe.unlink()
    return True


@pytest.fixture
def unwritable(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        folder = next((f for f in (locked, Path("/proc")) if not _can_make_pipe(f)), None)
        if folder is None:
            pytest.skip("no folder here that this user cannot write to")
        yield folder
    finally:
        locked.chmod(0o755)


@pytest.fixture
def env(tmp_path):
    """The stub lgpio first on the path, a runtime folder of the test's own, no LG_WD."""
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if k not in ("LG_WD", "GPIOZERO_PIN_FACTORY")}
    env.update(PYTHONPATH=os.pathsep.join(filter(None, [str(STUB), env.get("PYTHONPATH")])),
               XDG_RUNTIME_DIR=str(runtime), PYTHONUNBUFFERED="1",
               DRAUGHTSBOARD_GPIO_LOCK=str(tmp_path / "gpio.lock"))
    return env


def draughtsboard(*argv: str, cwd: Path, env: dict, timeout: float = 60):
    return subprocess.run([sys.executable, "-m", "draughtsboard", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_the_stub_fails_as_lgpio_does_in_an_unwritable_folder(unwritable, env):
    result = subprocess.run([sys.executable, "-c", "import lgpio"], cwd=unwritable, env=env,
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert f"Can't set permissions (436) for {unwritable}/.lgd-nfy0" in result.stderr


def test_diag_on_the_simulator_works_from_an_unwritable_folder(unwritable, env):
    result = draughtsboard("diag", "--backend", "sim", "--once", cwd=unwritable, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("8x8 board (sim), 0 of 32 switches closed")
    assert "lgd-nfy" not in result.stderr


def test_play_on_the_simulator_starts_from_an_unwritable_folder(unwritable, env, tmp_path):
    with running("play", "--backend", "sim", "--data", str(tmp_path / "data"), "--listen",
                 "127.0.0.1:0", cwd=unwritable, env=env) as play:
        play.wait_for(r"the board's page: http://", what="play to serve its page")
        assert play.stop(signal.SIGTERM) == 0
    assert not list((tmp_path / "run").rglob(".lgd-nfy*"))  # lgpio never imported


def test_the_gpio_backend_gives_lgpio_the_boards_runtime_folder(unwritable, env, tmp_path):
    """gpiozero imports lgpio when it looks for a pin factory: by then LG_WD names the
    board's runtime folder, so the import works and the failure is the machine's own (no
    GPIO chip here), not a pipe in the current folder."""
    env["GPIOZERO_PIN_FACTORY"] = "lgpio"
    result = draughtsboard("diag", "--backend", "gpio", "--once", cwd=unwritable, env=env)
    assert result.returncode == 2
    assert "lgd-nfy" not in result.stderr, result.stderr
    assert (tmp_path / "run" / "draughtsboard" / ".lgd-nfy0").exists(), result.stderr


def test_a_folder_given_in_lg_wd_is_kept(tmp_path):
    environ = {"LG_WD": str(tmp_path)}
    assert prepare_lgpio(environ) == str(tmp_path)
    assert environ == {"LG_WD": str(tmp_path)}


def test_without_lg_wd_the_runtime_folder_is_made_and_named(tmp_path, monkeypatch):
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    environ: dict[str, str] = {}
    folder = prepare_lgpio(environ)
    assert environ["LG_WD"] == folder == str(runtime / "draughtsboard")
    assert Path(folder).is_dir()


@pytest.mark.parametrize("given", ["missing", "unwritable"])
def test_an_lg_wd_lgpio_cannot_use_is_one_line_naming_it(given, unwritable, env, tmp_path):
    """A ``LG_WD`` naming a folder that is not there, or one this user cannot write to:
    one line that names the variable and the folder, before lgpio prints its own."""
    folder = tmp_path / "not-there" if given == "missing" else unwritable
    env.update(LG_WD=str(folder), GPIOZERO_PIN_FACTORY="lgpio")
    result = draughtsboard("diag", "--backend", "gpio", "--once", cwd=tmp_path, env=env)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [result.stderr.strip()], result.stderr
    assert f"LG_WD: {folder}: lgpio makes its pipe there" in result.stderr
    assert "xCreatePipe" not in result.stderr


def test_a_runtime_folder_that_is_not_there_is_not_made(tmp_path, monkeypatch):
    """``XDG_RUNTIME_DIR`` naming a folder that is not there (mistyped, or the session's
    gone): the board does not make it and its parents, it takes a private temporary
    folder."""
    missing = tmp_path / "run" / "user" / "1000"
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(missing))
    environ: dict[str, str] = {}
    folder = Path(prepare_lgpio(environ))
    assert not (tmp_path / "run").exists()
    assert folder.is_dir() and folder.name.startswith("draughtsboard-lgpio-")
    assert folder.stat().st_mode & 0o777 == 0o700
    folder.rmdir()


def test_lgpio_leaves_the_current_folder_as_it_was(env, tmp_path):
    """lgpio's import makes its working folder the process's current one (lgUtil.c,
    lguGetWorkDir); the board puts it back, so a relative path given on the command line
    still means the folder it was started from."""
    started = tmp_path / "started here"
    started.mkdir()
    env["GPIOZERO_PIN_FACTORY"] = "lgpio"
    script = ("import os\nfrom draughtsboard.hardware.pins import resolve_pin_factory\n"
              "try:\n    resolve_pin_factory(None)\nexcept Exception:\n    pass\n"
              "import sys\nassert 'lgpio' in sys.modules\nprint(os.getcwd())")
    result = subprocess.run([sys.executable, "-c", script], cwd=started, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(started)
