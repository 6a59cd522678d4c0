"""A room's link cut: the hall shows that room's boards cut off, whatever their last
status said (their Last Will fired on their room's broker, not the event's), and online
again as their status says once the link is back. Pure: no broker."""

from __future__ import annotations

import pytest

from draughtsboard.hall.ingest import Ingest
from draughtsboard.hall.room_links import RoomLinks
from draughtsboard.hall.rooms import parse_rooms
from draughtsboard.hall.store import HallStore
from draughtsboard.hall.views import needs_arbiter
from draughtsboard.hall_protocol.messages import StatusMessage


@pytest.fixture
def ingest(tmp_path):
    store = HallStore(tmp_path, sync=False)
    yield Ingest(store, links=RoomLinks(parse_rooms("north:1-2,south:3-4")))
    store.close()


def status(ingest: Ingest, board: int, online: bool) -> None:
    ingest.handle(board, "status", StatusMessage(online, "t", 1.0).to_json(), 0.0)


def shown(ingest: Ingest, board: int) -> tuple[bool, str | None, list[str]]:
    live = ingest.live(board)
    return live.online, live.room_cut, [m.id for m in needs_arbiter(live, None)]


def test_a_cut_rooms_boards_are_shown_cut_off_and_come_back_as_their_status_said(ingest):
    for board in (1, 3, 4):
        status(ingest, board, True)
    status(ingest, 4, False)  # board 4 was off before the cut
    assert ingest.room_link("south", b"0")
    assert shown(ingest, 1) == (True, None, [])
    assert shown(ingest, 3) == (False, "south", ["hall.need.room_cut"])
    assert shown(ingest, 4) == (False, "south", ["hall.need.room_cut"])
    # a status the broker kept from before the cut does not make the board online
    status(ingest, 3, True)
    assert shown(ingest, 3) == (False, "south", ["hall.need.room_cut"])
    assert ingest.room_link("south", b"1")
    assert shown(ingest, 3) == (True, None, [])
    assert shown(ingest, 4) == (False, None, ["hall.need.offline"])


def test_the_same_word_twice_a_room_outside_the_plan_and_noise_change_nothing(ingest):
    status(ingest, 3, True)
    assert ingest.room_link("south", b"1") is False  # up is what the hall assumed
    assert ingest.room_link("south", b"0") is True
    assert ingest.room_link("south", b"0") is False
    version = ingest.live(3).version
    for room, payload in [("east", b"0"), ("south", b""), ("south", b"down"),
                          ("south", b"\xff" * 1000)]:
        assert ingest.room_link(room, payload) is False
    assert ingest.live(3).version == version
    assert shown(ingest, 3)[1] == "south"


def test_a_board_first_seen_while_its_room_is_cut_is_cut_off(ingest):
    """A hall started during a cut: the link's retained "0" may come before the boards'
    retained statuses, which still say online."""
    ingest.room_link("north", b"0")
    status(ingest, 2, True)
    assert shown(ingest, 2) == (False, "north", ["hall.need.room_cut"])
    assert ingest.links.room_of(9) is None and ingest.links.cut_off(9) is None


def test_no_room_of_a_venue_can_be_taken_for_the_public_feed():
    """A public hall's one room is the venue's feed; a venue's own rooms are named with
    letters, digits and dashes, so none can be mistaken for it (a room "venue" cut is a
    room cut, not the feed)."""
    from draughtsboard.hall.rooms import RoomError, parse_room
    from draughtsboard.hall_protocol.topics import PUBLIC_FEED

    with pytest.raises(RoomError):
        parse_room(f"{PUBLIC_FEED}:1-2")
    assert parse_room("venue:1-2").name == "venue"
