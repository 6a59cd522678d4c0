"""The input fuzz (benchmarks/fuzz_inputs.py) in small, seeded: every command's input
kind, no traceback, no hang. The full run's figures are in docs/recording.md."""

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_fuzz_in_small():
    run = subprocess.run([sys.executable, "-m", "benchmarks.fuzz_inputs",
                          "--inputs", "300", "--seed", "7"],
                         capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["inputs"] == 300
    assert set(report["per_kind"]) == {"fen", "track", "pdn", "toml", "http"}
    assert report["tracebacks"] == 0 and report["hangs"] == 0, run.stderr[-2000:]
