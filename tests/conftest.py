"""Settings every test shares."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_board_lock(tmp_path, monkeypatch):
    """Each test holds its own board lock file: tests in other checkouts (and the real
    service) use the machine-wide one in /run/lock."""
    monkeypatch.setenv("DRAUGHTSBOARD_GPIO_LOCK", str(tmp_path / "gpio.lock"))
