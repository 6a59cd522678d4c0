"""A match between two boards, the pure part: each board's record of the game, what a
record from the other board may do (a ply held already changes nothing, a ply that
differs is refused in one line, a move is believed only as the rules prove it), who is
reachable, and whatever is not the protocol refused in one line."""

from __future__ import annotations

import json
import random

import pytest

from draughtsboard.board.game.record import Game
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


# -- results: believed only as far as they can be proved -------------------------------

def finished(moves: list[str], result: str | None, reason: str = "",
             withdrawn: int = 0) -> Game:
    game = game_of(moves)
    for _ in range(withdrawn):
        game.set_result("1-0", "x")
        game.add_event("result-withdrawn", "withdrawn")
        game.set_result("*")
    if result is not None:
        game.set_result(result, reason)
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
    back = white.recorded(finished(moves, "1-0", "resigned"))
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
    won.set_result("0-1", "White has no legal move")
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


def test_withdrawals_are_believed_by_the_same_rule():
    white, black, moves = agreed_pair()
    # white claimed a win, black accepted; white's arbiter withdraws it: a win given up
    black.receive("record", white.recorded(finished(moves, "1-0", "flag")), now=1.0)
    accepted = finished(moves, "1-0", "flag")
    white.receive("record", black.recorded(accepted), now=1.5)
    assert black.result_call(accepted) is None  # agreed
    withdrawn = withdrawn_by_arbiter(white, finished(moves, "1-0", "flag"))
    black.receive("record", white.recorded(withdrawn), now=2.0)
    call = black.result_call(accepted)
    assert (call.action, call.result) == ("withdraw", "1-0")
    # black's board restarted (its journal's game, white's retained record) sees the same
    assert restarted(black, accepted).result_call(accepted) == call
    # black resigned and white took it; black's arbiter withdraws the resignation: the
    # white board is asked, never made to
    white, black, moves = agreed_pair()
    white.receive("record", black.recorded(finished(moves, "1-0", "resigned")), now=1.0)
    assert white.result_call(game_of(moves)).action == "take"
    taken = finished(moves, "1-0", "resigned")
    black.receive("record", white.recorded(taken), now=1.5)
    assert white.result_call(taken) is None
    resigned = withdrawn_by_arbiter(black, finished(moves, "1-0", "resigned"))
    white.receive("record", black.recorded(resigned), now=2.0)
    assert white.result_call(taken).action == "claim-withdrawal"


def test_a_withdrawal_is_seen_though_the_agreement_never_was():
    """Black resigns, white's board takes it and white's arbiter withdraws it before
    black's board looked: the withdrawal is still seen, from the records alone."""
    white, black, moves = agreed_pair()
    resigned = finished(moves, "1-0", "resigned")
    white.receive("record", black.recorded(resigned), now=1.0)
    taken = finished(moves, "1-0", "resigned")
    white.recorded(taken)
    black.receive("record", white.recorded(withdrawn_by_arbiter(white, taken)), now=2.0)
    call = black.result_call(resigned)
    assert (call.action, call.result) == ("withdraw", "1-0")
    # once followed (a withdrawal here), the same record asks nothing more; a new
    # resignation is not withdrawn by the old record either
    resigned.add_event("result-withdrawn", "result 1-0 withdrawn: Anna's board gave it up")
    resigned.set_result("*")
    black.recorded(resigned)
    assert black.result_call(resigned) is None
    resigned.set_result("1-0", "resigned")
    black.recorded(resigned)
    assert black.result_call(resigned) is None
    assert restarted(black, resigned).result_call(resigned) is None


def test_a_result_this_board_withdrew_is_not_taken_again_by_itself():
    white, black, moves = agreed_pair()
    white.receive("record", black.recorded(finished(moves, "1-0", "resigned")), now=1.0)
    assert white.result_call(game_of(moves)).action == "take"
    taken = finished(moves, "1-0", "resigned")
    white.recorded(taken)
    white.result_call(taken)  # (both hold it)
    black.receive("record", white.record().to_json(), now=1.5)
    black.result_call(finished(moves, "1-0", "resigned"))
    withdrawn = withdrawn_by_arbiter(white, taken)  # white's arbiter withdraws it
    payload = white.recorded(withdrawn)
    assert white.result_call(withdrawn).action == "claim"  # shown, not taken again
    # a board restarted there (a fresh state, the same journal, black's record retained)
    # decides the same: the journal says which result was withdrawn, and when
    again = restarted(white, withdrawn)
    assert again.result_call(withdrawn).action == "claim"
    # black's board sees white gave up its win: withdrawn there too
    black.receive("record", payload, now=2.0)
    black_game = finished(moves, "1-0", "resigned")
    call = black.result_call(black_game)
    assert (call.action, call.result) == ("withdraw", "1-0")
    black_game.add_event("result-withdrawn", "result 1-0 withdrawn: Anna's board gave it up")
    black_game.set_result("*")
    followed = black.recorded(black_game)
    # black resigns again later: a new result (its withdrawals counted), taken
    black_game.set_result("1-0", "resigned")
    again_resigned = black.recorded(black_game)
    for board in (white, again):
        board.receive("record", followed, now=3.0)
        assert board.result_call(withdrawn) is None
        board.receive("record", again_resigned, now=4.0)
        assert board.result_call(withdrawn).action == "take"


def withdrawn_by_arbiter(state: MatchState, game: Game) -> Game:
    """``game`` with its result withdrawn by the board's arbiter, as the journal keeps it
    (the text `game_in_play.withdraw_result` records)."""
    text = state.withdrawal_text(game, f"result {game.result} withdrawn by the arbiter")
    game.add_event("result-withdrawn", text)
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


def test_a_declined_result_is_read_from_the_journal_after_any_restart():
    """Restarted after its arbiter withdrew the other board's result, before the other
    board followed, after it followed, and after it published a new one: each time the
    fresh board decides as the one that never stopped."""
    white, black, moves = agreed_pair()
    black_game = finished(moves, "1-0", "resigned")
    white.receive("record", black.recorded(black_game), now=1.0)
    taken = finished(moves, "1-0", "resigned")
    white.recorded(taken)
    withdrawn = withdrawn_by_arbiter(white, taken)
    assert "black's board holds 1-0 (its withdrawals: 0)" in withdrawn.events[-1].text
    white.recorded(withdrawn)
    steps = [("before black follows", None)]
    black_game.add_event("result-withdrawn", "result 1-0 withdrawn: Anna's board gave it up")
    black_game.set_result("*")
    steps.append(("black followed", black.recorded(black_game)))
    black_game.set_result("1-0", "resigned")
    steps.append(("black resigned again", black.recorded(black_game)))
    expected = {"before black follows": "claim", "black followed": None,
                "black resigned again": "take"}
    for name, payload in steps:
        if payload is not None:
            white.receive("record", payload, now=2.0)
        call = white.result_call(withdrawn)
        fresh = restarted(white, withdrawn)
        fresh_call = fresh.result_call(withdrawn)
        assert call == fresh_call, name
        assert (call.action if call is not None else None) == expected[name], name


def test_a_withdrawal_of_a_result_the_other_board_never_held_says_nothing_more():
    white, black, moves = agreed_pair()
    claim = finished(moves, "1-0", "flag")
    black.receive("record", white.recorded(claim), now=1.0)  # a claim there, never held
    text = white.withdrawal_text(claim, "result 1-0 withdrawn by the arbiter")
    assert text == "result 1-0 withdrawn by the arbiter"


def test_an_older_record_does_not_undo_a_result():
    white, black, moves = agreed_pair()
    before = black.record().to_json()
    white.receive("record", black.recorded(finished(moves, "0-1", "resigned")), now=1.0)
    white.receive("record", before, now=1.5)  # late: the record before the resignation
    assert white.theirs.result == "0-1"


def test_a_declined_result_that_is_not_one_is_refused_in_one_line():
    white, black, moves = agreed_pair()
    record = json.loads(black.record().to_json())
    for bad in (["1-0"], ["1-0", -1], ["1-0", True], [5, 0], ["x" * 11, 0], "1-0"):
        record["declined"] = bad
        refusal = white.receive("record", json.dumps(record).encode(), now=1.0)
        assert refusal is not None and "declined" in refusal and "\n" not in refusal
    assert white.theirs.declined is None


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
    assert "new match name" in refusal and "1-0" in refusal
    with pytest.raises(MatchConflict, match="new match name"):
        fresh_black.next_move(initial_position(RUSSIAN))
    # its record says so: a fresh white board reading it refuses too
    said = fresh_black.unpublished()
    assert json.loads(said)["refused"]
    fresh_white, _ = states()
    fresh_white.recorded(game_of([]))
    assert "refuses the match" in fresh_white.receive("record", said, now=6.0)


def test_fuzzed_results_never_raise_and_never_take_a_win_for_the_publisher():
    rng = random.Random(11)
    moves = first_moves(4)
    for _ in range(400):
        white, black, _ = agreed_pair()
        data = json.loads(black.record().to_json())
        data["result"] = rng.choice(["1-0", "0-1", "1-1", "2-0", "", None, 3, "1/2-1/2"])
        data["reason"] = rng.choice(["resigned", "", "x" * 300, "a\nb", 5])
        data["by"] = rng.choice(["rules", "arbiter", "match", "hall", None])
        data["withdrawn"] = rng.choice([0, 1, -1, True, 5000])
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


def test_a_record_holding_a_move_of_this_boards_own_seat_stops_the_match_at_once():
    moves = first_moves(3)
    white, _ = states()
    white.recorded(game_of(moves[:2]))  # White is to play ply 3, on its own board
    # a record at Black's seat that holds ply 3 too: a move of White's White never made
    forged = MatchState("m1", "black", "Boris", "russian", START, TAGS)
    forged.recorded(game_of(moves[:3]))
    refusal = white.receive("record", forged.record().to_json(), now=1.0)
    assert refusal is not None and white.conflict == refusal  # at once, not at ply 3
    assert "ply 3" in refusal and "never recorded" in refusal and "\n" not in refusal
    with pytest.raises(MatchConflict):
        white.next_move(game_of(moves[:2]).position)
    # one ply more that is the other side's own move is its move to believe, as ever
    black = MatchState("m1", "black", "Boris", "russian", START, TAGS)
    black.recorded(game_of(moves[:2]))
    honest = MatchState("m1", "white", "Anna", "russian", START, TAGS)
    honest.recorded(game_of(moves[:3]))
    assert black.receive("record", honest.record().to_json(), now=1.0) is None
    assert black.next_move(game_of(moves[:2]).position) is not None
