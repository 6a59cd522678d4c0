"""The venue's language: ``venue --language ru`` writes it into the venue's files, and a
hall started with that venue's ``hall.password`` (as the recipe starts it) speaks it on
the projector and to a reader who asks for no language, unless ``hall --language`` says
another; the hall's result list has 0-0, as the board's has."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.request

import pytest

from draughtsboard.hall.venue import VENUE_FILE, VenueError, venue_language
from tests.web.helpers import wait_until


def test_the_language_beside_the_halls_password_file(tmp_path):
    password = tmp_path / "hall.password"
    assert venue_language(str(password)) is None  # no venue file: the hall's default
    assert venue_language(None) is None
    (tmp_path / VENUE_FILE).write_text('language = "ru"\n', encoding="utf-8")
    assert venue_language(str(password)) == "ru"
    (tmp_path / VENUE_FILE).write_text("language = 7\n", encoding="utf-8")
    with pytest.raises(VenueError, match="language"):
        venue_language(str(password))
    (tmp_path / VENUE_FILE).write_text("language = \n", encoding="utf-8")
    with pytest.raises(VenueError, match=VENUE_FILE):
        venue_language(str(password))


needs_mosquitto = pytest.mark.skipif(shutil.which("mosquitto_passwd") is None and not any(
    os.path.exists(p) for p in ("/usr/bin/mosquitto_passwd", "/usr/sbin/mosquitto_passwd")),
    reason="needs Debian's mosquitto (mosquitto_passwd)")


@needs_mosquitto
def test_venue_language_is_written_and_a_language_without_a_catalog_is_one_line(
        open_folder, tmp_path, capsys):
    from draughtsboard.cli import main

    out = open_folder
    assert main(["venue", "--boards", "2", "--out", str(out), "--listen", "127.0.0.1:18831",
                 "--language", "ru"]) == 0
    assert venue_language(str(out / "hall.password")) == "ru"
    capsys.readouterr()
    assert main(["venue", "--boards", "2", "--out", str(tmp_path / "other"),
                 "--language", "xx"]) == 78  # a setting with no catalog (EX_CONFIG)
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--language" in err and "xx" in err
    assert not (tmp_path / "other").exists()


def catalog_language(url: str, query: str = "") -> str:
    with urllib.request.urlopen(f"{url}/words/catalog.json{query}", timeout=5) as answer:
        return json.loads(answer.read())["language"]


def start_hall(tmp_path, password_file, *options):
    env = dict(os.environ, PYTHONUNBUFFERED="1", DRAUGHTSBOARD_HALL_TOKEN="t" * 20,
               DRAUGHTSBOARD_HALL_PASSWORD_FILE=str(password_file))
    process = subprocess.Popen(
        [sys.executable, "-m", "draughtsboard", "hall", "--broker", "mqtt://hall@127.0.0.1:1",
         "--listen", "127.0.0.1:0", "--data", str(tmp_path / "hall"), *options],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env=env)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(process.stderr), daemon=True).start()
    return process, lines


@pytest.mark.slow
@pytest.mark.parametrize(("options", "expected"), [((), "ru"), (("--language", "fr"), "fr")])
def test_the_hall_speaks_the_venues_language_unless_told_another(tmp_path, options,
                                                                   expected):
    venue = tmp_path / "venue"
    venue.mkdir()
    (venue / "hall.password").write_text("secret\n")
    (venue / VENUE_FILE).write_text('language = "ru"\n', encoding="utf-8")
    process, lines = start_hall(tmp_path, venue / "hall.password", *options)
    try:
        line = wait_until(lambda: next((x for x in list(lines) if "http://127.0.0.1:" in x),
                                       None), timeout=30, what="the hall to serve")
        url = re.search(r"(http://127\.0\.0\.1:\d+)", line).group(1)
        assert catalog_language(url, "?venue=1") == expected  # the projector's
        assert catalog_language(url) == expected  # a reader whose browser asks none
    finally:
        process.terminate()
        process.wait(10)
