"""The shape of the play room, counted from the source: how big the session is, how many
collaborators are held without a type, and how many tests wait on real threads.

Figures (the last line JSON):

* ``session_lines``, ``session_attributes``, ``session_methods``, ``session_delegates``:
  the `PlaySession` class (lines of the class, distinct ``self.x`` it assigns, its
  methods and properties, and the methods that only pass a call on to a part);
* ``untyped_collaborators``: in ``play/`` and ``web/``, every parameter or attribute that
  holds another object of the program (a session, coach, desk, puzzle runner, analyst,
  game in play, recorder, tracker ...) and is typed ``Any`` or not at all; listed by
  place;
* ``polls``: call sites of the tests' polling helpers (``wait_until``, ``hands_until``,
  ``move``: each sleeps until a real thread has done something), in ``tests/web`` and in
  all of ``tests/`` (test modules and fixtures, not the helpers' own module).

``--root DIR`` measures another checkout (the "before" of a change).
"""

from __future__ import annotations

import argparse
import ast
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
# parameter and attribute names that hold an object of the program
COLLABORATORS = {"session", "coach", "puzzles", "runner", "analyst", "desk", "arbiter",
                 "game", "play", "recorder", "tracker", "controller", "source", "leds",
                 "sink", "hands", "publisher", "keeper", "record_keeper", "arbiter_desk",
                 "service", "link"}
POLLERS = {"wait_until", "hands_until", "move"}


def _class(tree: ast.AST, name: str) -> ast.ClassDef:
    return next(node for node in ast.walk(tree)
                if isinstance(node, ast.ClassDef) and node.name == name)


def _is_delegate(function: ast.FunctionDef) -> bool:
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1:
        return False
    statement = body[0]
    call = statement.value if isinstance(statement, (ast.Return, ast.Expr)) else None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return False
    owner = call.func.value
    return (isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name)
            and owner.value.id == "self")


def session_shape(root: pathlib.Path) -> dict:
    path = root / "draughtsboard" / "play" / "session.py"
    tree = ast.parse(path.read_text())
    cls = _class(tree, "PlaySession")
    methods = [n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    attributes = {node.attr for node in ast.walk(cls)
                  if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id == "self"}
    return {"session_lines": cls.end_lineno - cls.lineno + 1,
            "session_module_lines": len(path.read_text().splitlines()),
            "session_attributes": len(attributes), "session_methods": len(methods),
            "session_delegates": sum(_is_delegate(m) for m in methods)}


def _untyped(annotation: ast.expr | None) -> bool:
    return annotation is None or (isinstance(annotation, ast.Name) and annotation.id == "Any") \
        or (isinstance(annotation, ast.Constant) and annotation.value == "Any")


def untyped_collaborators(root: pathlib.Path) -> list[str]:
    found = []
    for folder in ("play", "web"):
        for path in sorted((root / "draughtsboard" / folder).rglob("*.py")):
            tree = ast.parse(path.read_text())
            where = path.relative_to(root)
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    arguments = node.args
                    for arg in [*arguments.posonlyargs, *arguments.args,
                                *arguments.kwonlyargs]:
                        if arg.arg in COLLABORATORS and _untyped(arg.annotation):
                            found.append(f"{where}:{arg.lineno} {node.name}({arg.arg})")
                    if node.name in COLLABORATORS and node.returns is None and any(
                            isinstance(d, ast.Name) and d.id == "property"
                            for d in node.decorator_list):
                        found.append(f"{where}:{node.lineno} property {node.name}")
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute):
                    if node.target.attr in COLLABORATORS and _untyped(node.annotation):
                        found.append(f"{where}:{node.lineno} self.{node.target.attr}: Any")
    return found


def polls(root: pathlib.Path, folder: str) -> int:
    count = 0
    for path in sorted((root / folder).rglob("*.py")):
        if path.name == "helpers.py":
            continue  # where the helpers are defined
        tree = ast.parse(path.read_text())
        imported = {alias.asname or alias.name for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("helpers")
                    for alias in node.names if alias.name in POLLERS}
        count += sum(1 for node in ast.walk(tree)
                     if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                     and node.func.id in imported)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=ROOT)
    parser.add_argument("--list", action="store_true", help="list the untyped collaborators")
    args = parser.parse_args()
    figures = session_shape(args.root)
    untyped = untyped_collaborators(args.root)
    figures["untyped_collaborators"] = len(untyped)
    figures["polls_tests_web"] = polls(args.root, "tests/web")
    figures["polls_all_tests"] = polls(args.root, "tests")
    if args.list:
        print("\n".join(untyped))
    for key, value in figures.items():
        print(f"{key}: {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
