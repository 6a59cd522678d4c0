"""Properties of the rules engine over random legal play (hypothesis, derandomized).

Each example is a game from the initial position played by a random generator seeded by
hypothesis (half of the moves the most advancing one, so that kings appear), up to
`MAX_PLIES` plies. Every position on
the walk is checked: FEN and move notation round trips, perft(1), and what playing each
legal move does to the pieces.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from draughtsboard.board.rules.fen import format_fen, parse_fen
from draughtsboard.board.rules.notation import format_move, parse_move
from draughtsboard.board.rules.perft import perft
from draughtsboard.board.rules.position import Position

from .walks import random_game

VARIANTS = ["russian", "international"]

MAX_PLIES = 160
SEEDS = st.integers(0, 2**32 - 1)

WALKS = settings(max_examples=25, derandomize=True, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow])


def walk(variant_name: str, seed: int) -> list[Position]:
    """The positions of a seeded random game (stops when the game is over)."""
    return list(random_game(variant_name, seed, MAX_PLIES))


def over_random_games(test):
    """``test(variant_name, seed)`` as a slow property: on `WALKS`' seeds in each of
    `VARIANTS` (the decorators every test here shares)."""
    return pytest.mark.slow(pytest.mark.parametrize("variant_name", VARIANTS)(
        WALKS(given(seed=SEEDS)(test))))


def count(position: Position, colour: str) -> int:
    return (position.white if colour == "w" else position.black).bit_count()


def square_bit(position: Position, square: int) -> int:
    return 1 << (square - 1)


@over_random_games
def test_fen_round_trip(variant_name, seed):
    for position in walk(variant_name, seed):
        text = format_fen(position)
        again = parse_fen(position.variant, text)
        assert again == position, text
        assert format_fen(again) == text


@over_random_games
def test_move_notation_round_trip(variant_name, seed):
    for position in walk(variant_name, seed):
        legal = position.legal_moves()
        for move in legal:
            text = format_move(position, move, legal)
            assert parse_move(position, text) == move, (format_fen(position), text)
            assert format_move(position, move) == text


@over_random_games
def test_perft_one_is_the_number_of_legal_moves(variant_name, seed):
    for position in walk(variant_name, seed):
        assert perft(position, 1) == len(position.legal_moves()), format_fen(position)


@over_random_games
def test_playing_a_move_keeps_the_pieces_consistent(variant_name, seed):
    for position in walk(variant_name, seed):
        mover = "w" if position.white_to_move else "b"
        opponent = "b" if mover == "w" else "w"
        for move in position.legal_moves():
            fen = format_fen(position)
            # No piece is taken twice, and only the opponent's pieces are taken.
            assert len(set(move.captures)) == len(move.captures), (fen, move)
            assert all(position.piece_at(square).lower() == opponent
                       for square in move.captures), (fen, move)
            after = position.play(move)
            assert after.white_to_move != position.white_to_move
            assert count(after, mover) == count(position, mover), (fen, move)
            assert count(after, opponent) == count(position, opponent) - len(move.captures)
            # The sensors see: the start emptied, the captured pieces gone, the end filled.
            expected = position.occupancy() & ~square_bit(position, move.start)
            for square in move.captures:
                expected &= ~square_bit(position, square)
            expected |= square_bit(position, move.end)
            assert after.occupancy() == expected, (fen, move)
            assert after.piece_at(move.end).lower() == mover
            # A king stays a king.
            if position.piece_at(move.start).isupper():
                assert after.piece_at(move.end).isupper()
