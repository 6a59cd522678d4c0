"""The Russian pages of docs/ru/: linked from the README, their links lead somewhere, and
the hall's recipe in Russian runs the same commands as docs/hall.md's (which
tests/hall/recipe.py runs), the boards in Russian."""

from __future__ import annotations

import re
from pathlib import Path

from .hall.recipe import recipe_lines

ROOT = Path(__file__).resolve().parents[1]
RU = ROOT / "docs" / "ru"
LINK = re.compile(r"\]\(([^)#\s]+)\)")


def test_the_readme_links_every_russian_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in sorted(RU.glob("*.md")):
        assert f"](docs/ru/{page.name})" in readme


def test_every_link_of_a_russian_page_leads_to_a_file():
    for page in sorted(RU.glob("*.md")):
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if not target.startswith("http"):
                assert (page.parent / target).is_file(), (page.name, target)


def test_the_russian_recipe_is_the_english_one_with_the_boards_in_russian():
    text = (RU / "hall.md").read_text(encoding="utf-8")
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    russian = [line for line in block.splitlines() if line.strip()]
    plays = [line for line in russian if " draughtsboard play " in line]
    assert len(plays) == 3 and all("play --language ru " in line for line in plays)
    assert [line.replace("play --language ru ", "play ") for line in russian] == \
        recipe_lines()
