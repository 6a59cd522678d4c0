"""Puzzles on a game in play (virtual time): the set-up guided by the LEDs, a wrong move
taken back, the reply shown and played, the puzzle solved and the next one set up; a
puzzle that waits for held moves; puzzle files that cannot be used; the shipped files."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from draughtsboard.board.message import Message
from draughtsboard.board.rules import parse_fen
from draughtsboard.board.rules.engine.material import MaterialProver
from draughtsboard.board.rules.variants import get_variant, variant_names
from draughtsboard.board.tracker import State
from draughtsboard.play.errors import PuzzleError
from draughtsboard.play.puzzles import PuzzleRunner, load_puzzles, shipped_puzzles
from draughtsboard.recording import journal as journal_module
from draughtsboard.words import english, words_for

from ..rendered import in_english

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
INITIAL = 0xFFF00FFF  # the board still set for a game: squares 1-12 and 21-32


@pytest.fixture
def puzzles_file(tmp_path):
    path = tmp_path / "puzzles.pdn"
    path.write_text(PUZZLES, encoding="utf-8")
    return path


@pytest.fixture
def solving(start_play, puzzles_file):
    runner = PuzzleRunner(load_puzzles(puzzles_file, get_variant("russian")),
                          source="test puzzles")
    return start_play(fen=runner.puzzles[0].start.fen(), resume=False, mode="puzzle",
                      puzzles=runner, switches=INITIAL)


def puzzle_view(play) -> dict:
    return play.view()["coach"]["puzzle"]


def said(message: dict | Message, language: str = "en") -> str:
    """A message of the view (its JSON) or of the runner, in words."""
    if not isinstance(message, Message):
        message = Message.from_json(message)
    return words_for(language)(message)


def test_a_puzzle_from_set_up_to_solved_and_the_next_one(solving):
    play = solving
    # set-up: green where a piece must go, blinking orange where one must come off
    v = play.view()
    assert v["state"] == "setup" and v["mode"] == "puzzle"
    assert v["leds"]["19"] == ["on", "green"]  # f4 must be filled
    assert v["leds"]["1"] == ["slow_blink", "orange"]  # b8 must be emptied
    assert said(puzzle_view(play)["title"]) == "White to play and win 2 pieces"
    assert said(puzzle_view(play)["heading"], "ru") == \
        "Задача 1 из 2: Белые начинают и выигрывают 2 шашки"
    v = play.hand(("setup", None))
    assert play.game.tracker.state is State.READY and "1" not in v["leds"]

    # a wrong move: checked, refused, taken back
    v = play.move(20, 16)  # h4-g5 wins nothing
    wrong = v["coach"]["puzzle"]
    assert wrong["state"] == "wrong" and said(wrong["note"]).startswith("Not the solution")
    assert v["leds"]["16"] == ["slow_blink", "red"]
    v = play.hand(("lift", 16), ("place", 20))
    assert v["moves"] == [] and v["coach"]["puzzle"]["state"] == "solving"

    # the first move of the solution: Black's reply is shown, piece and path
    v = play.move(19, 16)
    assert said(v["coach"]["puzzle"]["note"]) == "Black replies a5:c3: play it on the board."
    assert said(v["coach"]["puzzle"]["note"], "ru") == \
        "Чёрные отвечают a5:c3: сделайте этот ход на доске."
    assert v["leds"]["13"] == ["on", "cyan"] and v["leds"]["22"] == ["slow_blink", "cyan"]
    assert play.move(13, 22, 17)["moves"] == ["f4-g5", "a5:c3"]

    # the shot: g5 takes f6, d6 and b6: solved; every piece lights white for a moment
    first_game = play.game.game_id
    v = play.move(16, 5, 11, 10, 9)
    assert v["coach"]["puzzle"]["state"] == "solved"
    assert said(v["coach"]["puzzle"]["note"]).startswith("Solved: puzzle 1. Next: puzzle 2")
    assert {k for k, (pattern, colour) in v["leds"].items() if colour == "white"} == \
        {str(s) for s in v["occupied"]}
    assert play.game.game_id == first_game
    play.wait(3.0)  # then puzzle 2 is set up
    assert play.game.game_id != first_game
    second = puzzle_view(play)
    assert second["number"] == 2 and second["solved"] == [1]
    recorded = play.recorder.load(first_game)
    assert [m.text for m in recorded.moves] == ["f4-g5", "a5:c3", "g5:a7"]
    assert any(e.kind == "coach" and e.text == "Solved: puzzle 1." for e in recorded.events)
    assert play.game.tracker.position == parse_fen(get_variant("russian"), "W:W22:B18")
    assert recorded.mode == "puzzle" and play.recorder.load(play.game.game_id).mode == "puzzle"

    # puzzle 2 solved by the move that ends the game; then all are done
    play.hand(("setup", None))
    assert play.game.tracker.state is State.READY
    assert play.move(22, 15, 18)["coach"]["puzzle"]["state"] == "solved"
    done = play.wait(3.0)["coach"]["puzzle"]
    assert done["state"] == "done" and done["solved"] == [1, 2]
    assert said(done["note"]) == "All 2 puzzles done (2 solved)."
    assert said(done["note"], "ru") == "Пройдены 2 задачи, решено: 2."


def test_a_move_made_after_a_refused_one_is_refused_too_until_both_are_taken_back(solving):
    play = solving
    play.hand(("setup", None))
    assert play.move(20, 16)["coach"]["puzzle"]["state"] == "wrong"  # h4-g5 wins nothing
    reply = play.game.tracker.position.legal_moves()[0]
    v = play.move(reply.start, reply.end, *reply.captures)  # Black plays on instead
    assert len(v["moves"]) == 2
    after = v["coach"]["puzzle"]
    assert after["state"] == "wrong" and "line" in said(after["note"]) and after["solved"] == []
    game = play.recorder.load(play.game.game_id)
    assert not any(e.kind == "coach" and e.text.startswith("Solved") for e in game.events)


def test_a_puzzle_that_cannot_begin_while_moves_wait_to_be_recorded_begins_after(
        solving, monkeypatch):
    play = solving
    runner = play.coach.puzzles
    play.hand(("setup", None))
    real_write = journal_module.os.write

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal_module.os, "write", full)
    assert play.move(19, 16)["held"] == ["f4-g5"]
    play.call(lambda: runner.begin(1))
    assert runner.index == 0 and english(runner.note).startswith("Puzzle 2 waits: 1 move is not")
    first_game = play.game.game_id
    monkeypatch.setattr(journal_module.os, "write", real_write)
    play.wait(5)  # the held move is written: the puzzle that waited begins
    assert runner.index == 1 and play.game.game_id != first_game
    assert [m.text for m in play.recorder.load(first_game).moves] == ["f4-g5"]


def test_the_records_tags_and_the_log_say_puzzle_and_name_no_path(solving, tmp_path):
    play = solving
    runner = play.coach.puzzles
    runner.source = str(tmp_path / "club" / "shots.pdn")
    assert runner.tags_for(0) == {"Event": "Puzzle", "Round": "1",
                                  "Annotator": "draughtsboard", "PuzzleSet": "shots"}
    play.call(lambda: play.coach.puzzle_action("next"))
    v = play.view()
    assert v["mode"] == "puzzle" and v["tags"]["PuzzleSet"] == "shots"
    assert v["tags"]["Event"] == "Puzzle" and v["tags"]["Annotator"] == "draughtsboard"
    assert v["log"][-1]["text"] == "puzzle 2 of 2: White to play and win"


def test_skip_retry_and_show_the_solution(solving):
    play = solving
    coach = play.coach
    play.hand(("setup", None))
    first = play.game.game_id
    play.move(19, 16)  # f4-g5, on the line
    view = play.call(lambda: coach.puzzle_action("retry"))  # the same puzzle again
    assert view["number"] == 1 and play.game.game_id != first
    assert play.recorder.load(first).result_reason == "puzzle tried again"
    v = play.hand(("setup", None))
    assert v["moves"] == []
    view = play.call(lambda: coach.puzzle_action("solution"))
    assert said(view["note"]) == "Solution: 1. f4-g5 a5:c3 2. g5:a7."
    assert said(view["note"], "fr") == "Solution : 1. f4-g5 a5:c3 2. g5:a7."
    v = play.view()
    assert v["leds"]["19"] == ["on", "cyan"] and v["leds"]["16"] == ["slow_blink", "cyan"]
    play.move(19, 16)
    play.move(13, 22, 17)
    v = play.view()
    assert v["leds"]["16"] == ["on", "cyan"]  # the next move of the solution, lit
    v = play.move(16, 5, 11, 10, 9)
    assert said(v["coach"]["puzzle"]["note"]).startswith("Solved with the solution shown")
    assert v["coach"]["puzzle"]["solved"] == [] and v["coach"]["puzzle"]["shown"] == [1]
    view = play.call(lambda: coach.puzzle_action("next"))  # on at once, no waiting
    assert view["number"] == 2 and view["state"] == "setup"
    view = play.call(lambda: coach.puzzle_action("next"))  # skipped: all done
    assert view["state"] == "done"
    with pytest.raises(PuzzleError, match="All puzzles are done") as refused:
        play.call(lambda: coach.puzzle_action("next"))
    assert said(refused.value.message, "nl") == "Alle opgaven zijn gedaan."
    with pytest.raises(PuzzleError, match="expected next, retry or solution"):
        play.call(lambda: coach.puzzle_action("jump"))


def test_the_set_up_steps_are_listed_in_full(start_play):
    # many pieces to move: every square named, nothing summed up as "and N more"
    fen = "W:W17,18,19,20,29,30,31,32:B1,2,3,4,9,10,11,12"
    runner = PuzzleRunner(load_puzzles_text(fen), source="many")
    play = start_play(fen=fen, resume=False, mode="puzzle", puzzles=runner, switches=INITIAL)
    steps = [step for flag in in_english(play.view()["guidance"]) for step in flag["steps"]]
    assert steps == ["Take off the pieces on a7, c7, e7, g7, a3, c3, e3, g3, b2, d2, f2, and h2",
                     "Put white men on b4, d4, f4, and h4"]


def load_puzzles_text(fen: str):
    import tempfile

    from draughtsboard.board.rules.notation import format_move

    position = parse_fen(get_variant("russian"), fen)
    move = format_move(position, position.legal_moves()[0])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "many.pdn"
        path.write_text(f'[FEN "{fen}"]\n[GameType "25"]\n\n1. {move} *\n', encoding="utf-8")
        return load_puzzles(path, get_variant("russian"))


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


@pytest.mark.slow
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
