"""The hall's pages take every word from the catalogs: their HTML holds none of its own,
the checker the browser test uses finds a word left outside ⟦…⟧, and what the hall says
reads in each language."""

from __future__ import annotations

from html.parser import HTMLParser
from importlib import resources

import pytest

from draughtsboard.hall.claims import Claim
from draughtsboard.hall.said import HallError, said, shown
from draughtsboard.hall.views import health_notes
from draughtsboard.words import words_for

from .words_check import in_english, leftover

PAGES = ("hall.html", "projector.html")


class _Text(HTMLParser):
    """The text nodes of a page and the attributes a person reads, by tag."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("aria-label", "title", "alt") and value:
                self.words.append(value)
            if name == "placeholder" and value:
                self.words.append(value)

    def handle_data(self, data):
        if data.strip():
            self.words.append(data.strip())


@pytest.mark.parametrize("page", PAGES)
def test_the_pages_html_has_no_word_of_its_own(page):
    text = resources.files("draughtsboard.hall").joinpath("static", page).read_text()
    found = _Text()
    found.feed(text)
    assert [w for w in found.words if leftover(w)] == []
    assert '<select data-words-switch>' in text
    assert text.index("/words/words.js") < text.index('type="module"')


def test_the_projector_speaks_the_venues_language_unless_chosen_there():
    text = resources.files("draughtsboard.hall").joinpath("static", "projector.html").read_text()
    assert '<html lang="en" data-words-venue="1">' in text


def test_the_checker_finds_a_word_outside_the_brackets():
    assert leftover("⟦Board 5⟧ 1. c3-d4 · 0:12 ½-½ W:W21,22:B1,2 ⟦a ⟦nested⟧ one⟧") == []
    assert leftover("⟦Board 5⟧ Board 5") == ["Board"]
    assert leftover("Anna Ivanova – Boris Smit", ["Anna Ivanova", "Boris Smit"]) == []
    assert leftover("Anna Ivanova – Boris Smit") == ["Anna", "Ivanova", "Boris", "Smit"]
    assert leftover("Round 1", ["1"]) == ["Round"]  # an allowed number hides no word


def test_what_the_hall_says_reads_in_each_language_and_is_recorded_as_data():
    claim = Claim("result", "00001-20261201-120000",
                  said("claim.result.unproven", claimed="2-0"), 0.0)
    assert words_for("ru")(claim.message) == \
        "доска заявляет 2-0, но позиция этого не доказывает: подтвердить?"
    assert words_for("fr")(claim.message).startswith("le damier annonce 2-0")
    assert claim.to_dict()["text"] == {"id": "claim.result.unproven",
                                       "params": {"claimed": "2-0"}}
    assert in_english(claim.to_dict()["text"]) == claim.text  # the hall's log line
    notes = health_notes({"chattering": [9, 10], "stuck": [{"square": 4, "seconds": 3}]})
    assert [words_for("nl")(n) for n in notes] == [
        "schakelaars denderen (een los of defect reedcontact) op velden 9 en 10",
        "schakelaar onder 4 al 3 s open onder een stuk: vast, of een stuk niet op zijn "
        "plaats"]
    refusal = HallError(said("console.error.no_pairings", round="9"))
    assert str(refusal) == "no pairings imported for round 9"
    assert shown({"note": refusal.message, "rows": [said("hall.need.offline")]}) == {
        "note": {"id": "console.error.no_pairings", "params": {"round": "9"}},
        "rows": [{"id": "hall.need.offline"}]}


def test_every_message_the_hall_names_is_in_the_catalog():
    import re

    from draughtsboard.board.rules.variants import VARIANTS
    from draughtsboard.hall.claims import KINDS
    from draughtsboard.hall.views import COMMANDS_NAMED, NEEDS_ARBITER_FLAGS
    from draughtsboard.hall_protocol.messages import CLOCK_ACTIONS
    from draughtsboard.words import load_catalog

    known = load_catalog("en").messages
    package = resources.files("draughtsboard.hall")
    named = set()
    for item in package.iterdir():
        if item.name.endswith(".py"):
            named |= set(re.findall(r'(?:said|_refused)\("([a-z_.]+)"', item.read_text()))
    for item in package.joinpath("static").iterdir():
        text = item.read_text()
        named |= set(re.findall(r'data-words(?:-label|-placeholder|-title)?="([a-z_.]+)"', text))
        named |= set(re.findall(r'"((?:hall|console|claim|hallog|projector)\.[a-z_.]*[a-z_])"',
                                text))
    named |= {f"claim.kind.{k}" for k in KINDS} | {f"hall.need.claim.{k}" for k in KINDS}
    named |= {f"hall.command.{c}" for c in COMMANDS_NAMED}
    named |= {f"hall.need.flag.{f}" for f in NEEDS_ARBITER_FLAGS}
    named |= {f"hall.variant.{v.replace('-', '_')}" for v in VARIANTS}
    named |= {f"hall.health.stuck.{s}" for s in ("open", "closed", "open_for", "closed_for")}
    named |= {f"hall.pairing.state.{s}" for s in ("sent", "waiting", "held", "refused",
                                                 "delivered", "not_started")}
    named |= {f"console.action.clock_{a}" for a in CLOCK_ACTIONS}
    named |= {f"console.action.{a}" for a in ("result", "withdraw", "takeback", "position",
                                              "flags", "seen")}
    named |= {f"console.{kind}.{a}" for kind in ("ask", "claim") for a in ("confirm", "dismiss")}
    named = {name for name in named if not name.endswith(".")}  # a family's prefix
    assert len(named) > 250
    assert sorted(named - set(known)) == []
