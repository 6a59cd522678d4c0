"""`play --language` and the board config's ``language``: checked before anything starts
(a wrong one is one line and the config status), and then what play prints for people
and the comments of the PDN it exports are in that language, while the journal keeps
what it always kept."""

from __future__ import annotations

import logging
import os
import re
import signal
import urllib.request

import pytest

from draughtsboard import cli
from draughtsboard.board.rules import initial_position
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.board.tracker.irregular import Irregularity, moved
from draughtsboard.recording import Recorder

from .cli_helpers import running
from .web.helpers import TOKEN

RUSSIAN = get_variant("russian")


def test_the_language_comes_from_the_command_line_then_the_config(tmp_path):
    config = tmp_path / "board.toml"
    config.write_text('language = "ru"\n\n[board]\nsize = 8\n')
    assert cli.play_language(None, config) == "ru"
    assert cli.play_language("nl", config) == "nl"  # the command line wins
    assert cli.play_language(" FR ", None) == "fr"
    assert cli.play_language(None, None) == "en"
    assert cli.play_language(None, tmp_path / "missing.toml") == "en"
    config.write_text('[board]\nsize = 8\n')
    assert cli.play_language(None, config) == "en"
    assert cli.play_language("qps", None) == "qps"  # the pseudo-language, for tests


@pytest.mark.parametrize("text, expected", [
    ('language = "xx"\n', "language: no catalog for language 'xx'"),
    ("language = 7\n", "language must be a language's code"),
    ('[hall]\nboard = 3\nlanguage = "ru"\n', "[hall] language: the board's language is set "
                                             "at the top of the file"),
    ('language = "ru\n', "board.toml: "),
])
def test_a_wrong_language_in_the_config_is_one_line_and_the_config_status(
        tmp_path, capsys, text, expected):
    config = tmp_path / "board.toml"
    config.write_text(text)
    status = cli.main(["play", "--backend", "sim", "--config", str(config), "--data",
                       str(tmp_path / "data")])
    err = capsys.readouterr().err
    assert status == cli.EXIT_CONFIG
    assert len(err.splitlines()) == 1 and expected in err and "Traceback" not in err
    assert not (tmp_path / "data").exists()  # refused before anything was touched


def test_a_wrong_language_on_the_command_line_is_one_line_and_the_config_status(
        tmp_path, capsys):
    status = cli.main(["play", "--backend", "sim", "--language", "klingon", "--data",
                       str(tmp_path / "data")])
    err = capsys.readouterr().err
    assert status == cli.EXIT_CONFIG
    assert len(err.splitlines()) == 1
    assert err.startswith("draughtsboard play: --language: no catalog for language "
                          "'klingon' (known: en, ")
    assert not (tmp_path / "data").exists()


def test_the_backend_notice_is_in_the_boards_language(monkeypatch, caplog):
    from draughtsboard.words import words_for

    monkeypatch.setattr("glob.glob", lambda pattern: [])
    parsed = cli.build_parser().parse_args(["play"])
    with caplog.at_level(logging.WARNING):
        assert cli.choose_backend(parsed, logging.getLogger("t"), words_for("ru")) == "sim"
    assert "--backend auto: GPIO-чипа нет, запущен симулятор" in caplog.text


def record_an_irregular_move(data):
    """A game whose first move is an irregular one the opponent let stand (c3-e5, two
    squares at once); the position after it."""
    square = RUSSIAN.geometry.number_of_name
    start = initial_position(RUSSIAN)
    after = moved(start, square("c3"), square("e5"), ())
    with Recorder(data, sync=False) as recorder:
        game_id = recorder.start_game(RUSSIAN, {"Irregularities": "fmjd"})
        kind = Irregularity.IRREGULAR_MOVE
        recorder.record_irregular_move(game_id, (square("c3"), square("e5")), (), "c3-e5",
                                       kind.name.lower(), kind.comment, after.fen(), 1.0,
                                       1_700_000_000.0)
    return game_id, after


def test_the_session_logs_and_exports_in_its_language_and_records_as_ever(
        tmp_path, start_session, caplog):
    data = tmp_path / "data"
    game_id, after = record_an_irregular_move(data)
    caplog.set_level(logging.INFO, logger="draughtsboard.play")
    session = start_session(fen=after.fen(), data=data, language="ru")
    assert session.language == "ru"
    assert f"продолжаем партию {game_id} с полухода 1" in caplog.text
    assert "неправильные ходы: по правилам ФМЖД (решает соперник)" in caplog.text
    pdn = session.export_pdn()
    assert "{неправильный ход (ФМЖД, приложение 1, п. 5.4): шашка пошла не по правилам; " \
        "ход оставлен в силе [%fen " in pdn
    assert '[Result "*"]' in pdn and "1. c3-e5" in pdn
    session.stop()
    # the journal keeps what it always kept: in English without a language, as before
    recorded = Recorder(data).export_pdn(game_id)
    assert "irregular (FMJD Annex 1, 5.4): a piece moved irregularly; allowed to stand" \
        in recorded


PAGE = r"страница доски: http://127\.0\.0\.1:(\d+)/"


def run_play(data, *extra):
    """``draughtsboard play --language ru`` on the simulator until its page is served
    (whose catalog, for a browser that asks for no language, is the board's); then
    stopped with SIGINT as Ctrl-C does. Its lines on standard error."""
    env = dict(os.environ, DRAUGHTSBOARD_ARBITER_TOKEN=TOKEN)
    with running("play", "--language", "ru", "--backend", "auto", "--config",
                 str(data / "no-board.toml"), "--listen", "127.0.0.1:0", "--data", str(data),
                 *extra, env=env) as play:
        found = play.wait_for(PAGE, what="play to serve its page")
        # a browser that asks for no language gets the board's
        url = f"http://127.0.0.1:{found.group(1)}/words/catalog.json"
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert answer.headers["content-language"] == "ru"
        assert play.stop(signal.SIGINT, timeout=20) == 0
    return play.log


@pytest.mark.slow
def test_play_speaks_russian_on_the_command_line(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    first = run_play(data)
    assert "запущен симулятор (играйте на веб-странице)" in first
    assert re.search(r"новая партия \S+: Русские шашки, режим: турнир", first)
    assert f"ключ судьи: {TOKEN}" in first
    assert "сигнал SIGINT: остановка" in first
    assert f"остановлено; журнал записан в {data}" in first
    for english in ("the board's page", "arbiter token:", "using the simulator", "stopped;"):
        assert english not in first
    again = run_play(data)
    assert "продолжаем партию" in again and "расставьте шашки, как показывают светодиоды" \
        in again


# What a Russian line may hold in Latin letters: names (the program, its options and
# their values, the commands quoted, signals, abbreviations), addresses, paths, what the
# person typed (quoted), and the board's own token; everything else is Russian.
LATIN_ALLOWED = re.compile(r"""
    [a-z]+://\S+                           # addresses
  | (?<![\w/])(?:/[\w.\-]+)+/?            # paths
  | `[^`]*`                                # a command, quoted
  | --[\w-]+(?:\ (?!')[\w.:\-]+)?          # an option, and its value
  | '[^']*'                                # what was given, as given
  | \b(?:GPIO|FMJD|IPv4|IPv6|PDN|FEN|SIG[A-Z]+|draughtsboard\ \w+)\b
""", re.X)
LOG_PREFIX = re.compile(r"^\d\d:\d\d:\d\d [A-Z]+ draughtsboard\.[\w.]+: ")


def latin_words(line: str) -> list[str]:
    return re.findall(r"[A-Za-z]+", LATIN_ALLOWED.sub(" ", line.replace(TOKEN, " ")))


@pytest.mark.slow
def test_play_in_russian_starts_and_refuses_with_no_latin_word_but_names(tmp_path, capsys):
    """Its start-up and stop lines (uvicorn's own debug lines aside) and a refusal: no
    «бэкенд auto», «режим tournament», «токен»."""
    data = tmp_path / "data"
    data.mkdir()
    said = [LOG_PREFIX.sub("", line) for line in run_play(data).splitlines()
            if LOG_PREFIX.match(line)]
    assert len(said) >= 6, said
    for argv in (["--listen", "bad"], ["--listen", "0.0.0.0:0"], ["--speech-volume", "999"]):
        assert cli.main(["play", "--language", "ru", "--backend", "sim", "--data",
                         str(tmp_path / "refused"), *argv]) != 0
        said += capsys.readouterr().err.strip().splitlines()
    assert {line: latin_words(line) for line in said if latin_words(line)} == {}
    assert not latin_words("бэкенд auto") == []  # the checker sees what it must
