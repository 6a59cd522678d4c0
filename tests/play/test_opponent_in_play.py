"""A person against an opponent on the board, in virtual time: the opponent's move shown
on the LEDs and as steps, taken only once carried out, anything else flagged; takebacks;
the clocks; the record naming the opponent; an opponent that fails."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from draughtsboard.board.message import Message
from draughtsboard.board.rules import get_variant
from draughtsboard.board.rules.position import Move
from draughtsboard.opponents import BuiltinOpponent, Clocks, OpponentGoneError
from draughtsboard.play.errors import ArbiterError
from draughtsboard.words import english, words_for

from ..rendered import in_english

RUSSIAN = get_variant("russian")


def square(name: str) -> int:
    return RUSSIAN.geometry.number_of_name(name)


def names(squares) -> list[str]:
    return sorted(RUSSIAN.geometry.name(s) for s in squares)


def lit(view: dict, colour: str = "violet") -> dict[str, str]:
    """The squares lit in ``colour``, by name, with their pattern."""
    return {RUSSIAN.geometry.name(int(s)): pattern for s, (pattern, c) in view["leds"].items()
            if c == colour}


def test_the_engines_move_on_the_leds_and_as_steps_then_recorded_once_carried_out(start_play):
    play = start_play(mode="training", opponent="engine:1", tags={"White": "Ann"})
    view = play.view()
    assert view["opponent"] == {"kind": "engine", "name": "draughtsboard engine, level 1",
                                "label": {"id": "opponent.name.builtin",
                                          "params": {"level": 1}},
                                "side": "black", "level": 1, "thinking": False,
                                "pending": None, "status": None, "error": None,
                                "error_text": None, "can_continue": False, "reachable": None,
                                "claim": None}
    assert view["tags"]["Black"] == "draughtsboard engine, level 1"
    assert view["tags"]["White"] == "Ann"
    journalled = play.recorder.load(play.game.game_id).tags  # read back from the journal
    assert (journalled["White"], journalled["Black"]) == ("Ann", "draughtsboard engine, level 1")
    assert view["tags"]["Irregularities"] == "restore"
    play.thinker.paused = True  # the engine thinks: the board takes no move of Black
    view = play.move(square("c3"), square("d4"))
    assert view["opponent"]["thinking"] is True
    assert in_english(view["status"]) == "Black (draughtsboard engine, level 1) is thinking"
    play.thinker.paused = False
    play.settle()
    view = play.view()
    pending = view["opponent"]["pending"]
    assert pending is not None and view["opponent"]["thinking"] is False
    assert view["moves"] == ["c3-d4"]  # proposed, not recorded
    start, end = pending["path"][0], pending["path"][-1]
    assert lit(view) == {RUSSIAN.geometry.name(start): "on",
                         RUSSIAN.geometry.name(end): "slow_blink"}
    flag = in_english(next(f for f in view["guidance"] if f["kind"] == "opponent"))
    assert flag["steps"] == [f"Move the piece on {RUSSIAN.geometry.name(start)} to "
                             f"{RUSSIAN.geometry.name(end)}"]
    assert in_english(view["status"]).endswith("carry it out on the board")
    view = play.carry_out_pending()
    assert view["moves"] == ["c3-d4", pending["notation"]]
    assert view["opponent"]["pending"] is None
    assert lit(view) == {}


def test_a_wrong_execution_is_flagged_with_the_move_again_once_put_right(start_play):
    play = start_play(mode="training", opponent="engine:1")
    play.move(square("c3"), square("d4"))
    pending = play.view()["opponent"]["pending"]
    start = pending["path"][0]
    wrong = next(m for m in play.game.tracker.position.legal_moves()
                 if m.path != tuple(pending["path"]))
    view = play.move(wrong.start, wrong.end)
    assert view["state"] == "illegal" and view["moves"] == ["c3-d4"]
    assert in_english(view["status"]) == "Not draughtsboard engine, level 1's move: put " \
                                         "the position back"
    assert view["log"][-1]["kind"] == "illegal"
    assert "is not the opponent's move: it plays " + pending["notation"] in \
        in_english(view["log"][-1]["text"])
    flag = in_english(view["guidance"][0])
    assert flag["steps"] == [f"Put the piece on {RUSSIAN.geometry.name(wrong.end)} back on "
                             f"{RUSSIAN.geometry.name(wrong.start)}"]
    view = play.move(wrong.end, wrong.start)  # put right: the move is shown again
    assert view["state"] == "ready"
    assert lit(view)[RUSSIAN.geometry.name(start)] == "on"
    view = play.carry_out_pending()
    assert view["moves"] == ["c3-d4", pending["notation"]]
    assert "illegal attempt" in play.export_pdn()


def test_the_engine_plays_white_and_moves_first(start_play):
    play = start_play(mode="training", opponent="engine:2", opponent_side="white")
    view = play.view()
    assert view["tags"]["White"] == "draughtsboard engine, level 2"
    assert view["opponent"]["pending"] is not None
    play.carry_out_pending()
    assert len(play.view()["moves"]) == 1


def test_a_takeback_in_training_takes_back_the_engines_reply_and_the_move_before_it(start_play):
    play = start_play(mode="training", opponent="engine:1")
    play.move(square("c3"), square("d4"))
    pending = play.view()["opponent"]["pending"]
    play.carry_out_pending()
    assert len(play.view()["moves"]) == 2
    # the person takes the engine's reply back: his own move is owed
    path, captures = pending["path"], pending["captures"]
    view = play.hand(("lift", path[-1]), ("place", path[0]),
                     *[("place", c) for c in captures])
    assert view["moves"] == ["c3-d4"]
    assert view["opponent"]["pending"] is None and view["opponent"]["thinking"] is False
    assert in_english(view["status"]) == ("draughtsboard engine, level 1's move is taken "
                                          "back: take your move back too")
    flag = next(f for f in in_english(view["guidance"])
                if f["title"] == "Take your move back too")
    assert flag["steps"] == ["Put the piece on d4 back on c3"]
    assert names(view["intents"]["restore"]) == ["c3", "d4"]
    view = play.move(square("d4"), square("c3"))
    assert view["moves"] == []
    assert in_english(view["status"]) == "White to move"
    assert view["opponent"]["thinking"] is False
    # and the game goes on: the person's move, the engine's answer
    play.move(square("c3"), square("b4"))
    assert play.view()["opponent"]["pending"] is not None


def test_a_takeback_of_the_persons_move_while_the_engine_proposes_drops_its_move(start_play):
    play = start_play(mode="training", opponent="engine:1")
    play.move(square("c3"), square("d4"))
    assert play.view()["opponent"]["pending"] is not None
    view = play.move(square("d4"), square("c3"))
    assert view["moves"] == [] and view["opponent"]["pending"] is None
    assert lit(view) == {}
    assert play.game.tracker.expectation is None


def test_in_tournament_mode_a_takeback_is_illegal_against_the_engine_too(start_play):
    play = start_play(opponent="engine:1")
    play.move(square("c3"), square("d4"))
    view = play.move(square("d4"), square("c3"))
    assert view["state"] == "illegal" and view["moves"] == ["c3-d4"]


def test_playing_for_the_engine_before_it_chose_is_flagged(start_play):
    play = start_play(mode="training", opponent="engine:1")
    play.thinker.paused = True
    play.move(square("c3"), square("d4"))
    view = play.move(square("f6"), square("e5"))
    assert view["state"] == "illegal" and view["moves"] == ["c3-d4"]
    assert "before it chose its move" in in_english(view["log"][-1]["text"])


def test_the_engines_time_counts_while_it_thinks_and_not_while_its_move_is_carried_out(
        start_play):
    play = start_play(mode="training", opponent="engine:1", tags={"TimeControl": "300"})
    play.thinker.paused = True
    play.move(square("c3"), square("d4"))  # the clock starts with the first move
    clocks = play.view()["clocks"]
    assert clocks["running"] == "black"
    play.wait(3.0)  # it thinks 3 s
    play.thinker.paused = False
    play.settle()
    clocks = play.view()["clocks"]
    assert clocks["held"] is True and clocks["since"] is None
    assert clocks["black"] == pytest.approx(297.0, abs=0.01)
    play.wait(10.0)  # the person takes 10 s to carry it out: nobody's time
    assert play.view()["clocks"]["black"] == pytest.approx(297.0, abs=0.01)
    play.carry_out_pending()
    clocks = play.view()["clocks"]
    assert clocks["running"] == "white" and clocks["held"] is False
    assert clocks["black"] == pytest.approx(297.0, abs=0.3)  # (the hand's few steps)
    assert "[%clock" in play.export_pdn()


def test_the_engine_is_asked_with_its_clock(start_play):
    asked: list[Clocks] = []

    class Recording(BuiltinOpponent):
        def move(self, clocks: Clocks, stop=None) -> Move:
            asked.append(clocks)
            return super().move(clocks, stop)

    play = start_play(mode="training", tags={"TimeControl": "300+5"},
                      opponent=Recording(RUSSIAN, 1, seed="x"))
    play.move(square("c3"), square("d4"))
    assert asked[-1].own == pytest.approx(300.0, abs=0.2)
    assert asked[-1].other == pytest.approx(305.0, abs=0.2)  # (its increment added)
    assert asked[-1].increment == 5.0


class FailingOpponent(BuiltinOpponent):
    """The built-in engine that fails when asked for its ``fail_at``-th move."""

    def __init__(self, fail_at: int = 1, error=None) -> None:
        super().__init__(RUSSIAN, 1, seed="failing")
        self.asked = 0
        self.fail_at = fail_at
        self.error = error or OpponentGoneError(
            "the Hub engine 'scan hub' stopped (exit status 1) while thinking")
        self.closed = 0

    @property
    def name(self) -> str:
        return "Scan 3.1"

    def move(self, clocks: Clocks, stop: Callable[[], bool] | None = None) -> Move:
        self.asked += 1
        if self.asked >= self.fail_at:
            raise self.error
        return super().move(clocks, stop)

    def close(self) -> None:
        self.closed += 1


def test_a_failing_engine_is_one_line_nothing_recorded_and_the_builtin_goes_on(start_play):
    failing = FailingOpponent()
    play = start_play(mode="training", opponent=failing)
    assert play.view()["tags"]["Black"] == "Scan 3.1"
    view = play.move(square("c3"), square("d4"))
    detail = "the Hub engine 'scan hub' stopped (exit status 1) while thinking"
    assert view["opponent"]["error_text"] == detail
    # the page says why by the cause, the opponent's own line as it is
    error = Message.from_json(view["opponent"]["error"])
    assert error.id == "opponent.error.gone" and error.param("detail") == detail
    assert words_for("ru")(error) == f"Соперник отключился: {detail}"
    assert english(Message.from_json(view["opponent"]["status"])) == \
        "Scan 3.1 failed: the built-in engine can play on."
    assert view["opponent"]["can_continue"] is True
    assert view["opponent"]["pending"] is None and view["moves"] == ["c3-d4"]
    assert in_english(view["status"]) == \
        "Black (Scan 3.1) failed: the built-in engine can play on"
    assert view["log"][-1] == {**view["log"][-1], "kind": "error"}
    assert "stopped (exit status 1)" in in_english(view["log"][-1]["text"])
    # playing for it now is still refused
    view = play.move(square("f6"), square("e5"))
    assert view["state"] == "illegal" and view["moves"] == ["c3-d4"]
    play.move(square("e5"), square("f6"))
    text = play.call(play.game.continue_with_builtin)
    assert text == "Scan 3.1 failed: draughtsboard engine, level 10 plays on from ply 1"
    assert failing.closed == 1
    view = play.view()
    assert view["opponent"]["error"] is None
    assert view["opponent"]["name"] == "draughtsboard engine, level 10"
    assert view["tags"]["Black"] == "draughtsboard engine, level 10"
    assert view["opponent"]["pending"] is not None
    play.carry_out_pending()
    assert len(play.view()["moves"]) == 2
    pdn = play.export_pdn()
    assert "Scan 3.1 failed" in pdn and '[Black "draughtsboard engine, level 10"]' in pdn


def test_continue_with_the_builtin_is_refused_when_nothing_failed(start_play):
    play = start_play(mode="training", opponent="engine:1")
    with pytest.raises(ArbiterError, match="no opponent has failed"):
        play.game.continue_with_builtin()


def test_an_illegal_answer_is_never_recorded(start_play):
    class Cheat(BuiltinOpponent):
        def move(self, clocks, stop=None):
            position = self._track.check_opponents_turn()
            return Move((position.variant.geometry.number_of_name("h8"), 1))

    play = start_play(mode="training", opponent=Cheat(RUSSIAN, 1))
    view = play.move(square("c3"), square("d4"))
    assert "not legal" in view["opponent"]["error_text"]
    assert view["opponent"]["error"]["id"] == "opponent.error.illegal_move"
    assert view["moves"] == ["c3-d4"]


def test_a_new_game_by_the_arbiter_starts_the_engine_again(start_play):
    play = start_play(mode="training", opponent="engine:1", opponent_side="white")
    play.carry_out_pending()
    play.arbiter.new_game({}, None)
    view = play.hand(("setup", None))
    assert view["moves"] == []
    assert view["opponent"]["pending"] is not None
    assert view["tags"]["White"] == "draughtsboard engine, level 1"


def test_a_resumed_game_goes_on_against_the_engine(tmp_path, start_play):
    data = tmp_path / "data"
    play = start_play(mode="training", opponent="engine:1", data=data)
    play.move(square("c3"), square("d4"))
    play.carry_out_pending()
    moves = play.view()["moves"]
    play.close()
    again = start_play(opponent="engine:1", data=data)
    assert again.view()["moves"] == moves
    again.hand(("setup", None))
    move = again.game.tracker.position.legal_moves()[0]
    view = again.carry_out(move.path, move.captures)
    assert view["moves"][:2] == moves and len(view["moves"]) == 3
    assert view["opponent"]["error"] is None
    assert view["opponent"]["pending"] is not None



# -- real programs that fail: one line, nothing recorded, the built-in engine goes on ------

def fake_hub(mode: str) -> str:
    from ..opponents.test_hub_failures import fake

    return "hub:" + fake(mode)


@pytest.mark.slow
@pytest.mark.parametrize("mode, words", [
    ("illegal", "not legal"),
    ("malformed", "the Hub engine 'Fake 1' said"),
    ("die", "stopped (exit status 3)"),
])
def test_a_hub_engine_that_fails_in_the_game_leaves_the_record_as_the_board_saw_it(
        start_play, mode, words):
    play = start_play("international", mode="training", opponent=fake_hub(mode),
                      opponent_side="white", move_seconds=2.0)
    view = play.view()
    if mode == "die":  # it plays its first move, and dies at the second search
        assert view["opponent"]["pending"] is not None
        play.carry_out_pending()
        move = play.game.tracker.position.legal_moves()[0]
        view = play.carry_out(move.path, move.captures)
    text = view["opponent"]["error_text"]
    assert words in text and "\n" not in text
    assert view["opponent"]["error"]["params"]["detail"] == text
    recorded = view["moves"]
    assert view["opponent"]["pending"] is None and view["state"] == "ready"
    assert view["log"][-1]["kind"] == "error"
    play.call(play.game.continue_with_builtin)
    view = play.carry_out_pending()
    assert view["moves"][:len(recorded)] == recorded and len(view["moves"]) == len(recorded) + 1
    assert view["tags"]["White"] == "draughtsboard engine, level 10"


@pytest.mark.slow
def test_a_hub_program_that_does_not_start_is_one_line_on_the_page(start_play):
    play = start_play(mode="training", opponent="hub:/nonexistent/engine",
                      opponent_side="white")
    error = play.view()["opponent"]["error"]
    assert english(Message.from_json(error)) == (
        "The opponent could not be started: cannot start the Hub engine "
        "'/nonexistent/engine': No such file or directory")
    assert play.view()["moves"] == []


@pytest.mark.slow
def test_a_dxp_peer_that_disconnects_mid_game(start_play):
    from ..opponents.test_dxp import ScriptedPeer

    peer = ScriptedPeer([None])  # accepts the game, then hangs up
    play = start_play("international", mode="training",
                      opponent=f"dxp:127.0.0.1:{peer.port}", opponent_side="white")
    view = play.view()
    assert "disconnected" in view["opponent"]["error_text"]
    assert view["opponent"]["error"]["id"] == "opponent.error.gone"
    assert view["tags"]["White"] == "scripted"
    assert view["moves"] == []
    play.call(play.game.continue_with_builtin)
    assert play.view()["opponent"]["pending"] is not None
    peer.server.close()


def carry_out_by_hand(play, position, move) -> dict:
    """``move`` of ``position`` by hand: in a column game a jumped column that keeps
    pieces under its top one is lifted and put back (its switch opens and closes)."""
    play.carry_out(move.path, ())
    still = position.play(move).occupancy()
    for captured in move.captures:
        play.set_switch(captured, False)
        if still >> (captured - 1) & 1:
            play.set_switch(captured, True)
    return play.view()


@pytest.mark.parametrize("variant", ["russian", "international", "lasca", "column",
                                     "column-7x7"])
def test_the_builtin_engine_plays_every_variant_on_the_board(start_play, variant):
    play = start_play(variant, mode="training", opponent="engine:2")
    rng = random.Random(variant)
    view = play.view()
    while view["result"] is None and len(view["moves"]) < 40 and not view["draw_claim"]:
        assert view["opponent"]["error"] is None and view["state"] == "ready", view["status"]
        position = play.game.tracker.position
        pending = view["opponent"]["pending"]
        move = next(m for m in position.legal_moves() if list(m.path) == pending["path"]
                    and list(m.captures) == pending["captures"]) if pending else \
            rng.choice(position.legal_moves())
        plies = len(view["moves"])
        view = carry_out_by_hand(play, position, move)
        assert len(view["moves"]) == plies + 1, view["status"]
    assert len(view["moves"]) >= 10
    assert view["tags"]["Black"] == "draughtsboard engine, level 2"
