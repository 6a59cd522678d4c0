"""A game's clocks when some moves carry a recorded clock and the game has no TimeControl.

A move without its own clock is computed from the last one known and its thinking time;
with no TimeControl tag the increment is not known, so none is added (this once failed on
the missing control instead).
"""

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant


def test_a_move_without_a_clock_after_one_with_it_and_no_time_control():
    game = Game(get_variant("russian"))
    game.play(game.position.legal_moves()[0], t_monotonic=10.0, clock=(290.0, 300.0))
    game.play(game.position.legal_moves()[0], t_monotonic=15.0)
    assert game.clocks() == [(290.0, 300.0), (290.0, 295.0)]


def test_with_a_time_control_the_increment_is_still_added():
    game = Game(get_variant("russian"), tags={"TimeControl": "300+2"}, start_monotonic=0.0)
    game.play(game.position.legal_moves()[0], t_monotonic=10.0)
    game.play(game.position.legal_moves()[0], t_monotonic=15.0)
    assert game.clocks() == [(292.0, 300.0), (292.0, 297.0)]
