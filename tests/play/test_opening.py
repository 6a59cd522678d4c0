"""Resuming and starting games (virtual time): options that cannot apply are refused out
loud, the replaced game is closed, a game the arbiter starts keeps the event's tags and
not the players'."""

from __future__ import annotations

from draughtsboard.play import choose_opening
from draughtsboard.recording import Recorder

from ..rendered import in_english


def unfinished_tournament_game(data) -> str:
    """An unfinished tournament game of Ann and Bob in ``data``, one move played; its id."""
    with Recorder(data) as recorder:
        game_id = recorder.start_game("russian", {"White": "Ann", "Black": "Bob",
                                                  "Event": "Club"}, mode="tournament")
        recorder.record_move(game_id, "c3-d4", None, None)
    return game_id


def test_a_resumed_game_refuses_another_mode_and_other_tags_out_loud(start_play, tmp_path,
                                                                     caplog):
    data = tmp_path / "data"
    game_id = unfinished_tournament_game(data)
    play = start_play(mode="training", tags={"White": "Carl", "Event": "Club"})
    assert play.game.game_id == game_id and play.game.mode == "tournament"
    v = play.view()
    assert v["mode"] == "tournament" and len(v["notices"]) == 2
    assert "--mode training not applied" in in_english(v["notices"][0])
    assert "--tag White=Carl not applied" in in_english(v["notices"][1])  # Event=Club is the same
    assert v["tags"]["White"] == "Ann"
    assert [e["kind"] for e in v["log"]] == ["notice", "notice"]
    assert "--mode training not applied" in caplog.text
    notes = [e.text for e in play.recorder.game(game_id).events if e.kind == "note"]
    assert len(notes) == 2  # in the record for the arbiter too


def test_a_resumed_game_refuses_a_start_position_out_loud(start_play, tmp_path):
    data = tmp_path / "data"
    game_id = unfinished_tournament_game(data)
    with Recorder(data) as recorder:
        opening = choose_opening(recorder, start_fen="W:W21-32:B1-12")
    assert opening.resume_id == game_id and opening.unused_fen == "W:W21-32:B1-12"
    play = start_play(opening=opening, mode="tournament")
    v = play.view()
    assert in_english(v["notices"]) == [
        f"--fen not applied: game {game_id} is resumed where it stands "
        "(--new starts a new game from the FEN)"]
    assert v["moves"] == ["c3-d4"]  # the recorded game goes on


def test_the_same_options_on_a_resume_say_nothing(start_play, tmp_path):
    unfinished_tournament_game(tmp_path / "data")
    play = start_play(mode="tournament", tags={"White": "Ann"})
    assert play.view()["notices"] == []


def test_new_closes_the_unfinished_game_with_a_note(start_play, tmp_path):
    old = unfinished_tournament_game(tmp_path / "data")
    play = start_play(resume=False)
    assert play.game.game_id != old
    game = play.recorder.game(old)
    assert game.result is None and "--new" in game.result_reason
    summaries = {s.game_id: s for s in play.recorder.list_games()}
    assert summaries[old].status == "finished"
    assert play.recorder.unfinished_game()[0] == play.game.game_id


def test_another_variant_closes_the_unfinished_game_too(tmp_path):
    data = tmp_path / "data"
    old = unfinished_tournament_game(data)
    with Recorder(data) as recorder:
        opening = choose_opening(recorder, variant="lasca")
    assert not opening.resumes and opening.closes == old
    assert "lasca" in opening.closes_reason


def test_a_new_game_of_the_arbiter_does_not_inherit_the_players(start_play):
    play = start_play(tags={"Event": "Club", "Round": "2", "WhiteElo": "1500",
                            "White": "Ann"})
    play.move(22, 18)
    play.arbiter.new_game({"White": "Dan"})
    tags = play.view()["tags"]
    assert tags["Event"] == "Club" and tags["White"] == "Dan"
    assert "Black" not in tags and "Round" not in tags and "WhiteElo" not in tags
