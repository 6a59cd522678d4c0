"""`draughtsboard analyse`: a position's best line, a game's moves judged, bad input."""

from __future__ import annotations

import json

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.cli import main
from draughtsboard.recording import Recorder

SHOT = "W:W17,19,20:B9-11,13"  # f4-g5, then g5 takes three
# 2. e3-f4 gives two pieces away: g5 takes f4 and d4; the rest is ordinary play.
GAME = """[Event "test"]
[GameType "25"]

1. c3-d4 f6-g5 2. e3-f4 g5:c5 3. b2-c3 b6-a5 *
"""


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main(["analyse", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_position_as_one_json_line(capsys):
    status, out, err = run(capsys, "--variant", "russian", "--fen", SHOT, "--nodes", "20000",
                           "--json")
    assert status == 0 and err == ""
    (line,) = out.splitlines()
    answer = json.loads(line)
    assert answer["best"] == {"notation": "f4-g5", "path": [19, 16], "captures": []}
    assert answer["pv"][:3] == ["f4-g5", "a5:c3", "g5:a7"]
    assert answer["score"] > 100 and answer["depth"] >= 4


def test_the_same_node_budget_gives_the_same_answer(capsys):
    first = run(capsys, "--variant", "lasca", "--nodes", "4000", "--json")[1]
    second = run(capsys, "--variant", "lasca", "--nodes", "4000", "--json")[1]
    strip = [{k: v for k, v in json.loads(text).items() if k != "seconds"}
             for text in (first, second)]
    assert strip[0] == strip[1]


def test_a_position_as_text(capsys):
    status, out, _ = run(capsys, "--variant", "international", "--depth", "3")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("best ") and "depth 3" in lines[0]
    assert lines[1].startswith("line ")


def test_a_lost_position_says_so(capsys):
    status, out, _ = run(capsys, "--fen", "W:W:B1", "--depth", "2")
    assert status == 0 and out.strip() == "White has no legal move: the game is lost"
    _, out, _ = run(capsys, "--fen", "W:W:B1", "--depth", "2", "--json")
    assert json.loads(out)["best"] is None


@pytest.mark.slow
def test_a_game_is_annotated_and_its_blunder_marked(capsys, tmp_path):
    path = tmp_path / "game.pdn"
    path.write_text(GAME, encoding="utf-8")
    status, out, err = run(capsys, str(path), "--nodes", "6000")
    assert status == 0 and err == ""
    read = read_pdn(out)
    assert not read.errors
    moves = read.games[0].game.moves
    assert [m.text for m in moves] == ["c3-d4", "f6-g5", "e3-f4", "g5:c5", "b2-c3", "b6-a5"]
    assert all(m.comment.startswith("[%eval ") for m in moves)
    assert moves[2].annotation == "??" and "blunder:" in moves[2].comment
    assert moves[0].annotation == ""
    status, out, _ = run(capsys, str(path), "--nodes", "6000", "--json")
    verdicts = [json.loads(line) for line in out.splitlines()]
    assert [v["ply"] for v in verdicts] == list(range(6))
    assert verdicts[2]["mark"] == "??" and verdicts[2]["loss"] >= 100
    assert verdicts[3]["score"] < -100  # White's view after Black took two


def test_a_recorded_game_from_the_journal(capsys, tmp_path):
    with Recorder(tmp_path, sync=False) as recorder:
        game_id = recorder.start_game("russian", {"Event": "club"}, t_wall=0.0)
        for text in ("c3-d4", "f6-g5", "e3-f4", "g5:c5"):
            recorder.record_move(game_id, text, None, None)
    out_file = tmp_path / "annotated.pdn"
    status, out, err = run(capsys, "--game", game_id, "--journal", str(tmp_path), "--nodes",
                           "3000", "--out", str(out_file))
    assert status == 0 and out == "" and err == ""
    game = read_pdn(out_file.read_text()).games[0].game
    assert game.tags["Event"] == "club" and len(game.moves) == 4
    assert game.moves[2].annotation == "??"


@pytest.mark.parametrize("argv, message", [
    (["--fen", "W:Wxx"], "bad square 'xx'"),
    (["--nodes", "0"], "--nodes must be positive"),
    (["--time", "-1"], "--time must be positive"),
    (["--time", "nan"], "--time must be positive"),  # a search without end, before
    (["--time", "inf"], "--time must be at most 86400"),
    (["/no/such/file.pdn"], "No such file or directory"),
    (["--game", "nonsense"], "not a game id"),
    (["--game", "00009-20240101-000000", "--journal", "/nonexistent"], "no recorded game"),
])
def test_bad_input_is_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_file_with_no_readable_game(capsys, tmp_path):
    path = tmp_path / "bad.pdn"
    path.write_bytes(b"\xff garbage")
    status, out, err = run(capsys, str(path))
    assert status == 2 and out == ""
    assert err.strip().splitlines()[-1].endswith("no game that could be read")
    path.write_bytes(b"\x00\xff garbage")
    status, out, err = run(capsys, str(path))
    assert status == 2 and err.strip().endswith("binary data (NUL bytes), not a PDN file")
