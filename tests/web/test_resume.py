"""The arbiter's token outlives a restart and a running board follows its file; one
``--data`` name for every command that reads games. (Resuming and starting games:
tests/play/test_opening.py.)"""

from __future__ import annotations

import stat

from draughtsboard import cli
from draughtsboard.play.token import ArbiterToken
from draughtsboard.recording import Recorder

from .helpers import TOKEN


def _unfinished_tournament_game(data) -> str:
    with Recorder(data) as recorder:
        game_id = recorder.start_game("russian", {"White": "Ann", "Black": "Bob",
                                                  "Event": "Club"}, mode="tournament")
        recorder.record_move(game_id, "c3-d4", None, None)
    return game_id








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
