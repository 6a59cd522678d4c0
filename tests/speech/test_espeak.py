"""Debian's espeak-ng says the announcements of a short game into WAV files (as ``play
--speech-to DIR`` does), and every file holds speech: not silent, of a length that fits
its text, measured by Debian's sox (``sox FILE -n stat``)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from draughtsboard.speech.announcer import Announcer
from draughtsboard.speech.sink import Speaker

from .games import RUSSIAN, publications, recorded_game

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("espeak-ng") is None or shutil.which("sox") is None,
                       reason="needs Debian's espeak-ng and sox (scripts/test.sh installs "
                       "them as root: apt-get install espeak-ng sox)"),
]
WAIT = 30.0


def sox_stat(path) -> dict[str, float]:
    out = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True,
                         timeout=30, check=True).stderr
    return {key.strip(): float(value) for key, value in
            re.findall(r"^([A-Za-z ]+?(?:\([a-z]+\))?):\s+(-?[\d.]+)\s*$", out, re.M)}


class Publications:
    """A session's publications, handed out one at a time (`advance`)."""

    def __init__(self, items) -> None:
        self.items = items
        self.at = 0

    def subscribe(self, wake):
        return lambda: None

    def published(self):
        game, view = self.items[self.at]
        return "g", game, dict(view, mode="training")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_short_game_is_said_into_wav_files_that_hold_speech(tmp_path, language):
    recorded = recorded_game(*RUSSIAN)
    recorded.moves[:] = recorded.moves[:6]  # a short game: 6 moves, an illegal one flagged
    items = publications(recorded)
    session = Publications(items)
    speaker = Speaker(language, to_dir=tmp_path).start()
    announcer = Announcer(session, speaker, language, level="all")
    texts = []
    try:
        for at in range(len(items)):
            session.at = at
            text = announcer.check()
            if text:
                texts.append(text)
                assert speaker.wait_idle(WAIT)  # every one said: nothing dropped here
    finally:
        speaker.close()
    assert speaker.dropped == 0 and len(texts) >= 8
    files = sorted(tmp_path.glob("*.wav"))
    assert [s.ok for s in speaker.spoken] == [True] * len(texts)
    assert [f.name for f in files] == [f"{n:04d}.wav" for n in range(1, len(texts) + 1)]
    for file, text in zip(files, texts, strict=True):
        stat = sox_stat(file)
        seconds = stat["Length (seconds)"]
        assert 0.3 <= seconds <= 0.25 * len(text) + 1.0, (file.name, text, seconds)
        assert stat["RMS     amplitude"] > 0.02, (file.name, text, stat)
        assert stat["Maximum amplitude"] > 0.2, (file.name, text, stat)
