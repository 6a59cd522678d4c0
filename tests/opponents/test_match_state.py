"""A match between two boards, the pure part: each board's record of the game, what a
record from the other board may do (a ply held already changes nothing, a ply that
differs is refused in one line, a move is believed only as the rules prove it), who is
reachable, and whatever is not the protocol refused in one line."""

from __future__ import annotations

import json
import random

import pytest

from draughtsboard.board.game.apply import apply
from draughtsboard.board.game.record import Game
from draughtsboard.board.game.records import Result, Setter
from draughtsboard.board.message import Message
from draughtsboard.board.rules.fen import initial_position, parse_fen
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
from draughtsboard.opponents.match_stops import describe
from draughtsboard.words import english

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
    assert refusal is not None and "\n" not in refusal
    assert black.conflict == Message.of("match.stop.ply_differs", ply=1, white=other[0],
                                        black=moves[0])
    assert refusal == describe(black.conflict)
    assert "move 1 differs" in english(black.conflict)
    with pytest.raises(MatchConflict, match="ply_differs") as caught:
        black.next_move(game_of(moves[:1]).position)
    assert caught.value.message == black.conflict


def test_a_move_not_legal_in_our_position_is_refused():
    white, black = states()
    forged = MatchRecord("m1", "white", "Anna", "russian", START, black.tags,
                         (Ply(0, "9-13", digest(initial_position(RUSSIAN))),))
    wrong_place = MatchRecord("m1", "white", "Anna", "russian", START, black.tags,
                              (Ply(0, "22-18", "0" * 16),))
    for record, why in ((forged, "match.stop.illegal.white"),
                        (wrong_place, "match.stop.position.white")):
        white_, black_ = states()
        assert black_.receive("record", record.to_json(), now=1.0) is None
        with pytest.raises(MatchConflict) as caught:
            black_.next_move(initial_position(RUSSIAN))
        assert caught.value.message.id == why and "\n" not in str(caught.value)


def test_boards_started_with_other_tags_or_games_do_not_play():
    white = MatchState("m1", "white", "Anna", "russian", START, {**TAGS, "Round": "2"})
    _, black = states()
    black.receive("record", white.recorded(game_of([])), now=0.0)
    assert black.conflict == Message.of("match.stop.tag", tag="Round", white="2",
                                        black="1")
    other_game = MatchState("m1", "white", "Anna", "international",
                            initial_position(get_variant("international")).fen(), TAGS)
    _, black = states()
    black.receive("record", other_game.recorded(game_of([])), now=0.0)
    assert black.conflict == Message.of("match.stop.variant", white="international",
                                        black="russian")


def test_more_than_the_other_sides_own_next_move_is_a_conflict():
    white, black = states()
    moves = first_moves(3)
    black.receive("record", white.recorded(game_of(moves)), now=0.0)
    with pytest.raises(MatchConflict) as caught:
        black.next_move(initial_position(RUSSIAN))
    assert caught.value.message == Message.of("match.stop.apart", white=3, black=0)


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


# -- results: believed only as far as they can be proved -------------------------------

def finished(moves: list[str], result: str | None, reason: str = "",
             withdrawn: int = 0, by: Setter = Setter.ARBITER) -> Game:
    """The game after ``moves``, its result recorded as the journal records it (a
    `Result` record with who set it, through the one `apply`)."""
    game = game_of(moves)
    for _ in range(withdrawn):
        game.set_result("1-0", "x")
        game.add_event("result-withdrawn", "withdrawn")
        game.set_result("*")
    if result is not None:
        apply(game, Result(result, reason, by))
    return game


def agreed_pair(plies: int = 4):
    """Both boards holding the same ``plies`` moves, each having read the other's."""
    white, black = states()
    moves = first_moves(plies)
    game = game_of(moves)
    white_record, black_record = white.recorded(game), black.recorded(game)
    assert black.receive("record", white_record, now=0.0) is None
    assert white.receive("record", black_record, now=0.0) is None
    return white, black, moves


def test_a_resignation_against_the_publishing_seat_is_taken():
    white, black, moves = agreed_pair()
    # black's board records black's resignation: white's board takes it
    payload = black.recorded(finished(moves, "1-0", "resigned"))
    assert json.loads(payload)["by"] == "arbiter"
    white.receive("record", payload, now=1.0)
    call = white.result_call(game_of(moves))
    assert (call.action, call.result, call.reason) == ("take", "1-0", "resigned")
    # recorded on white's board: it says the result was the match's; black agrees
    back = white.recorded(finished(moves, "1-0", "resigned", by=Setter.MATCH))
    assert json.loads(back)["by"] == "match"
    black.receive("record", back, now=2.0)
    assert black.result_call(finished(moves, "1-0", "resigned")) is None
    assert white.result_call(finished(moves, "1-0", "resigned")) is None


def test_a_win_a_board_gives_itself_is_only_a_claim():
    white, black, moves = agreed_pair()
    # white's board (its password, its arbiter) says white won: black's board is told
    white_game = finished(moves, "1-0", "black resigned")
    black.receive("record", white.recorded(white_game), now=1.0)
    call = black.result_call(game_of(moves))
    assert (call.action, call.result, call.reason) == ("claim", "1-0", "black resigned")
    assert black.claimed_reason("1-0") == "black resigned"
    assert black.claimed_reason("0-1") is None
    # black's arbiter accepts by recording the same result: a loss of black's own seat
    white.receive("record", black.recorded(finished(moves, "1-0", "black resigned")), 2.0)
    assert white.result_call(white_game) is None
    assert black.result_call(finished(moves, "1-0", "black resigned")) is None


def test_an_agreed_draw_is_recorded_on_both_boards_only_when_both_record_it():
    white, black, moves = agreed_pair()
    black.receive("record", white.recorded(finished(moves, "1/2-1/2", "agreed")), 1.0)
    call = black.result_call(game_of(moves))
    assert (call.action, call.result) == ("claim", "1/2-1/2")  # an offer, never recorded
    white.receive("record", black.recorded(finished(moves, "1/2-1/2", "agreed")), 2.0)
    assert white.result_call(finished(moves, "1/2-1/2", "agreed")) is None


def test_a_result_the_rules_prove_is_taken_whoever_it_favours():
    # white to move has no move left: black's win, which black's board publishes
    fen = "W:W29:B25,22,18"
    white = MatchState("m1", "white", "Anna", "russian", fen, TAGS)
    black = MatchState("m1", "black", "Boris", "russian", fen, TAGS)
    game = Game(RUSSIAN, parse_fen(RUSSIAN, fen))
    white.recorded(game)
    won = Game(RUSSIAN, parse_fen(RUSSIAN, fen))
    apply(won, Result("0-1", "White has no legal move", Setter.RULES))
    payload = black.recorded(won)
    assert json.loads(payload)["by"] == "rules"
    white.receive("record", payload, now=1.0)
    assert white.result_call(game).action == "take"
    # the same win, not proven (another position): a claim
    white, black, moves = agreed_pair()
    white.receive("record", black.recorded(finished(moves, "0-1", "no move")), now=1.0)
    assert white.result_call(game_of(moves)).action == "claim"


def test_a_result_before_both_hold_the_same_moves_waits():
    white, black, moves = agreed_pair(4)
    # black resigns with white's 5th move not yet recorded on black's board
    more = first_moves(5)
    white.recorded(game_of(more))
    white.receive("record", black.recorded(finished(moves, "1-0", "resigned")), now=1.0)
    assert white.result_call(game_of(more)) is None
    # carried out on black's board, then resigned: believed
    black.receive("record", white.record().to_json(), now=2.0)
    white.receive("record", black.recorded(finished(more, "1-0", "resigned")), now=3.0)
    assert white.result_call(game_of(more)).action == "take"


def withdrawn_by_arbiter(game: Game) -> Game:
    """``game`` with its result withdrawn by the board's arbiter, as the journal keeps it
    (an event of kind ``result-withdrawn`` at its ply: its text is for people)."""
    game.add_event("result-withdrawn", "(any words: never read)")
    game.set_result("*")
    return game


def restarted(state: MatchState, game: Game) -> MatchState:
    """The board restarted on its journal's ``game``: a fresh state, which reads the
    other board's retained record."""
    fresh = MatchState(state.match, state.seat, state.name, state.variant, state.start,
                       state.tags)
    fresh.recorded(game)
    fresh.receive("record", state.theirs.to_json(), now=10.0)
    return fresh


def test_a_finished_game_reopens_only_when_both_arbiters_withdraw_its_result():
    """White claimed a win, black's arbiter accepted; white's arbiter gives it up: on
    black's board that is a claim (never carried out by itself), and white's board does
    not take black's 1-0 again by itself: both show the disagreement, restarted or not,
    until black's arbiter withdraws it too."""
    white, black, moves = agreed_pair()
    black.receive("record", white.recorded(finished(moves, "1-0", "flag")), now=1.0)
    accepted = finished(moves, "1-0", "flag")
    white.receive("record", black.recorded(accepted), now=1.5)
    assert black.result_call(accepted) is None  # agreed
    withdrawn = withdrawn_by_arbiter(finished(moves, "1-0", "flag"))
    payload = white.recorded(withdrawn)
    assert json.loads(payload)["withdrawn"] == [4]  # typed: the ply it was withdrawn at
    black.receive("record", payload, now=2.0)
    call = black.result_call(accepted)
    assert (call.action, call.result) == ("claim-withdrawal", "1-0")
    assert white.result_call(withdrawn).action == "claim"  # not taken again by itself
    assert restarted(black, accepted).result_call(accepted) == call
    assert restarted(white, withdrawn).result_call(withdrawn).action == "claim"
    # black's arbiter withdraws it too: the game is open on both boards
    reopened = withdrawn_by_arbiter(finished(moves, "1-0", "flag"))
    white.receive("record", black.recorded(reopened), now=3.0)
    assert black.result_call(reopened) is None
    assert white.result_call(withdrawn) is None
    # later black resigns (another ply): taken as ever
    more = first_moves(6)
    later_white, later_black = game_of(more), finished(more, "1-0", "resigned")
    for game in (later_white, later_black):
        game.events.extend(withdrawn.events)
    white.recorded(later_white)
    white.receive("record", black.recorded(later_black), now=4.0)
    assert white.result_call(later_white).action == "take"


def test_a_forged_withdrawal_never_reopens_a_finished_game():
    """Black resigned and both boards hold 1-0. A record on white's seat (white's
    password) with no result and a withdrawal, then one with 0-1: black's board keeps
    1-0 and shows each as a claim to its arbiter."""
    white, black, moves = agreed_pair()
    resigned = finished(moves, "1-0", "resigned")
    white.receive("record", black.recorded(resigned), now=1.0)
    taken = finished(moves, "1-0", "resigned")
    black.receive("record", white.recorded(taken), now=1.5)
    forged = MatchRecord("m1", "white", "Anna", "russian", START,
                         {k: v for k, v in TAGS.items() if k != "White"},
                         white.ours, None, "", "", (4,))
    black.receive("record", forged.to_json(), now=2.0)
    call = black.result_call(resigned)
    assert (call.action, call.result) == ("claim-withdrawal", "1-0")
    forged = MatchRecord("m1", "white", "Anna", "russian", START,
                         {k: v for k, v in TAGS.items() if k != "White"},
                         white.ours, "0-1", "resigned", "arbiter", (4,))
    black.receive("record", forged.to_json(), now=3.0)
    assert black.result_call(resigned).action == "claim"


def test_a_withdrawal_is_a_typed_field_refused_in_one_line_when_bad():
    white, black, moves = agreed_pair()
    record = json.loads(black.record().to_json())
    for bad in ([-1], [True], ["4"], [5, 3], 1, "4", [5000]):
        record["withdrawn"] = bad
        refusal = white.receive("record", json.dumps(record).encode(), now=1.0)
        assert refusal is not None and "withdrawn" in refusal and "\n" not in refusal
    assert white.theirs.withdrawn == ()


def test_a_record_of_version_1_reads_as_version_1_says():
    """(Version 1's own records: test_match_old_records.) A record that says version 1
    but holds version 2's typed withdrawals is not version 1: refused in one line."""
    white, black, moves = agreed_pair()
    record = json.loads(black.record().to_json())
    record["v"], record["withdrawn"] = 1, [4]
    refusal = white.receive("record", json.dumps(record).encode(), now=1.0)
    assert refusal is not None and "withdrawn" in refusal and "\n" not in refusal


def test_a_ply_is_the_same_ply_whatever_the_precision_of_its_clocks():
    """Black's board restarted and wrote its clocks rounded to milliseconds; white's
    holds the full float: the same plies, so black's resignation crosses; on the wire
    both are written at one precision."""
    white, black = states()
    moves = first_moves(4)
    full = [(600.0, 600.0), (600.0, 603.4235024889999), (601.25, 603.4235024889999),
            (601.25, 604.5)]
    rounded = [(a, round(b, 3)) for a, b in full]
    white_game = game_of(moves, full)
    white.recorded(white_game)
    white.receive("record", black.recorded(finished_with(moves, rounded, "1-0")), now=1.0)
    call = white.result_call(white_game)
    assert call is not None and (call.action, call.result) == ("take", "1-0")
    sent = json.loads(MatchState("m1", "white", "Anna", "russian", START, TAGS)
                      .recorded(game_of(moves, full)))
    assert sent["plies"][1]["clock"] == [600.0, 603.424]


def finished_with(moves: list[str], clocks, result: str) -> Game:
    game = game_of(moves, clocks)
    game.set_result(result, "resigned")
    return game


def test_a_board_that_stops_says_so_and_the_other_stops_with_the_same_line():
    """A record on black's seat holds a white move white's board never recorded: white's
    board stops, its record says so, and black's board (which believed the move) stops
    with the same line."""
    moves = first_moves(3)
    white, black = states()
    white.recorded(game_of(moves[:2]))
    black.recorded(game_of(moves[:3]))  # (the forged white move carried out there)
    white.receive("record", black.record().to_json(), now=1.0)
    assert white.conflict is not None
    said = json.loads(white.unpublished())
    assert said["stop"] == white.conflict.as_json()  # (a message, never a sentence)
    assert said["stop"]["id"] == "match.stop.unrecorded.white"
    assert black.receive("record", json.dumps(said).encode(), now=2.0) == \
        describe(white.conflict)
    assert black.conflict == white.conflict
    with pytest.raises(MatchConflict):
        black.next_move(game_of(moves[:3]).position)
    # both found a reason at once: the white board's line stands on both
    white, black = states()
    white.recorded(game_of(moves[:2]))
    black.recorded(game_of(moves[:2]))
    white.conflict = Message.of("match.stop.apart", white=2, black=9)
    black.conflict = Message.of("match.stop.apart", white=9, black=2)
    white.receive("record", black.record().to_json(), now=1.0)
    black.receive("record", white.record().to_json(), now=1.0)
    assert white.conflict == black.conflict == Message.of("match.stop.apart", white=2,
                                                          black=9)


def test_an_older_record_does_not_undo_a_result():
    white, black, moves = agreed_pair()
    before = black.record().to_json()
    white.receive("record", black.recorded(finished(moves, "0-1", "resigned")), now=1.0)
    white.receive("record", before, now=1.5)  # late: the record before the resignation
    assert white.theirs.result == "0-1"


def test_a_result_the_variant_does_not_have_is_refused():
    white, black, moves = agreed_pair()
    record = json.loads(black.recorded(finished(moves, "1-0", "resigned")))
    record["result"] = "0-2"
    refusal = white.receive("record", json.dumps(record).encode(), now=1.0)
    assert "0-2" in refusal and "\n" not in refusal
    assert white.theirs.result is None


def test_the_black_board_takes_the_white_boards_date():
    white, black = states()
    white_game = game_of([])
    white_game.tags["Date"] = "2026.12.03"
    black_game = game_of([])
    black_game.tags["Date"] = "2026.12.04"
    white.receive("record", black.recorded(black_game), now=0.0)
    black.receive("record", white.recorded(white_game), now=0.0)
    assert black.date_to_take(black_game) == "2026.12.03"
    assert white.date_to_take(white_game) is None  # white's own date is the match's
    assert black.date_to_take(white_game) is None  # the same already


def test_a_finished_game_under_the_name_refuses_a_new_game_on_both_boards():
    white, black, moves = agreed_pair()
    old = white.recorded(finished(moves, "1-0", "resigned"))
    _, fresh_black = states()
    refusal = fresh_black.receive("record", old, now=5.0)
    assert refusal is not None and "\n" not in refusal
    assert fresh_black.conflict == Message.of("match.stop.name_used.white", result="1-0",
                                              plies=4)
    assert "new match name" in english(fresh_black.conflict)
    with pytest.raises(MatchConflict, match="name_used"):
        fresh_black.next_move(initial_position(RUSSIAN))
    # its record says so: a fresh white board reading it refuses too, with the same reason
    said = fresh_black.unpublished()
    assert json.loads(said)["refused"]["id"] == "match.stop.name_used.white"
    fresh_white, _ = states()
    fresh_white.recorded(game_of([]))
    assert fresh_white.receive("record", said, now=6.0) == describe(fresh_black.conflict)
    assert fresh_white.conflict == fresh_black.conflict


def test_fuzzed_results_never_raise_and_never_take_a_win_for_the_publisher():
    rng = random.Random(11)
    moves = first_moves(4)
    for _ in range(400):
        white, black, _ = agreed_pair()
        data = json.loads(black.record().to_json())
        data["result"] = rng.choice(["1-0", "0-1", "1-1", "2-0", "", None, 3, "1/2-1/2"])
        data["reason"] = rng.choice(["resigned", "", "x" * 300, "a\nb", 5])
        data["by"] = rng.choice(["rules", "arbiter", "match", "hall", None])
        data["withdrawn"] = rng.choice([[], [4], [-1], [True], 5000, None])
        refusal = white.receive("record", json.dumps(data).encode(), now=1.0)
        assert refusal is None or "\n" not in refusal
        call = white.result_call(game_of(moves))
        if call is not None and call.action == "take":
            assert call.result == "1-0"  # only black's own loss


def test_a_sent_clock_is_believed_for_its_mover_only_and_never_above_had_plus_increment():
    from draughtsboard.opponents.match_state import believed_clocks
    own = (250.0, 280.0)  # this board's: White moved, Black's is this board's player's
    assert believed_clocks(own, (240.5, 1.0), "white", 245.0, 2.0) == (240.5, 280.0)
    assert believed_clocks(own, (247.0, 280.0), "white", 245.0, 2.0) == (247.0, 280.0)
    assert believed_clocks(own, (247.1, 280.0), "white", 245.0, 2.0) is None
    assert believed_clocks(own, (9.0, 3600.0), "black", 270.0, 0.0) is None
    assert believed_clocks(own, (9.0, 200.0), "black", 270.0, 0.0) == (250.0, 200.0)


def test_no_time_used_is_not_believed_after_this_board_watched_the_mover_think():
    """White had 245 s; this board watched White think 34 s: a figure above
    245 - (34 - LINK_TOLERANCE) + 2 is refused (this board's own then stands)."""
    from draughtsboard.opponents.match_state import LINK_TOLERANCE, believed_clocks
    own = (211.0 + 2.0, 280.0)
    assert believed_clocks(own, (247.0, 280.0), "white", 245.0, 2.0, 34.0) is None
    bound = 245.0 - (34.0 - LINK_TOLERANCE) + 2.0
    assert believed_clocks(own, (bound, 280.0), "white", 245.0, 2.0, 34.0) == \
        (bound, 280.0)
    assert believed_clocks(own, (bound + 0.01, 280.0), "white", 245.0, 2.0, 34.0) is None
    # within the link's tolerance: believed as it says
    assert believed_clocks(own, (247.0, 280.0), "white", 245.0, 2.0, 1.5) == \
        (247.0, 280.0)


def test_a_record_holding_a_move_of_this_boards_own_seat_stops_the_match_at_once():
    moves = first_moves(3)
    white, _ = states()
    white.recorded(game_of(moves[:2]))  # White is to play ply 3, on its own board
    # a record at Black's seat that holds ply 3 too: a move of White's White never made
    forged = MatchState("m1", "black", "Boris", "russian", START, TAGS)
    forged.recorded(game_of(moves[:3]))
    refusal = white.receive("record", forged.record().to_json(), now=1.0)
    assert refusal is not None and refusal == describe(white.conflict)  # at once
    assert white.conflict == Message.of("match.stop.unrecorded.white", ply=3,
                                        move=moves[2])
    assert "never recorded" in english(white.conflict)
    with pytest.raises(MatchConflict):
        white.next_move(game_of(moves[:2]).position)
    # one ply more that is the other side's own move is its move to believe, as ever
    black = MatchState("m1", "black", "Boris", "russian", START, TAGS)
    black.recorded(game_of(moves[:2]))
    honest = MatchState("m1", "white", "Anna", "russian", START, TAGS)
    honest.recorded(game_of(moves[:3]))
    assert black.receive("record", honest.record().to_json(), now=1.0) is None
    assert black.next_move(game_of(moves[:2]).position) is not None


def test_what_this_board_cannot_count_as_the_other_sides_thinking():
    """From our ply recorded until the other board's record holds it (it carries our
    move out on a clock that stands), and the silence before its move arrived (a link
    slow for less than the pause's delay): neither is its thinking here."""
    white, black = states()
    moves = first_moves(2)
    white.recorded(game_of(moves[:1]), now=10.0)
    assert white.unmeasured() is None
    white.receive("beat", encode_beat(1), now=10.5)  # received, not yet carried out
    white.receive("record", black.recorded(game_of(moves[:1])), now=13.0)  # carried out
    white.receive("beat", encode_beat(1), now=14.0)
    assert white.unmeasured() is None  # its move has not come
    white.receive("record", black.recorded(game_of(moves[:2])), now=20.5)  # 6.5 s quiet
    assert white.unmeasured() == pytest.approx(3.0 + 6.5)


def test_who_set_the_result_is_its_record_in_the_journal_never_guessed():
    """The record's ``by`` is the `Setter` of the journal's `Result` record (through the
    one `apply`, live or rebuilt after a restart): the same text whoever reads it, and
    "" for a journal that did not say (never guessed from the position)."""
    from draughtsboard.board.game.apply import rebuild, start_of
    from draughtsboard.board.game.records import NO_TIME, MoveMade

    white, black, moves = agreed_pair()
    game = game_of(moves)
    start = start_of(RUSSIAN, {}, None, "tournament", None, NO_TIME)
    records = [MoveMade(index, played.move.path, played.move.captures, played.text)
               for index, played in enumerate(game.moves)]
    for by in (Setter.ARBITER, Setter.MATCH, Setter.RULES, Setter.UNKNOWN):
        rebuilt = rebuild(start, [*records, Result("1-0", "resigned", by)])
        fresh = MatchState("m1", "black", "Boris", "russian", START, TAGS)
        said = json.loads(fresh.recorded(rebuilt))
        assert said["by"] == by.value
        assert MatchRecord.from_json(fresh.record().to_json()).by is by
    # a withdrawal clears it with the result
    reopened = finished(moves, "1-0", "resigned", by=Setter.MATCH)
    reopened.set_result("*")
    assert reopened.result_by is Setter.UNKNOWN


def test_the_other_boards_record_reads_into_the_record_model():
    """A record read as the model's records (`MoveMade` with its clocks, `Result` with
    its `Setter`, `MatchStop` with its reason) and built by the one `apply`; a ply the
    rules refuse ends the reading there (never a move invented)."""
    from draughtsboard.board.game.records import MatchStop, MoveMade
    from draughtsboard.opponents.match_stops import stop

    white, black, moves = agreed_pair()
    clocks = [(600.0 - i, 600.0 - 2 * i) for i in range(len(moves))]
    game = game_of(moves, clocks)
    apply(game, Result("0-1", "resigned", Setter.ARBITER))
    record = MatchRecord.from_json(black.recorded(game))
    start, records = record.as_records()
    assert start.variant == "russian"
    assert [r.text for r in records if isinstance(r, MoveMade)] == moves
    assert [r.clock for r in records if isinstance(r, MoveMade)] == clocks
    assert records[-1] == Result("0-1", "resigned", Setter.ARBITER)
    rebuilt = record.game()
    assert (rebuilt.result, rebuilt.result_by, rebuilt.ply) == ("0-1", Setter.ARBITER, 4)
    forged = MatchRecord("m1", "white", "Anna", "russian", START, TAGS,
                         (*record.plies[:2], Ply(2, "9-13", record.plies[2].before)),
                         stop=stop("match.stop.apart", white=3, black=1))
    _, records = forged.as_records()
    assert [type(r) for r in records] == [MoveMade, MoveMade, MatchStop]
    assert records[-1].ply == 2 and records[-1].message == forged.stop
