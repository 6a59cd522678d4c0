"""An arbiter's day in a real browser (Playwright on Debian's chromium): the venue set up
from docs/hall.md's recipe (mosquitto, the hall and three `draughtsboard play` boards),
the token given once for the tab, pairings imported and the round started with board 3
switched off, board 3 getting its pairing when it comes back, a take-back and a result
with its reason from the console, the projector view, and the round's feed read back with
the project's PDN reader and with pydraughts."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules import get_variant

from ..browser import ARTIFACTS, playwright_api
from ..web.helpers import wait_until
from ..web.walks import chromium
from .recipe import Recipe
from .test_browser import new_page

pytestmark = [pytest.mark.browser, pytest.mark.broker, pytest.mark.slow]

PAIRINGS = ("round,board,white,black,event,time_control\n"
            "1,1,Anna Kowalczyk-Szymańska,Boris Vladimirovich Zaitsev,Club open,1800+10\n"
            "1,2,Cy,Di,Club open,1800+10\n1,3,Ed,Flo,Club open,1800+10\n")


def play(recipe: Recipe, board: int, texts: list[str], already: list[str]) -> None:
    """The moves ``texts`` made with the board page's hands, after ``already``."""
    game = Game(get_variant("russian"))
    for text in already:
        game.play(text)
    for text in texts:
        played = game.play(text)
        path = played.move.path
        actions = [["lift", path[0]]] + [["place", s] for s in path[-1:]]
        actions += [["lift", s] for s in played.move.captures]
        recipe.post("/api/hands", {"actions": actions}, base=recipe.board_urls[board])
        wanted = already + texts[:texts.index(text) + 1]
        wait_until(lambda w=wanted: recipe.get("/api/state", recipe.board_urls[board])["moves"]
                   == w, timeout=15, what=f"board {board} to record {text}")


def hall_moves(recipe: Recipe, board: int) -> list[str]:
    return recipe.get(f"/api/board/{board}").get("moves", [])


def test_an_arbiters_day(recipe):
    expect = playwright_api().expect
    recipe.hall_ready(3)
    recipe.stop(r"--board 3\b")  # board 3 is off when the round starts
    wait_until(lambda: not next(b for b in recipe.get("/api/hall")["boards"]
                                if b["board"] == 3)["online"], timeout=30,
               what="the hall to see board 3 offline")
    expect.set_options(timeout=20_000)
    with chromium() as browser:
        page = new_page(browser, 1920, 1080, timeout=20_000)
        page.goto(recipe.hall_url + "/")
        expect(page.locator("#connection")).to_have_text("live")
        card = {n: page.locator(f'#boards .card[data-board="{n}"]') for n in (1, 2, 3)}
        expect(card[3]).to_have_class(re.compile(r"\boffline\b"))

        # the token once for the tab: a reload keeps it
        page.locator("#token").fill(recipe.token)
        page.locator("#use-token").click()
        expect(page.locator("#arbiter-message")).to_contain_text("token accepted")
        page.reload()
        expect(page.locator("#import-pairings")).to_be_visible()

        # pairings in, the round started: boards 1 and 2 at once, board 3 waits
        page.locator("#pairings").fill(PAIRINGS)
        page.locator("#import-pairings").click()
        expect(page.locator("#arbiter-message")).to_have_text("3 pairings imported")
        expect(page.locator("#round")).to_have_value("1")
        page.locator("#start-round").click()
        expect(page.locator("#arbiter-message")).to_contain_text("round 1:")
        rows = page.locator("#pairings-table tbody tr")
        expect(rows.nth(0)).to_contain_text("delivered")
        expect(rows.nth(1)).to_contain_text("delivered")
        expect(rows.nth(2)).to_contain_text("waits for the board (offline)")
        expect(card[3].locator(".name.white")).to_have_text("Ed")  # owed: its players
        expect(card[3].locator(".pairing")).to_contain_text("round 1")
        expect(page.locator("#needs-count")).to_contain_text("3")
        expect(card[1].locator(".name.white")).to_have_text("Anna Kowalczyk-Szymańska")

        # board 3 switched on again: its pairing comes, the arbiter does nothing
        recipe.run_again(r"--board 3\b")
        expect(rows.nth(2)).to_contain_text("delivered", timeout=60_000)
        expect(card[3].locator(".line.move")).to_contain_text("no move yet")
        expect(page.locator("#needs-count")).to_have_text("all boards fine")
        recipe.board_ready(3)
        state = recipe.get("/api/state", recipe.board_urls[3])
        assert (state["tags"]["White"], state["tags"]["Round"]) == ("Ed", "1")

        # board 1 plays; the arbiter takes the game back to 1… f6-g5 from the console
        recipe.board_ready(1)
        play(recipe, 1, ["c3-d4", "f6-g5", "g3-h4"], [])
        expect(card[1].locator(".move")).to_contain_text("2. g3-h4")
        card[1].click()
        expect(page.locator("#detail-title")).to_have_text("Board 1")
        expect(page.locator("#detail-moves tbody tr").first).to_have_text("1.c3-d4f6-g5")
        page.locator("#takeback-choice").select_option(label="after 1… f6-g5")
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#take-back").click()
        expect(page.locator("#arbiter-message")).to_contain_text("takeback on board 1: done")
        wait_until(lambda: hall_moves(recipe, 1) == ["c3-d4", "f6-g5"], timeout=15,
                   what="the takeback in the hall's record")
        # the board lights what differs; the pieces put back as the record stands
        recipe.post("/api/hands", {"actions": [["setup", 0]]}, base=recipe.board_urls[1])
        wait_until(lambda: recipe.get("/api/state", recipe.board_urls[1])["state"] ==
                   "ready", timeout=15, what="board 1 set up again")
        play(recipe, 1, ["b2-c3"], ["c3-d4", "f6-g5"])
        expect(card[1].locator(".move")).to_contain_text("2. b2-c3")

        recipe.board_ready(2)
        play(recipe, 2, ["c3-b4"], [])  # every board plays (pydraughts 0.6.7 reads two
        play(recipe, 3, ["e3-f4"], [])  # games without a move as one)
        expect(card[2].locator(".move")).to_contain_text("1. c3-b4")
        expect(card[3].locator(".move")).to_contain_text("1. e3-f4")

        # a result with its reason
        page.locator("#result-choice").select_option("1-0")
        page.locator("#result-reason").fill("Black resigned")
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#declare-result").click()
        expect(page.locator("#arbiter-message")).to_contain_text(
            "1-0 recorded in the hall")
        expect(card[1].locator(".result")).to_have_text("1-0")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "hall-arbiters-day.png"), full_page=True)

        # the projector view
        projector = browser.new_page(viewport={"width": 1920, "height": 1080})
        projector.goto(recipe.hall_url + "/projector")
        expect(projector.locator("#title")).to_have_text("Club open · Round 1")
        expect(projector.locator("#wall .table")).to_have_count(3)
        first = projector.locator('#wall .table[data-board="1"]')
        expect(first.locator(".result")).to_have_text("1-0")
        expect(first.locator(".last")).to_have_text("2. b2-c3")
        expect(first.locator(".player.white .time")).not_to_be_empty()
        projector.screenshot(path=str(ARTIFACTS / "hall-projector-3.png"))

        # the round's feed, read back by the project's reader and by pydraughts
        with page.expect_download() as info:
            page.locator("#feeds a", has_text="round 1 PDN").click()
        text = Path(info.value.path()).read_text(encoding="utf-8")
    read = read_pdn(text)
    assert read.errors == [] and len(read.games) == 3
    one = read.games[0].game
    assert [m.text for m in one.moves] == ["c3-d4", "f6-g5", "b2-c3"]
    assert [[m.text for m in g.game.moves] for g in read.games[1:]] == [["c3-b4"], ["e3-f4"]]
    assert one.result_text() == "1-0" and one.tags["White"] == "Anna Kowalczyk-Szymańska"
    assert one.tags["TimeControl"] == "1800+10"
    assert [g.game.tags["White"] for g in read.games] == \
        ["Anna Kowalczyk-Szymańska", "Cy", "Ed"]
    draughts_pdn = pytest.importorskip("draughts.PDN")
    theirs = draughts_pdn.PDNReader(pdn_text=text).games
    assert [g.moves for g in theirs] == [["c3-d4", "f6-g5", "b2-c3"], ["c3-b4"], ["e3-f4"]]
    assert theirs[0].tags["White"] == "Anna Kowalczyk-Szymańska"
    with urllib.request.urlopen(recipe.hall_url + "/round/1/games.json", timeout=5) as answer:
        assert [g["board"] for g in json.loads(answer.read())["games"]] == [1, 2, 3]
