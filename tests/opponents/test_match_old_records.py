"""Match records retained by the release before (version 1, tests/data/old-records/match,
written by that release's own code) still read: converted once, at the parse, into
version 2's meaning, with the same plies, clocks (at the millisecond), result and
setter; what version 1 cannot say is said in one line and nothing is invented. A record
of a newer version is refused in one line and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.game.records import Declined
from draughtsboard.board.rules.fen import initial_position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.opponents.match_state import (
    MatchRecord,
    MatchState,
    NewerMatchRecordError,
)

OLD = Path(__file__).parent.parent / "data" / "old-records" / "match"
FIXTURES = sorted(OLD.glob("*.json"))
RUSSIAN = get_variant("russian")
START = initial_position(RUSSIAN).fen()
TAGS = {"Event": "Towns match", "Round": "1", "TimeControl": "600+5", "Site": "Tver"}


def test_the_fixture_set_is_there():
    assert {path.name for path in FIXTURES} >= {
        "in-progress.json", "finished-resigned.json", "finished-taken.json",
        "withdrawn-declined.json", "dated.json", "withdrawn-twice-play-on.json"}


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.stem)
def test_each_old_record_reads_back_the_same(path: Path):
    raw = json.loads(path.read_bytes())
    assert raw["v"] == 1
    record = MatchRecord.from_json(path.read_bytes())
    assert (record.match, record.seat, record.name, record.variant, record.start) == (
        raw["match"], raw["seat"], raw["name"], raw["variant"], raw["start"])
    assert record.tags == raw["tags"]
    assert [(p.index, p.move, p.before) for p in record.plies] == [
        (p["ply"], p["move"], p["before"]) for p in raw["plies"]]
    assert [p.clock for p in record.plies] == [
        None if p["clock"] is None else (round(p["clock"][0], 3), round(p["clock"][1], 3))
        for p in raw["plies"]]
    assert (record.result, record.reason, record.by) == (
        raw.get("result"), raw.get("reason", ""), raw.get("by", ""))
    assert record.date == raw.get("date", "")
    assert record.withdrawals == raw.get("withdrawn", 0)
    assert record.withdrawn == ()  # (version 1 never said at which plies)
    assert (record.legacy_note() is not None) == bool(raw.get("withdrawn"))
    assert "\n" not in (record.legacy_note() or "")
    if "declined" in raw:
        assert record.declined == Declined(raw["match"], "black", *raw["declined"])
    else:
        assert record.declined is None
    # read into the record model: the same moves, clocks, result and setter
    game = record.game()
    assert [played.text for played in game.moves] == [p["move"] for p in raw["plies"]]
    assert [played.clock for played in game.moves] == [p.clock for p in record.plies]
    assert (game.result, game.result_reason, game.result_by) == (
        raw.get("result"), raw.get("reason", ""), raw.get("by", ""))
    again = MatchRecord.from_json(record.to_json())  # (written again: version 2)
    assert again.plies == record.plies and again.result == record.result


def game_of(count: int, raw: dict) -> Game:
    game = Game(RUSSIAN, initial_position(RUSSIAN))
    for ply in raw["plies"][:count]:
        game.play(ply["move"])
        if ply["clock"] is not None:
            game.replace_last(clock=tuple(ply["clock"]))
    return game


def board_reading(fixture: str, seat: str, match: str, plies: int,
                  result: tuple[str, str] | None = None) -> tuple[MatchState, Game, dict]:
    """The board of `seat`, `plies` moves into the retained game `fixture` (and holding
    `result`), after reading the other board's version-1 record of it: with nothing to
    answer. Returns the board, its game and the record as it was written."""
    payload = (OLD / fixture).read_bytes()
    raw = json.loads(payload)
    board = MatchState(match, seat, {"white": "Anna", "black": "Boris"}[seat], "russian",
                       START, TAGS)
    game = game_of(plies, raw)
    if result is not None:
        game.set_result(*result)
    board.recorded(game, 0.0)
    assert board.receive("record", payload, now=1.0) is None
    return board, game, raw


def test_an_old_record_of_the_other_board_plays_on_and_its_resignation_is_taken():
    """White's board, after the upgrade, reads Black's retained version-1 record: the
    same moves (clocks read at the millisecond), and Black's resignation is taken."""
    white, game, _ = board_reading("finished-resigned.json", "white", "tver-kazan", 5)
    assert white.conflict is None
    call = white.result_call(game)
    assert call is not None and (call.action, call.result, call.reason, call.by) == (
        "take", "1-0", "resigned", "arbiter")


def test_an_old_declined_withdrawal_is_shown_as_a_claim_where_the_record_proves_it():
    """White's version-1 record says its arbiter withdrew the 1-0 Black's board held (with
    no withdrawal of its own): Black's board, holding that 1-0 on the same moves, shows
    the withdrawal as a claim; holding anything else, nothing."""
    black, game, raw = board_reading("withdrawn-declined.json", "black", "tver-kazan", 5,
                                     ("1-0", "resigned"))
    assert black.take_note() is not None and black.take_note() is None  # (said once)
    call = black.result_call(game)
    assert call is not None and (call.action, call.result) == ("claim-withdrawal", "1-0")
    other = game_of(5, raw)
    other.set_result("0-1", "time forfeit")
    black.recorded(other, 2.0)
    assert black.result_call(other) is None  # (another result: not the one declined)


def test_old_withdrawals_at_unknown_plies_never_take_a_result_by_themselves():
    black, game, _ = board_reading("withdrawn-twice-play-on.json", "black", "tver-omsk", 4,
                                   ("0-1", "time forfeit"))
    assert black.result_call(game) is None  # (not a claim-withdrawal invented)


@pytest.mark.parametrize("version", [3, 17, 10**30])
def test_a_record_of_a_newer_version_is_one_line_and_changes_nothing(version):
    raw = json.loads((OLD / "in-progress.json").read_bytes())
    raw["v"] = version
    raw["something_new"] = {"x": [1, 2, 3]}
    payload = json.dumps(raw).encode()
    with pytest.raises(NewerMatchRecordError) as caught:
        MatchRecord.from_json(payload)
    assert "newer than this release" in str(caught.value)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200
    black = MatchState("tver-kazan", "black", "Boris", "russian", START, TAGS)
    black.recorded(game_of(0, raw), 0.0)
    refusal = black.receive("record", payload, now=1.0)
    assert refusal is not None and "newer" in refusal
    assert black.theirs is None and black.conflict is None
