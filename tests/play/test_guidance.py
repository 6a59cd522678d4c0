"""The page's sentences: what the players are told to do, from the tracker's public state."""

from __future__ import annotations

from draughtsboard.board.ports import mask_from_squares
from draughtsboard.board.rules import get_variant, initial_position, parse_fen
from draughtsboard.play.guidance import (
    carried_columns,
    describe_column,
    guidance,
    restore_steps,
)

from ..rendered import in_english, rendered

RUSSIAN = get_variant("russian")
# Russian squares used below: c5=14, d4=18, e3=23, f4=19, g5=16, a3=21, a5=13, c3=22


def board(position, *, lift=(), place=()):
    """The occupancy the switches show after lifting and placing on these squares."""
    return position.occupancy() & ~mask_from_squares(lift) | mask_from_squares(place)


def test_an_illegal_move_is_told_to_go_back_where_it_came_from():
    position = parse_fen(RUSSIAN, "W:W14,22:B18,19,1")  # white c5, c3; black d4, f4, b8
    occupied = board(position, lift=[14], place=[23])  # the piece on c5 put on e3
    steps = restore_steps(position, occupied)
    assert in_english(steps) == ("Put the piece on e3 back on c5",)
    words = guidance(position, "illegal", {"illegal": (23,), "restore": (14, 23)}, occupied)
    assert in_english(words.headline) == "Illegal move: put the position back"
    assert in_english([(f.kind, f.title, f.steps) for f in words.flags]) == [
        ("illegal", "Illegal move", ("Put the piece on e3 back on c5",))]


def test_a_piece_where_none_belongs_is_taken_off():
    position = initial_position(RUSSIAN)
    occupied = board(position, place=[18])
    assert in_english(restore_steps(position, occupied)) == ("Take off the piece on d4",)
    assert carried_columns(position, occupied) == {}  # nothing lifted: unknown piece


def test_a_capture_gone_wrong_names_the_captor_and_the_taken_piece():
    # black g5 takes f4, landing on e3, and the white piece on f4 is already off;
    # black then lifts nothing else: the board is told back square by square
    position = parse_fen(RUSSIAN, "B:W19,18:B16")
    occupied = board(position, lift=[16, 19], place=[23])
    assert carried_columns(position, occupied) == {23: "b"}  # the captor keeps its colour
    assert in_english(restore_steps(position, occupied)) == (
        "Put the piece on e3 back on g5", "Put a white man on f4")


def test_two_pieces_out_of_place_are_not_guessed():
    # a new game after c3-d4 f6-g5: two pieces stand where none belong, their colours
    # are not known to the switches, so no sentence pretends to know which went where
    position = initial_position(RUSSIAN)
    occupied = board(position, lift=[22, 11], place=[18, 16])
    assert carried_columns(position, occupied) == {}
    assert in_english(restore_steps(position, occupied, back=False)) == (
        "Take off the pieces on g5 and d4", "Put a black man on f6", "Put a white man on c3")


def test_setting_up_moves_a_piece_rather_than_putting_it_back():
    position = parse_fen(RUSSIAN, "B:W18:B1")  # resumed after c3-d4
    occupied = board(position, lift=[18], place=[22])
    assert in_english(restore_steps(position, occupied, back=False)) == (
        "Move the piece on c3 to d4",)
    words = guidance(position, "setup", {"restore": (18, 22)}, occupied)
    assert in_english(words.flags[0].title) == "Set up the position"
    assert in_english(words.flags[0].steps) == ("Move the piece on c3 to d4",)


def test_an_empty_board_is_set_up_in_two_sentences():
    position = initial_position(RUSSIAN)
    steps = restore_steps(position, 0, back=False)
    assert in_english(steps) == (
        "Put black men on b8, d8, f8, h8, a7, and 7 more (lit)",
        "Put white men on a3, c3, e3, g3, b2, and 7 more (lit)",
    )


def test_kings_and_columns_are_named_by_what_they_hold():
    assert in_english(describe_column("W")) == "a white king"
    assert in_english(describe_column("b")) == "a black man"
    assert in_english(describe_column("wbB")) == \
        "a column of 3 (top first: white, black, and black king)"
    lasca = get_variant("lasca")
    position = parse_fen(lasca, "W:d4=wbB,a7=b")
    occupied = board(position, lift=[13])
    assert in_english(restore_steps(position, occupied)) == (
        "Put a column of 3 (top first: white, black, and black officer) on d4",)


def test_international_squares_are_numbers():
    international = get_variant("international")
    position = initial_position(international)
    occupied = board(position, lift=[32], place=[27])
    assert in_english(restore_steps(position, occupied)) == ("Put the piece on 27 back on 32",)


def test_required_captures_ambiguity_and_hints_in_words():
    position = parse_fen(RUSSIAN, "W:W22,24:B18,15")
    words = guidance(position, "ready", {"must_capture": (22,)}, position.occupancy())
    assert in_english(words.headline) == "White to move"
    assert in_english([(f.title, f.steps) for f in words.flags]) == [
        ("White must capture", ("Capture with the piece on c3",))]
    words = guidance(position, "moving", {"must_capture": (22, 24), "path": (15,)},
                     board(position, lift=[22]))
    assert in_english(words.headline) == "White is moving"
    assert in_english([f.steps for f in words.flags]) == [
        ("Capture with one of the 2 pieces on c3 or g3",), ("Next landing square: e5",)]
    words = guidance(position, "ambiguous", {"ambiguous": (13, 15)}, position.occupancy())
    assert in_english(words.flags[0].steps) == (
        "Lift and put back the piece on the square you meant: a5 or e5",)


def test_the_headline_after_the_result():
    position = parse_fen(RUSSIAN, "B:W15")
    words = guidance(position, "game_over", {}, position.occupancy(), result="1-0",
                     result_reason="Black has no legal move")
    assert in_english(words.headline) == "Game over: 1-0 (Black has no legal move)"
    assert in_english(guidance(position, "game_over", {}, position.occupancy()).headline) == \
        "Game over: Black has no legal move"


def test_the_restore_steps_in_russian():
    position = parse_fen(RUSSIAN, "W:W14,22:B18,19,1")
    occupied = board(position, lift=[14], place=[23])
    assert rendered(restore_steps(position, occupied), "ru") == ("Верните шашку с e3 на c5",)
    start = initial_position(RUSSIAN)
    assert rendered(restore_steps(start, board(start, lift=[22, 11], place=[18, 16]),
                                  back=False), "ru") == (
        "Снимите шашки с g5 и d4", "Поставьте чёрную простую на f6",
        "Поставьте белую простую на c3")
    # a long list ends with how many more squares are lit
    assert rendered(restore_steps(start, 0, back=False), "ru") == (
        "Поставьте чёрные простые на b8, d8, f8, h8, a7 и ещё 7 (горят)",
        "Поставьте белые простые на a3, c3, e3, g3, b2 и ещё 7 (горят)")
    seven = parse_fen(RUSSIAN, "W:W21,22,23,24,25,26,27:B1")  # seven white men to put
    assert rendered(restore_steps(seven, mask_from_squares([1]), back=False), "ru") == (
        "Поставьте белые простые на a3, c3, e3, g3, b2 и ещё 2 (горят)",)


def test_a_column_is_named_in_russian_as_the_object_with_the_right_plural():
    lasca = get_variant("lasca")
    position = parse_fen(lasca, "W:d4=wbB,a7=b")
    assert rendered(restore_steps(position, board(position, lift=[13])), "ru") == (
        "Поставьте башню из 3 шашек (сверху вниз: белая, чёрная и чёрная дамка) на d4",)


def test_the_must_capture_flag_in_russian():
    position = parse_fen(RUSSIAN, "W:W22,24:B18,15")
    words = guidance(position, "ready", {"must_capture": (22,)}, position.occupancy())
    assert rendered(words.headline, "ru") == "Ход белых"
    assert rendered([(f.title, f.steps) for f in words.flags], "ru") == [
        ("Белые обязаны бить", ("Бейте шашкой с c3",))]
    words = guidance(position, "moving", {"must_capture": (22, 24), "path": (15,)},
                     board(position, lift=[22]))
    assert rendered(words.headline, "ru") == "Белые делают ход"
    assert rendered([f.steps for f in words.flags], "ru") == [
        ("Бейте одной из 2 шашек: c3 или g3",), ("Следующее поле боя: e5",)]
    black = parse_fen(RUSSIAN, "B:W18,19,20:B13,14,15,22,23,24")  # five can capture
    flag = guidance(black, "ready", {"must_capture": (13, 14, 15, 22, 23)},
                    black.occupancy()).flags[0]
    assert rendered(flag.title, "ru") == "Чёрные обязаны бить"
    assert rendered(flag.steps[0], "ru") == "Бейте одной из 5 шашек: a5, c5, e5, c3 или e3"
