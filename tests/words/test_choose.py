"""Which language a person gets, and the catalog the pages fetch."""

from __future__ import annotations

import json

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from draughtsboard.words import (
    UnknownLanguageError,
    accepted_languages,
    check_language,
    choose_language,
)
from draughtsboard.words.routes import WORDS_ROUTES


def test_accept_language_is_read_by_weight_then_order():
    assert accepted_languages("fr;q=0.5, ru-RU, en;q=0.8") == ["ru-ru", "en", "fr"]
    assert accepted_languages("de;q=x, nl") == ["nl"]
    assert accepted_languages(None) == []
    assert accepted_languages(",,;;q=,") == []
    # weights outside the RFC's 0-1 with at most three decimals count as 0
    assert accepted_languages("en;q=0.5,fr;q=inf,nl;q=1e9,de;q=2,ru;q=1.000") == ["ru", "en"]


@pytest.mark.parametrize(("asked", "header", "default", "expected"), [
    ("", "ru-RU,ru;q=0.9,en;q=0.8", "en", "ru"),
    ("", "de-DE, fr-BE;q=0.7", "en", "fr"),
    ("", "de, ja", "ru", "ru"),
    ("nl", "ru", "en", "nl"),
    ("xx", "ru", "en", "ru"),
    ("qps", None, "en", "qps"),
    ("", None, "nonsense", "en"),
    ("", "*;q=1, nl;q=0.5", "ru", "ru"),  # any language first: the board's
    ("", "de, *, fr", "ru", "ru"),
])
def test_a_choice_on_the_device_then_the_browser_then_the_board(asked, header, default,
                                                                expected):
    assert choose_language(asked, header, default) == expected


def test_an_unknown_language_setting_is_one_line_naming_the_known_ones():
    with pytest.raises(UnknownLanguageError, match="known: en, "):
        check_language("klingon")
    assert check_language(" RU ") == "ru"


def _client(language: str = "en") -> TestClient:
    app = Starlette(routes=WORDS_ROUTES)
    app.state.language = language
    return TestClient(app)


def test_the_catalog_route_answers_the_browsers_language_with_the_languages_to_switch_to():
    response = _client().get("/words/catalog.json", headers={"accept-language": "ru,en;q=0.5"})
    assert response.status_code == 200
    data = response.json()
    assert data["language"] == "ru"
    assert data["messages"]["side.white"] == "Белые"
    assert {"code": "ru", "name": "Русский"} in data["languages"]
    assert response.headers["content-language"] == "ru"


def test_the_projectors_catalog_is_the_venues_unless_chosen_on_that_screen():
    client = _client("ru")
    assert client.get("/words/catalog.json?venue=1",
                      headers={"accept-language": "fr"}).json()["language"] == "ru"
    assert client.get("/words/catalog.json?venue=1&lang=nl").json()["language"] == "nl"


def test_a_hostile_language_query_gets_the_default():
    response = _client().get("/words/catalog.json?lang=" + "x" * 5000 + "&venue=0")
    assert response.status_code == 200
    assert json.loads(response.content)["language"] == "en"


def test_the_script_is_served():
    response = _client().get("/words/words.js")
    assert response.status_code == 200
    assert "Intl.PluralRules" in response.text
