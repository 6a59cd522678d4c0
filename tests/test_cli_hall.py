"""`draughtsboard hall` refuses arguments it cannot use in one line, and keeps a token the
operator chose out of its log."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from .web.helpers import wait_until


@pytest.mark.parametrize("args, words", [
    (["--delay", "nan"], "--delay must be 0 or more minutes"),
    (["--delay", "inf"], "--delay must be 0 or more minutes"),
    (["--delay", "-1"], "--delay must be 0 or more minutes"),
    (["--listen", "127.0.0.1:٣"], "expected HOST:PORT"),
    (["--listen", "bad host:80"], "expected HOST:PORT"),
])
def test_arguments_the_hall_cannot_use_are_refused_in_one_line(tmp_path, capsys, args, words):
    from draughtsboard.cli import main

    status = main(["hall", "--broker", "mqtt://hall:pw@127.0.0.1:1", "--data",
                   str(tmp_path), *args])
    err = capsys.readouterr().err.strip()
    assert status == 2 and words in err and len(err.splitlines()) == 1


@pytest.mark.slow
def test_a_token_from_the_environment_is_never_logged(tmp_path):
    token = "operator-chosen-token-5f1e"
    env = dict(os.environ, DRAUGHTSBOARD_HALL_TOKEN=token, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "draughtsboard", "hall", "--broker",
         "mqtt://hall:pw@127.0.0.1:1", "--listen", "127.0.0.1:0", "--data",
         str(tmp_path / "hall")], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, env=env)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(process.stderr), daemon=True).start()
    try:
        wait_until(lambda: any("the hall's page" in line for line in list(lines)),
                   timeout=30, what="the hall to serve")
    finally:
        process.terminate()
        process.wait(10)
    log = "".join(lines)
    assert token not in log and "DRAUGHTSBOARD_HALL_TOKEN" in log
