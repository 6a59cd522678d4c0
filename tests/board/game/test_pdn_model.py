"""PDN is a view of the record model both ways: the reader reads a file into the model's
records (a `Start`, moves, irregular moves, corrections, a result) and builds its game with
the model's one `apply`, so the same records rebuild the same game; and a game the model
built, written as PDN, reads back to the records it was built from (what PDN holds of
them)."""

from __future__ import annotations

import json
import pathlib

import pytest

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant first)
from draughtsboard.board.game.apply import rebuild
from draughtsboard.board.game.codec import decode
from draughtsboard.board.game.pdn_reader import decode_pdn, read_pdn
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.records import (
    Correction,
    IrregularMove,
    MoveMade,
    Result,
    Start,
)
from draughtsboard.board.rules.variants import get_variant

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"
OLD = DATA / "old-records" / "board"
FILES = {"pdn-features.pdn": "international", "old-english-irregular.pdn": None,
         "international-candidate95.pdn": None, "russian-ussr-championship-part1.pdn":
         "russian", **{f"old-records/board/pdn/{p.name}": None
                       for p in sorted((OLD / "pdn").glob("*.pdn"))}}


def read(name, variant=None):
    text = decode_pdn((DATA / name).read_bytes())
    return read_pdn(text, variant=get_variant(variant) if variant else None, source=name)


def what_happened(game):
    """A game as the model sees it: its start, moves (with clocks and the positions
    of irregular ones), positions, corrections and result; not the reader's extras."""
    return (game.start, [(p.move, p.text, p.clock, p.after, p.irregularity)
                         for p in game.moves],
            game.positions, [(e.ply, e.position) for e in game.events
                             if e.kind == "correction"], game.result, game.tags)


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_game_read_is_its_records_applied(name):
    result = read(name, FILES[name])
    assert result.games and not result.errors
    for read_game in result.games:
        assert isinstance(read_game.start, Start)
        again = rebuild(read_game.start, read_game.records)
        assert what_happened(again) == what_happened(read_game.game), read_game.number
        moves = [r for r in read_game.records if isinstance(r, MoveMade | IrregularMove)]
        assert len(moves) == read_game.game.ply
        assert [r.ply for r in moves] == list(range(read_game.game.ply))


def test_the_readers_records_are_the_models_kinds():
    games = read("old-records/board/pdn/00004-20260531-202640.pdn").games
    kinds = {type(record) for game in games for record in game.records}
    assert {MoveMade, Correction, Result} <= kinds
    features = read("old-english-irregular.pdn").games
    assert any(isinstance(r, IrregularMove) for g in features for r in g.records)


@pytest.mark.parametrize("journal", sorted((OLD / "games").glob("*.jsonl")),
                         ids=lambda p: p.stem)
def test_a_journal_written_as_pdn_reads_back_to_its_moves_and_corrections(journal):
    """The board's journal (records) -> apply -> PDN -> the reader -> records: the moves
    (squares, captures, clocks), irregular moves and corrections are the journal's."""
    records = [decode({k: v for k, v in json.loads(line.split(" ", 1)[1]).items()
                       if k != "seq"})
               for line in journal.read_text(encoding="utf-8").splitlines()]
    start, *rest = records
    game = rebuild(start, rest)
    read_back = read_pdn(write_game(game), source=journal.name).games
    assert len(read_back) == 1
    again = read_back[0]

    def played(records):
        return [(type(r).__name__, r.path, r.captures)
                if isinstance(r, MoveMade | IrregularMove) else ("Correction", r.fen)
                for r in records
                if isinstance(r, MoveMade | IrregularMove | Correction)]

    def seconds(clock):  # PDN's clocks: the game's (recorded or counted), whole seconds
        return None if clock is None else tuple(int(c) for c in clock)

    assert [(p.move.path, p.move.captures, p.clock) for p in again.game.moves] == \
        [(p.move.path, p.move.captures, seconds(clock))
         for p, clock in zip(game.moves, game.clocks(), strict=True)]
    assert [x[1:] for x in played(again.records) if x[0] != "Correction"] == \
        [(p.move.path, p.move.captures) for p in game.moves]
    corrections = [x[1] for x in played(again.records) if x[0] == "Correction"]
    assert corrections == [e.position.fen() for e in game.events
                           if e.kind == "correction" and e.position is not None]
    assert again.game.result == game.result
