"""A question asked of a running ``play --speech-to DIR`` is said into a WAV file that
holds speech (Debian's espeak-ng, measured by sox)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.web.helpers import PlayProcess, wait_until

from .test_espeak import sox_stat

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("espeak-ng") is None or shutil.which("sox") is None,
                       reason="needs Debian's espeak-ng and sox (scripts/test.sh installs "
                       "them as root: apt-get install espeak-ng sox)"),
]


def test_an_asked_position_is_said_into_a_wav_file(tmp_path):
    out = tmp_path / "speech"
    with PlayProcess(tmp_path / "data", "--speech", "moves", "--speech-to", str(out),
                     "--speech-language", "ru", "--tag", "TimeControl=300") as play:
        index = out / "announcements.jsonl"
        wait_until(lambda: index.exists() and index.read_text().count("\n") >= 1,
                   timeout=30, what="the board's first words")  # "Доска говорит."
        answer = play.post("/api/ask/clocks?lang=en", {})
        assert answer["spoken"] is True
        assert answer["text"] == "White: 5 minutes. Black: 5 minutes"

        def said():
            lines = [json.loads(line) for line in index.read_text().splitlines()]
            return len(lines) >= 2 and lines

        lines = wait_until(said, timeout=30, what="the answer said")
        assert lines[1]["text"] == "У белых пять минут, у чёрных пять минут."
        assert lines[1]["ok"] is True
    stat = sox_stat(out / lines[1]["file"])
    assert 1.0 <= stat["Length (seconds)"] <= 10.0
    assert stat["RMS     amplitude"] > 0.02 and stat["Maximum amplitude"] > 0.2
