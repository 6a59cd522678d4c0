"""Our legal moves against pydraughts' on positions from seeded random games.

pydraughts (a test-only dependency) is the reference: for every sampled position the set
of ``(start, end, frozenset(captured))`` of our legal moves must equal its set. Random play
is biased towards advancing men, so that kings appear, and the sample keeps every position
with a king or a capture but only some quiet men-only ones, so that the slow reference is
spent where the rules are hard. The test counts the positions with kings and with
multi-captures and asserts there are enough of them.

Square numbers: international draughts numbers 1-50 the same way in both libraries.
pydraughts numbers the Russian board from White's side (1 = a1, 2 = c1, 5 = b2 ... 32 = h8,
four squares a row), ours from the top left (1 = b8, 29 = a1): the conversion goes through
the algebraic names.
"""

from __future__ import annotations

import random

import pytest

draughts = pytest.importorskip("draughts")

from draughtsboard.board.rules import initial_position  # noqa: E402
from draughtsboard.board.rules.fen import format_fen  # noqa: E402
from draughtsboard.board.rules.position import Position  # noqa: E402
from draughtsboard.board.rules.variants import Variant, get_variant  # noqa: E402

POSITIONS_PER_VARIANT = 1000
# Minimum share of hard cases in the sample (the seeded sample has more; see the asserts).
MIN_WITH_KINGS = 250
MIN_WITH_MULTI_CAPTURES = 60
MIN_WITH_KING_CAPTURES = 25

PYDRAUGHTS_NAME = {"russian": "russian", "international": "standard"}
SEEDS = {"russian": 20240601, "international": 20240602}


# -- square numbering ---------------------------------------------------------------------

def pydraughts_square_name(number: int, per_row: int) -> str:
    """Algebraic name of a pydraughts square number (numbered from a1, row by row)."""
    row = (number - 1) // per_row
    file = ((number - 1) % per_row) * 2 + row % 2
    return "abcdefghij"[file] + str(row + 1)


def square_maps(variant: Variant) -> tuple[dict[int, int], dict[int, int]]:
    """(ours -> pydraughts, pydraughts -> ours) square numbers."""
    geometry = variant.geometry
    if variant.name == "international":
        same = {number: number for number in geometry.numbers}
        return same, same
    per_row = geometry.size // 2
    theirs_of_name = {pydraughts_square_name(n, per_row): n for n in geometry.numbers}
    to_theirs = {n: theirs_of_name[geometry.name(n)] for n in geometry.numbers}
    return to_theirs, {theirs: ours for ours, theirs in to_theirs.items()}


def pydraughts_fen(position: Position, to_theirs: dict[int, int]) -> str:
    """Our position as a FEN in pydraughts' numbering."""
    white: list[str] = []
    black: list[str] = []
    for number in position.variant.geometry.numbers:
        piece = position.piece_at(number)
        if piece is None:
            continue
        item = ("K" if piece.isupper() else "") + str(to_theirs[number])
        (white if piece.lower() == "w" else black).append(item)
    side = "W" if position.white_to_move else "B"
    return f"{side}:W{','.join(white)}:B{','.join(black)}"


def ours(position: Position) -> set[tuple[int, int, frozenset[int]]]:
    return {(m.start, m.end, frozenset(m.captures)) for m in position.legal_moves()}


def theirs(position: Position, to_theirs, to_ours) -> set[tuple[int, int, frozenset[int]]]:
    board = draughts.Board(variant=PYDRAUGHTS_NAME[position.variant.name],
                           fen=pydraughts_fen(position, to_theirs))
    out = set()
    for move in board.legal_moves():
        steps = move.board_move
        captured = frozenset(to_ours[square] for square in (move.captures or []))
        out.add((to_ours[steps[0][0]], to_ours[steps[-1][1]], captured))
    return out


# -- the sample ---------------------------------------------------------------------------

def advance(variant: Variant, move, white: bool) -> int:
    """How far a move takes its piece towards White's (or Black's) last row."""
    geometry = variant.geometry
    rank_from = geometry.coords(move.start)[1]
    rank_to = geometry.coords(move.end)[1]
    return rank_to - rank_from if white else rank_from - rank_to


def sample_positions(variant: Variant, seed: int, wanted: int) -> list[Position]:
    """Positions from seeded random games: every one with a king or a capture to make,
    one in four of the others. Half of the moves are the most advancing one."""
    rng = random.Random(seed)
    sample: list[Position] = []
    while len(sample) < wanted:
        position = initial_position(variant)
        for _ in range(300):
            moves = position.legal_moves()
            interesting = position.kings or (moves and moves[0].captures)
            if interesting or rng.random() < 0.25:
                sample.append(position)
                if len(sample) == wanted:
                    break
            if not moves:
                break
            if rng.random() < 0.5:
                white = position.white_to_move
                move = max(moves, key=lambda m: (advance(variant, m, white), rng.random()))
            else:
                move = rng.choice(moves)
            position = position.play(move)
    return sample


def test_russian_numbering_maps_through_algebraic_names():
    to_theirs, to_ours = square_maps(get_variant("russian"))
    assert to_theirs[29] == 1  # a1
    assert to_theirs[32] == 4  # g1 -> pydraughts' 4th square of row 1
    assert to_theirs[1] == 29  # b8 is pydraughts' first square of row 8
    assert to_theirs[4] == 32  # h8
    assert to_theirs[22] == 10  # c3: pydraughts a3 = 9, c3 = 10
    assert all(to_ours[to_theirs[n]] == n for n in range(1, 33))
    # The initial positions agree move for move (white men a3-b4 ... g3-h4).
    start = initial_position(get_variant("russian"))
    assert ours(start) == theirs(start, to_theirs, to_ours)


@pytest.mark.slow
@pytest.mark.parametrize("variant_name", ["russian", "international"])
def test_legal_moves_equal_pydraughts_on_random_game_positions(variant_name):
    variant = get_variant(variant_name)
    to_theirs, to_ours = square_maps(variant)
    positions = sample_positions(variant, SEEDS[variant_name], POSITIONS_PER_VARIANT)
    with_kings = with_multi = with_king_captures = 0
    mismatches = []
    for position in positions:
        mine = ours(position)
        reference = theirs(position, to_theirs, to_ours)
        if mine != reference:
            mismatches.append((format_fen(position), sorted(mine - reference, key=str),
                               sorted(reference - mine, key=str)))
        with_kings += bool(position.kings)
        with_multi += any(len(captured) > 1 for _, _, captured in mine)
        with_king_captures += any(
            captured and position.kings >> position.variant.geometry.bit_of_number[start] & 1
            for start, _, captured in mine)
    assert len(positions) == POSITIONS_PER_VARIANT
    assert with_kings >= MIN_WITH_KINGS, with_kings
    assert with_multi >= MIN_WITH_MULTI_CAPTURES, with_multi
    assert with_king_captures >= MIN_WITH_KING_CAPTURES, with_king_captures
    assert not mismatches, f"{len(mismatches)} positions differ, first: {mismatches[:3]}"
