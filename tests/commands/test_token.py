"""``draughtsboard token`` prints and rotates the arbiter's token; every command that reads
games takes ``--data`` (the old ``--journal`` warns)."""

from __future__ import annotations

from draughtsboard import cli
from draughtsboard.play.token import ArbiterToken

from ..play.test_opening import unfinished_tournament_game


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
    unfinished_tournament_game(tmp_path)
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
