"""A stand-in for lgpio where the real one is absent: what lgpio does when imported.

The real module's import opens the library's notification pipe, ``.lgd-nfy0``, in its
working folder, ``$LG_WD`` or else the current folder, and makes that folder the
process's current folder (lgUtil.c, ``lguGetWorkDir``: ``chdir``); where it cannot, it prints
``xCreatePipe: Can't set permissions (436) for <folder>/.lgd-nfy0`` and the import fails
with ``.lgd-nfy-3: No such file or directory``. This does the same with a real pipe, and
leaves it there, so a test can see where it went. Past the import it is a Pi without a
chip: opening one fails as lgpio fails.
"""

import errno
import os
import sys

_folder = os.environ.get("LG_WD") or os.getcwd()
_pipe = f"{_folder}/.lgd-nfy0"
try:
    os.chdir(_folder)
except OSError:
    pass  # lgpio logs "can't set working directory" and goes on
try:
    if not os.path.exists(_pipe):
        os.mkfifo(_pipe, 0o664)
except OSError:
    print(f"xCreatePipe: Can't set permissions (436) for {_pipe}", file=sys.stderr)
    raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), ".lgd-nfy-3") from None

SET_PULL_NONE = SET_BIAS_DISABLE = 128
SET_PULL_UP = SET_BIAS_PULL_UP = 32
SET_PULL_DOWN = SET_BIAS_PULL_DOWN = 64
RISING_EDGE = 1
FALLING_EDGE = 2
BOTH_EDGES = 3


class error(Exception):  # noqa: N801 - lgpio's own name
    """lgpio's error: a bare Exception."""


def gpiochip_open(chip):
    raise error("can not open gpiochip")
