"""Numbers in words, for what the board says aloud.

A speech engine reads a digit in the masculine nominative: espeak-ng says «два шашки»
for "2 шашки", so a catalog had to put counts after a colon («шашек: 2»). A placeholder
with a spec (``{count:f}``) says the number in words in that gender and case when the
message is spoken (``Words.spoken()``), and keeps the digits on a page: «взяты {count:f}
шашки» is «взяты две шашки» aloud and «взяты 2 шашки» on a screen.

The spec is a gender (``m``, ``f``, ``n``) and optionally a case after a hyphen (``-n``
nominative, ``-g`` genitive, ``-d`` dative, ``-a`` accusative, ``-i`` instrumental,
``-p`` prepositional): ``{count:f-a}`` is «одну» where ``{count:f}`` is «одна». Languages
without them ignore what they do not have; French says «une» for a feminine one.

The words come from num2words (pure Python, a runtime dependency), imported on the first
number said: a board that never speaks never loads it (importing it costs about 4 MB of
memory and 0.1 s on a desktop, since it loads every language it has). Without it the
digits are said, as before.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

SPEC = re.compile(r"^(?P<gender>[mfn])(?:-(?P<case>[ngdaip]))?$")
DIGITS = re.compile(r"^\d{1,9}$")


class NumberSpecError(ValueError):
    """A placeholder's spec that is no gender and case: the catalog's mistake."""


def check_spec(spec: str) -> None:
    if not SPEC.match(spec):
        raise NumberSpecError(f"{spec!r}: expected a gender (m, f, n) and optionally a case "
                              "(-n, -g, -d, -a, -i, -p), such as f or f-a")


@cache
def _converter() -> Any:
    try:
        from num2words import num2words
    except ImportError:  # pragma: no cover - a runtime dependency; digits are said
        return None
    return num2words


def spell(number: int, language: str, spec: str) -> str:
    """``number`` in words in ``language``, in the gender and case of ``spec``."""
    check_spec(spec)
    convert = _converter()
    if convert is None:
        return str(number)
    match = SPEC.match(spec)
    assert match is not None
    gender, case = match.group("gender"), match.group("case") or "n"
    try:
        if language == "ru":
            return str(convert(number, lang="ru", gender=gender, case=case, animate=False))
        said = str(convert(number, lang=language))
    except NotImplementedError:
        return str(number)
    if language == "fr" and gender == "f" and said.endswith("un"):
        said += "e"  # une, vingt et une
    return said


def spoken_number(value: object) -> int | None:
    """The number a parameter holds when it is one (an int, or digits such as a square's
    rank "3" or a numbered square "32"), else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and DIGITS.match(value):
        return int(value)
    return None
