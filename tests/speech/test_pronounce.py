"""Words espeak-ng stresses wrongly are given to it in its phoneme input ([[...]]), and
what the board lists as said keeps the words."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from draughtsboard.speech.pronounce import PHONEMES, for_engine
from draughtsboard.speech.sink import Speaker


def test_a_mis_stressed_word_goes_to_the_engine_as_phonemes():
    said = "Белые: пять дамок на цэ три. Исправьте поля а один и бэ два"
    assert for_engine(said, "ru") == \
        "Белые: пять [[d'Amok]] на цэ три. Исправьте [[pVl;'a]] а один и бэ два"
    assert for_engine("Дамок нет", "ru") == "[[d'Amok]] нет"
    assert for_engine("дамки и дамка", "ru") == "дамки и дамка"  # stressed right already
    assert for_engine("five kings", "en") == "five kings"


def test_the_list_keeps_the_words_the_engine_gets_the_phonemes(tmp_path):
    calls = []

    def runner(argv, text, timeout):
        calls.append(text)
        wav = argv[argv.index("-w") + 1]
        with open(wav, "wb") as handle:  # a WAV of one silent frame
            import wave
            with wave.open(handle, "wb") as sound:
                sound.setnchannels(1)
                sound.setsampwidth(2)
                sound.setframerate(22050)
                sound.writeframes(b"\0\0")
        return 0, ""

    speaker = Speaker("ru", to_dir=tmp_path, runner=runner).start()
    try:
        speaker.say("Две дамки, пять дамок.")
        assert speaker.wait_idle(30)
    finally:
        speaker.close()
    assert calls == ["Две дамки, пять [[d'Amok]]."]
    assert [s.text for s in speaker.spoken] == ["Две дамки, пять дамок."]
    assert "дамок" in (tmp_path / "announcements.jsonl").read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize(("language", "word"),
                         [(language, word) for language, words in PHONEMES.items()
                          for word in words])
def test_espeak_ng_says_each_entry_as_written_and_would_not_by_itself(language, word):
    def phonemes(text):
        return subprocess.run(["espeak-ng", "-q", "-x", "-v", language, text],
                              capture_output=True, text=True, check=True).stdout.strip()

    def stressed_syllable(said):  # how many vowels come before the stress mark
        return len(re.findall(r"[aAeEiIoOuUyV@8]", said[:said.index("'")]))

    wanted = stressed_syllable(PHONEMES[language][word])
    fixed = phonemes(for_engine(word, language))
    assert stressed_syllable(fixed) == wanted, (word, fixed)
    assert stressed_syllable(phonemes(word)) != wanted, (word, "said right by itself")
