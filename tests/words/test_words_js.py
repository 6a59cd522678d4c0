"""The browser's renderer (words.js, run by Node.js) and Python's give the same words for
the same messages in every language: plurals, lists, nested messages, missing ids."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess

import pytest

from draughtsboard.board.message import Listed, Message
from draughtsboard.words import PSEUDO_LANGUAGE, load_catalog, words_for

HERE = pathlib.Path(__file__).resolve().parent
SCRIPT = HERE.parents[1] / "draughtsboard" / "words" / "static" / "words.js"

CASES = [
    Message.of("side.white"),
    *(Message.of("count.moves", count=n) for n in (0, 1, 2, 5, 11, 21, 22, 25, 101, 1_000_000)),
    *(Message.of("count.pieces", count=n) for n in (1, 3, 7)),
    Message.of("count.moves", count=Message.of("side.black")),
    Message("language.choose", (("unused", Listed(("c3", "e5", "g7"), "or")),)),
    Message.of("no.such.id"),
    # a number with a spec ({count:f}): said in words, shown as digits on a page
    *(Message.of("ask.minutes", count=n) for n in (1, 2, 5, 21)),
    Message.of("spoken.move.capture", start="32", landings=Listed(("21", "12")), count=2),
]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("language", ["en", "ru", "nl", "fr", PSEUDO_LANGUAGE])
def test_words_js_renders_as_python_does(language, tmp_path):
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([m.as_json() for m in CASES]))
    catalog = load_catalog(language).as_json()
    catalog["languages"] = []
    done = subprocess.run(["node", str(HERE / "words_js_check.mjs"), str(SCRIPT), str(cases)],
                          input=json.dumps({"catalog": catalog}), capture_output=True,
                          text=True, timeout=30, check=True)
    words = words_for(language)
    assert json.loads(done.stdout) == [words(m) for m in CASES]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_words_js_joins_lists_as_python_does(tmp_path):
    cases = tmp_path / "cases.json"
    lists = [Listed(items, style) for items in (("c3",), ("c3", "e5"), ("c3", "e5", "g7"),
                                              ("a1", "c1", "e1", "g1", "b2"))
             for style in ("and", "or")]
    cases.write_text(json.dumps([{"list": [*lst.items], "style": lst.style} for lst in lists]))
    script = (HERE / "words_js_check.mjs").read_text().replace(
        "context.Words.render(m)", "context.Words.join(m.list, m.style)")
    harness = tmp_path / "check.mjs"
    harness.write_text(script)
    for language in ("en", "ru", "fr", PSEUDO_LANGUAGE):
        catalog = load_catalog(language).as_json()
        done = subprocess.run(["node", str(harness), str(SCRIPT), str(cases)],
                              input=json.dumps({"catalog": catalog}), capture_output=True,
                              text=True, timeout=30, check=True)
        assert json.loads(done.stdout) == [words_for(language).param(lst) for lst in lists]
