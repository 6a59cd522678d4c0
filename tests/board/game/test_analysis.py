"""Post-game verdicts: the score's text, marks, comments kept."""

from __future__ import annotations

from draughtsboard.board.game.analysis import annotated, format_score, judge_game
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.engine import MATE, Engine
from draughtsboard.board.rules.variants import get_variant


def test_scores_are_written_in_men_and_forced_results_in_plies():
    assert format_score(35) == "+0.35"
    assert format_score(-120) == "-1.20"
    assert format_score(0) == "+0.00"
    assert format_score(MATE - 5) == "#5"
    assert format_score(-(MATE - 3)) == "#-3"


def test_a_verdict_per_move_and_the_old_comments_kept():
    russian = get_variant("russian")
    game = Game(russian)
    for text in ("c3-d4", "f6-g5", "e3-f4", "g5:c5"):
        game.play(text)
    game.replace_last(comment="as played in the club")
    engine = Engine(russian)
    verdicts = judge_game(game, lambda position, history: engine.search(
        position, nodes=3000, history=history))
    assert [v.text for v in verdicts] == ["c3-d4", "f6-g5", "e3-f4", "g5:c5"]
    assert verdicts[2].mark == "??" and verdicts[2].best != "e3-f4"
    copy = annotated(game, verdicts)
    assert copy.moves[3].comment.startswith("as played in the club [%eval ")
    assert copy.moves[2].annotation == "??"
    assert game.moves[2].annotation == ""  # the game itself is unchanged
