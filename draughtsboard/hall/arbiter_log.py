"""The arbiter's actions in the hall, journalled (``<data>/arbiter.jsonl``, the journal
file format): pairings imported, commands sent to boards and the boards' answers. The
pairings are read back from it at start-up, and so is which game each pairing became: a
board answers the hall's ``new_game`` with the id of the game it started, and that game,
no other, is the round's game on that board in the feed (a game the board starts on its
own with the round's tags does not replace it; two answers naming two games leave the
round's game to the arbiter)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from draughtsboard.hall_protocol.messages import GAME_ID
from draughtsboard.recording import Journal, JournalError

from .feed import CONTESTED
from .pairings import Pairing

NEW_GAMES_REMEMBERED = 10_000  # new_game commands awaiting the board's answer

log = logging.getLogger("draughtsboard.hall")


class ArbiterLog:
    def __init__(self, path: Path, *, sync: bool = True) -> None:
        self.path = Path(path)
        try:
            self.journal = Journal(self.path, sync=sync)
        except JournalError as error:
            aside = self.path.with_suffix(".damaged")
            log.error("arbiter log unusable (%s); set aside as %s", error, aside.name)
            os.replace(self.path, aside)
            self.journal = Journal(self.path, sync=sync)
        self.pairings: dict[str, list[Pairing]] = {}
        self.round_games: dict[tuple[int, str], str] = {}  # (board, round) -> game id
        self._new_games: dict[str, tuple[int, str]] = {}  # command id -> (board, round)
        self._named: dict[str, str] = {}  # command id -> the game its first answer named
        for record in self.journal.records:
            self._apply(record)

    def _apply(self, record: dict) -> None:
        """One record of the log, the same live and when it is read back."""
        kind = record.get("type")
        if kind == "pairings":
            self._apply_pairings(record)
        elif kind == "command" and record.get("cmd") == "new_game":
            round_name = (record.get("tags") or {}).get("Round")
            if isinstance(round_name, str) and isinstance(record.get("board"), int):
                self._new_games[str(record.get("id"))] = (record["board"], round_name)
                while len(self._new_games) > NEW_GAMES_REMEMBERED:
                    forgotten = next(iter(self._new_games))
                    self._new_games.pop(forgotten)
                    self._named.pop(forgotten, None)
        elif kind == "round_game" and isinstance(record.get("board"), int) \
                and isinstance(record.get("round"), str) and isinstance(record.get("game"), str):
            self.round_games[(record["board"], record["round"])] = record["game"]
        elif kind == "reply" and record.get("ok") is True:
            asked = self._new_games.get(str(record.get("id")))
            game = record.get("result")
            if asked is not None and isinstance(game, str) and GAME_ID.match(game) \
                    and asked[0] == record.get("board"):
                named = self._named.setdefault(str(record.get("id")), game)
                # two answers to one command naming two games: one was not the board's
                self.round_games[asked] = game if named == game else CONTESTED

    def _apply_pairings(self, record: dict) -> None:
        rows = [Pairing(**row) for row in record["pairings"]]
        for round_name in {row.round for row in rows}:
            self.pairings[round_name] = sorted((r for r in rows if r.round == round_name),
                                               key=lambda r: r.board)

    def note(self, kind: str, t_wall: float, **fields) -> None:
        record = {"type": kind, "t_wall": t_wall, **fields}
        self.journal.append(record)
        self._apply(record)

    def import_pairings(self, pairings: list[Pairing], t_wall: float) -> None:
        self.note("pairings", t_wall, pairings=[p.to_dict() for p in pairings])

    def recent(self, count: int = 50) -> list[dict]:
        return [{k: v for k, v in r.items() if k != "pairings"}
                for r in self.journal.records[-count:]]

    def close(self) -> None:
        self.journal.close()
