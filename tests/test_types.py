"""The package type-checks: its annotations are a contract mypy checks on every run.

mypy runs on the whole package with no configuration (every check at its default) and
must find nothing. A per-line ``# type: ignore[code]`` is allowed where nothing else will
do, but each names its error code and says why after it, and there are few of them.
"""

import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "draughtsboard"
MAX_IGNORES = 15
# an ignore comment; what follows it on the line, if anything
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")
REASON = re.compile(r"^\s*#\s*\S")  # another comment after it: the reason


def ignores() -> list[tuple[str, int, re.Match[str]]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = IGNORE.search(line)
            if match:
                found.append((str(path.relative_to(ROOT)), number, match))
    return found


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("mypy", path=str(pathlib.Path(sys.executable).parent)) is None,
                    reason="mypy is not installed: pip install -e '.[test]'")
def test_mypy_finds_no_error_in_the_package(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "draughtsboard", "--config-file", "/dev/null",
         "--ignore-missing-imports", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert errors == [], done.stdout
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_few_type_ignores_each_with_its_code_and_a_reason():
    found = ignores()
    assert len(found) <= MAX_IGNORES, "\n".join(f"{path}:{n}" for path, n, _ in found)
    bare = [f"{path}:{n}" for path, n, match in found
            if not match["codes"] or not REASON.match(match["rest"])]
    assert bare == [], "type: ignore without [code] or without '# why' after it"


def test_the_ignore_counter_sees_what_it_must():
    """The counter itself: a bare ignore and one without a reason are caught."""
    assert IGNORE.search("x = 1  # type: ignore")["codes"] is None
    no_reason = IGNORE.search("x = 1  # type: ignore[assignment]")
    assert no_reason["codes"] == "[assignment]" and not REASON.match(no_reason["rest"])
    reasoned = IGNORE.search("x = 1  # type: ignore[assignment]  # None means initial")
    assert REASON.match(reasoned["rest"])


def test_the_package_says_it_is_typed():
    assert (PACKAGE / "py.typed").is_file()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text()
