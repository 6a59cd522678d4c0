"""Settings and fixtures every test shares: a private board lock, and live play sessions
on simulated boards (the controller thread and the scan thread in real time; the game in
play itself is tested in virtual time, tests/play/virtual.py)."""

from __future__ import annotations

import logging

import pytest

from draughtsboard.board.rules import initial_position, parse_fen
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker import State
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.play import PlaySession
from draughtsboard.recording import Recorder

from .web.helpers import TOKEN, XSS, wait_until


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by markers
def pytest_collection_modifyitems(items) -> None:
    """Every test that uses the hall's broker fixture starts a mosquitto: marked ``broker``
    (left out of ``scripts/test.sh --fast``; the browser and slow tests say so themselves)."""
    for item in items:
        if "broker" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.broker)


@pytest.fixture(autouse=True)
def private_board_lock(tmp_path, monkeypatch):
    """Each test holds its own board lock file: tests in other checkouts (and the real
    service) use the machine-wide one in /run/lock."""
    monkeypatch.setenv("DRAUGHTSBOARD_GPIO_LOCK", str(tmp_path / "gpio.lock"))


@pytest.fixture
def keep_logging():
    """The root logger's handlers and level put back after a test whose command, run
    in-process (``cli.main``), sets up logging as on a board."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    yield
    root.handlers[:], root.level = saved


@pytest.fixture
def start_session(tmp_path):
    """Start live sessions on simulated boards: ``start_session(fen=..., **options)``
    returns a session whose board is set up and ready; all are stopped afterwards."""
    opened = []

    def start(variant: str = "russian", *, fen: str | None = None, data=None,
              ready: bool = True, **options) -> PlaySession:
        chosen = get_variant(variant)
        position = parse_fen(chosen, fen) if fen else initial_position(chosen)
        opening = options.pop("opening", None)
        if opening is not None:
            position = opening.expected_position
        occupied = [n for n in chosen.geometry.numbers if position.occupancy() >> (n - 1) & 1]
        board = open_simulated_board(chosen.geometry, occupied=occupied, real_time=True)
        recorder = Recorder(data or tmp_path / "data")
        options.setdefault("token", TOKEN)
        play = PlaySession(variant, board, board, recorder, hands=board.simulation,
                           backend="sim", start_fen=fen, opening=opening, **options)
        opened.append((play, board, recorder))
        play.start()
        if ready:
            # the first scans must see the start position before a hand acts
            wait_until(lambda: play.game.tracker.state is State.READY, what="the board set up")
        return play

    yield start
    for play, board, recorder in reversed(opened):
        play.stop()
        board.close()
        recorder.close()


@pytest.fixture
def session(start_session):
    """A live session on the simulated board (scan thread on the monotonic clock)."""
    return start_session(tags={"White": XSS, "Black": "Bea"})
