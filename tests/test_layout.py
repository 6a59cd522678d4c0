"""The package layout promises of the architecture."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_board_imports_no_adapter():
    pattern = re.compile(r"^\s*(from|import)\s+(\.\.|draughtsboard\.)(hardware|firmware_bridge)")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in (ROOT / "draughtsboard" / "board").rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.match(line)
    ]
    assert offenders == []


def test_no_file_refers_to_the_workplace_shared_folder():
    offenders = []
    for path in ROOT.rglob("*"):
        if ".venv" in path.parts or ".git" in path.parts or not path.is_file():
            continue
        if path.suffix not in {".py", ".md", ".toml", ".sh", ".txt", ".cfg", ""}:
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        if "../" + "shared" in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
