"""The benchmarks' shared harness (benchmarks/harness): what the scripts and the hall's
tests rely on, checked without starting a broker or a hall."""

from __future__ import annotations

import subprocess
import sys
import tempfile

import pytest

from benchmarks.harness.ports import NotListening, free_port, wait_port
from benchmarks.harness.processes import cpu_seconds, module_command, rss_mb, stop
from benchmarks.harness.stats import percentile, share_percentile


def test_a_process_that_ends_before_it_listens_is_reported_with_what_it_said():
    errors = tempfile.TemporaryFile()
    process = subprocess.Popen([sys.executable, "-c", "import sys; sys.exit('bad config')"],
                               stderr=errors)
    process.wait(30)
    with pytest.raises(NotListening, match=r"mosquitto ended \(status 1\) before it listened "
                       r"on port \d+: bad config"):
        wait_port(free_port(), 30, process=process, what="mosquitto", errors=errors)


def test_not_listening_ends_a_benchmark_with_its_one_line():
    assert issubclass(NotListening, SystemExit)


def test_a_listener_is_found():
    import socket

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        wait_port(server.getsockname()[1], 30)


def test_a_gone_process_costs_nothing_and_stopping_it_twice_is_safe():
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait(30)
    assert cpu_seconds(process.pid) == 0.0 and rss_mb(process.pid) == 0.0
    stop(process)
    stop(process)
    stop(None)


def test_a_benchmark_runs_as_a_module_of_the_checkout():
    assert module_command("benchmarks.hall", "--worker") == [sys.executable, "-m",
                                                             "benchmarks.hall", "--worker"]


def test_the_two_percentiles_keep_their_old_ranks():
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert percentile(values, 0.0) == 1.0 and percentile(values, 1.0) == 5.0
    assert percentile(values, 0.95) == 5.0  # rank round(0.95 * 4) = 4
    assert percentile(values, 0.5) == 3.0
    assert share_percentile(values, 0.5) == 3.0  # rank int(0.5 * 5) = 2
    assert share_percentile(values, 0.7) == 4.0  # rank int(0.7 * 5) = 3; percentile: 4.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 3.0  # round(1.5) = 2
    assert share_percentile([1.0, 2.0, 3.0, 4.0], 0.3) == 2.0  # int(1.2) = 1
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.3) == 2.0  # round(0.9) = 1
    assert percentile([], 0.5) == 0.0
    assert share_percentile([], 0.5) != share_percentile([], 0.5)  # NaN
