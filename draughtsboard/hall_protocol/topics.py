"""The topic tree, versioned so that a hall and boards of different releases can share a
broker: ``draughtsboard/v1/board/<N>/<kind>``.

A board publishes ``status`` (retained, with its Last Will), ``state`` (retained: the
current game whole), ``ply`` (each move, QoS 1), ``game`` (a whole game the hall asked
for) and ``reply`` (answers to commands); it reads only ``command``, which only the
hall's user may publish. The broker's ACL enforces exactly that (docs/hall.md).
"""

from __future__ import annotations

import re

ROOT = "draughtsboard/v1"
BOARD_KINDS = ("status", "state", "ply", "game", "reply")  # what a board publishes
COMMAND = "command"  # what the hall publishes to one board
MAX_BOARD = 9999


def board_topic(board: int, kind: str) -> str:
    if not 1 <= board <= MAX_BOARD:
        raise ValueError(f"board number {board} is not in 1-{MAX_BOARD}")
    if kind not in BOARD_KINDS and kind != COMMAND:
        raise ValueError(f"no topic kind {kind!r}")
    return f"{ROOT}/board/{board}/{kind}"


def subscription(kind: str = "+") -> str:
    """The filter for one kind of message of every board (``+``: every kind)."""
    return f"{ROOT}/board/+/{kind}"


def parse_topic(topic: str) -> tuple[int, str] | None:
    """(board number, kind) of a board topic; ``None`` for anything else."""
    prefix = ROOT + "/board/"
    if not topic.startswith(prefix):
        return None
    number, _, kind = topic[len(prefix):].partition("/")
    if not (number.isascii() and number.isdigit()) or len(number) > 4 or number.startswith("0"):
        return None
    board = int(number)
    if not 1 <= board <= MAX_BOARD or (kind not in BOARD_KINDS and kind != COMMAND):
        return None
    return board, kind


ROOM_LINKS = f"{ROOT}/room/+/link"  # every room's bridge: "1" up, "0" down (retained)
# A public broker's one "room": the venue's delayed feed. Its link is "1" while both the
# public broker's bridge and the venue hall's mirror behind it are up (docs/hall.md, "A
# public mirror"); the public hall shows the boards cut off while it is "0".
PUBLIC_FEED = "public_feed"  # (an underscore: no room of a venue can have this name)


def room_link_topic(room: str) -> str:
    """Where a room broker's bridge to the event's broker says whether it is up (the
    broker's own notification, docs/hall.md "A venue in rooms")."""
    return f"{ROOT}/room/{room}/link"


def parse_room_link(topic: str) -> str | None:
    """The room whose bridge state ``topic`` is; ``None`` for any other topic."""
    prefix, suffix = f"{ROOT}/room/", "/link"
    if not (topic.startswith(prefix) and topic.endswith(suffix)):
        return None
    room = topic[len(prefix):-len(suffix)]
    return room if room and "/" not in room else None


PUBLIC_ROOT = f"{ROOT}/public"  # a public mirror's tree on the event's broker: the
# boards' topics again (``public/board/<N>/<kind>``), each game as it stood a delay ago


def public_topic(board: int, kind: str) -> str:
    """Where the venue's hall publishes a board's delayed game for the public mirror (a
    public broker's bridge maps it back to ``board_topic(board, kind)``)."""
    return PUBLIC_ROOT + board_topic(board, kind)[len(ROOT):]


MATCH_ROOT = f"{ROOT}/match"  # matches between boards in two towns, bridged both ways
MATCH_SEATS = ("white", "black")
MATCH_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")  # as play's --opponent board:MATCH
MATCH_KINDS = ("record", "beat", "presence")  # what a board publishes under its seat


def match_topic(match: str, seat: str, kind: str) -> str:
    """Where the board at ``seat`` of ``match`` publishes ``kind`` (docs/hall.md, "A
    match between towns"): its record of the game (retained), its beat, its presence
    (retained, with its Will)."""
    if seat not in MATCH_SEATS or kind not in MATCH_KINDS or not MATCH_NAME.match(match):
        raise ValueError(f"no match topic {match!r}/{seat!r}/{kind!r}")
    return f"{MATCH_ROOT}/{match}/{seat}/{kind}"


def match_seat_filter(match: str, seat: str) -> str:
    """Every topic of one seat of a match (a bridge's or an ACL's line)."""
    return f"{MATCH_ROOT}/{match}/{seat}/#"
