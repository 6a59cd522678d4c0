"""The coach on a game in play (virtual time): hints in two stages, hints switched off,
blunder warnings and their takeback, the evaluation curve, tournament mode. Searches run
with node budgets when the test settles, so each answer is the same on every run."""

from __future__ import annotations

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.message import Message
from draughtsboard.play.coach import better_said, blunder_said, takeback_said
from draughtsboard.play.errors import CoachError
from draughtsboard.words import words_for

# Black to move: d6-c5 walks into b4 takes c5 (a piece lost); d6-e5 loses nothing.
BLUNDER_FEN = "B:W17,31:B10,4"


@pytest.fixture
def training(start_play):
    return start_play(mode="training", coach={})


def coach_view(play) -> dict:
    return play.view()["coach"]


def said(message: dict | Message, language: str = "en") -> str:
    """A message of the view (its JSON) or of the coach, in words."""
    if not isinstance(message, Message):
        message = Message.from_json(message)
    return words_for(language)(message)


def test_a_hint_comes_in_two_stages_and_is_noted_in_the_pdn(training):
    coach = training.coach
    first = training.call(coach.request_hint)
    assert first["stage"] == 1 and coach_view(training)["hint"] == first
    (piece,) = first["squares"]
    assert said(first["text"]).startswith("move the piece on ")
    assert said(coach_view(training)["note"]).startswith("Hint: move the piece on ")
    assert training.view()["leds"][str(piece)] == ["on", "cyan"]

    second = training.call(coach.request_hint)
    assert second["stage"] == 2 and second["squares"][0] == piece
    assert len(second["squares"]) >= 2 and said(second["text"]).startswith("play ")
    leds = training.view()["leds"]
    assert str(second["squares"][1]) in leds
    assert leds[str(second["squares"][-1])] == ["slow_blink", "cyan"]
    assert training.call(coach.request_hint) == second  # nothing more to tell

    # the hinted move played: the hint goes, the journal and the PDN keep it
    v = training.move(second["squares"][0], second["squares"][-1])
    assert len(v["moves"]) == 1 and v["coach"]["hint"] is None
    pdn = training.export_pdn()
    assert "hint 1 (the piece)" in pdn and "hint 2 (the move)" in pdn
    assert len(read_pdn(pdn).games[0].game.moves) == 1
    kinds = [e.kind for e in training.recorder.load(training.game.game_id).events]
    assert kinds == ["hint", "hint"]


def test_hints_switched_off_stay_off_when_the_game_resumes(start_play):
    play = start_play(mode="training", coach={})
    assert play.call(lambda: play.coach.set_options(hints=False)) == \
        {"hints": False, "warnings": True}
    with pytest.raises(CoachError, match="switched off"):
        play.call(play.coach.request_hint)
    assert coach_view(play)["hints"] is False
    game_id = play.game.game_id
    play.close()
    again = start_play(mode="training", coach={})  # resumes the same game
    assert again.game.game_id == game_id and coach_view(again)["hints"] is False
    with pytest.raises(CoachError):
        again.call(again.coach.request_hint)


def test_the_switches_are_restored_from_the_record_s_data_not_its_words(start_play):
    """A switch is read back as data: its words (here in no language the coach knows)
    decide nothing; a coach note whose words look like a switch switches nothing."""
    from draughtsboard.board.game.records import CoachAid, CoachSwitch

    play = start_play(mode="training", coach={})
    game_id, recorder = play.game.game_id, play.recorder
    play.call(lambda: recorder.record_coach_note(
        game_id, "Hinweise ausgeschaltet", switch=CoachSwitch(CoachAid.HINTS, False)))
    play.call(lambda: recorder.record_coach_note(
        game_id, "blunder warnings switched off", switch=None))  # words, not a switch
    play.close()
    again = start_play(mode="training", coach={})
    assert again.game.game_id == game_id
    assert (coach_view(again)["hints"], coach_view(again)["warnings"]) == (False, True)
    events = [e for e in again.recorder.load(game_id).events if e.kind == "coach"]
    assert [e.switch for e in events] == [CoachSwitch(CoachAid.HINTS, False), None]


def test_a_blunder_is_warned_and_taken_back(start_play):
    play = start_play(mode="training", coach={}, fen=BLUNDER_FEN)
    v = play.move(10, 14)
    assert v["moves"] == ["d6-c5"]
    warning = v["coach"]["warning"]
    assert warning["move"] == "d6-c5" and warning["lost"] == 1
    assert warning["better"] in ("d6-e5", "h8-g7")
    assert warning["line"][0] == "b4:d6"
    # one text, read in order: what it loses and how, what was better, how to undo it
    assert warning["line"] == ["b4:d6", "h8-g7", "e1-f2"]
    assert said(warning["text"]) == (
        "d6-c5 loses a piece by force: b4:d6, h8-g7 e1-f2. "  # the reply, then move pairs
        f"{warning['better']} keeps the balance. "
        "Put the piece on c5 back on d6 to take it back.")
    assert said(warning["takeback"]) == "Put the piece on c5 back on d6 to take it back."
    # the same warning read in Russian, every word from the catalog
    assert said(warning["text"], "ru") == (
        "d6-c5 форсированно теряет 1 шашку: b4:d6, h8-g7 e1-f2. "
        f"{warning['better']} сохраняет равенство. "
        "Чтобы взять ход назад, поставьте шашку с c5 обратно на d6.")
    assert said(v["coach"]["note"], "ru").startswith("Зевок: d6-c5 форсированно теряет")
    assert v["leds"]["10"] == ["slow_blink", "red"] and v["leds"]["14"] == ["slow_blink", "red"]
    assert "blunder warning: d6-c5 loses a piece by force" in play.export_pdn()
    # training's takeback: the piece goes back, the warning goes with the move
    v = play.hand(("lift", 14), ("place", 10))
    assert v["moves"] == [] and v["coach"]["warning"] is None and "10" not in v["leds"]
    v = play.move(10, 15)  # the safe move: no warning
    assert v["moves"] == ["d6-e5"] and v["coach"]["warning"] is None
    assert any(ply == 1 for ply, _ in v["coach"]["curve"])


def test_the_evaluation_curve_follows_the_game(training):
    assert [p for p, _ in coach_view(training)["curve"]] == [0]
    training.move(22, 18)
    curve = training.move(11, 16)["coach"]["curve"]
    assert [ply for ply, _ in curve] == [0, 1, 2]
    assert all(isinstance(score, int) and abs(score) < 300 for _, score in curve)


def test_tournament_mode_has_no_coach_until_the_result(start_play):
    play = start_play(mode="tournament", coach={})
    with pytest.raises(CoachError, match="tournament"):
        play.call(play.coach.request_hint)
    with pytest.raises(CoachError, match="tournament"):
        play.call(lambda: play.coach.set_options(hints=False))
    v = play.move(22, 18)
    assert v["coach"] is None  # no coach on the page at all while the game is played
    play.arbiter.declare_result("1-0", "Black resigned")
    assert coach_view(play)["available"] is False
    assert [ply for ply, _ in coach_view(play)["curve"]] == [0, 1]


def test_an_accepted_draw_and_a_withdrawn_result_reach_the_coach(start_play):
    # the kings shuttle until the position has stood three times: the rules declare a draw
    play = start_play(mode="tournament", coach={}, fen="W:WK29,31,32:BK12,1,2")
    for start, end in [(29, 25), (12, 16), (25, 29), (16, 12)] * 2:
        play.move(start, end)
    assert coach_view(play) is None  # tournament: nothing during the game
    assert play.arbiter.accept_draw() == "1/2-1/2"
    assert [ply for ply, _ in coach_view(play)["curve"]] == list(range(9))
    play.arbiter.withdraw_result()  # play goes on: the coach is quiet again in a tournament
    assert play.coach.game().result is None and coach_view(play) is None


def test_a_blunder_check_still_running_when_the_result_comes_warns_of_nothing(start_play):
    play = start_play(mode="training", coach={}, fen=BLUNDER_FEN)
    play.analyst.paused = True  # the searches are still under way ...
    play.move(10, 14)  # ... the blunder's check among them
    play.arbiter.declare_result("1-0", "Black resigned")  # the arbiter's result comes first
    play.analyst.paused = False
    play.settle()
    assert play.coach.warning is None
    assert not any(e.kind == "coach" for e in play.recorder.load(play.game.game_id).events)


def test_a_warning_stays_with_its_move_in_the_pdn_when_that_move_is_taken_back(start_play):
    play = start_play(mode="training", coach={}, fen=BLUNDER_FEN)
    play.move(10, 14)  # the blunder, warned
    play.hand(("lift", 14), ("place", 10))  # taken back
    play.move(10, 15)  # the safe move instead
    pdn = play.export_pdn()
    warning = pdn.index("blunder warning: d6-c5")
    taken_back = pdn.index("d6-c5 taken back")
    assert warning < taken_back < pdn.index("d6-e5")  # read with d6-c5, not after d6-e5
    game = read_pdn(pdn).games[0].game
    assert [played.text for played in game.moves] == ["d6-e5"]


def test_the_coach_follows_one_side(start_play):
    play = start_play(mode="training", coach={"sides": frozenset({"white"})},
                      fen=BLUNDER_FEN)
    assert coach_view(play)["follows"] == ["white"]
    with pytest.raises(CoachError, match="follows White only"):
        play.call(play.coach.request_hint)  # Black to move
    v = play.move(10, 14)  # Black's blunder: not the coach's side, no warning
    play.settle()
    assert v["coach"]["warning"] is None and play.coach.warning is None
    assert play.call(play.coach.request_hint)["stage"] == 1  # White to move: a hint


@pytest.mark.parametrize("count, loses, wins", [
    (1, "d6-c5 форсированно теряет 1 шашку: b4:d6.", "d6-e5 выигрывает 1 шашку."),
    (2, "d6-c5 форсированно теряет 2 шашки: b4:d6.", "d6-e5 выигрывает 2 шашки."),
    (5, "d6-c5 форсированно теряет 5 шашек: b4:d6.", "d6-e5 выигрывает 5 шашек."),
    (21, "d6-c5 форсированно теряет 21 шашку: b4:d6.", "d6-e5 выигрывает 21 шашку."),
])
def test_a_warning_counts_pieces_in_russian(count, loses, wins):
    assert said(blunder_said("d6-c5", count, ["b4:d6"]), "ru") == loses
    assert said(better_said("d6-e5", count), "ru") == wins
    assert said(better_said("d6-e5", -count), "ru") == loses.replace(
        "d6-c5 форсированно теряет", "d6-e5 теряет только").replace(": b4:d6", "")


def test_a_warning_in_english_dutch_and_french_counts_pieces_too():
    assert said(blunder_said("d6-c5", 1, [])) == "d6-c5 loses a piece by force."
    assert said(blunder_said("d6-c5", 2, [])) == "d6-c5 loses 2 pieces by force."
    assert said(better_said("d6-e5", 3), "nl") == "d6-e5 wint 3 stukken."
    assert said(better_said("d6-e5", 1), "fr") == "d6-e5 gagne 1 pion."
    assert said(takeback_said("c3", "e5", ["d4"]), "ru") == (
        "Чтобы взять ход назад, поставьте шашку с e5 обратно на c3, а побитую шашку — на d4.")
    assert said(takeback_said("c3", "g7", ["d4", "f6"])) == (
        "Put the piece on g7 back on c3 and the pieces it took back on d4 and f6 to take "
        "it back.")


def test_a_hint_and_a_refusal_read_in_russian(training):
    first = training.call(training.coach.request_hint)
    square = first["text"]["params"]["square"]
    assert said(coach_view(training)["note"], "ru") == \
        f"Подсказка: ходите шашкой с поля {square}."
    second = training.call(training.coach.request_hint)
    move = second["text"]["params"]["move"]
    assert said(second["text"], "ru") == f"сыграйте {move}"
    training.call(lambda: training.coach.set_options(hints=False))
    with pytest.raises(CoachError) as refused:
        training.call(training.coach.request_hint)
    assert said(refused.value.message, "ru") == "Подсказки в этой партии выключены."
