"""A venue in rooms, on real brokers: an event's broker and two rooms' brokers on the
loopback, each started on the files `draughtsboard.hall.rooms` wrote (as ``draughtsboard
venue --rooms`` and ``--room`` do), boards publishing to their room's broker and one hall
on the event's. Every board reaches the hall; the hall's commands reach the boards; the
event's broker killed while the rooms play on, and a room's broker stopped while the hall
sends it a command, lose nothing and double nothing."""

from __future__ import annotations

import getpass
import random
import types

import pytest

from draughtsboard.hall.rooms import parse_rooms, write_event_venue, write_room_venue
from draughtsboard.hall.service import HallService
from draughtsboard.hall_protocol import parse_broker_url
from draughtsboard.hall_protocol.topics import board_topic

from ..web.helpers import wait_until
from .broker import ConfiguredBroker, free_port
from .conftest import linked_boards
from .test_bad_input import RawClient
from .test_live import board_moves, hall_moves, play_random

pytestmark = pytest.mark.broker


@pytest.fixture
def venue(tmp_path):
    """(event broker, {room: room broker}, event venue, {room: room venue})."""
    user = getpass.getuser()
    rooms = parse_rooms("north:1-2,south:3-4")
    event = write_event_venue(tmp_path / "event", rooms, port=free_port(),
                              log_file=tmp_path / "event.log", autosave_interval=1,
                              run_as=user)
    written = {room.name: write_room_venue(
        tmp_path / room.name, room, "127.0.0.1", event.port,
        event.room_passwords[room.name], host="127.0.0.1", port=free_port(),
        log_file=tmp_path / f"{room.name}.log", autosave_interval=1, run_as=user)
        for room in rooms}
    brokers = [ConfiguredBroker(event.config, event.port, tmp_path / "event.log")]
    try:
        for room in written.values():
            brokers.append(ConfiguredBroker(room.config, room.port,
                                            tmp_path / f"{room.room.name}.log"))
        yield brokers[0], dict(zip(written, brokers[1:], strict=True)), event, written
    finally:
        for broker in brokers:
            broker.stop()


@pytest.fixture
def linked(tmp_path):
    """``linked(number, room)``: a board in play, linked to ``room``'s broker."""
    with linked_boards(tmp_path) as make:
        yield lambda number, room: make(types.SimpleNamespace(venue=room), number)


def start_hall(tmp_path, event, rooms: str = "north:1-2,south:3-4") -> HallService:
    service = HallService(parse_broker_url(event.hall_url()), tmp_path / "hall", sync=False,
                          reply_timeout=1, rooms=parse_rooms(rooms))
    service.start()
    wait_until(lambda: service.connected, what="the hall to connect")
    return service


def shown(service, board: int) -> tuple[bool, str | None]:
    """(online, the room that cuts it off) as the hall's page has the board."""
    summary = service.summaries()[board][1]
    return summary["online"], summary["room_cut"]


def needs_of(service, board: int) -> list[str]:
    return [need["id"] for need in service.summaries()[board][1]["needs"]]


def tags_of(board) -> dict[str, str]:
    return board.recorder.game(board.session.game.game_id).tags


def all_there(service, boards) -> bool:
    return all(hall_moves(service, b.number) == board_moves(b) for b in boards)


def test_one_hall_sees_every_board_of_every_room_through_a_cut(tmp_path, venue, linked):
    event_broker, room_brokers, event, rooms = venue
    boards = [linked(n, rooms["north" if n <= 2 else "south"]) for n in (1, 2, 3, 4)]
    service = start_hall(tmp_path, event)
    try:
        rng = random.Random(11)
        for board in boards:
            play_random(board, 2, rng)
        wait_until(lambda: all_there(service, boards), timeout=20,
                   what="every room's boards in the hall")
        # the event's broker dies: the rooms play on, their brokers keep what goes out
        event_broker.kill()
        for board in boards:
            play_random(board, 3, rng)
        assert all(board.link.connected for board in boards)  # to their rooms' brokers
        event_broker.start()
        wait_until(lambda: all_there(service, boards), timeout=30,
                   what="the moves played while the event's broker was down")
        # a room's broker away while the hall sends one of its boards a command: the
        # event's broker keeps it for the room's bridge
        room_brokers["south"].stop()
        wait_until(lambda: not boards[2].link.connected, what="board 3 to lose its room")
        # the hall shows the south room's boards cut off (their statuses still say
        # online: their Will fired on their room's broker), the north's online
        wait_until(lambda: [shown(service, n) for n in (1, 2, 3, 4)]
                   == [(True, None), (True, None), (False, "south"), (False, "south")],
                   what="the south room's boards shown cut off")
        assert "hall.need.room_cut" in needs_of(service, 3)
        service.set_tags(3, {"Site": "South hall"})
        room_brokers["south"].start()
        wait_until(lambda: [shown(service, n) for n in (3, 4)] == [(True, None)] * 2,
                   timeout=30, what="the south room's boards online again")
        wait_until(lambda: tags_of(boards[2]).get("Site") == "South hall",
                   timeout=30, what="the command kept for the room")
        play_random(boards[2], 1, rng)
        wait_until(lambda: all_there(service, boards), timeout=20, what="everything again")
        with service.store.lock:
            for board in boards:  # nothing twice: each hall game is the board's, once
                games = service.store.board_games(board.number)
                assert len(games) == 1 and games[0].game.ply == len(board_moves(board))
    finally:
        service.stop()


@pytest.fixture
def event_alone(tmp_path):
    """The event's broker of two rooms, with no room's broker running."""
    event = write_event_venue(tmp_path / "event", parse_rooms("north:1-2,south:3-4"),
                              port=free_port(), log_file=tmp_path / "event.log",
                              run_as=getpass.getuser())
    broker = ConfiguredBroker(event.config, event.port, tmp_path / "event.log")
    try:
        yield event
    finally:
        broker.stop()


def test_a_rooms_password_speaks_only_for_its_boards(event_alone):
    """The room's user on the event's broker (the bridge's, whose password sits in the
    room's configuration) publishes its own boards and reads their commands only."""
    event = event_alone
    stolen = RawClient(event.url("room-north", event.room_passwords["north"]), "anything")
    try:
        assert stolen.publish(board_topic(1, "ply"), b"{}").value in (0, 0x10)  # its own
        for topic in (board_topic(3, "state"), board_topic(1, "command")):
            assert stolen.publish(topic, b"{}").value == 0x87, topic  # Not authorized
        hall = RawClient(event.hall_url(), "hall")
        try:
            stolen.subscribe(board_topic(3, "command"))
            hall.publish(board_topic(3, "command"), b"{}")
            stolen.subscribe(board_topic(1, "command"))
            hall.publish(board_topic(1, "command"), b"{}")
            wait_until(lambda: stolen.messages, what="board 1's command")
            assert [topic for topic, _ in stolen.messages] == [board_topic(1, "command")]
        finally:
            hall.close()
    finally:
        stolen.close()
