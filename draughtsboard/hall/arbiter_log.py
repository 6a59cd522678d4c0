"""The arbiter's actions in the hall, journalled (``<data>/arbiter.jsonl``, the journal
file format): pairings imported, commands sent to boards and the boards' answers. The
pairings are read back from it at start-up."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from draughtsboard.recording import Journal, JournalError

from .pairings import Pairing

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
        for record in self.journal.records:
            if record.get("type") == "pairings":
                self._apply_pairings(record)

    def _apply_pairings(self, record: dict) -> None:
        rows = [Pairing(**row) for row in record["pairings"]]
        for round_name in {row.round for row in rows}:
            self.pairings[round_name] = sorted((r for r in rows if r.round == round_name),
                                               key=lambda r: r.board)

    def note(self, kind: str, t_wall: float, **fields) -> None:
        self.journal.append({"type": kind, "t_wall": t_wall, **fields})

    def import_pairings(self, pairings: list[Pairing], t_wall: float) -> None:
        record = {"type": "pairings", "pairings": [p.to_dict() for p in pairings],
                  "t_wall": t_wall}
        self.journal.append(record)
        self._apply_pairings(record)

    def recent(self, count: int = 50) -> list[dict]:
        return [{k: v for k, v in r.items() if k != "pairings"}
                for r in self.journal.records[-count:]]

    def close(self) -> None:
        self.journal.close()
