"""What every browser test shares: Debian's chromium driven by Playwright.

When chromium is missing the tests fail as root (scripts/test.sh installs it there) and
are skipped elsewhere; screenshots go to test-artifacts/ for people to look at."""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--no-first-run"]


def playwright_api():
    """Playwright's sync API, once chromium is known to be there (else fail or skip)."""
    if not os.path.exists(CHROMIUM) and not shutil.which("chromium"):
        if os.geteuid() == 0:
            pytest.fail("chromium is missing; scripts/test.sh installs it (apt-get install "
                        "chromium) when run as root")
        pytest.skip("chromium is not installed and cannot be installed without root")
    return pytest.importorskip("playwright.sync_api")


@contextlib.contextmanager
def browser_page(url: str, width: int = 1100, height: int = 900, prepare=None,
                 wait_until: str = "load"):
    """A page of Debian's chromium at ``url``, closed afterwards; ``prepare(page)`` runs
    before it loads (routes to hold or change a request; a held script needs
    ``wait_until="commit"``, since the page's load waits for it)."""
    api = playwright_api()
    with api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.set_default_timeout(15_000)
            if prepare is not None:
                prepare(page)
            page.goto(url, wait_until=wait_until)
            yield page
        finally:
            browser.close()


REST_MS = 200  # a hand resting on a capture's landing (the tracker needs 100 ms)


def click(page, square: int) -> None:
    """A click on the page's board: on the simulator, a piece lifted or put down."""
    page.locator(f'#board [data-square="{square}"]').click()


def carry_out(page, path, captures) -> None:
    """A move by clicking: the piece lifted, put down on each landing, resting there, the
    captured pieces taken off."""
    click(page, path[0])
    for index, square in enumerate(path[1:], start=1):
        click(page, square)
        if index < len(path) - 1:
            page.wait_for_timeout(REST_MS)  # the rest is the input here, not a wait
            click(page, square)
    for square in captures:
        click(page, square)
