"""Resuming and starting games: options that cannot apply are refused out loud, the
replaced game is closed, the arbiter's token outlives a restart, one ``--data`` name."""

from __future__ import annotations

import stat

from draughtsboard import cli
from draughtsboard.play import choose_opening
from draughtsboard.play.token import ArbiterToken
from draughtsboard.recording import Recorder

from .helpers import TOKEN, move, view_of


def _unfinished_tournament_game(data) -> str:
    with Recorder(data) as recorder:
        game_id = recorder.start_game("russian", {"White": "Ann", "Black": "Bob",
                                                  "Event": "Club"}, mode="tournament")
        recorder.record_move(game_id, "c3-d4", None, None)
    return game_id


def test_a_resumed_game_refuses_another_mode_and_other_tags_out_loud(start_session,
                                                                     tmp_path, caplog):
    data = tmp_path / "data"
    game_id = _unfinished_tournament_game(data)
    with Recorder(data) as recorder:
        opening = choose_opening(recorder)
    session = start_session(opening=opening, data=data, mode="training",
                            tags={"White": "Carl", "Event": "Club"})
    assert session.game_id == game_id and session.mode.value == "tournament"
    v = view_of(session)
    assert v["mode"] == "tournament" and len(v["notices"]) == 2
    assert "--mode training not applied" in v["notices"][0]
    assert "--tag White=Carl not applied" in v["notices"][1]  # Event=Club is the same
    assert v["tags"]["White"] == "Ann"
    assert [e["kind"] for e in v["log"]] == ["notice", "notice"]
    assert "--mode training not applied" in caplog.text
    notes = [e.text for e in session.recorder.game(game_id).events if e.kind == "note"]
    assert len(notes) == 2  # in the record for the arbiter too


def test_a_resumed_game_refuses_a_start_position_out_loud(start_session, tmp_path):
    data = tmp_path / "data"
    game_id = _unfinished_tournament_game(data)
    with Recorder(data) as recorder:
        opening = choose_opening(recorder, start_fen="W:W21-32:B1-12")
    assert opening.resume_id == game_id and opening.unused_fen == "W:W21-32:B1-12"
    session = start_session(opening=opening, data=data, mode="tournament")
    v = view_of(session)
    assert v["notices"] == [f"--fen not applied: game {game_id} is resumed where it stands "
                            "(--new starts a new game from the FEN)"]
    assert v["moves"] == ["c3-d4"]  # the recorded game goes on


def test_the_same_options_on_a_resume_say_nothing(start_session, tmp_path):
    data = tmp_path / "data"
    _unfinished_tournament_game(data)
    with Recorder(data) as recorder:
        opening = choose_opening(recorder)
    session = start_session(opening=opening, data=data, mode="tournament",
                            tags={"White": "Ann"})
    assert view_of(session)["notices"] == []


def test_new_closes_the_unfinished_game_with_a_note(start_session, tmp_path):
    data = tmp_path / "data"
    old = _unfinished_tournament_game(data)
    with Recorder(data) as recorder:
        opening = choose_opening(recorder, resume=False)
    assert opening.closes == old
    session = start_session(opening=opening, data=data)
    assert session.game_id != old
    game = session.recorder.game(old)
    assert game.result is None and "--new" in game.result_reason
    summaries = {s.game_id: s for s in session.recorder.list_games()}
    assert summaries[old].status == "finished"
    assert session.recorder.unfinished_game()[0] == session.game_id


def test_another_variant_closes_the_unfinished_game_too(tmp_path):
    data = tmp_path / "data"
    old = _unfinished_tournament_game(data)
    with Recorder(data) as recorder:
        opening = choose_opening(recorder, variant="lasca")
    assert not opening.resumes and opening.closes == old
    assert "lasca" in opening.closes_reason


def test_a_new_game_of_the_arbiter_does_not_inherit_the_players(session):
    session.initial_tags.update({"Event": "Club", "Round": "2", "WhiteElo": "1500"})
    move(session, 22, 18)
    session.new_game({"White": "Dan"})
    tags = view_of(session)["tags"]
    assert tags["Event"] == "Club" and tags["White"] == "Dan"
    assert "Black" not in tags and "Round" not in tags and "WhiteElo" not in tags


def test_the_arbiter_token_is_kept_and_rotated_in_the_data_directory(tmp_path):
    store = ArbiterToken(tmp_path)
    first = store.current()
    assert len(first) >= 12 and ArbiterToken(tmp_path).current() == first  # a restart
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    other = ArbiterToken(tmp_path).rotate()  # `draughtsboard token --rotate`, elsewhere
    assert other != first and store.current() == other  # the running board follows
    store.path.write_text("short\n")
    try:
        store.current()
    except OSError as error:
        assert "--rotate" in str(error)
    else:
        raise AssertionError("a bad token file was accepted")


def test_a_running_session_follows_the_token_file(start_session, tmp_path):
    store = ArbiterToken(tmp_path / "tokens")
    session = start_session(token=store.current)
    old = store.current()
    assert session.check_token(old)
    new = ArbiterToken(tmp_path / "tokens").rotate()
    assert session.check_token(new) and not session.check_token(old)
    store.path.unlink()
    store.path.mkdir()  # unreadable as a token: every token is refused, nothing breaks
    assert not session.check_token(new) and not session.check_token(TOKEN)


def test_the_token_command_prints_and_rotates(tmp_path, capsys):
    assert cli.main(["token", "--data", str(tmp_path)]) == 0
    first = capsys.readouterr().out.strip()
    assert cli.main(["token", "--data", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == first
    assert cli.main(["token", "--data", str(tmp_path), "--rotate"]) == 0
    out = capsys.readouterr()
    assert out.out.strip() != first and "pages must enter it again" in out.err


def test_the_token_command_uses_the_default_data_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DRAUGHTSBOARD_DATA", str(tmp_path))
    assert cli.main(["token"]) == 0
    assert capsys.readouterr().out.strip() == ArbiterToken(tmp_path).current()


def test_every_command_that_reads_games_takes_data_and_the_old_name_warns(tmp_path, capsys):
    _unfinished_tournament_game(tmp_path)
    parser = cli.build_parser()
    for command in ("games", "export", "token", "play"):
        assert parser.parse_args([command, "--data", str(tmp_path)]).data == str(tmp_path)
    assert cli.main(["games", "--data", str(tmp_path)]) == 0
    assert "Ann - Bob" in capsys.readouterr().out
    assert cli.main(["games", "--journal", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "Ann - Bob" in out.out
    assert out.err.splitlines() == ["draughtsboard games: --journal is deprecated, use --data"]
    try:
        parser.parse_args(["export", "--help"])
    except SystemExit:
        pass
    help_text = capsys.readouterr().out
    assert "--data" in help_text and "--journal" not in help_text


def test_a_bad_time_control_on_the_command_line_is_a_usage_error(tmp_path, capsys):
    status = cli.main(["play", "--tag", "TimeControl=soon", "--data", str(tmp_path)])
    assert status == cli.EXIT_USAGE
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("draughtsboard play: TimeControl 'soon': expected seconds")
