"""The page's colour legend and docs/user-guide.md list every LED pattern the board
shows: each intent of the renderer's style (the tracker's, the coach's, the puzzles',
the opponent's) has its line in both, with the pattern and colour it is drawn with."""

import re
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

from draughtsboard.board.tracker import STYLE

ROOT = Path(__file__).resolve().parents[2]
WORDS = {"ON": "steady", "SLOW_BLINK": "slow blink", "FAST_BLINK": "fast blink"}


class Legend(HTMLParser):
    """The LED legend's items: their intents and the LED sample's classes."""

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[str, str] = {}
        self._intents: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "li" and "data-intent" in attrs:
            self._intents = attrs["data-intent"].split()
        elif tag == "span" and "led" in (attrs.get("class") or "").split() and self._intents:
            for intent in self._intents:
                self.items[intent] = attrs["class"]
            self._intents = []


def test_the_page_legend_shows_every_led_pattern_as_the_board_draws_it():
    html = resources.files("draughtsboard.web").joinpath("static/index.html").read_text()
    legend = Legend()
    legend.feed(html)
    for intent, pattern, colour in STYLE:
        classes = legend.items.get(intent)
        assert classes is not None, f"the legend has no line for {intent}"
        names = set(classes.split())
        assert colour in names, (intent, classes)
        assert pattern.name.lower() in names or (pattern.name == "ON" and not names & {
            "slow_blink", "fast_blink"}), (intent, classes)


def test_the_user_guide_lists_every_led_pattern():
    guide = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
    section = guide[guide.index("## What the LEDs say"):]
    section = section[:section.index("\n## ", 4)]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| ([^|]+) \|",
                                                           section, re.M)}
    for intent, pattern, colour in STYLE:
        assert intent in rows, f"docs/user-guide.md lists no LED pattern {intent}"
        assert WORDS[pattern.name] in rows[intent] and colour in rows[intent], \
            (intent, rows[intent])
