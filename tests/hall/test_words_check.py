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
    assert text.index("/words/words.js") < text.index("/static/board.js")


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
        "schakelaars denderen (een losse of falende reed) op velden 9 en 10",
        "schakelaar onder 4 al 3 s open onder een schijf: vast, of een schijf niet op zijn "
        "plaats"]
    refusal = HallError(said("console.error.no_pairings", round="9"))
    assert str(refusal) == "no pairings imported for round 9"
    assert shown({"note": refusal.message, "rows": [said("hall.need.offline")]}) == {
        "note": {"id": "console.error.no_pairings", "params": {"round": "9"}},
        "rows": [{"id": "hall.need.offline"}]}
