"""``play``'s speech options: checked before anything starts, a bad one is one line."""

from __future__ import annotations

import logging

import pytest

from draughtsboard import cli


@pytest.fixture(autouse=True)
def _keep_logging():
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    yield
    root.handlers[:], root.level = saved


def settings(*argv: str):
    return cli.speech_settings(cli.build_parser().parse_args(["play", *argv]))


def test_the_speech_options_and_their_defaults(tmp_path):
    assert settings() == (None, "en", 100, None)  # by the mode: off in tournament mode
    assert settings("--speech", "off") is None
    assert settings("--speech", "flags", "--speech-language", "ru",
                    "--speech-volume", "150") == ("flags", "ru", 150, None)
    assert settings("--speech-to", str(tmp_path)) == ("moves", "en", 100, str(tmp_path))
    assert settings("--speech", "all", "--speech-to", "w") == ("all", "en", 100, "w")


def test_the_board_speaks_its_own_language_unless_told_another():
    parsed = cli.build_parser().parse_args(["play", "--speech", "moves"])
    assert cli.speech_settings(parsed, "ru") == ("moves", "ru", 100, None)
    parsed = cli.build_parser().parse_args(["play", "--speech", "moves",
                                            "--speech-language", "nl"])
    assert cli.speech_settings(parsed, "ru") == ("moves", "nl", 100, None)


def test_a_volume_out_of_range_is_one_line_and_touches_nothing(tmp_path, capsys):
    status = cli.main(["play", "--backend", "sim", "--data", str(tmp_path / "data"),
                       "--speech-volume", "300"])
    err = capsys.readouterr().err
    assert status == cli.EXIT_USAGE and "Traceback" not in err
    assert err.strip().splitlines()[-1] == \
        "draughtsboard play: --speech-volume is 0 to 200, not 300"
    assert not (tmp_path / "data").exists()
