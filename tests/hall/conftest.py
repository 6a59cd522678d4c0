from __future__ import annotations

import contextlib
import functools
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from draughtsboard.board.ports import squares_from_mask
from draughtsboard.board.tracker import State
from draughtsboard.hall.service import HallService
from draughtsboard.hall_link import HallLink
from draughtsboard.hall_protocol import parse_broker_url
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.play import PlaySession, choose_opening
from draughtsboard.recording import Recorder

from ..browser import ARTIFACTS
from ..web.helpers import wait_until
from .broker import Broker
from .recipe import Recipe


@pytest.fixture
def open_folder():
    """A folder every user may enter, as /srv or /etc are (pytest's tmp_path lies under a
    folder of mode 0700 that Debian's mosquitto user cannot enter)."""
    folder = Path(tempfile.mkdtemp(prefix="draughtsboard-venue-"))
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def broker(tmp_path):
    running = Broker(tmp_path / "venue", boards=10)
    try:
        yield running
    finally:
        running.stop()


class LinkedBoard:
    """A board in play on the simulated board, linked to the hall."""

    def __init__(self, directory, broker: Broker, number: int, variant: str = "russian",
                 tags: dict | None = None) -> None:
        self.number = number
        self.recorder = Recorder(directory / f"board{number}", sync=False)
        opening = choose_opening(self.recorder, variant=variant)  # resumes a game
        occupied = squares_from_mask(opening.expected_position.occupancy())
        self.board = open_simulated_board(opening.variant.geometry, occupied=occupied,
                                          real_time=True)
        self.session = PlaySession(variant, self.board, self.board, self.recorder,
                                   opening=opening,
                                   hands=self.board.simulation, token="t",
                                   tags={"Round": "1", "White": f"W{number}",
                                         "Black": f"B{number}", **(tags or {})})
        self.session.start()
        wait_until(lambda: self.session.game.tracker.state is State.READY, what="the board set up")
        address = parse_broker_url(broker.venue.board_url(number))
        self.link = HallLink(self.session, address, number, software="test",
                             read_game=self.recorder.game)
        self.link.start()

    def play(self, move) -> None:
        """Make a move with the hands, and wait until the board recorded it."""
        ply = self.session.game.moves_recorded
        actions = [("lift", move.path[0])]
        for landing in move.path[1:-1]:
            actions += [("place", landing), ("lift", landing)]
        actions.append(("place", move.path[-1]))
        actions += [("lift", s) for s in move.captures]
        self.session.hand(actions)
        wait_until(lambda: self.session.game.moves_recorded > ply, what=f"move {move}")

    def legal(self):
        return self.session.game.tracker.position.legal_moves()

    def close(self) -> None:
        self.link.stop()
        self.session.stop()
        self.board.close()
        self.recorder.close()


@contextlib.contextmanager
def linked_boards(directory):
    """A fixture's maker of `LinkedBoard`s (``make(broker, number, **options)``), each
    closed afterwards."""
    made: list[LinkedBoard] = []

    def make(broker, number: int, **kwargs) -> LinkedBoard:
        board = LinkedBoard(directory, broker, number, **kwargs)
        made.append(board)
        return board

    try:
        yield make
    finally:
        for board in made:
            board.close()


@pytest.fixture
def boards(tmp_path, broker):
    """``boards(number, **options)``: a board in play, linked to ``broker``'s hall."""
    with linked_boards(tmp_path) as make:
        yield functools.partial(make, broker)


@pytest.fixture
def hall(tmp_path, broker):
    services: list[HallService] = []

    def make() -> HallService:
        service = HallService(parse_broker_url(broker.venue.hall_url()), tmp_path / "hall",
                              sync=False, reply_timeout=10)
        service.start()
        services.append(service)
        wait_until(lambda: service.connected, what="the hall to connect")
        return service

    try:
        yield make
    finally:
        for service in services:
            if not service.closing:
                service.stop()


def _running(request, *settings):
    """A `recipe.Recipe` running with ``settings``, stopped afterwards; its output kept in
    test-artifacts/ for a look after a failure."""
    running = Recipe(*settings)
    try:
        yield running
    finally:
        running.stop()
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"{request.node.name}.log").write_text(running.output)


@pytest.fixture
def recipe(request):
    """docs/hall.md's one-machine recipe, running (`recipe.Recipe`)."""
    yield from _running(request)


@pytest.fixture
def rooms_recipe(request):
    """docs/hall.md's recipe of a venue in rooms, running (`recipe.Recipe`)."""
    from .recipe import ROOMS_MARK, ROOMS_PORTS

    yield from _running(request, ROOMS_MARK, ROOMS_PORTS)


@pytest.fixture
def mirror_recipe(request):
    """docs/hall.md's recipe of a public mirror, running (`recipe.Recipe`)."""
    from .recipe import MIRROR_MARK, MIRROR_PORTS

    yield from _running(request, MIRROR_MARK, MIRROR_PORTS)


@pytest.fixture
def match_recipe(request):
    """docs/hall.md's recipe of a match between towns, running (`recipe.Recipe`)."""
    from .recipe import MATCH_MARK, MATCH_PORTS

    yield from _running(request, MATCH_MARK, MATCH_PORTS)
