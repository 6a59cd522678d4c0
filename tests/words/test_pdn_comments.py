"""The clock's PDN comments (the clock started by the first move or by the judge,
paused, resumed, a flag fall) and the judge's takeback are written in the board's
language: the journal keeps each as English text with its message beside it, and a
Russian file says them in Russian."""

from __future__ import annotations

import re

from draughtsboard.board.message import Message
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.play.game_clock import GameClock
from draughtsboard.recording import Recorder
from draughtsboard.words import words_for

RUSSIAN = get_variant("russian")


class Clocks:
    """The board's monotonic and wall clocks, moved on by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now

    def wall(self) -> float:
        return 1_000_000.0 + self.now


def comments(pdn: str) -> list[str]:
    return re.findall(r"\{([^}]*)\}", pdn)


def a_game_with_its_clock(tmp_path):
    recorder = Recorder(tmp_path, sync=False)
    game_id = recorder.start_game(RUSSIAN, {"TimeControl": "60"}, mode="tournament")
    clocks = Clocks()
    clock = GameClock(clock=clocks.monotonic, wall=clocks.wall)
    return recorder, game_id, clock, clocks


def test_the_clock_started_by_the_first_move_is_said_in_the_boards_language(tmp_path):
    recorder, game_id, clock, clocks = a_game_with_its_clock(tmp_path)
    both = clock.before_move(recorder, game_id)
    recorder.record_move(game_id, "c3-d4", clocks.now, clocks.wall(), clock=both)
    clocks.now += 5
    clock.arbiter(recorder, game_id, "pause")
    clocks.now += 5
    clock.arbiter(recorder, game_id, "resume")
    russian = comments(recorder.export_pdn(game_id, say=words_for("ru")))
    assert any("часы пошли с первым ходом" in c for c in russian), russian
    assert any("судья остановил часы" in c for c in russian), russian
    assert any("судья снова запустил часы" in c for c in russian), russian
    assert not [c for c in russian if not c.startswith("[%")  # [%clock ...] is PDN's
                and re.search(r"\b(clock|started|paused|resumed)\b", c)]
    english = comments(recorder.export_pdn(game_id))
    assert any("clock started with the first move" in c for c in english), english


def test_a_flag_fall_is_said_in_the_boards_language(tmp_path):
    recorder, game_id, clock, clocks = a_game_with_its_clock(tmp_path)
    both = clock.before_move(recorder, game_id)
    recorder.record_move(game_id, "c3-d4", clocks.now, clocks.wall(), clock=both)
    clock.after_move(recorder.game(game_id))
    clocks.now += 61
    assert clock.tick(recorder, game_id, board_matches=True) is not None
    russian = comments(recorder.export_pdn(game_id, say=words_for("ru")))
    assert any("У чёрных упал флажок" in c for c in russian), russian
    assert not [c for c in russian if "flag fell" in c]


def test_the_judges_takeback_is_said_in_the_boards_language(tmp_path):
    recorder = Recorder(tmp_path, sync=False)
    game_id = recorder.start_game(RUSSIAN, {}, mode="tournament")
    recorder.record_move(game_id, "c3-d4", 1.0, 1_000_001.0)
    recorder.record_move(game_id, "f6-g5", 2.0, 1_000_002.0)
    recorder.record_takeback_to(game_id, 1, "taken back by the arbiter to ply 1 (from ply 2)",
                                3.0, 1_000_003.0,
                                message=Message.of("log.taken_back_to", ply=1, before=2))
    russian = comments(recorder.export_pdn(game_id, say=words_for("ru")))
    assert any("судья вернул партию к полуходу 1 (с полухода 2)" in c for c in russian), \
        russian
