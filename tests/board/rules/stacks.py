"""What the column games' tests (Lasca and column draughts) share: the perft tables, the
legal moves as text, a move played from its text, and a column read by its square's name."""

import json
import pathlib

from draughtsboard.board.rules.notation import format_move, parse_move

TABLES = json.loads((pathlib.Path(__file__).parents[2] / "data" / "perft_columns.json")
                    .read_text())


def moves(position):
    legal = position.legal_moves()
    return sorted(format_move(position, move, legal) for move in legal)


def play(position, text):
    return position.play(parse_move(position, text))


def column(position, name):
    return position.column_at(position.variant.geometry.number_of_name(name))
