"""A match between two boards, the pure part: each board's record of the game, what a
record from the other board may do (a ply held already changes nothing, a ply that
differs is refused in one line, a move is believed only as the rules prove it), who is
reachable, and whatever is not the protocol refused in one line."""

from __future__ import annotations

import json
import random

import pytest

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.fen import initial_position
from draughtsboard.board.rules.notation import format_move
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.opponents.match_state import (
    MatchConflict,
    MatchMessageError,
    MatchRecord,
    MatchState,
    Ply,
    decode_beat,
    digest,
    encode_beat,
)

RUSSIAN = get_variant("russian")
START = initial_position(RUSSIAN).fen()
TAGS = {"Event": "Towns match", "Round": "1", "TimeControl": "600+5", "White": "Anna"}


def states():
    white = MatchState("m1", "white", "Anna", "russian", START, TAGS)
    black = MatchState("m1", "black", "Boris", "russian", START, TAGS)
    return white, black


def game_of(moves: list[str], clocks=None) -> Game:
    game = Game(RUSSIAN, initial_position(RUSSIAN))
    for index, text in enumerate(moves):
        game.play(text)
        if clocks is not None:
            game.replace_last(clock=clocks[index])
    return game


def first_moves(count: int, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    position, texts = initial_position(RUSSIAN), []
    for _ in range(count):
        move = rng.choice(position.legal_moves())
        texts.append(format_move(position, move))
        position = position.play(move)
    return texts


def test_a_move_goes_across_and_is_believed_as_the_rules_prove_it():
    white, black = states()
    moves = first_moves(3)
    record = white.recorded(game_of(moves[:1], [(600.0, 600.0)]))
    assert black.receive("record", record, now=1.0) is None
    move, ply = black.next_move(initial_position(RUSSIAN))
    assert format_move(initial_position(RUSSIAN), move) == moves[0]
    assert ply == Ply(0, moves[0], digest(initial_position(RUSSIAN)), (600.0, 600.0))
    # black carries it out and records it with white's clocks: both hold the same ply
    assert black.recorded(game_of(moves[:1], [(600.0, 600.0)])) is not None
    assert black.next_move(game_of(moves[:1]).position) is None  # black's own turn
    assert black.conflict is None


def test_a_record_received_twice_or_late_changes_nothing():
    white, black = states()
    moves = first_moves(3)
    one = white.recorded(game_of(moves[:1]))
    black.recorded(game_of(moves[:2]))
    three = white.recorded(game_of(moves[:3]))
    for payload in (three, three, one, three):  # again, and an older one after it
        assert black.receive("record", payload, now=2.0) is None
    position = game_of(moves[:2]).position
    move, ply = black.next_move(position)
    assert ply.index == 2 and format_move(position, move) == moves[2]
    assert black.theirs.plies == MatchRecord.from_json(three).plies


def test_a_ply_that_differs_is_refused_in_one_line_and_nothing_more_is_played():
    white, black = states()
    moves = first_moves(2)
    black.recorded(game_of(moves[:1]))
    other = [m for m in (format_move(initial_position(RUSSIAN), x)
                         for x in initial_position(RUSSIAN).legal_moves()) if m != moves[0]]
    refusal = black.receive("record", white.recorded(game_of(other[:1])), now=1.0)
    assert refusal is not None and "\n" not in refusal and "ply 1 differs" in refusal
    with pytest.raises(MatchConflict, match="ply 1 differs"):
        black.next_move(game_of(moves[:1]).position)


def test_a_move_not_legal_in_our_position_is_refused():
    white, black = states()
    forged = MatchRecord("m1", "white", "Anna", "russian", START, black.tags,
                         (Ply(0, "9-13", digest(initial_position(RUSSIAN))),))
    wrong_place = MatchRecord("m1", "white", "Anna", "russian", START, black.tags,
                              (Ply(0, "22-18", "0" * 16),))
    for record, why in ((forged, "refused"), (wrong_place, "another position")):
        white_, black_ = states()
        assert black_.receive("record", record.to_json(), now=1.0) is None
        with pytest.raises(MatchConflict, match=why) as caught:
            black_.next_move(initial_position(RUSSIAN))
        assert "\n" not in str(caught.value)


def test_boards_started_with_other_tags_or_games_do_not_play():
    white = MatchState("m1", "white", "Anna", "russian", START, {**TAGS, "Round": "2"})
    _, black = states()
    refusal = black.receive("record", white.recorded(game_of([])), now=0.0)
    assert "Round '2'" in refusal and "'1'" in refusal
    other_game = MatchState("m1", "white", "Anna", "international",
                            initial_position(get_variant("international")).fen(), TAGS)
    _, black = states()
    assert "variant" in black.receive("record", other_game.recorded(game_of([])), now=0.0)


def test_more_than_the_other_sides_own_next_move_is_a_conflict():
    white, black = states()
    moves = first_moves(3)
    black.receive("record", white.recorded(game_of(moves)), now=0.0)
    with pytest.raises(MatchConflict, match="3 plies, this one 0"):
        black.next_move(initial_position(RUSSIAN))


def test_presence_the_beat_and_the_will():
    white, black = states()
    assert not black.reachable(0.0)  # never heard from
    black.receive("beat", white.beat(), now=10.0)
    assert black.reachable(12.0) and not black.reachable(10.0 + black.lost_after + 0.1)
    black.receive("presence", b"offline", now=13.0)
    assert not black.reachable(13.0)
    black.receive("beat", encode_beat(0), now=14.0)
    assert black.reachable(14.0)


def test_a_beat_that_holds_fewer_of_our_plies_asks_for_the_record_again():
    white, black = states()
    moves = first_moves(1)
    white.recorded(game_of(moves))
    white.receive("beat", black.beat(), now=1.0)  # black holds none of white's plies
    assert white.needs_resend()
    black.receive("record", white.record().to_json(), now=1.5)
    white.receive("beat", black.beat(), now=2.0)
    assert not white.needs_resend()


def test_a_record_on_the_wrong_seat_is_refused():
    white, black = states()
    refusal = white.receive("record", black.recorded(game_of([])), now=0.0)
    assert refusal is None  # black's own record on black's topic
    assert "refused" in black.receive("record", MatchRecord(
        "m2", "white", "x", "russian", START, {}).to_json(), now=0.0)


BAD = [b"", b"\xff\xfe", b"[]", b"null", b"{}", b'{"v": 2}', b"{" * 5000,
       json.dumps({"v": 1, "match": "m1", "seat": "red", "name": "a", "variant": "russian",
                   "start": START, "tags": {}, "plies": []}).encode(),
       json.dumps({"v": 1, "match": "m1", "seat": "white", "name": "a", "variant": "russian",
                   "start": START, "tags": {}, "plies": [{"ply": 1}]}).encode(),
       json.dumps({"v": 1, "match": "m1", "seat": "white", "name": "a", "variant": "russian",
                   "start": START, "tags": {"Bad": "x"}, "plies": []}).encode(),
       json.dumps({"v": 1, "match": "m1", "seat": "white", "name": "a", "variant": "russian",
                   "start": START, "tags": {}, "plies": [
                       {"ply": 0, "move": "22-18", "before": "0" * 16,
                        "clock": [float("nan"), 1]}]}).encode().replace(b"NaN", b"1e999"),
       b"x" * (300 * 1024)]


@pytest.mark.parametrize("payload", BAD, ids=range(len(BAD)))
def test_what_is_not_a_record_is_refused_in_one_line_and_changes_nothing(payload):
    _, black = states()
    refusal = black.receive("record", payload, now=0.0)
    assert refusal is not None and "\n" not in refusal and len(refusal) < 300
    assert black.theirs is None and black.refused == 1


def test_fuzzed_messages_never_raise():
    rng = random.Random(5)
    white, black = states()
    good = white.recorded(game_of(first_moves(4)))
    for _ in range(3000):
        data = bytearray(good)
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(data))
            data[at] = rng.randrange(256)
        kind = rng.choice(["record", "beat", "presence", "other"])
        refusal = black.receive(kind, bytes(data[:rng.randint(0, len(data))]), now=0.0)
        assert refusal is None or "\n" not in refusal
        try:
            black.next_move(initial_position(RUSSIAN))
        except MatchConflict as error:
            assert "\n" not in str(error)


def test_a_beat_out_of_bounds_is_refused():
    for payload in (b'{"holds": -1}', b'{"holds": true}', b"x" * 300):
        with pytest.raises(MatchMessageError):
            decode_beat(payload)
