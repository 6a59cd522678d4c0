"""The hall's copy of every board's games, crash-safe: one journal per game,
``<data>/boards/<N>/<game id>.jsonl``, in the board journal's file format (checksummed JSON
lines, each fsynced before the copy in memory changes), replayed at start-up.

The boards stay the source of truth. The hall's journal only spares it asking for every
game again after a restart; a damaged hall journal is set aside (``.damaged``) and the
game is filled again from the board's retained state and ``resend``.

Records (besides the journal's ``seq``): ``start`` (game id, variant, start FEN, tags,
mode, start times), ``move`` (the board's move record with its ``seq`` in the game and
``changes``), ``truncate`` (a takeback on the board: keep the first ``keep`` moves),
``tags`` and ``result``. Each carries ``received``, the hall's wall-clock time: the
broadcast's delay is counted on the hall's clock, which a board's clock cannot upset.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.position import Move
from draughtsboard.hall_protocol.games import play_record, start_game
from draughtsboard.hall_protocol.messages import GAME_ID, GameRecord, MessageError, MoveRecord
from draughtsboard.recording import Journal, JournalError

log = logging.getLogger("draughtsboard.hall")


@dataclass
class HallGame:
    """One board's game as the hall has it. ``received[i]`` is when move ``i + 1``
    arrived; ``finished`` covers an abandoned game too (result ``*``)."""

    board: int
    game_id: str
    game: Game
    journal: Journal | None
    changes: int = 0
    received: list[float] = field(default_factory=list)
    started_received: float = 0.0
    finished: bool = False
    result_received: float | None = None
    version: int = 0

    @property
    def ply(self) -> int:
        return self.game.ply

    @property
    def number(self) -> int:
        """The game's running number on its board (orders a board's games)."""
        return int(self.game_id.split("-", 1)[0])

    @property
    def round(self) -> str:
        return self.game.tags.get("Round", "")

    def move_record(self, index: int) -> MoveRecord:
        played = self.game.moves[index]
        return MoveRecord(played.text, played.move.path, played.move.captures,
                          played.t_monotonic, played.t_wall, played.clock)


class HallStore:
    """Every board's games, in memory and in journals. All changes and reads hold
    ``lock`` (the ingest thread writes, the web server reads)."""

    def __init__(self, directory: Path | str, *, sync: bool = True) -> None:
        self.directory = Path(directory)
        self.boards_dir = self.directory / "boards"
        self.sync = sync
        self.lock = threading.RLock()
        self.games: dict[int, dict[str, HallGame]] = {}

    # -- reading back -----------------------------------------------------------------------

    def load(self) -> int:
        """Replay every journal; the number of games loaded."""
        count = 0
        if not self.boards_dir.is_dir():
            return 0
        for board_dir in sorted(self.boards_dir.iterdir()):
            if not board_dir.name.isdigit():
                continue
            board = int(board_dir.name)
            for path in sorted(board_dir.glob("*.jsonl")):
                if not GAME_ID.match(path.stem):
                    continue
                try:
                    hall_game = self._replay(board, path)
                except (JournalError, DraughtsError, MessageError, KeyError, TypeError,
                        ValueError) as error:
                    aside = path.with_suffix(".damaged")
                    log.error("board %d: hall journal %s unusable (%s); set aside as %s, the "
                              "board will be asked again", board, path.name, error, aside.name)
                    os.replace(path, aside)
                    continue
                self.games.setdefault(board, {})[hall_game.game_id] = hall_game
                count += 1
        return count

    def _replay(self, board: int, path: Path) -> HallGame:
        journal = Journal(path, sync=self.sync)
        try:
            records = journal.records
            if not records or records[0].get("type") != "start":
                raise JournalError("no start record")
            start = records[0]
            hall_game = HallGame(board, start["game"], start_game(_start_record(start)), journal,
                                 started_received=start["received"])
            for record in records[1:]:
                self._apply(hall_game, record)
        except BaseException:
            journal.close()
            raise
        return hall_game

    # -- changes: journal first, then memory -------------------------------------------------

    def _write(self, hall_game: HallGame, record: dict) -> None:
        if hall_game.journal is not None:
            hall_game.journal.append(record)
        self._apply(hall_game, record)
        hall_game.version += 1

    def _apply(self, hall_game: HallGame, record: dict) -> None:
        kind = record["type"]
        if kind == "move":
            if record["seq"] != hall_game.ply + 1:
                raise JournalError(f"move {record['seq']} after {hall_game.ply} moves")
            play_record(hall_game.game, MoveRecord.from_dict(record))
            hall_game.received.append(record["received"])
            hall_game.changes = max(hall_game.changes, record["changes"])
        elif kind == "truncate":
            while hall_game.ply > record["keep"]:
                hall_game.game.undo()
                hall_game.received.pop()
            hall_game.changes = max(hall_game.changes, record["changes"])
        elif kind == "tags":
            hall_game.game.tags.clear()
            hall_game.game.tags.update(record["tags"])
        elif kind == "result":
            hall_game.game.set_result(record["result"], record.get("reason", ""))
            if hall_game.game.result is None:
                hall_game.game.result_reason = record.get("reason") or "abandoned"
            hall_game.finished = True
            hall_game.result_received = record["received"]
        else:
            raise JournalError(f"unknown record type {kind!r}")

    def create(self, board: int, record: GameRecord, received: float) -> HallGame:
        """A game the hall has not seen before (checked: variant, start position)."""
        game = start_game(record)
        path = self.boards_dir / str(board) / f"{record.game}.jsonl"
        if path.exists():
            os.replace(path, path.with_suffix(".damaged"))
        journal = Journal(path, sync=self.sync)
        journal.append({"type": "start", "game": record.game, "variant": record.variant,
                        "fen": record.fen, "tags": dict(record.tags), "mode": record.mode,
                        "t_mono": record.t_mono, "t_wall": record.t_wall,
                        "received": received})
        hall_game = HallGame(board, record.game, game, journal, started_received=received)
        self.games.setdefault(board, {})[record.game] = hall_game
        return hall_game

    def add_move(self, hall_game: HallGame, move: MoveRecord, changes: int,
                 received: float) -> None:
        """The next move (the rules check it first: `MessageError` if illegal)."""
        probe = hall_game.game.position
        try:
            probe.play(_move(move))
        except DraughtsError as error:
            raise MessageError(f"move {hall_game.ply + 1} ({move.text}): {error}") from None
        self._write(hall_game, {"type": "move", "seq": hall_game.ply + 1, **move.to_dict(),
                                "changes": changes, "received": received})

    def truncate(self, hall_game: HallGame, keep: int, changes: int, received: float) -> None:
        self._write(hall_game, {"type": "truncate", "keep": keep, "changes": changes,
                                "received": received})

    def set_tags(self, hall_game: HallGame, tags: dict[str, str]) -> None:
        self._write(hall_game, {"type": "tags", "tags": dict(tags)})

    def set_result(self, hall_game: HallGame, result: str, reason: str,
                   received: float) -> None:
        self._write(hall_game, {"type": "result", "result": result, "reason": reason,
                                "received": received})
        if hall_game.journal is not None:
            hall_game.journal.close()
            hall_game.journal = None

    # -- questions -----------------------------------------------------------------------

    def game(self, board: int, game_id: str) -> HallGame | None:
        return self.games.get(board, {}).get(game_id)

    def board_games(self, board: int) -> list[HallGame]:
        """A board's games, oldest first."""
        return sorted(self.games.get(board, {}).values(), key=lambda g: g.number)

    def latest(self, board: int) -> HallGame | None:
        games = self.games.get(board)
        return max(games.values(), key=lambda g: g.number) if games else None

    def all_games(self) -> Iterator[HallGame]:
        for board in sorted(self.games):
            yield from self.board_games(board)

    def close(self) -> None:
        with self.lock:
            for hall_game in self.all_games():
                if hall_game.journal is not None:
                    hall_game.journal.close()
                    hall_game.journal = None


def _move(move: MoveRecord) -> Move:
    return Move(move.path, move.captures)


def _start_record(start: dict) -> GameRecord:
    return GameRecord(start["game"], start["variant"], dict(start.get("tags") or {}), (), 0,
                      start.get("fen"), start.get("mode") or "tournament", start.get("t_mono"),
                      start.get("t_wall"))

