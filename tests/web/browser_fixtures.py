"""The browser tests' fixtures, registered by the conftest of each folder that has such
tests: one Debian chromium a test module (`walks.chromium`) and
Playwright's ``expect``."""

from __future__ import annotations

import pytest

from ..browser import playwright_api
from .walks import chromium


@pytest.fixture(scope="module")
def browser():
    with chromium() as running:
        yield running


@pytest.fixture
def expect():
    return playwright_api().expect
