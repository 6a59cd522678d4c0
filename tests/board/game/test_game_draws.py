"""Draw rules of docs/rules.md, one test per rule and preset: a game that reaches exactly the
rule's count is drawn by it, and the same game one ply short is not.

The games are built by a small search (`walk`) that plays quiet moves (no capture, and
promotion or man moves only where a test wants them) without repeating a position three
times, so that no other rule can be the cause.
"""

import pytest

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant first)
from draughtsboard.board.game.reasons import words
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.draws import Reason, ReasonCode, UnknownDrawRulesError, draw_rules
from draughtsboard.board.rules.variants import get_variant


def walk(game, plies, allow=lambda game, move: True, men_every=None,
         last=lambda game: game.draw_reason() is None):
    """Play ``plies`` quiet moves allowed by ``allow``, no draw before the last, and the
    last position accepted by ``last``; with ``men_every``, a man moves (without
    promoting) at least that often, so that the kings-only rule does not fire."""
    start_ply = game.ply

    def man_due():
        if men_every is None:
            return False
        last = max([i for i, p in enumerate(game.positions[:-1])
                    if (p.piece_at(game.moves[i].move.start) or "").islower()] + [start_ply - 1])
        return game.ply - last >= men_every

    def candidates():
        position = game.position
        out = []
        for move in position.legal_moves():
            if move.is_capture or not allow(game, move):
                continue
            after = position.play(move)
            is_man = (position.piece_at(move.start) or "").islower()
            if is_man and after.piece_at(move.end).isupper():
                continue  # promotion changes the material: not wanted here
            if men_every is None and is_man:
                continue
            replies = after.legal_moves()
            if not replies or replies[0].is_capture:
                continue  # a dead end: the other side would have to capture, or could not move
            out.append((game.repetitions(after), not is_man if man_due() else is_man, move))
        out.sort(key=lambda item: item[:2])
        return [move for _, _, move in out]

    budget = [20000]

    def search(remaining):
        if remaining == 0:
            return True
        budget[0] -= 1
        assert budget[0] > 0, "search budget exhausted"
        for move in candidates():
            game.play(move)
            fits = last(game) if remaining == 1 else game.draw_reason() is None
            if game.repetitions() < 3 and fits and search(remaining - 1):
                return True
            game.undo()
        return False

    assert search(plies), "no quiet line found"
    return game


def game_from(variant, fen, preset=None):
    return Game.from_fen(get_variant(variant), fen, draw_preset=preset)


def on_main_road(game, move):
    """The lone king (Black here) stays on a1-h8; White's pieces go anywhere."""
    if game.position.white_to_move:
        return True
    file, rank = game.variant.geometry.coords(move.end)
    return file == rank


def off_main_road(game, move):
    if game.position.white_to_move:
        return True
    file, rank = game.variant.geometry.coords(move.end)
    return file != rank


CASES = [
    # variant, preset, FEN, moves of the rule, the reason's code, allow, men_every
    ("russian", None, "W:WK29,K30,K31:BK2,K3,K4", 15, ReasonCode.KINGS_ONLY, None, None),
    ("russian", None, "W:WK29,K31,K32:BK2", 15, ReasonCode.LONE_KING_3_KINGS, off_main_road, None),
    ("russian", None, "W:WKd4,a3,h2:BKb8,h6", 30, ReasonCode.KINGS_4_5, None, 20),
    ("russian", None, "W:WKd4,a3,h2,c1:BKb8,h6,a7", 60, ReasonCode.KINGS_6_7, None, 20),
    ("russian", None, "W:WK1,K2,K3:BK18", 5, ReasonCode.MAIN_ROAD, on_main_road, None),
    ("russian", None, "W:WK1,K2:BK17", 5, ReasonCode.TWO_AGAINST_KING, None, None),
    ("international", None, "W:WK46,K47,K48:BK3,K4,K5", 25, ReasonCode.KINGS_ONLY, None, None),
    ("international", "fmjd", "W:WK28,36,45:BK3", 16, ReasonCode.THREE_WITH_KING, None,
     None),
    ("international", "fmjd", "W:WK28,36:BK3", 5, ReasonCode.TWO_AGAINST_KING, None, None),
    ("international", "seed-2008", "W:WK46,K47,K48:BK3,K4,K5", 15, ReasonCode.KINGS_ONLY, None,
     None),
    ("international", "seed-2008", "W:WK28,K33,36:BK3", 20, ReasonCode.KING_AND_MEN, None, 20),
]


@pytest.mark.parametrize("variant, preset, fen, moves, code, allow, men_every", CASES,
                         ids=[f"{c[0]}-{c[1] or 'default'}-{c[4].value}" for c in CASES])
def test_rule_fires_exactly_at_its_count(variant, preset, fen, moves, code, allow,
                                         men_every):
    game = game_from(variant, fen, preset)
    kwargs = {"men_every": men_every}
    if allow is not None:
        kwargs["allow"] = allow
    walk(game, 2 * moves, last=lambda game: any(r.code is code for r in game.draw_reasons()),
         **kwargs)
    assert game.ply == 2 * moves
    reason = next(r for r in game.draw_reasons() if r.code is code)
    assert reason == Reason(code, moves) and reason.is_draw
    assert words(reason).startswith(f"draw: {moves} ")
    assert game.outcome() == (game.variant.results[1], game.draw_reason()) and game.is_over
    last = game.moves[-1]
    game.undo()
    assert game.draw_reason() is None, "one ply short of the count"
    assert not game.is_over
    game.play(last.move)
    assert reason in game.draw_reasons()


def test_a_capture_restarts_the_count():
    game = game_from("russian", "W:WK29,K30,K31:BK2,K3,K4")
    walk(game, 20)
    assert game.draw_counters[0] == 20
    # a man move resets the kings-only count
    game2 = game_from("russian", "W:WK29,21:BK4,12")
    game2.play("a3-b4")
    assert game2.draw_counters[0] == 0


def test_threefold_repetition():
    game = game_from("international", "W:WK46:BK1")  # the 5-move rule needs 10 plies
    shuffle = ["46-41", "1-6", "41-46", "6-1"]
    for move in shuffle:
        game.play(move)
    assert game.repetitions() == 2 and game.draw_reason() is None
    for move in shuffle[:3]:
        game.play(move)
    assert game.draw_reason() is None
    game.play(shuffle[3])
    assert game.repetitions() == 3
    assert game.draw_reason() == Reason(ReasonCode.REPETITION)
    assert words(game.draw_reason()) == "draw: threefold repetition"


def test_no_legal_move_loses():
    game = game_from("russian", "W:Wa1:Bb2,c3")  # a1 blocked by b2, which c3 guards
    assert game.position.is_game_over()
    assert game.outcome() == ("0-1", Reason(ReasonCode.NO_MOVE_WHITE))
    assert words(game.outcome()[1]) == "White has no legal move"
    assert game.is_over and game.result_text() == "0-1"


def test_repetition_family_counts_nothing_but_repetition():
    assert draw_rules("repetition").rules == ()


def test_unknown_presets_are_errors():
    with pytest.raises(UnknownDrawRulesError, match="seed-2008"):
        draw_rules("international", "fide")
    with pytest.raises(UnknownDrawRulesError):
        draw_rules("checkers")
