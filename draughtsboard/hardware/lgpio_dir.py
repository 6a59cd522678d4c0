"""Where lgpio keeps its notification pipes, chosen before lgpio is imported.

Importing lgpio creates a named pipe, ``.lgd-nfy<N>``, in its working folder: ``$LG_WD``,
else the current folder. Started from a folder it cannot write to (``/``, another user's
home), the import fails (``xCreatePipe: Can't set permissions (436) for //.lgd-nfy0``),
and since the matrix driver imported lgpio on every backend, ``play`` and ``diag`` failed
even on the simulator. Now lgpio is imported only for the GPIO backend (gpiozero's default
pin factory, `pins.resolve_pin_factory`, and the group reads behind it,
`matrix_pins.open_matrix_pins`), and before that `prepare_lgpio` gives it a folder the
board owns: the user's runtime folder (platformdirs, as the data folder is found),
``$XDG_RUNTIME_DIR/draughtsboard`` or its fallback ``/run/user/<uid>/draughtsboard``.
Importing lgpio also makes its working folder the process's current folder (lgUtil.c,
``lguGetWorkDir``), so a relative path the board resolves afterwards would be looked for
there: `keeping_cwd` puts the current folder back once lgpio is in (lgpio names its own
pipes by their full path from then on).

A ``LG_WD`` set by whoever started the board is kept, once it is checked to be a folder
the board can make a file in: otherwise lgpio's import fails with a line of its own on
stderr and a missing ``.lgd-nfy-3`` that names neither the variable nor the folder, so
the board refuses first, in one line, as a bad setting (`config.ConfigError`).
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path

from .config import ConfigError

ENV_LG_WD = "LG_WD"
APP_NAME = "draughtsboard"


def runtime_folder() -> Path:
    """The user's runtime folder of the board, created (mode 700) if missing.

    platformdirs warns when ``XDG_RUNTIME_DIR`` is unset (a system service, ``sudo -u``)
    and falls back to ``/run/user/<uid>`` or a private folder in the temporary folder,
    which serves as well; the warning would come before the command's own lines. The
    runtime folder itself is the session's (logind makes it): only the board's folder in
    it is made here, never its parents (a mistyped ``XDG_RUNTIME_DIR`` run as root would
    otherwise make folders anywhere). Where it is missing or the board's folder cannot
    be made, a new private temporary folder."""
    from platformdirs import user_runtime_dir

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        folder = Path(user_runtime_dir(APP_NAME, appauthor=False))
    try:
        if folder.parent.is_dir():
            folder.mkdir(mode=0o700, exist_ok=True)
            if folder.is_dir():
                return folder
    except OSError:
        pass
    return Path(tempfile.mkdtemp(prefix=f"{APP_NAME}-lgpio-"))


def prepare_lgpio(environ: MutableMapping[str, str] | None = None) -> str:
    """Set ``LG_WD`` (unless it is set) to the board's runtime folder; the folder lgpio
    will use. Call it before anything imports lgpio: the library reads it at import."""
    environ = os.environ if environ is None else environ
    if not environ.get(ENV_LG_WD):
        environ[ENV_LG_WD] = str(runtime_folder())
    else:
        check_folder(environ[ENV_LG_WD])
    return environ[ENV_LG_WD]


def check_folder(folder: str) -> None:
    """A ``LG_WD`` given by whoever started the board: a folder this user can make a
    file in (probed, since root's permission bits say nothing on ``/proc`` or a
    read-only mount), else `ConfigError` naming the variable and the folder."""
    try:
        handle, probe = tempfile.mkstemp(prefix=".draughtsboard-probe-", dir=folder)
    except OSError as error:
        why = error.strerror or type(error).__name__
        raise ConfigError([f"{folder}: lgpio makes its pipe there, but this user cannot "
                           f"make a file there ({why}); name a folder it can write to, or "
                           f"unset {ENV_LG_WD} to use the board's runtime folder"],
                          ENV_LG_WD) from None
    os.close(handle)
    os.unlink(probe)


@contextmanager
def keeping_cwd() -> Iterator[None]:
    """The current folder as it was before the block, whatever lgpio's import did to it
    (left as lgpio set it when the old one is gone: started from a folder since
    removed)."""
    try:
        before = os.getcwd()
    except OSError:  # the folder the board was started from is gone
        before = None
    try:
        yield
    finally:
        if before is not None:
            try:
                os.chdir(before)
            except OSError:
                pass
