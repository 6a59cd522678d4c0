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
A ``LG_WD`` set by whoever started the board is kept.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import MutableMapping
from pathlib import Path

ENV_LG_WD = "LG_WD"
APP_NAME = "draughtsboard"


def runtime_folder() -> Path:
    """The user's runtime folder of the board, created (mode 700) if missing.

    platformdirs warns when ``XDG_RUNTIME_DIR`` is unset (a system service, ``sudo -u``)
    and falls back to ``/run/user/<uid>`` or a private folder in the temporary folder,
    which serves as well; the warning would come before the command's own lines. Where
    even that cannot be made, a new private temporary folder."""
    from platformdirs import user_runtime_dir

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return Path(user_runtime_dir(APP_NAME, appauthor=False, ensure_exists=True))
    except OSError:
        return Path(tempfile.mkdtemp(prefix=f"{APP_NAME}-lgpio-"))


def prepare_lgpio(environ: MutableMapping[str, str] | None = None) -> str:
    """Set ``LG_WD`` (unless it is set) to the board's runtime folder; the folder lgpio
    will use. Call it before anything imports lgpio: the library reads it at import."""
    environ = os.environ if environ is None else environ
    if not environ.get(ENV_LG_WD):
        environ[ENV_LG_WD] = str(runtime_folder())
    return environ[ENV_LG_WD]
