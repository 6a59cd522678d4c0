"""The Russian pages of docs/ru/: linked from the README, their links lead somewhere, each
in step with its English original (the commands of every section both have), the hall's
recipe in Russian the same commands as docs/hall.md's (which tests/hall/recipe.py runs)
with the boards and the venue in Russian, and the Russian recipe run as the English one
is: a round of three boards in Russian, with its pairings, feeds and projector."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .hall.recipe import MARK, PORTS, Recipe, recipe_lines
from .web.helpers import wait_until

ROOT = Path(__file__).resolve().parents[1]
RU = ROOT / "docs" / "ru"
LINK = re.compile(r"\]\(([^)#\s]+)\)")
HEADING = re.compile(r"^(#{2,3}) (.+)$")
ORIGINAL = re.compile(r"^<!-- en: (.+) -->$")
FENCE = re.compile(r"^(```|~~~)")
# a code line that is a command (the first word of a shell line), not data or output (a
# topic such as draughtsboard/v1/... is not the command draughtsboard)
COMMAND = re.compile(r"^(sudo|draughtsboard|python3?|\.venv/\S+|mosquitto\S*|journalctl|"
                     r"systemctl|cd|export|mkdir|cp|curl|git|espeak-ng|aplay|sox|pip|kill|"
                     r"raspi-config|[A-Z_]+=\S+)(?=\s|$)")
# the guides translated whole: every section of the Russian guide names its original
WHOLE = ("raspberry-pi.md", "building.md", "cli.md", "accessibility.md")


def test_the_readme_links_every_russian_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in sorted(RU.glob("*.md")):
        assert f"](docs/ru/{page.name})" in readme


def test_every_link_of_a_russian_page_leads_to_a_file():
    for page in sorted(RU.glob("*.md")):
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if not target.startswith("http"):
                assert (page.parent / target).is_file(), (page.name, target)


def test_at_least_five_russian_guides_each_with_its_english_original():
    pages = sorted(page.name for page in RU.glob("*.md"))
    assert len(pages) >= 5 and set(WHOLE) <= set(pages)
    for name in pages:
        assert (ROOT / "docs" / name).is_file(), name


def sections(text: str) -> list[tuple[str, str | None, list[str]]]:
    """Each section of a page (## and ###): its heading, the English heading it
    translates (``<!-- en: ... -->`` under a Russian heading) and its command lines (in
    code blocks, a line's end comment and a continuation joined)."""
    found: list[tuple[str, str | None, list[str]]] = [("", None, [])]
    in_code = False
    pending = ""
    for line in text.splitlines():
        if FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            line = pending + line.strip()
            pending = ""
            if line.endswith("\\"):
                pending = line[:-1].strip() + " "
                continue
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            line = re.sub(r"\s+", " ", line)
            if COMMAND.match(line):
                found[-1][2].append(line)
            continue
        heading = HEADING.match(line)
        if heading:
            found.append((heading.group(2).strip(), None, []))
            continue
        original = ORIGINAL.match(line.strip())
        if original and found[-1][1] is None:
            heading_, _, commands = found[-1]
            found[-1] = (heading_, original.group(1).strip(), commands)
    return found


def in_english(line: str) -> str:
    """A Russian guide's command as the English guide writes it: the boards and the
    venue in Russian are the only difference."""
    line = line.replace("play --language ru ", "play ")
    return re.sub(r"^(draughtsboard venue .*) --language ru$", r"\1", line)


@pytest.mark.parametrize("page", sorted(path.name for path in RU.glob("*.md")))
def test_each_russian_guide_is_in_step_with_its_english_original(page):
    """Every Russian section names an English section that exists, and their commands
    are the same, in order; a guide translated whole names the original of each of its
    sections and has a section for every English one (a section the English gains fails
    here until it is translated)."""
    russian = sections((RU / page).read_text(encoding="utf-8"))
    english = {heading: commands for heading, _, commands in
               sections((ROOT / "docs" / page).read_text(encoding="utf-8"))}
    mapped: dict[str, list[str]] = {}
    for heading, original, commands in russian[1:]:
        if original is None:
            assert page not in WHOLE, (page, heading, "names no English section")
            continue
        mapped.setdefault(original, []).extend(in_english(c) for c in commands)
    assert mapped, (page, "no section names its English original")
    assert not set(mapped) - set(english), (page, "names no English section",
                                            sorted(set(mapped) - set(english)))
    if page in WHOLE:
        assert not set(english) - set(mapped) - {""}, (page, "English sections untranslated",
                                                       sorted(set(english) - set(mapped)))
    for original in mapped:
        assert mapped[original] == english[original], (page, original)


def test_the_russian_recipe_is_the_english_one_with_the_boards_and_venue_in_russian():
    text = (RU / "hall.md").read_text(encoding="utf-8")
    block = text.split(MARK, 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    russian = [line for line in block.splitlines() if line.strip()]
    plays = [line for line in russian if " draughtsboard play " in line]
    assert len(plays) == 3 and all("play --language ru " in line for line in plays)
    assert any(line.startswith("draughtsboard venue ") and line.endswith(" --language ru")
               for line in russian)
    assert [in_english(line) for line in russian] == recipe_lines()


def test_the_russian_buttons_named_by_the_hall_guide_are_the_consoles():
    """Every «...» the guide tells the judge to press is a button or a field of the
    Russian catalog, word for word."""
    from draughtsboard.words.compile import read_source

    words = {value for value in read_source("ru").messages.values() if isinstance(value, str)}
    text = (RU / "hall.md").read_text(encoding="utf-8")
    pressed = re.findall(r"(?:[Нн]ажмите|[Кк]нопк\w+|пол[еяю]) «([^»]+)»", text)
    assert len(pressed) >= 8
    for label in pressed:
        assert label in words, label


@pytest.mark.slow
@pytest.mark.broker
def test_the_russian_recipe_runs_a_round_in_russian():
    recipe = Recipe(MARK, PORTS, doc=RU / "hall.md")
    try:
        recipe.hall_ready(3)
        for board in (1, 2, 3):
            recipe.board_ready(board)
        assert recipe.get("/words/catalog.json?venue=1")["language"] == "ru"  # the projector
        pairings = "round,board,white,black,event,time_control\n" + "".join(
            f"1,{n},{w},{b},Открытое первенство клуба,1800+10\n"
            for n, w, b in ((1, "Аня", "Борис"), (2, "Вера", "Глеб"), (3, "Денис", "Ева")))
        assert len(recipe.post("/api/arbiter/pairings", pairings,
                               content_type="text/plain")["result"]) == 3
        recipe.post("/api/arbiter/start-round", {"round": "1"})

        def delivered():
            games = recipe.get("/round/1/games.json")["games"]
            return len(games) == 3 and games

        games = wait_until(delivered, timeout=60, interval=0.2, what="the round's games")
        assert [g["result"] for g in games] == ["*", "*", "*"]
        assert '[White "Аня"]' in games[0]["pdn"]
    finally:
        recipe.stop()
