"""Words are never data: no code of the package learns what happened from a sentence.

A record keeps codes and typed fields (`draughtsboard.board.game.records`); its words
are rendered at the edge. This test reads every module of the package with `ast` and
fails on code that reads human text back:

- a comparison (``==``, ``!=``, ``in``, ``not in``) with an object's ``.text`` (an event's,
  a record's, a log entry's words);
- a regular expression (``re.match`` ... or a compiled pattern's ``match``, ``search``,
  ``fullmatch``, ``findall``, ``finditer``, ``sub``, ``split``) over an object's
  ``.text`` or over a rendered message (what ``say``, ``english``, ``render`` or a
  ``words_for(...)`` function returns);
- string tests on an object's ``.text`` (``startswith``, ``endswith``, ``find``,
  ``index``, ``partition``, ``split``).

The PDN reader is a parser: the text it reads is a file's notation, tags and embedded
commands, not a person's words (`PARSERS`); it is not scanned.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "draughtsboard"

# Modules whose ``.text`` is a file's text to parse (notation, tags, commands).
PARSERS = {"draughtsboard/board/game/pdn_reader.py"}
REGEX_METHODS = {"match", "search", "fullmatch", "findall", "finditer", "sub", "subn",
                 "split"}
STRING_TESTS = {"startswith", "endswith", "find", "index", "partition", "rpartition",
                "split", "rsplit", "count"}
RENDERERS = {"say", "english", "render", "english_comment", "words"}


def _is_text(node: ast.AST) -> bool:
    """``x.text``: an event's, a record's, an entry's words."""
    return isinstance(node, ast.Attribute) and node.attr == "text"


def _is_rendered(node: ast.AST) -> bool:
    """A call that renders a message into words: ``say(m)``, ``english(m)``,
    ``words_for(lang)(m)``, ``self.say(m)``."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in RENDERERS
    if isinstance(func, ast.Attribute):
        return func.attr in RENDERERS
    return isinstance(func, ast.Call) and isinstance(func.func, ast.Name) \
        and func.func.id == "words_for"


def findings(tree: ast.AST) -> list[tuple[int, str]]:
    """Each place in ``tree`` that reads human text back, as (line, what)."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            textual = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)
            if any(isinstance(op, textual) for op in node.ops) and any(map(_is_text,
                                                                           operands)):
                out.append((node.lineno, "compares an object's .text"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            args = [*node.args, *(k.value for k in node.keywords)]
            if method in REGEX_METHODS and any(_is_text(a) or _is_rendered(a) for a in args):
                out.append((node.lineno, f"a regular expression ({method}) over words"))
            elif method in STRING_TESTS and (_is_text(node.func.value)
                                             or _is_rendered(node.func.value)):
                out.append((node.lineno, f"{method}() on words"))
    return out


def package_findings() -> dict[str, list[tuple[int, str]]]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(ROOT).as_posix() in PARSERS:
            continue
        found = findings(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if found:
            out[path.relative_to(ROOT).as_posix()] = found
    return out


def test_no_code_reads_what_happened_out_of_words():
    found = package_findings()
    assert found == {}, "words read back as data (give the record a typed field): " \
        + "; ".join(f"{path}:{line} {what}" for path, lines in found.items()
                    for line, what in lines)


def test_the_scan_finds_each_way_of_reading_words():
    source = '''
if event.text == "hints switched on": pass
if event.text in (A, B): pass
found = DECLINED_RE.search(event.text)
m = re.match(r"x", entry.text)
if say(message).startswith("Hint"): pass
if record.text.endswith("withdrawn"): pass
n = PATTERN.fullmatch(words_for("en")(message))
ok = played.kind == "coach" and text == message.id
'''
    assert [line for line, _ in findings(ast.parse(source))] == [2, 3, 4, 5, 6, 7, 8]
