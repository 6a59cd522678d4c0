"""Puzzles on a live simulated board: the set-up guided by the LEDs, a wrong move taken
back, the reply shown and played, the puzzle solved and the next one set up; puzzle files
that cannot be used; the shipped files."""

from __future__ import annotations

import json

import pytest

from draughtsboard.board.rules import initial_position, parse_fen
from draughtsboard.board.rules.engine.material import MaterialProver
from draughtsboard.board.rules.variants import get_variant, variant_names
from draughtsboard.board.tracker import State
from draughtsboard.cli import EXIT_DATA
from draughtsboard.hardware.backends import open_simulated_board
from draughtsboard.play import PlaySession
from draughtsboard.play.coach import Coach
from draughtsboard.play.errors import PuzzleError
from draughtsboard.play.puzzles import PuzzleRunner, load_puzzles, shipped_puzzles
from draughtsboard.recording import Recorder

from .helpers import TOKEN, wait_until

# Puzzle 1: f4-g5, a5 must take (a5:c3), then g5 takes three (g5:e7:c5:a7).
# Puzzle 2: c3 takes d4 and wins the game (Black has nothing left).
PUZZLES = """[Event "test puzzles"]
[SetUp "1"]
[FEN "W:W17,19,20:B9-11,13"]
[GameType "25"]

{White to play and win 2 pieces} 1. f4-g5 a5:c3 2. g5:e7:c5:a7 *

[Event "test puzzles"]
[SetUp "1"]
[FEN "W:W22:B18"]
[GameType "25"]

1. c3:e5 *
"""


def view(session) -> dict:
    return json.loads(session.view()[1])


def puzzle_view(session) -> dict:
    return view(session)["coach"]["puzzle"]


@pytest.fixture
def puzzles_file(tmp_path):
    path = tmp_path / "puzzles.pdn"
    path.write_text(PUZZLES, encoding="utf-8")
    return path


@pytest.fixture
def solving(tmp_path, puzzles_file):
    variant = get_variant("russian")
    runner = PuzzleRunner(load_puzzles(puzzles_file, variant), source="test puzzles")
    start = runner.puzzles[0].start
    board_start = initial_position(variant)  # the board is still set for a game
    occupied = [n for n in variant.geometry.numbers if board_start.occupancy() >> (n - 1) & 1]
    board = open_simulated_board("russian", occupied=occupied, real_time=True)
    recorder = Recorder(tmp_path / "data", sync=False)
    session = PlaySession("russian", board, board, recorder, hands=board.simulation,
                          token=TOKEN, backend="sim", mode="training", start_fen=start.fen(),
                          resume=False)
    session.attach_coach(Coach(session, hint_depth=4, hint_nodes=20_000, puzzles=runner))
    session.start()
    try:
        yield session
    finally:
        session.stop()
        board.close()
        recorder.close()


def test_a_puzzle_from_set_up_to_solved_and_the_next_one(solving):
    session = solving
    # set-up: green where a piece must go, blinking orange where one must come off
    leds = wait_until(lambda: (v := view(session)) and v["state"] == "setup" and v["leds"])
    assert leds["19"] == ["on", "green"]  # f4 must be filled
    assert leds["1"] == ["slow_blink", "orange"]  # b8 must be emptied
    assert puzzle_view(session)["title"] == "White to play and win 2 pieces"
    session.hand([("setup", None)])
    wait_until(lambda: session.tracker.state is State.READY, what="the board set up")
    assert "1" not in view(session)["leds"]

    # a wrong move: checked, refused, taken back
    session.hand([("lift", 20), ("place", 16)])  # h4-g5 wins nothing
    wrong = wait_until(lambda: (p := puzzle_view(session)) and p["state"] == "wrong" and p)
    assert wrong["note"].startswith("Not the solution")
    assert view(session)["leds"]["16"] == ["slow_blink", "red"]
    session.hand([("lift", 16), ("place", 20)])
    wait_until(lambda: view(session)["moves"] == [] and puzzle_view(session)["state"]
               == "solving")

    # the first move of the solution: Black's reply is shown, piece and path
    session.hand([("lift", 19), ("place", 16)])
    reply = wait_until(lambda: (p := puzzle_view(session)) and "replies" in p["note"] and p)
    assert reply["note"] == "Black replies a5:c3: play it on the board."
    leds = view(session)["leds"]
    assert leds["13"] == ["on", "cyan"] and leds["22"] == ["slow_blink", "cyan"]
    session.hand([("lift", 13), ("place", 22), ("lift", 17)])
    wait_until(lambda: view(session)["moves"] == ["f4-g5", "a5:c3"])

    # the shot: g5 takes f6, d6 and b6; solved, and puzzle 2 set up at once
    first_game = session.game_id
    session.hand([("lift", 16), ("place", 5), ("lift", 11), ("lift", 10), ("lift", 9)])
    wait_until(lambda: session.game_id != first_game, what="the next puzzle")
    second = wait_until(lambda: (p := puzzle_view(session)) and p["number"] == 2 and p)
    assert second["solved"] == [1]
    recorded = session.recorder.load(first_game)
    assert [m.text for m in recorded.moves] == ["f4-g5", "a5:c3", "g5:a7"]
    assert any(e.kind == "coach" and e.text == "Solved: puzzle 1." for e in recorded.events)
    assert session.tracker.position == parse_fen(get_variant("russian"), "W:W22:B18")

    # puzzle 2 solved by the move that ends the game; then all are done
    session.hand([("setup", None)])
    wait_until(lambda: session.tracker.state is State.READY)
    session.hand([("lift", 22), ("place", 15), ("lift", 18)])
    done = wait_until(lambda: (p := puzzle_view(session)) and p["state"] == "done" and p)
    assert done["solved"] == [1, 2] and done["note"] == "All 2 puzzles done (2 solved)."


def _play_on_board(session, move) -> None:
    """The hands make ``move`` on the simulated board: lift, place, take the prisoners."""
    session.hand([("lift", move.start), ("place", move.end),
                  *(("lift", square) for square in move.captures)])


def test_a_move_made_after_a_refused_one_is_refused_too_until_both_are_taken_back(solving):
    session = solving
    wait_until(lambda: view(session)["state"] == "setup")
    session.hand([("setup", None)])
    wait_until(lambda: session.tracker.state is State.READY, what="the board set up")
    session.hand([("lift", 20), ("place", 16)])  # h4-g5 wins nothing: refused
    wait_until(lambda: puzzle_view(session)["state"] == "wrong")
    reply = session.tracker.position.legal_moves()[0]
    _play_on_board(session, reply)  # Black plays on instead of the take-back
    wait_until(lambda: len(view(session)["moves"]) == 2, what="the reply recorded")
    after = wait_until(lambda: (p := puzzle_view(session)) and "line" in p["note"] and p)
    assert after["state"] == "wrong" and after["solved"] == []
    game = session.recorder.load(session.game_id)
    assert not any(e.kind == "coach" and e.text.startswith("Solved") for e in game.events)


def test_a_puzzle_that_cannot_begin_while_moves_wait_to_be_recorded_begins_after():
    from types import SimpleNamespace

    from draughtsboard.play.errors import ArbiterError

    variant = get_variant("russian")
    runner = PuzzleRunner(load_puzzles(shipped_puzzles(variant), variant))
    begun = []
    held = [True]

    def begin_game(tags, fen, why, mode=None):
        if held[0]:
            raise ArbiterError("1 move(s) are not recorded yet (disk full): a new game "
                               "would lose them")
        begun.append(tags["Round"])

    runner.coach = SimpleNamespace(session=SimpleNamespace(begin_game=begin_game))
    runner.begin(1)
    assert begun == [] and runner.note.startswith("Puzzle 2 waits: 1 move(s) are not")
    held[0] = False
    runner.journal_caught_up()
    assert begun == [str(runner.puzzles[1].number)] and runner.index == 1
    runner.journal_caught_up()  # nothing waits any more
    assert len(begun) == 1


@pytest.mark.parametrize("text, message", [
    ("", "no puzzle in the file"),
    ('[Event "x"]\n[FEN "W:W22:B18"]\n[GameType "25"]\n\n*\n', "has no solution moves"),
    ('[Event "x"]\n[GameType "20"]\n\n1. 32-28 *\n', "is international, not russian"),
    ('[Event "x"]\n[GameType "25"]\n\n1. a3-a5 *\n', "illegal move"),
])
def test_puzzle_files_that_cannot_be_used_are_refused_in_one_line(tmp_path, text, message):
    path = tmp_path / "bad.pdn"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PuzzleError, match=message) as caught:
        load_puzzles(path, get_variant("russian"))
    assert "\n" not in str(caught.value)
    with pytest.raises(PuzzleError, match="No such file"):
        load_puzzles(tmp_path / "missing.pdn", get_variant("russian"))


@pytest.mark.parametrize("name", variant_names())
def test_the_shipped_puzzles_win_material_by_force(name):
    variant = get_variant(name)
    puzzles = load_puzzles(shipped_puzzles(variant), variant)
    assert len(puzzles) >= 4
    prover = MaterialProver(variant)
    for puzzle in puzzles:
        first = puzzle.solution[0]
        assert not puzzle.start.legal_moves()[0].captures  # a shot begins quietly
        assert prover.gain(puzzle.start, first, 4, 2_000_000) >= 1, puzzle.number


def test_play_in_puzzle_mode_from_the_command_line(tmp_path, puzzles_file):
    import subprocess
    import sys

    from .helpers import PlayProcess

    with PlayProcess(tmp_path / "data", "--mode", "puzzle", "--puzzles",
                     str(puzzles_file)) as play:
        state = wait_until(lambda: (s := play.state()) and s["coach"]["puzzle"] and s)
        assert state["coach"]["puzzle"]["number"] == 1
        assert state["coach"]["puzzle"]["count"] == 2
        assert state["fen"] == "W:W17,19,20:B9-11,13" and state["mode"] == "puzzle"
        assert state["tags"]["Event"] == "Puzzle" and state["tags"]["Round"] == "1"
        assert play.stop() == 0
    bad = tmp_path / "bad.pdn"
    bad.write_text("", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "draughtsboard", "play", "--backend", "sim", "--mode",
         "puzzle", "--puzzles", str(bad), "--data", str(tmp_path / "data"), "--listen",
         "127.0.0.1:0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == EXIT_DATA
    assert done.stderr.strip().splitlines()[-1] == \
        f"draughtsboard play: {bad}: no puzzle in the file"
