"""Forced material within a horizon: the claims behind blunder warnings and tactics."""

from __future__ import annotations

import pytest

from draughtsboard.board.rules import parse_fen
from draughtsboard.board.rules.engine.material import LOST, MaterialProver
from draughtsboard.board.rules.errors import IllegalMoveError
from draughtsboard.board.rules.notation import parse_move
from draughtsboard.board.rules.variants import get_variant

SHOT = "W:W17,19,20:B9-11,13"  # f4-g5 then g5 takes three (see test_search)


def test_the_shot_is_the_only_move_that_wins_material():
    position = parse_fen(get_variant("russian"), SHOT)
    outcomes = MaterialProver(position.variant).outcomes(position)
    best = outcomes[0]
    assert str(best.move) == "19-16" and best.gain == 2
    assert [str(m) for m in best.line[:3]] == ["19-16", "13x22", "16x7x14x5"]
    assert all(o.gain <= 0 for o in outcomes[1:])


def test_a_move_that_loses_a_piece_and_the_move_that_does_not():
    # Black to move: d6-c5? (10-14) walks into b4xd6 (17x10); d6-e5 (10-15) does not.
    position = parse_fen(get_variant("russian"), "B:W17,31:B10,4")
    prover = MaterialProver(position.variant)
    blunder = parse_move(position, "d6-c5")
    played, better = prover.better_than(position, blunder)
    assert played == -1
    assert better is not None and better.gain == 0
    assert prover.gain(position, better.move) == 0


def test_a_claim_is_not_made_when_the_budget_runs_out():
    position = parse_fen(get_variant("international"), "W:W31-50:B1-20")
    prover = MaterialProver(position.variant)
    assert prover.outcomes(position, horizon=3, nodes=50) is None
    assert prover.gain(position, position.legal_moves()[0], nodes=5) is None
    assert prover.better_than(position, position.legal_moves()[0], nodes=5) is None


def test_a_line_longer_than_the_ply_cap_is_not_proved(monkeypatch):
    """Columns can capture each other back and forth without end: past ``MAX_PLIES``
    the prover makes no claim instead of recursing until Python gives up."""
    from draughtsboard.board.rules.engine import material

    position = parse_fen(get_variant("russian"), SHOT)
    prover = MaterialProver(position.variant)
    monkeypatch.setattr(material, "MAX_PLIES", 2)
    assert prover.outcomes(position) is None
    monkeypatch.setattr(material, "MAX_PLIES", 200)
    assert prover.outcomes(position)[0].gain == 2


def test_an_illegal_move_is_refused_with_the_position():
    position = parse_fen(get_variant("russian"), SHOT)
    with pytest.raises(IllegalMoveError):
        MaterialProver(position.variant).gain(position, parse_move(
            parse_fen(position.variant, "W:W21:B1"), "a3-b4"))


def test_column_material_counts_the_pieces_a_side_commands():
    lasca = get_variant("lasca")
    prover = MaterialProver(lasca)
    # White tops d4 with a black prisoner under it; Black has a lone man on g7
    assert prover.balance(parse_fen(lasca, "W:d4=wb,g7=b")) == 0
    assert prover.balance(parse_fen(lasca, "W:d4=ww,g7=b")) == 1
    assert prover.balance(parse_fen(lasca, "B:d4=wwb,g7=b")) == -1


def test_a_capture_that_frees_a_prisoner_gains_two():
    lasca = get_variant("lasca")
    # White c3 jumps the black-topped column on d4 (black over white) to e5: it takes
    # the black man prisoner and frees its own man under it.
    position = parse_fen(lasca, "W:c3=w,d4=bw,a7=b")
    outcome = MaterialProver(lasca).outcomes(position, horizon=0)[0]
    assert outcome.gain == 2


def test_a_side_left_without_moves_has_lost_everything():
    position = parse_fen(get_variant("russian"), "W:W22:B18")
    outcome = MaterialProver(position.variant).outcomes(position)[0]
    assert outcome.gain >= LOST - 1


@pytest.mark.slow
def test_every_solution_the_tactics_suite_lists_wins_at_its_check_horizon():
    """The benchmark judges a move by the prover at ``check_horizon``; a listed solution
    that wins only at the shorter horizon would tell a reader the engine missed a shot
    it was shown to find."""
    import json
    import pathlib

    from draughtsboard.board.rules.notation import format_move

    suite = json.loads((pathlib.Path(__file__).resolve().parents[4] / "benchmarks" /
                        "tactics.json").read_text(encoding="utf-8"))
    wrong = []
    for entry in suite["positions"]:
        variant = get_variant(entry["variant"])
        position = parse_fen(variant, entry["fen"])
        prover = MaterialProver(variant)
        legal = position.legal_moves()
        listed = {format_move(position, move, legal): move for move in legal}
        assert entry["solutions"] and set(entry["solutions"]) <= set(listed), entry["id"]
        for text in entry["solutions"]:
            gain = prover.gain(position, listed[text], suite["check_horizon"], nodes=2_000_000)
            if gain is None or gain < 1:
                wrong.append((entry["id"], text, gain))
    assert wrong == []
