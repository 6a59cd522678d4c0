"""Words espeak-ng stresses wrongly, given to it in its own phoneme input.

espeak-ng reads «дамок» as «дамОк» and «поля» (squares, plural) as «пОля» (of a square);
a Russian player hears the wrong word. espeak-ng's own means fix it: text between ``[[``
and ``]]`` is read as its phoneme mnemonics (``[[d'Amok]]``, the stress before the
stressed vowel), so `for_engine` puts each such word of the text in that form just
before the text goes to the engine. What the board lists as said (``--speech-to``'s
``announcements.jsonl``) keeps the words. The phonemes were checked with
``espeak-ng -v ru -x`` (tests/speech/test_pronounce.py runs it on every entry).

Each word here is said only in the sense given: «поля» is always the plural in what the
board says («Исправьте поля …»; a hint says «с цэ три», not «с поля цэ три»).
"""

from __future__ import annotations

import re
from functools import cache

# language -> word (lower case) -> espeak-ng phonemes of the word as it should be said
PHONEMES: dict[str, dict[str, str]] = {
    "ru": {
        "дамок": "d'Amok",  # дАмок (espeak-ng: дамОк)
        "дамками": "d'Amkam;I",  # дАмками (espeak-ng: дамкАми)
        "поля": "pVl;'a",  # полЯ, the plural (espeak-ng: пОля, of a square)
        "взята": "vz;It'a",  # взятА (espeak-ng: взЯта)
    },
}


@cache
def _pattern(language: str) -> re.Pattern[str] | None:
    words = PHONEMES.get(language)
    if not words:
        return None
    return re.compile(r"(?<!\w)(" + "|".join(sorted(words, key=len, reverse=True))
                      + r")(?!\w)", re.IGNORECASE)


def for_engine(text: str, language: str) -> str:
    """``text`` as espeak-ng is to read it: each word it stresses wrongly in
    ``language`` replaced by its phonemes in ``[[...]]``."""
    pattern = _pattern(language)
    if pattern is None:
        return text
    words = PHONEMES[language]
    return pattern.sub(lambda m: f"[[{words[m.group(1).lower()]}]]", text)
