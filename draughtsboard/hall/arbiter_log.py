"""The arbiter's actions in the hall, journalled (``<data>/arbiter.jsonl``, the journal
file format): pairings imported, rounds and pairings started, commands sent to boards and
the boards' answers. Everything here is read back from it at start-up, the same way it
was applied live:

* which game each pairing became: a board answers the hall's ``new_game`` with the id of
  the game it started, and that game, no other, is the round's game on that board in the
  feed (a game the board starts on its own with the round's tags does not replace it;
  two answers naming two games leave the round's game to the arbiter, ``round_game``
  records what the arbiter decided);
* the pairings the hall still owes its boards (`Promise`): a round started, or one
  board's pairing started or its game restarted, is a promise kept until the board
  answers the pairing's ``new_game`` with its game (`delivery` decides when to send it);
* the commands not answered yet, and the ones a board refused, shown on its card until
  a later one of the same kind succeeds or the arbiter has seen them (``clear``).
"""

from __future__ import annotations

import logging
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from draughtsboard.hall_protocol.messages import GAME_ID
from draughtsboard.recording import Journal, JournalError

from .feed import CONTESTED
from .pairings import Pairing

NEW_GAMES_REMEMBERED = 10_000  # new_game commands awaiting the board's answer
OUTSTANDING_REMEMBERED = 10_000  # commands of any kind awaiting an answer
REFUSALS_KEPT = 5  # refused commands shown per board

log = logging.getLogger("draughtsboard.hall")


@dataclass
class Promise:
    """A pairing the hall owes board ``board`` for round ``round``: a new game with
    ``tags``. ``restart``: the board has a game for it already, which this one replaces.
    ``close``: the game with moves the arbiter confirmed may be closed for it.
    ``command``: the id of the ``new_game`` sent for it (None: none waits for an answer);
    ``refused``: the game and the board's words when it refused the last one."""

    round: str
    board: int
    tags: dict[str, str]
    made: float
    restart: bool = False
    close: str | None = None
    command: str | None = None
    refused: tuple[str | None, str] | None = None


@dataclass
class Refusal:
    """A command a board refused: shown until seen or superseded."""

    id: str
    board: int
    cmd: str
    error: str
    t_wall: float
    fields: dict[str, Any] = field(default_factory=dict)


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
        self.game_rounds: dict[tuple[int, str], str] = {}  # (board, game id) -> round
        self.promises: dict[tuple[int, str], Promise] = {}  # (board, round) -> owed
        self.outstanding: OrderedDict[str, dict] = OrderedDict()  # command id -> record
        self.refusals: dict[int, list[Refusal]] = {}  # board -> refused, oldest first
        self._new_games: dict[str, tuple[int, str]] = {}  # command id -> (board, round)
        self._named: dict[str, str] = {}  # command id -> the game its first answer named
        self.version = 0  # grows with every record: what is shown from here may change
        for record in self.journal.records:
            self._apply(record)

    # -- applying records (live and read back) -------------------------------------------------

    def _apply(self, record: dict) -> None:
        """One record of the log, the same live and when it is read back."""
        self.version += 1
        kind = record.get("type")
        if kind == "pairings":
            self._apply_pairings(record)
        elif kind == "start":
            self._apply_start(record)
        elif kind == "cancel":
            if (board := record.get("board")) is not None:
                self.promises.pop((board, str(record.get("round"))), None)
        elif kind == "clear":  # the arbiter has seen them: off the board's card
            if (board := record.get("board")) is not None:
                self.refusals.pop(board, None)
            for ident in [i for i, r in self.outstanding.items()
                          if r.get("board") == record.get("board") and i not in self._new_games]:
                del self.outstanding[ident]
        elif kind == "round_game" and isinstance(record.get("board"), int) \
                and isinstance(record.get("round"), str) and isinstance(record.get("game"), str):
            self._bind(record["board"], record["round"], record["game"])
        elif kind == "command":
            self._apply_command(record)
        elif kind == "reply":
            self._apply_reply(record)

    def _apply_pairings(self, record: dict) -> None:
        rows = [Pairing(**row) for row in record["pairings"]]
        for round_name in {row.round for row in rows}:
            self.pairings[round_name] = sorted((r for r in rows if r.round == round_name),
                                               key=lambda r: r.board)
            paired = {row.board: row for row in self.pairings[round_name]}
            for key, promise in list(self.promises.items()):
                if promise.round != round_name:
                    continue
                if key[0] in paired:  # pairings corrected before they were delivered
                    promise.tags = paired[key[0]].tags()
                else:
                    del self.promises[key]

    def _apply_start(self, record: dict) -> None:
        round_name = str(record.get("round"))
        paired = {p.board: p for p in self.pairings.get(round_name, [])}
        restart = bool(record.get("restart"))
        close = record.get("close") if isinstance(record.get("close"), str) else None
        for board in record.get("boards") or []:
            pairing = paired.get(board)
            if pairing is None or (not restart and (board, round_name) in self.round_games):
                continue  # delivered already: starting a round again changes nothing there
            owed = self.promises.get((board, round_name))
            if owed is not None:
                # owed already (pressed twice, or a restart asked for again): the same
                # promise, so a new_game waiting for its answer is not sent a second time;
                # what the arbiter adds (a restart, a game to close) counts, and a refusal
                # is tried again
                owed.restart = owed.restart or restart
                owed.close = close or owed.close
                owed.refused = None
                continue
            self.promises[(board, round_name)] = Promise(
                round_name, board, pairing.tags(), record.get("t_wall") or 0.0, restart, close)

    def _apply_command(self, record: dict) -> None:
        ident = str(record.get("id"))
        self.outstanding[ident] = record
        while len(self.outstanding) > OUTSTANDING_REMEMBERED:
            self.outstanding.popitem(last=False)
        if record.get("cmd") != "new_game":
            return
        round_name = (record.get("tags") or {}).get("Round")
        board = record.get("board")
        if isinstance(round_name, str) and isinstance(board, int):
            self._new_games[ident] = (board, round_name)
            while len(self._new_games) > NEW_GAMES_REMEMBERED:
                forgotten = next(iter(self._new_games))
                self._new_games.pop(forgotten)
                self._named.pop(forgotten, None)
            promise = self.promises.get((board, round_name))
            if promise is not None:
                promise.command, promise.refused = ident, None

    def _apply_reply(self, record: dict) -> None:
        ident = str(record.get("id"))
        board = record.get("board")
        sent = self.outstanding.pop(ident, None)
        asked = self._new_games.get(ident)  # kept: a second answer naming another game
        if record.get("ok") is True:
            game = record.get("result")
            if asked is not None and isinstance(game, str) and GAME_ID.match(game) \
                    and asked[0] == board:
                named = self._named.setdefault(ident, game)
                # two answers to one command naming two games: one was not the board's
                self._bind(board, asked[1], game if named == game else CONTESTED)
                promise = self.promises.get(asked)
                if promise is not None and (promise.command == ident or (
                        sent is not None and (sent.get("t_wall") or 0.0) >= promise.made)):
                    del self.promises[asked]  # kept: the board has its game for it
            if sent is not None and isinstance(board, int):  # a refusal it supersedes
                kept = [r for r in self.refusals.get(board, []) if r.cmd != sent.get("cmd")]
                self._set_refusals(board, kept)
            return
        if sent is None or not isinstance(board, int) or sent.get("board") != board:
            return
        error = str(record.get("error") or "refused")
        if asked is not None:  # a pairing's: its promise shows the refusal
            promise = self.promises.get(asked)
            if promise is not None and promise.command == ident:
                promise.command, promise.refused = None, (sent.get("game"), error)
            return
        fields = {k: v for k, v in sent.items()
                  if k not in ("type", "t_wall", "board", "id", "cmd")}
        refusal = Refusal(ident, board, str(sent.get("cmd")), error,
                          record.get("t_wall") or 0.0, fields)
        self._set_refusals(board, [*self.refusals.get(board, []), refusal][-REFUSALS_KEPT:])

    def _bind(self, board: int, round_name: str, game: str) -> None:
        """``game`` is the round's game on the board (or `CONTESTED`: the arbiter says)."""
        before = self.round_games.get((board, round_name))
        if before is not None:
            self.game_rounds.pop((board, before), None)
        self.round_games[(board, round_name)] = game
        if game != CONTESTED:
            self.game_rounds[(board, game)] = round_name

    def _set_refusals(self, board: int, kept: list[Refusal]) -> None:
        if kept:
            self.refusals[board] = kept
        else:
            self.refusals.pop(board, None)

    # -- writing -------------------------------------------------------------------------------

    def note(self, kind: str, t_wall: float, **fields) -> None:
        record = {"type": kind, "t_wall": t_wall, **fields}
        self.journal.append(record)
        self._apply(record)

    def note_all(self, records: list[dict]) -> None:
        """Records (each with its ``type`` and ``t_wall``) journalled together, with one
        flush, then applied in order; none if the journal refuses them."""
        self.journal.append_all(records)
        for record in records:
            self._apply(record)

    def import_pairings(self, pairings: list[Pairing], t_wall: float) -> None:
        self.note("pairings", t_wall, pairings=[p.to_dict() for p in pairings])

    def start(self, round_name: str, boards: list[int], t_wall: float, *,
              restart: bool = False, close: str | None = None) -> None:
        """Promise the round's pairing to ``boards`` (those that have it already keep
        their game, unless ``restart``)."""
        self.note("start", t_wall, round=round_name, boards=list(boards), restart=restart,
                  close=close)

    # -- questions -------------------------------------------------------------------------------

    def pairing(self, round_name: str, board: int) -> Pairing | None:
        return next((p for p in self.pairings.get(round_name, []) if p.board == board), None)

    def promises_of(self, board: int) -> list[Promise]:
        return [p for (b, _), p in self.promises.items() if b == board]

    def waiting_all(self) -> list[dict]:
        """The commands not answered yet, oldest first (a pairing's aside: its promise
        says how it stands)."""
        return [r for r in self.outstanding.values() if r.get("id") not in self._new_games]

    def recent(self, count: int = 50) -> list[dict]:
        return [{k: v for k, v in r.items() if k != "pairings"}
                for r in self.journal.records[-count:]]

    def close(self) -> None:
        self.journal.close()
