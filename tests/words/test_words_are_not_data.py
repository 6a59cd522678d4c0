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
  ``index``, ``partition``, ``split``);
- a function that reads a sentence it is given: a parameter named for words (``text``,
  ``reason``, ``why``, ``words``, ``sentence``, ``description``), or a value computed
  from one, compared with fixed English (a string literal of words, a collection of
  them, a module constant keyed by them), tested with a string method against fixed
  English (``removeprefix("draw: ")``), or matched by a regular expression whose pattern
  is English. This is how the rules' reasons were once read back into messages;
- a comparison with words the code rendered itself (a name given what ``words``,
  ``plain_reason``, ``say`` ... return, or such a call itself): two draw offers were
  once told apart by their English (``"; ".join(plain_reason(r) ...) == offered``)
  rather than by their typed reasons.

The PDN reader is a parser: the text it reads is a file's notation, tags and embedded
commands, not a person's words (`PARSERS`); it is not scanned.
"""

from __future__ import annotations

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "draughtsboard"

# Modules whose ``.text`` is a file's text to parse (notation, tags, commands).
PARSERS = {"draughtsboard/board/game/pdn_reader.py"}
REGEX_METHODS = {"match", "search", "fullmatch", "findall", "finditer", "sub", "subn",
                 "split"}
STRING_TESTS = {"startswith", "endswith", "find", "index", "partition", "rpartition",
                "split", "rsplit", "count"}
RENDERERS = {"say", "english", "render", "english_comment", "words", "plain_words",
             "plain_reason"}

# Files that read a sentence, each with why: another program's words, with nothing else
# to read.
READS_ANOTHER_PROGRAMS_WORDS = {
    # gpiozero's own warnings ("Falling back from lgpio: ... permission ..."): it gives no
    # code, only its sentence, for why a pin library could not be used
    "draughtsboard/hardware/no_gpio.py",
}


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


# Parameters that hold a sentence, and string methods that test one.
WORDS_PARAMETERS = {"text", "reason", "reasons", "why", "words", "sentence", "description"}
PREFIX_TESTS = STRING_TESTS | {"removeprefix", "removesuffix", "rfind", "rindex"}
ESCAPE = re.compile(r"\\.")  # a pattern's escapes (\S, \d) are not words


def _is_english(text: str) -> bool:
    """Two words or more with a space between ("threefold repetition", a pattern's
    "result (\\S+) withdrawn"), or one word and the space after it ("draw: ")."""
    plain = ESCAPE.sub(" ", text)
    return " " in text.strip() and len(re.findall(r"[A-Za-z]{2,}", plain)) >= 2 \
        or bool(re.fullmatch(r"[A-Za-z]{2,}[:,]? +", text))


def _english(node: ast.AST | None, constants: dict[str, ast.AST]) -> bool:
    """Fixed English: a literal of words ("threefold repetition", "draw: "), a
    collection of such literals, a module constant holding or keyed by them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and _is_english(node.value)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_english(element, constants) for element in node.elts)
    if isinstance(node, ast.Dict):
        return any(_english(key, constants) for key in node.keys)
    if isinstance(node, ast.Name) and node.id in constants:
        return _english(constants[node.id], constants)
    return False


def _pattern(node: ast.AST, constants: dict[str, ast.AST]) -> ast.AST | None:
    """The pattern a regular expression call uses: ``re.match(PATTERN, ...)``, or a
    compiled constant's (``RULE = re.compile(...)``; ``RULE.fullmatch(...)``)."""
    func = node.func  # type: ignore[attr-defined]
    if isinstance(func.value, ast.Name) and func.value.id == "re":
        return node.args[0] if node.args else None  # type: ignore[attr-defined]
    if isinstance(func.value, ast.Name) and func.value.id in constants:
        compiled = constants[func.value.id]
        if isinstance(compiled, ast.Call) and compiled.args:
            return compiled.args[0]
    return None


def _module_constants(tree: ast.AST) -> dict[str, ast.AST]:
    out = {}
    for node in getattr(tree, "body", []):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value
    return out


def _sentence_readers(tree: ast.AST) -> list[tuple[int, str]]:
    """Each place a function reads a sentence it was given against fixed English."""
    constants = _module_constants(tree)
    out: list[tuple[int, str]] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        arguments = function.args
        tainted = {a.arg for a in [*arguments.posonlyargs, *arguments.args,
                                   *arguments.kwonlyargs] if a.arg in WORDS_PARAMETERS}
        if not tainted:
            continue

        def uses(node: ast.AST, tainted: set[str] = tainted) -> bool:
            return any(isinstance(n, ast.Name) and n.id in tainted for n in ast.walk(node))

        nodes = sorted((n for n in ast.walk(function) if hasattr(n, "lineno")),
                       key=lambda n: (n.lineno, n.col_offset))
        for node in nodes:
            if isinstance(node, ast.Assign | ast.NamedExpr) and uses(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                tainted |= {n.id for t in targets for n in ast.walk(t)
                            if isinstance(n, ast.Name)}
            elif isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                if any(isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn)
                       for op in node.ops) and any(map(uses, operands)) \
                        and any(_english(o, constants) for o in operands):
                    out.append((node.lineno, "compares a sentence it was given with "
                                             "fixed English"))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                method = node.func.attr
                if method in PREFIX_TESTS and uses(node.func.value) \
                        and any(_english(a, constants) for a in node.args):
                    out.append((node.lineno, f"{method}() of fixed English on a sentence "
                                             "it was given"))
                elif method in REGEX_METHODS and any(map(uses, node.args)) \
                        and _english(_pattern(node, constants), constants):
                    out.append((node.lineno, "an English regular expression over a "
                                             "sentence it was given"))
    return out


def _renders(node: ast.AST) -> bool:
    return any(_is_rendered(n) for n in ast.walk(node))


def _rendered_comparisons(tree: ast.AST) -> list[tuple[int, str]]:
    """Each comparison of words a function rendered itself: a name assigned from an
    expression that renders a message or a reason, or the rendering call itself. Its
    comparison with the message's ``.id`` is not words: a renderer gives the id back
    for a message no catalog has words for (`pdn_writer.irregular_comment`)."""
    out: list[tuple[int, str]] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        rendered: set[str] = set()
        nodes = sorted((n for n in ast.walk(function) if hasattr(n, "lineno")),
                       key=lambda n: (n.lineno, n.col_offset))
        for node in nodes:
            if isinstance(node, ast.Assign | ast.NamedExpr) and _renders(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                rendered |= {t.id for t in targets if isinstance(t, ast.Name)}
            elif isinstance(node, ast.Compare) and any(
                    isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn)
                    for op in node.ops):
                operands = [node.left, *node.comparators]
                if any(isinstance(o, ast.Attribute) and o.attr == "id" for o in operands):
                    continue
                if any(isinstance(o, ast.Name) and o.id in rendered or _is_rendered(o)
                       for o in operands):
                    out.append((node.lineno, "compares words it rendered"))
    return out


def findings(tree: ast.AST) -> list[tuple[int, str]]:
    """Each place in ``tree`` that reads human text back, as (line, what)."""
    out: list[tuple[int, str]] = _sentence_readers(tree) + _rendered_comparisons(tree)
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
            out[path.relative_to(ROOT).as_posix()] = sorted(set(found))
    return out


def test_no_code_reads_what_happened_out_of_words():
    found = {path: lines for path, lines in package_findings().items()
             if path not in READS_ANOTHER_PROGRAMS_WORDS}
    assert found == {}, "words read back as data (give the record a typed field): " \
        + "; ".join(f"{path}:{line} {what}" for path, lines in found.items()
                    for line, what in lines)


def test_the_exception_list_names_only_files_that_still_need_it():
    found = package_findings()
    assert all(path in found for path in READS_ANOTHER_PROGRAMS_WORDS), \
        "a file of READS_ANOTHER_PROGRAMS_WORDS no longer reads words: take it off the list"


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


# The rules' reasons read back into messages, as `recording/reasons.py` did before the
# rules gave typed reasons (its function, word for word).
OLD_REASONS = r'''
import re
DRAW_RULES = {
    "moves with kings only, no man moved and no capture": "guide.reason.kings_only",
    "two pieces or fewer against a lone king": "guide.reason.two_against_king",
}
RULE = re.compile(r"(\d+) (.+)")
NO_MOVE = {"White has no legal move": "guide.reason.no_move.white",
           "Black has no legal move": "guide.reason.no_move.black"}


def reason_message(text: str) -> Message | str:
    plain = text.removeprefix("draw: ")
    if plain == "threefold repetition":
        return Message.of("guide.reason.repetition")
    if plain in NO_MOVE:
        return Message.of(NO_MOVE[plain])
    match = RULE.fullmatch(plain)
    if match and match.group(2) in DRAW_RULES:
        return Message.of(DRAW_RULES[match.group(2)], count=int(match.group(1)))
    return text
'''


def test_the_scan_finds_the_rules_reasons_read_back_out_of_their_words():
    lines = {line for line, _ in findings(ast.parse(OLD_REASONS))}
    assert lines == {13, 14, 16, 19}  # removeprefix, ==, in NO_MOVE, in DRAW_RULES


def test_the_scan_finds_a_sentence_parameter_read_against_english():
    source = '''
DECLINED = re.compile(r"match (\\S+): the board holds (\\S+)")
def a(reason):
    return reason.startswith("draw: ")
def b(why):
    shown = why.lower()
    return shown in ("white resigned", "black resigned")
def c(text):
    return DECLINED.search(text)
def d(text, words):
    return re.fullmatch(r"result (\\S+) withdrawn", words)
'''
    assert [line for line, _ in findings(ast.parse(source))] == [4, 7, 9, 11]


# Draw offers told apart by their English, as `play/game_in_play.py` did before it
# compared the typed reasons (its lines, word for word).
OLD_DRAW_OFFER = '''
def _offer_draw(self):
    game = self.recorded_game()
    reasons = game.draw_reasons() if game.result is None else []
    text = "; ".join(plain_reason(r) for r in reasons)
    if text == self._draw_offered:
        return
    self._draw_offered = text
'''


def test_the_scan_finds_draw_offers_told_apart_by_their_words():
    assert [line for line, _ in findings(ast.parse(OLD_DRAW_OFFER))] == [6]


def test_the_scan_finds_a_comparison_of_what_was_rendered():
    source = '''
def a(reason, offered):
    return words(reason) == offered
def b(message, seen):
    shown = say(message)
    return shown in seen
def c(reasons, before):
    return tuple(reasons) == before
def d(message):
    text = say(message)
    return text if text != message.id else ""
'''
    assert [line for line, _ in findings(ast.parse(source))] == [3, 6]


def test_the_scan_leaves_a_parser_of_notation_alone():
    source = '''
MOVE = re.compile(r"(\\d+)([-x:])(\\d+)")
def parse(text):
    if text == "*" or text.startswith("["):
        return None
    return MOVE.fullmatch(text.strip())
'''
    assert findings(ast.parse(source)) == []
