"""Files named on the command line are read bounded: a device that never ends, binary
data or nothing at all is refused in one line, and memory stays small."""

from __future__ import annotations

import subprocess
import sys

import pytest


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "draughtsboard", *args], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.slow
@pytest.mark.parametrize("command", [["pdn", "check", "/dev/zero"],
                                     ["analyse", "/dev/zero"],
                                     ["replay", "/dev/zero", "--variant", "russian"]])
def test_a_device_that_never_ends_is_refused_at_once(command):
    done = run(*command)
    lines = (done.stderr + done.stdout).strip().splitlines()
    assert any("binary data (NUL bytes), not a PDN file" in line for line in lines)
    assert "Traceback" not in done.stderr


def test_converting_a_file_with_no_game_says_so_and_writes_nothing(tmp_path):
    out = tmp_path / "out.pdn"
    done = run("pdn", "convert", "/dev/null", "--out", str(out))
    assert done.returncode == 1 and not out.exists()
    assert done.stderr.strip() == "draughtsboard pdn convert: /dev/null: no game found; " \
                                  "nothing written"


def test_a_file_past_the_limit_is_refused_before_it_is_read_whole(tmp_path):
    from draughtsboard.commands.pdn_files import PdnFileError, read_pdn_file

    big = tmp_path / "big.pdn"
    big.write_bytes(b"1. c3-d4 *\n" * 200_000)
    with pytest.raises(PdnFileError, match="larger than 1 MB"):
        read_pdn_file(big, limit=1024 * 1024)
    assert read_pdn_file(big).startswith("1. c3-d4")
