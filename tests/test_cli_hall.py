"""`draughtsboard hall` refuses arguments it cannot use in one line, and keeps a token the
operator chose out of its log."""

from __future__ import annotations

import os

import pytest

from .cli_helpers import running

# the hall's command line in these tests: a broker it never reaches, a page on a free port
HALL = ("hall", "--broker", "mqtt://hall:pw@127.0.0.1:1", "--listen", "127.0.0.1:0")


@pytest.mark.parametrize("args, words, status", [
    (["--delay", "nan"], "--delay must be 0 or more minutes", 64),
    (["--delay", "inf"], "--delay must be 0 or more minutes", 64),
    (["--delay", "-1"], "--delay must be 0 or more minutes", 64),
    (["--listen", "127.0.0.1:٣"], "expected HOST:PORT", 64),
    (["--listen", "bad host:80"], "expected HOST:PORT", 64),
    (["--language", "xx"], "--language: no catalog for language 'xx'", 78),
    (["--language", "de\nru"], "--language: no catalog for language", 78),
    (["--rooms", "Main:1-2"], "--rooms: room 'Main:1-2': expected NAME:FIRST-LAST", 64),
    (["--rooms", "a:1-4,b:3-6"], "--rooms: board 3 is in room b and in room a", 64),
    (["--rooms", ","], "--rooms: no room given", 64),
    (["--rooms", ""], "draughtsboard hall: --rooms: no room given (NAME:FIRST-LAST,...)", 64),
])
def test_arguments_the_hall_cannot_use_are_refused_in_one_line(tmp_path, capsys, args, words,
                                                               status):
    """A usage error 64, a setting refused (a language without a catalog) 78: the
    statuses of docs/cli.md, as play's."""
    from draughtsboard.cli import main

    got = main(["hall", "--broker", "mqtt://hall:pw@127.0.0.1:1", "--data",
                str(tmp_path), *args])
    err = capsys.readouterr().err.strip()
    assert got == status and words in err and len(err.splitlines()) == 1


@pytest.mark.slow
def test_a_token_from_the_environment_is_never_logged(tmp_path):
    token = "operator-chosen-token-5f1e"
    env = dict(os.environ, DRAUGHTSBOARD_HALL_TOKEN=token)
    with running(*HALL, "--data", str(tmp_path / "hall"), env=env) as hall:
        hall.wait_for("the hall's page", what="the hall to serve")
        hall.stop()
    assert token not in hall.log and "DRAUGHTSBOARD_HALL_TOKEN" in hall.log


@pytest.mark.slow  # seconds: runs in the full suite, not the fast loop
def test_the_token_is_kept_in_the_data_directory_and_rotates_while_the_hall_runs(tmp_path):
    """No DRAUGHTSBOARD_HALL_TOKEN: the token is the data directory's file, made at the
    first start, the same after a restart, replaced at once by `draughtsboard token
    --rotate`; the log says where it is kept, never the token."""
    import json
    import urllib.error
    import urllib.request

    from draughtsboard.cli import main

    data = tmp_path / "hall"

    env = {k: v for k, v in os.environ.items() if k != "DRAUGHTSBOARD_HALL_TOKEN"}

    def start():
        return running(*HALL, "--data", str(data), env=env)

    def url_of(hall) -> str:
        return hall.wait_for(r"the hall's page: (http://[0-9.]+:\d+)/",
                             what="the hall to serve").group(1)

    def accepted(url: str, token: str) -> bool:
        request = urllib.request.Request(url + "/api/arbiter/check", b"{}", method="POST")
        request.add_header("Content-Type", "application/json")
        request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return json.loads(answer.read())["ok"] is True
        except urllib.error.HTTPError as error:
            assert error.code == 401
            return False

    with start() as first:
        url = url_of(first)
        token = (data / "arbiter-token").read_text().strip()
        assert accepted(url, token)
        first.stop()
    with start() as again:
        url = url_of(again)
        assert accepted(url, token)  # a restart keeps it
        assert main(["token", "--data", str(data), "--rotate"]) == 0
        new = (data / "arbiter-token").read_text().strip()
        assert new != token and accepted(url, new) and not accepted(url, token)
        again.stop()
    log = first.log + again.log
    assert token not in log and new not in log and "arbiter-token" in log


@pytest.mark.slow
def test_the_halls_start_up_lines_and_refusals_are_in_the_venues_language(tmp_path, capsys):
    """``hall --language ru``: its start-up lines (uvicorn's own debug lines aside) and a
    refusal say no Latin word but names, addresses and paths, as play's do."""
    from draughtsboard.cli import main

    from .test_cli_language import LOG_PREFIX, latin_words

    env = {k: v for k, v in os.environ.items() if k != "DRAUGHTSBOARD_HALL_TOKEN"}
    with running(*HALL, "--data", str(tmp_path / "hall"), "--language", "ru", "--delay", "1",
                 env=env) as hall:
        hall.wait_for("страница зала", what="the hall to serve")
        hall.stop()
    lines = hall.lines
    said = [LOG_PREFIX.sub("", line) for line in lines
            if LOG_PREFIX.match(line) and "draughtsboard.hall.mqtt" not in line
            and "broker" not in line]  # the link's own retries: an operator's log
    assert len(said) >= 5, lines
    for argv in (["--listen", "bad"], ["--delay", "-1"], ["--mirror-delay", "5"]):
        assert main(["hall", "--broker", "mqtt://hall:pw@127.0.0.1:1", "--data",
                     str(tmp_path / "refused"), "--language", "ru", *argv]) == 64
        said += capsys.readouterr().err.strip().splitlines()
    assert {line: latin_words(line) for line in said if latin_words(line)} == {}
