"""The Hub protocol's text: lines, positions and moves in every variant."""

import pytest

from draughtsboard.board.rules import get_variant, initial_position, parse_fen, variant_names
from draughtsboard.opponents.hub_text import (
    HubTextError,
    format_line,
    format_move,
    format_position,
    hub_variant,
    parse_line,
    parse_move,
    parse_position,
)


def test_a_line_with_quoted_values_and_flags():
    line = parse_line('info depth=21 score=-0.01 pv="32-28 17-22" flag')
    assert line.command == "info"
    assert line.args == {"depth": "21", "score": "-0.01", "pv": "32-28 17-22", "flag": ""}
    assert parse_line("   ") is None


def test_lines_that_cannot_be_read_are_errors():
    with pytest.raises(HubTextError, match="quote"):
        parse_line('pos pos="Wbbb')
    with pytest.raises(HubTextError, match="characters"):
        parse_line("x" * 20_000)


def test_format_line_quotes_what_needs_it():
    assert format_line("level", move_time=1) == "level move-time=1"
    assert format_line("id", name="a b", empty="") == 'id name="a b" empty=""'
    assert parse_line(format_line("error", message="bad = input")).get("message") == \
        "bad = input"


def test_scan_start_position_is_the_international_start():
    variant = hub_variant("normal")
    text = "W" + "b" * 20 + "e" * 10 + "w" * 20
    assert parse_position(variant, text) == initial_position(variant)
    assert format_position(initial_position(variant)) == text


@pytest.mark.parametrize("name", variant_names())
def test_positions_round_trip_in_every_variant(name):
    variant = get_variant(name)
    position = initial_position(variant)
    for _ in range(12):  # into the middle game, with captures and columns
        position = position.play(position.legal_moves()[-1])
    assert parse_position(variant, format_position(position)) == position


def test_a_column_is_written_in_parentheses_top_first():
    variant = get_variant("lasca")
    position = parse_fen(variant, "W:a1=wbB,c3=b")
    text = format_position(position)
    assert text.startswith("W(wbB)e")
    assert parse_position(variant, text) == position


@pytest.mark.parametrize("text, message", [
    ("X" + "e" * 50, "must start"), ("W" + "e" * 49, "49 squares"),
    ("W" + "q" * 50, "unknown square letter"), ("W" + "w" * 50, "pieces"),
])
def test_bad_positions_are_errors(text, message):
    with pytest.raises(HubTextError, match=message):
        parse_position(get_variant("international"), text)


def test_captures_in_any_order_for_single_piece_games():
    variant = get_variant("international")
    position = parse_fen(variant, "W:W27:B22,13")  # 27x9, taking 22 then 13
    move = position.legal_moves()[0]
    text = format_move(position, move)
    assert text == "27x9x22x13"
    start, end, first, second = text.split("x")
    assert parse_move(position, f"{start}x{end}x{second}x{first}") == move


def test_illegal_and_malformed_moves_are_errors():
    position = initial_position(get_variant("international"))
    with pytest.raises(HubTextError, match="not a Hub move"):
        parse_move(position, "32-27x")
    with pytest.raises(HubTextError, match="not a Hub move"):
        parse_move(position, "e2-e4")
    with pytest.raises(HubTextError, match="not legal"):
        parse_move(position, "46-41")


def test_unknown_variant_names_the_known_ones():
    with pytest.raises(HubTextError, match="normal russian lasca"):
        hub_variant("killer")
    assert hub_variant("international").name == "international"
