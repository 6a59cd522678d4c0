"""The package layout promises of the architecture, checked from the source.

The import graph of `draughtsboard/` is built with `ast` (imports inside functions and
under ``TYPE_CHECKING`` count: a circle held together by a late import is still a
circle) and checked for circles, for the layering of docs/architecture.md (its list of
parts is read from the page: imports point up that list, never down), for a pure core,
and for private names used across modules.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "draughtsboard"
# Device code, never imported on the host: binds the firmware to a Raspberry Pi Pico (the
# stand-ins for the Pico under MicroPython live outside the package, in devtools/pico_sim).
DEVICE_ONLY = {"draughtsboard.firmware_bridge.firmware.main"}

# What each part of the pure core may import inside draughtsboard (prefixes).
CORE_LAYERS = {
    "draughtsboard.board.message": (),
    "draughtsboard.board.rules": ("draughtsboard.board.rules",),
    "draughtsboard.board.ports": (),
    "draughtsboard.board.mode": ("draughtsboard.board.rules",),
    "draughtsboard.board.game": ("draughtsboard.board.rules", "draughtsboard.board.mode",
                                 "draughtsboard.board.message", "draughtsboard.board.game"),
    "draughtsboard.board.tracker": ("draughtsboard.board.rules", "draughtsboard.board.ports",
                                    "draughtsboard.board.mode", "draughtsboard.board.message",
                                    "draughtsboard.board.tracker"),
    "draughtsboard.board.replay": ("draughtsboard.board.rules", "draughtsboard.board.ports",
                                   "draughtsboard.board.mode", "draughtsboard.board.message",
                                   "draughtsboard.board.tracker", "draughtsboard.board.replay"),
}
# Libraries that do I/O, start threads or drive hardware: never in the pure core.
IMPURE = {"os", "io", "sys", "socket", "select", "selectors", "threading", "multiprocessing",
          "concurrent", "asyncio", "subprocess", "signal", "pathlib", "shutil", "tempfile",
          "logging", "sqlite3", "fcntl", "serial", "gpiozero", "lgpio", "starlette", "uvicorn",
          "paho", "aiomqtt", "platformdirs", "tomllib", "urllib", "http"}
# The tournament hall: what each of its packages may import inside draughtsboard. The
# hall never imports hardware, a play session or the board's page; the board's side of
# the link never imports the hall; only the cli package wires them to a session.
HALL_LAYERS = {
    "draughtsboard.hall_protocol": ("draughtsboard.board", "draughtsboard.hall_protocol"),
    "draughtsboard.hall_link": ("draughtsboard.board", "draughtsboard.hall_protocol",
                                "draughtsboard.hall_link"),
    "draughtsboard.hall": ("draughtsboard.board", "draughtsboard.hall_protocol",
                           "draughtsboard.recording", "draughtsboard.http_limits",
                           "draughtsboard.http_stream", "draughtsboard.http_server",
                           "draughtsboard.addresses",
                           "draughtsboard.subscribers", "draughtsboard.words",
                           "draughtsboard.webkit", "draughtsboard.hall"),
}
HALL_PACKAGES = tuple(HALL_LAYERS)
# The composition root: the command-line package, the only one that imports an adapter,
# joins the hall to a board in play, or starts the speech.
CLI = "draughtsboard.cli"
# Adapters may use these of the core, and never each other.
ADAPTERS = ("draughtsboard.hardware", "draughtsboard.firmware_bridge")
ADAPTER_MAY_USE = ("draughtsboard.board.ports", "draughtsboard.board.rules.geometry")


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, pathlib.Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return modules()[name].name == "__init__.py"


def _resolve(name: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = name.split(".")
    base = base[: len(base) - node.level + (1 if _is_package(name) else 0)]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def imports_of(name: str) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    """(imported module, line, names imported from it) for every import statement."""
    tree = ast.parse(modules()[name].read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(name, node)
            names = tuple(alias.name for alias in node.names)
            submodules = [f"{source}.{n}" for n in names if f"{source}.{n}" in modules()]
            found += [(sub, node.lineno, ()) for sub in submodules]
            found.append((source, node.lineno, names))
    return tuple(found)


def internal_edges() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in modules()}
    for name in modules():
        for target, _, _ in imports_of(name):
            if target in modules() and target != name:
                graph[name].add(target)
    return graph


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            out.append(component)

    for node in graph:
        if node not in index:
            visit(node)
    return out


def _parent_package_edge(source: str, target: str) -> bool:
    """A package's ``__init__`` importing its own submodules is how re-exports work; the
    submodules never import their package back (checked by the circle test)."""
    return target.startswith(source + ".") and _is_package(source)


# -- the order of docs/architecture.md's list ------------------------------------------------

ARCHITECTURE = ROOT / "docs" / "architecture.md"


@cache
def documented_layers() -> tuple[str, ...]:
    """The parts docs/architecture.md lists in its tree, in order, as module names."""
    text = ARCHITECTURE.read_text()
    tree = text[text.index("```\ndraughtsboard/\n") + 4:]
    tree = tree[:tree.index("```")]
    layers, parents = [], []
    for line in tree.splitlines()[1:]:
        name = line.strip().split(" ")[0]
        depth = (len(line) - len(line.lstrip(" "))) // 2
        parents = parents[:depth - 1]
        parts = [*parents, name.rstrip("/").removesuffix(".py")]
        layers.append(".".join(["draughtsboard", *parts]))
        if name.endswith("/"):
            parents = parts
    return tuple(layers)


def layer_of(module: str) -> int:
    """The index in the documented list of the deepest part ``module`` belongs to."""
    found = [i for i, layer in enumerate(documented_layers()) if _within(module, layer)]
    assert found, f"{module} is in no part that docs/architecture.md lists"
    return max(found, key=lambda i: len(documented_layers()[i]))


def test_the_documented_list_names_every_part_of_the_package():
    top = {name.split(".")[1] for name in modules() if name.count(".") >= 1}
    listed = {layer.split(".")[1] for layer in documented_layers()}
    assert top - {"__main__"} == listed


# the package's own door (its version) and its entry point stand outside the list
OUTSIDE_THE_LIST = {"draughtsboard", "draughtsboard.__main__"}


def test_imports_point_up_the_documented_list_never_down():
    offenders = []
    for name in modules():
        if name in OUTSIDE_THE_LIST:
            continue
        here = layer_of(name)
        for target, line, _ in imports_of(name):
            if target in modules() and target not in OUTSIDE_THE_LIST \
                    and not _within(target, documented_layers()[here]) \
                    and layer_of(target) > here:
                offenders.append(f"{name}:{line} imports {target}, listed below it")
    assert offenders == []


def test_no_import_circle():
    circles = [sorted(c) for c in _strongly_connected(internal_edges()) if len(c) > 1]
    assert circles == []


def test_board_sub_packages_keep_their_layers():
    offenders = []
    for name in modules():
        for layer, allowed in CORE_LAYERS.items():
            if name == layer or name.startswith(layer + "."):
                for target, line, _ in imports_of(name):
                    if target.startswith("draughtsboard") and not any(
                            target == a or target.startswith(a + ".") for a in allowed):
                        offenders.append(f"{name}:{line} imports {target}")
    assert offenders == []


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def imports_beyond(package: str, may_use: tuple[str, ...]) -> list[str]:
    """Where a module of ``package`` imports a part of draughtsboard outside ``may_use``."""
    return [f"{name}:{line} imports {target}"
            for name in modules() if _within(name, package)
            for target, line, _ in imports_of(name)
            if target.startswith("draughtsboard.")
            and not any(_within(target, allowed) for allowed in may_use)]


def test_hall_packages_keep_their_layers():
    offenders = []
    for name in modules():
        layer = next((p for p in HALL_LAYERS if _within(name, p)), None)
        if layer is None:
            continue
        for target, line, _ in imports_of(name):
            if target.startswith("draughtsboard") and \
                    not any(_within(target, allowed) for allowed in HALL_LAYERS[layer]):
                offenders.append(f"{name}:{line} imports {target}")
    assert offenders == []


def test_only_the_composition_root_joins_the_hall_to_play():
    """play, web, recording and the commands never know a hall exists."""
    offenders = [f"{name}:{line} imports {target}"
                 for name in modules()
                 if not _within(name, CLI)
                 and not any(_within(name, p) for p in HALL_PACKAGES)
                 for target, line, _ in imports_of(name)
                 if any(_within(target, p) for p in HALL_PACKAGES)]
    assert offenders == []


# The opponent (built-in engine, Hub, DXP): above the pure core, below play. It uses the
# core only (and the one HOST:PORT reader); nothing below play knows it.
OPPONENTS = "draughtsboard.opponents"
OPPONENTS_MAY_USE = ("draughtsboard.board", "draughtsboard.addresses", OPPONENTS)
BELOW_OPPONENTS = ("draughtsboard.board", "draughtsboard.hardware", "draughtsboard.firmware_bridge",
                   "draughtsboard.recording", *HALL_PACKAGES)


def test_opponents_use_only_the_core():
    assert imports_beyond(OPPONENTS, OPPONENTS_MAY_USE) == []


def test_nothing_below_play_imports_the_opponents():
    offenders = [f"{name}:{line} imports {target}"
                 for name in modules() if any(_within(name, low) for low in BELOW_OPPONENTS)
                 for target, line, _ in imports_of(name) if _within(target, OPPONENTS)]
    assert offenders == []


# Speech (a board you can hear): it follows a session through a typed port, as the hall
# link does, so it needs only the core, the words and itself; and only the cli package
# starts it.
SPEECH = "draughtsboard.speech"
SPEECH_MAY_USE = ("draughtsboard.board", "draughtsboard.words", SPEECH)
SPEECH_PURE = ("draughtsboard.speech.spoken", "draughtsboard.speech.answers")


def test_speech_uses_only_the_core_and_the_words_and_only_cli_starts_it():
    """Others (the page's questions) may use only what is pure: what to say."""
    offenders = imports_beyond(SPEECH, SPEECH_MAY_USE)
    offenders += [f"{name}:{line} imports {target}"
                  for name in modules()
                  if not _within(name, CLI) and not _within(name, SPEECH)
                  for target, line, _ in imports_of(name)
                  if _within(target, SPEECH) and target not in SPEECH_PURE]
    offenders += [f"{name}:{line} imports {target} (what to say is pure)"
                  for name in SPEECH_PURE for target, line, _ in imports_of(name)
                  if target.split(".")[0] in IMPURE or target.startswith("draughtsboard.words")]
    assert offenders == []


def test_game_and_tracker_never_import_each_other():
    pairs = [("draughtsboard.board.game", "draughtsboard.board.tracker"),
             ("draughtsboard.board.tracker", "draughtsboard.board.game")]
    offenders = [f"{name}:{line} imports {target}"
                 for name in modules() for low, high in pairs if name.startswith(low)
                 for target, line, _ in imports_of(name) if target.startswith(high)]
    assert offenders == []


def test_board_imports_nothing_outside_the_core():
    assert imports_beyond("draughtsboard.board", ("draughtsboard.board",)) == []


def test_pure_core_imports_no_io_threads_or_hardware():
    offenders = [f"{name}:{line} imports {target}"
                 for name in modules() if name.startswith("draughtsboard.board")
                 for target, line, _ in imports_of(name)
                 if target.split(".")[0] in IMPURE]
    assert offenders == []


def test_adapters_use_only_ports_and_geometry_of_the_core_and_never_each_other():
    offenders = []
    for name in modules():
        adapter = next((a for a in ADAPTERS if name.startswith(a)), None)
        if adapter is None:
            continue
        for target, line, _ in imports_of(name):
            if not target.startswith("draughtsboard"):
                continue
            if target.startswith(adapter):
                continue
            if not any(target == a or target.startswith(a + ".") for a in ADAPTER_MAY_USE):
                offenders.append(f"{name}:{line} imports {target}")
    assert offenders == []


def test_the_composition_root_is_small_modules_one_per_command():
    """The cli package wires adapters to the core, a module per command: none of them
    grows back into the 1,300-line module it was (400 lines at most)."""
    long = {name: n for name in modules() if _within(name, CLI)
            if (n := len(modules()[name].read_text().splitlines())) > 400}
    assert long == {}


def test_only_the_composition_root_imports_adapters():
    allowed = (CLI, *ADAPTERS)
    offenders = [f"{name}:{line} imports {target}"
                 for name in modules()
                 if not any(name == a or name.startswith(a + ".") for a in allowed)
                 for target, line, _ in imports_of(name)
                 if target.startswith(ADAPTERS)]
    assert offenders == []


def test_no_private_name_imported_from_another_package():
    offenders = []
    for name in modules():
        package = name if _is_package(name) else name.rpartition(".")[0]
        for target, line, names in imports_of(name):
            if not target.startswith("draughtsboard"):
                continue
            target_package = target if target in modules() and _is_package(target) \
                else target.rpartition(".")[0]
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private and target_package != package:
                offenders.append(f"{name}:{line} imports {', '.join(private)} from {target}")
    assert offenders == []


# -- private reaches: ``obj._name`` where obj is not self or cls ---------------------------------

PRIVATE_REACH_ROOTS = ("draughtsboard", "tests", "benchmarks", "devtools")


def _names_defined_in(tree: ast.AST) -> set[str]:
    """Private names a module defines: functions, classes, assignments, attributes of
    self or cls, and ``__slots__`` entries."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("self", "cls"):
            out.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)  # __slots__ entries, setattr names
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return out


def private_reaches(path: pathlib.Path) -> list[str]:
    text = path.read_text()
    tree = ast.parse(text)
    lines = text.splitlines()
    own = _names_defined_in(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        attr = node.attr
        if not attr.startswith("_") or attr.startswith("__"):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        if attr in own:
            continue  # the module's own private name (another instance of its class)
        line = lines[node.lineno - 1]
        if "library bug:" in line or "library bug:" in lines[node.lineno - 2]:
            continue  # a documented workaround (see the comment on that line)
        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{attr}")
    return found


@pytest.mark.slow  # seconds: runs in the full suite, not the fast loop
def test_no_private_reach_across_modules():
    offenders = [reach for root in PRIVATE_REACH_ROOTS
                 for path in sorted((ROOT / root).rglob("*.py"))
                 if ".venv" not in path.parts for reach in private_reaches(path)]
    assert offenders == []


# -- each module imports first, in a fresh interpreter ----------------------------------------

@pytest.mark.slow
def test_every_module_imports_first_in_a_fresh_interpreter():
    names = [name for name in modules() if name not in DEVICE_ONLY]

    def try_import(name: str) -> str | None:
        done = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        if done.returncode:
            last = (done.stderr.strip().splitlines() or ["?"])[-1]
            return f"{name}: {last}"
        return None

    with ThreadPoolExecutor(max_workers=4) as pool:
        failures = [f for f in pool.map(try_import, names) if f]
    assert failures == []



# -- the benchmarks and the dev tools: one harness, no circle, no private reach, no sys.path -----

# Outside the package, imported from the checkout (``python -m benchmarks.NAME``). A script
# used to put benchmarks/ on sys.path and import its neighbours by their bare names
# (``from hall import _free_port``): such an import is resolved to the neighbour, so that
# the checks below see it.
OUTSIDE_ROOTS = ("benchmarks", "devtools")
# Runs inside MicroPython (the simulated Pico's own import path is its business).
MICROPYTHON_SIDE = "devtools.pico_sim.wasm."


def outside_modules(root: pathlib.Path = ROOT) -> dict[str, pathlib.Path]:
    return {module_name_under(root, path): path for top in OUTSIDE_ROOTS
            for path in sorted((root / top).rglob("*.py")) if "node_modules" not in path.parts}


def module_name_under(root: pathlib.Path, path: pathlib.Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def outside_imports(name: str, path: pathlib.Path,
                    known: dict[str, pathlib.Path]) -> list[tuple[str, int, tuple[str, ...]]]:
    """(module, line, names imported from it) for every import of ``name``'s file, a
    bare neighbour's name (``hall``) read as ``benchmarks.hall``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(target: str) -> str:
        if target not in known and f"{package}.{target.split('.')[0]}" in known:
            return f"{package}.{target}"
        return target

    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(resolve(alias.name), node.lineno, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = resolve(node.module or "")
            names = tuple(alias.name for alias in node.names)
            found += [(f"{source}.{n}", node.lineno, ()) for n in names
                      if f"{source}.{n}" in known]
            found.append((source, node.lineno, names))
    return found


def benchmark_circles(root: pathlib.Path = ROOT) -> list[list[str]]:
    known = outside_modules(root)
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for target, _, _ in outside_imports(name, path, known):
            if target in known and target != name and not (
                    target.startswith(name + ".") and path.name == "__init__.py"):
                graph[name].add(target)
    return [sorted(c) for c in _strongly_connected(graph) if len(c) > 1]


def benchmark_private_imports(root: pathlib.Path = ROOT) -> list[str]:
    """``from benchmarks.hall import _free_port``: a script's private name used by another
    (what two scripts share belongs in benchmarks/harness, public)."""
    known = outside_modules(root)
    return [f"{name}:{line} imports {source}.{n}"
            for name, path in known.items()
            for source, line, names in outside_imports(name, path, known)
            if source in known and source != name for n in names
            if n.startswith("_") and not n.startswith("__")]


def sys_path_changes(root: pathlib.Path = ROOT) -> list[str]:
    """Every ``sys.path.insert(...)``/``append``/``extend``/assignment in a benchmark or a
    dev tool: they run as ``python -m benchmarks.NAME`` from the checkout instead."""
    found = []
    for name, path in outside_modules(root).items():
        if name.startswith(MICROPYTHON_SIDE):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            target = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                target = node.func.value  # sys.path.insert(...)
            elif isinstance(node, (ast.Assign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                target = next((t.value if isinstance(t, ast.Subscript) else t
                               for t in targets), None)
            if isinstance(target, ast.Attribute) and target.attr == "path" \
                    and isinstance(target.value, ast.Name) and target.value.id == "sys":
                found.append(f"{name}:{node.lineno}")
    return found


def test_the_benchmarks_import_no_circle():
    assert benchmark_circles() == []


def test_no_benchmark_imports_another_scripts_private_name():
    assert benchmark_private_imports() == []


def test_no_benchmark_or_dev_tool_changes_sys_path():
    assert sys_path_changes() == []


def test_what_the_benchmarks_share_is_in_the_harness():
    """One copy of each shared piece: the harness defines it, no script does again."""
    shared = {"free_port", "wait_port", "rss_mb", "cpu_seconds", "percentile", "Mosquitto",
              "Watcher", "CuttableProxy", "LightBoard"}
    offenders = []
    for name, path in outside_modules().items():
        if name.startswith("benchmarks.harness"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) \
                    and node.name.lstrip("_") in shared:
                offenders.append(f"{name}:{node.lineno} defines {node.name}")
    assert offenders == []

# -- the tests mirror the package -------------------------------------------------------------

# test folders that are not a part of the package: the tests' files, and the
# accessibility checker every page's browser tests share (axe-core from npm)
TEST_ONLY_FOLDERS = {"data", "accessibility"}


def test_every_test_folder_is_a_part_of_the_package():
    """tests/<path>/ holds the tests of draughtsboard/<path>/ (tests/data: their files;
    tests/accessibility: the page checker the web's and the hall's tests share; npm's
    node_modules, installed there by scripts/test.sh, are nobody's tests)."""
    tests = ROOT / "tests"
    folders = {path.relative_to(tests) for path in tests.rglob("*") if path.is_dir()
               and "__pycache__" not in path.parts and "node_modules" not in path.parts}
    assert sorted(str(f) for f in folders if not (PACKAGE / f).is_dir()
                  and f.parts[0] not in TEST_ONLY_FOLDERS) == []


# -- references ----------------------------------------------------------------------------

def test_board_imports_no_adapter():
    offenders = [f"{name}:{line}" for name in modules() if name.startswith("draughtsboard.board")
                 for target, line, _ in imports_of(name) if target.startswith(ADAPTERS)]
    assert offenders == []


def _project_text_files():
    for path in ROOT.rglob("*"):
        if ".venv" in path.parts or ".git" in path.parts or not path.is_file():
            continue
        if "test-artifacts" in path.parts or ".pytest_cache" in path.parts:
            continue
        if path.suffix not in {".py", ".md", ".toml", ".sh", ".txt", ".cfg", ".js", ".html",
                               ".css", ".service", ""}:
            continue
        try:
            yield path, path.read_text()
        except UnicodeDecodeError:
            continue


def test_no_file_refers_to_the_workplace_shared_folder():
    offenders = [str(path.relative_to(ROOT)) for path, text in _project_text_files()
                 if "../" + "shared" in text]
    assert offenders == []


@pytest.mark.parametrize("word", ["RULES" + ".md", "BEHAVIOUR" + ".md", "ARCHITECTURE" + ".md",
                                  "STYLE" + ".md", "seed " + "00"])
def test_no_file_names_a_text_outside_the_repository(word):
    offenders = [str(path.relative_to(ROOT)) for path, text in _project_text_files()
                 if word in text.replace("docs/rules.md", "").replace("docs/architecture.md", "")]
    assert offenders == []
