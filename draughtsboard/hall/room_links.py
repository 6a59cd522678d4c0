"""Which rooms' bridges are down, and so which boards the hall cannot reach now.

A room's boards connect to their room's broker, not the event's: when the room's link to
the event is cut, the event's broker never sees them leave (their Last Will fires on the
room's broker, which is still up), so their last status still says online. The link's
own state tells: each room's bridge keeps ``draughtsboard/v1/room/<name>/link`` on the
event's broker at "1" while it is up and "0" (its Will) once it is cut. Given the rooms'
plan (``hall --rooms``, as ``venue --rooms``), `RoomLinks` answers which room a board is
in and whether that room is cut off now. Pure: the service feeds it what the broker says.
"""

from __future__ import annotations

from collections.abc import Iterable

from .rooms import Room


class RoomLinks:
    """The rooms' plan and their links' last known state (up until the broker says not)."""

    def __init__(self, rooms: Iterable[Room] = ()) -> None:
        self.rooms = {room.name: room for room in rooms}
        self._cut: set[str] = set()

    def room_of(self, board: int) -> str | None:
        for room in self.rooms.values():
            if room.first <= board <= room.last:
                return room.name
        return None

    def boards_of(self, name: str) -> range:
        room = self.rooms.get(name)
        return room.boards if room is not None else range(0)

    def link(self, name: str, payload: bytes) -> bool:
        """The broker's word on room ``name``'s link ("1" up, "0" down, anything else
        ignored); true when it changed what the hall knows. A room outside the plan is
        ignored: its boards are not the hall's to mark."""
        if name not in self.rooms or payload not in (b"0", b"1"):
            return False
        cut = payload == b"0"
        if cut == (name in self._cut):
            return False
        if cut:
            self._cut.add(name)
        else:
            self._cut.discard(name)
        return True

    def is_cut(self, name: str) -> bool:
        return name in self._cut

    def cut_off(self, board: int) -> str | None:
        """The room whose cut link keeps ``board`` from the hall now, or ``None``."""
        room = self.room_of(board)
        return room if room is not None and room in self._cut else None
