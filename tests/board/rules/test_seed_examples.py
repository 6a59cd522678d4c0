"""The examples of the rule texts, rebuilt as positions (data: tests/data/seed-examples.json).

Each example gives the full list of legal moves; some also play a move and check the
squares afterwards (``None`` for an empty square), the legal moves of the next move, or the
captures that the majority rule excludes (the same position with the rule switched off).
"""

from __future__ import annotations

import json
import pathlib
from dataclasses import replace

import pytest

from draughtsboard.board.rules.fen import format_fen, parse_fen
from draughtsboard.board.rules.notation import format_move, parse_move, parse_square
from draughtsboard.board.rules.variants import get_variant

DATA = json.loads(
    (pathlib.Path(__file__).parents[2] / "data" / "seed-examples.json").read_text("utf-8"))
EXAMPLES = {example["id"]: example for example in DATA["examples"]}


# The rule texts the examples come from (docs/rules.md names them).
RULE_TEXTS = ("lesson on captures", "federation rules", "differences article")


def notations(position):
    legal = position.legal_moves()
    return sorted(format_move(position, move, legal) for move in legal)


def test_every_example_names_its_source_and_rule():
    assert len(EXAMPLES) == len(DATA["examples"]) >= 15
    for example in EXAMPLES.values():
        assert example["source"].startswith(RULE_TEXTS)
        assert example["rule"]


@pytest.mark.parametrize("example_id", sorted(EXAMPLES))
def test_seed_example(example_id):
    example = EXAMPLES[example_id]
    variant = get_variant(example["variant"])
    position = parse_fen(variant, example["fen"])
    assert notations(position) == example["moves"]

    if "without_majority" in example:
        assert variant.majority_rule
        free_choice = replace(variant, majority_rule=False)
        assert notations(parse_fen(free_choice, example["fen"])) == example["without_majority"]

    if "play" not in example:
        return
    after = position.play(parse_move(position, example["play"]))
    for square, piece in example["after"].items():
        assert after.piece_at(parse_square(variant, square)) == piece, square

    if "reply" in example:
        after = after.play(parse_move(after, example["reply"]))
        assert notations(after) == example["next_moves"]
    if "next_moves_if_white_to_move" in example:
        white_again = parse_fen(variant, "W" + format_fen(after)[1:])
        assert notations(white_again) == example["next_moves_if_white_to_move"]
