"""``play``'s speech options: checked before anything starts, a bad one is one line."""

from __future__ import annotations

import logging

import pytest

from draughtsboard import cli
from draughtsboard.cli.speech import SpeechSettings

pytestmark = pytest.mark.usefixtures("keep_logging")  # commands run in-process here


def settings(*argv: str):
    return cli.speech_settings(cli.build_parser().parse_args(["play", *argv]))


def test_the_speech_options_and_their_defaults(tmp_path):
    # by the mode: off in tournament mode
    assert settings() == SpeechSettings(None, "en", 100, None)
    assert settings("--speech", "off") is None
    assert settings("--speech", "flags", "--speech-language", "ru",
                    "--speech-volume", "150") == SpeechSettings("flags", "ru", 150, None)
    assert settings("--speech-to", str(tmp_path)) == SpeechSettings(
        "moves", "en", 100, str(tmp_path))
    made = tmp_path / "made" / "here"
    assert settings("--speech", "all", "--speech-to", str(made)) == SpeechSettings(
        "all", "en", 100, str(made))
    assert made.is_dir()


def test_the_board_speaks_its_own_language_unless_told_another():
    parsed = cli.build_parser().parse_args(["play", "--speech", "moves"])
    assert cli.speech_settings(parsed, "ru") == SpeechSettings("moves", "ru", 100, None)
    parsed = cli.build_parser().parse_args(["play", "--speech", "moves",
                                            "--speech-language", "nl"])
    assert cli.speech_settings(parsed, "ru") == SpeechSettings("moves", "nl", 100, None)


def test_a_volume_out_of_range_is_one_line_and_touches_nothing(tmp_path, capsys):
    status = cli.main(["play", "--backend", "sim", "--data", str(tmp_path / "data"),
                       "--speech-volume", "300"])
    err = capsys.readouterr().err
    assert status == cli.EXIT_USAGE and "Traceback" not in err
    assert err.strip().splitlines()[-1] == \
        "draughtsboard play: --speech-volume is 0 to 200, not 300"
    assert not (tmp_path / "data").exists()


def test_a_volume_out_of_range_is_refused_whatever_the_level(tmp_path, capsys):
    status = cli.main(["play", "--backend", "sim", "--data", str(tmp_path / "data"),
                       "--speech", "off", "--speech-volume", "999"])
    err = capsys.readouterr().err
    assert status == cli.EXIT_USAGE and "Traceback" not in err
    assert err.strip().splitlines()[-1] == \
        "draughtsboard play: --speech-volume is 0 to 200, not 999"


@pytest.mark.parametrize("where", ["file", "under_a_file"])
def test_speech_to_that_cannot_be_a_directory_is_one_line_before_anything(
        tmp_path, capsys, where):
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    path = a_file if where == "file" else a_file / "wav"
    status = cli.main(["play", "--backend", "sim", "--data", str(tmp_path / "data"),
                       "--speech-to", str(path)])
    err = capsys.readouterr().err
    assert status == cli.EXIT_USAGE and "Traceback" not in err
    (line,) = err.strip().splitlines()
    expected = "is a file, not a directory" if where == "file" else "Not a directory"
    assert line == f"draughtsboard play: --speech-to {path}: {expected}"
    assert not (tmp_path / "data").exists()


def test_a_language_espeak_has_no_voice_for_speaks_english_said_once(caplog, tmp_path):
    engine = tmp_path / "espeak-ng"
    engine.write_text("#!/bin/sh\necho 'Pty Language Age/Gender VoiceName File'\n"
                      "echo ' 5  en-gb  --/M  English  gmw/en'\n"
                      "echo ' 5  ru  --/M  Russian  zle/ru'\n")
    engine.chmod(0o755)
    log = logging.getLogger("draughtsboard.test")
    with caplog.at_level(logging.WARNING, logger="draughtsboard.test"):
        assert cli.espeak_voice("ru", log, str(engine)) == "ru"
        assert cli.espeak_voice("qps", log, str(engine)) == "en"
        assert cli.espeak_voice("en", log, str(engine)) == "en"
        assert cli.espeak_voice("nl", log, str(tmp_path / "none")) == "nl"  # cannot ask
    (line,) = [r.getMessage() for r in caplog.records]
    assert "qps" in line and "en" in line
