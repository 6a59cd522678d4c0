"""A round's pairings as the arbiter brings them: a CSV file (``round,board,white,black``
and optionally ``event`` and ``time_control``, with or without that header line) or a PDN
file whose games' tags say it (``Round``, ``Board``, ``White``, ``Black``, ``Event``,
``TimeControl``). Every row is checked (board numbers, tag values as PDN allows them, a
time control the boards' clocks run: seconds, or seconds+increment) and a bad one is
named by its line.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.tags import clean_tags
from draughtsboard.board.message import Message
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall_protocol.topics import MAX_BOARD

from .said import HallError, said

MAX_PAIRINGS = 2000
COLUMNS = ("round", "board", "white", "black", "event", "time_control")
TIME_CONTROL = re.compile(r"^\d{1,6}(\.\d+)?(\+\d{1,4}(\.\d+)?)?$")  # 5400+30: seconds


class PairingsError(HallError):
    """Pairings that cannot be read (names the line or game), in a message."""


@dataclass(frozen=True)
class Pairing:
    round: str
    board: int
    white: str
    black: str
    event: str = ""
    time_control: str = ""  # the round's TimeControl tag: seconds, or seconds+increment

    def tags(self) -> dict[str, str]:
        tags = {"Round": self.round, "Board": str(self.board), "White": self.white,
                "Black": self.black}
        if self.event:
            tags["Event"] = self.event
        if self.time_control:
            tags["TimeControl"] = self.time_control
        return clean_tags(tags)

    def to_dict(self) -> dict:
        return {"round": self.round, "board": self.board, "white": self.white,
                "black": self.black, "event": self.event, "time_control": self.time_control}


def _pairing(values: dict[str, str], where: Message) -> Pairing:
    board_text = (values.get("board") or "").strip()
    if not board_text.isdigit() or not 1 <= int(board_text) <= MAX_BOARD:
        raise PairingsError(said("console.pairings.board", where=where, board=board_text[:20],
                                 last=MAX_BOARD))
    round_name = (values.get("round") or "").strip()
    if not round_name or not all(c.isalnum() or c in ".-_" for c in round_name) \
            or len(round_name) > 20:
        raise PairingsError(said("console.pairings.round", where=where, round=round_name[:40]))
    time_control = (values.get("time_control") or "").strip()
    if time_control and (not TIME_CONTROL.match(time_control)
                         or float(time_control.partition("+")[0]) <= 0):
        raise PairingsError(said("console.pairings.time_control", where=where,
                                 value=time_control[:40]))
    pairing = Pairing(round_name, int(board_text), (values.get("white") or "").strip(),
                      (values.get("black") or "").strip(), (values.get("event") or "").strip(),
                      time_control)
    try:
        pairing.tags()
    except DraughtsError as error:
        raise PairingsError(said("console.pairings.tags", where=where,
                                 error=str(error)[:300])) from None
    return pairing


def parse_csv(text: str) -> list[Pairing]:
    rows = list(csv.reader(io.StringIO(text)))
    if rows and [c.strip().lower() for c in rows[0]][:4] == list(COLUMNS[:4]):
        header = [c.strip().lower() for c in rows.pop(0)]
        first_line = 2
    else:
        header, first_line = list(COLUMNS), 1
    out = []
    for number, row in enumerate(rows, first_line):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < 4:
            raise PairingsError(said("console.pairings.columns",
                                     where=said("console.pairings.line", line=number)))
        out.append(_pairing(dict(zip(header, row, strict=False)),
                            said("console.pairings.line", line=number)))
    return _checked(out)


def parse_pdn(text: str) -> list[Pairing]:
    read = read_pdn(text, source="pairings", variant=get_variant("russian"))  # tags only
    if read.errors and not read.games:
        raise PairingsError(said("console.pairings.pdn", error=str(read.errors[0])[:300]))
    out = []
    for item in read.games:
        tags = item.game.tags
        values = {k.lower(): tags.get(k, "") for k in
                  ("Round", "Board", "White", "Black", "Event")}
        values["time_control"] = tags.get("TimeControl", "")
        out.append(_pairing(values, said("console.pairings.game", game=item.number)))
    return _checked(out)


def parse_pairings(text: str) -> list[Pairing]:
    """CSV or PDN, told apart by the first character that is not a space."""
    stripped = text.lstrip("\ufeff \t\r\n")
    return parse_pdn(text) if stripped.startswith("[") else parse_csv(text)


def _checked(pairings: list[Pairing]) -> list[Pairing]:
    if not pairings:
        raise PairingsError(said("console.pairings.none"))
    if len(pairings) > MAX_PAIRINGS:
        raise PairingsError(said("console.pairings.too_many", count=MAX_PAIRINGS))
    seen = set()
    for pairing in pairings:
        key = (pairing.round, pairing.board)
        if key in seen:
            raise PairingsError(said("console.pairings.twice", round=pairing.round,
                                     board=pairing.board))
        seen.add(key)
    return pairings
