"""docs/hall.md's one-machine recipe, command by command, with Debian's mosquitto started
the way the doc says: as root it becomes the ``mosquitto`` user and still reads the
venue's files; the three boards come online in the hall; a round started from the
console reaches them; the venue's files are never readable by others."""

from __future__ import annotations

import os
import stat

import pytest

from ..web.helpers import wait_until

pytestmark = [pytest.mark.broker, pytest.mark.slow]


def test_the_docs_one_machine_recipe_runs_a_round(recipe):
    recipe.hall_ready(3)
    brokers = [(user, args) for _, user, args in recipe.processes() if "mosquitto -c" in args]
    assert len(brokers) == 1
    if os.geteuid() == 0:  # started as root, it dropped to Debian's user and read its files
        assert brokers[0][0] == "mosquitto"
    for name in ("passwords", "acl", "hall.password", "boards/1.password"):
        mode = (recipe.venue / name).stat().st_mode
        assert not mode & (stat.S_IRWXO), f"{name} is readable by others"
    answer = recipe.post("/api/arbiter/pairings",
                         "round,board,white,black,event,time_control\n"
                         "1,1,Ann,Bob,Club,1800+10\n1,2,Cy,Di,Club,1800+10\n"
                         "1,3,Ed,Flo,Club,1800+10\n", content_type="text/plain")
    assert len(answer["result"]) == 3
    rows = recipe.post("/api/arbiter/start-round", {"round": "1"})["result"]
    assert {row["state"] for row in rows} == {"sent"}

    def delivered() -> bool:
        listed = recipe.get("/api/hall")["hall"]["pairings"]["1"]
        return all(row["state"] == "delivered" for row in listed)

    wait_until(delivered, timeout=30, interval=0.2, what="the round's pairings delivered")
    for number, white in ((1, "Ann"), (2, "Cy"), (3, "Ed")):
        recipe.board_ready(number)
        state = recipe.get("/api/state", recipe.board_urls[number])
        assert state["tags"]["White"] == white and state["tags"]["TimeControl"] == "1800+10"


def test_the_docs_venue_in_rooms_runs_a_round(rooms_recipe):
    """docs/hall.md's venue in rooms: three brokers started as the doc says, a board in
    each room, one hall on the event's broker that sees both and starts their round."""
    recipe = rooms_recipe
    recipe.hall_ready(2)
    brokers = [user for _, user, args in recipe.processes() if "mosquitto -c" in args]
    assert len(brokers) == 3
    if os.geteuid() == 0:
        assert set(brokers) == {"mosquitto"}
    room = recipe.root / "srv" / "main"
    for name in ("mosquitto.conf", "passwords", "acl", "boards/1.password"):
        assert not (room / name).stat().st_mode & stat.S_IRWXO, f"{name} is readable"
    recipe.post("/api/arbiter/pairings", "round,board,white,black,event\n"
                "1,1,Ann,Bob,Two rooms\n1,3,Cy,Di,Two rooms\n", content_type="text/plain")
    recipe.post("/api/arbiter/start-round", {"round": "1"})

    def delivered() -> bool:
        listed = recipe.get("/api/hall")["hall"]["pairings"]["1"]
        return all(row["state"] == "delivered" for row in listed)

    wait_until(delivered, timeout=30, interval=0.2, what="the round's pairings delivered")
    for number, white in ((1, "Ann"), (3, "Cy")):
        recipe.board_ready(number)
        assert recipe.get("/api/state", recipe.board_urls[number])["tags"]["White"] == white


def test_the_docs_public_mirror_shows_the_game_late_and_takes_no_arbiter(mirror_recipe):
    """docs/hall.md's public mirror: a move made on the board reaches the public hall
    no sooner than the delay after the venue's hall has it; the public console opens
    to no token."""
    import time
    import urllib.error

    recipe = mirror_recipe
    public = f"http://127.0.0.1:{recipe.ports['8091']}"
    recipe.hall_ready(1)
    recipe.board_ready(1)

    def plies(base: str) -> int:  # -1: the hall does not answer yet
        try:
            listed = recipe.get("/api/hall", base)["boards"]
        except OSError:
            return -1
        return max((b.get("ply") or 0 for b in listed), default=0) if listed else -1

    wait_until(lambda: plies(public) == 0, timeout=30, interval=0.2,
               what="board 1 in the public hall")
    recipe.post("/api/hands", {"actions": [["lift", 22], ["place", 18]]},
                base=recipe.board_urls[1])
    wait_until(lambda: plies(recipe.hall_url) == 1, timeout=20, interval=0.05,
               what="c3-d4 in the venue's hall")
    seen_at = time.monotonic()
    wait_until(lambda: plies(public) == 1, timeout=30, interval=0.05,
               what="c3-d4 in the public hall")
    assert time.monotonic() - seen_at >= 2.5  # the recipe's 3 s, less the venue's look
    for token in (recipe.token, ""):
        try:
            recipe.post("/api/arbiter/start-round", {"round": "1"}, base=public, token=token)
        except urllib.error.HTTPError as refused:
            assert refused.code in (401, 403)
        else:
            raise AssertionError("the public hall took an arbiter's action")


def test_the_docs_match_between_towns_plays_and_pauses(match_recipe):
    """docs/hall.md's match between towns: two brokers bridged as the doc writes them, a
    board on each; Anna's move shows on Boris's board as the opponent's move to carry out,
    and the south broker stopped pauses the match on both pages until it is back."""
    recipe = match_recipe
    anna, boris = recipe.board_urls[4], recipe.board_urls[5]
    for number in (4, 5):
        recipe.board_ready(number)

    def state(url):
        return recipe.get("/api/state", url)

    def hands(url, *actions):
        recipe.post("/api/hands", {"actions": [list(a) for a in actions]}, base=url)

    wait_until(lambda: state(anna)["tags"].get("Black") == "Boris"
               and state(boris)["tags"].get("White") == "Anna", timeout=60, interval=0.2,
               what="each board to know the other's player")
    hands(anna, ("lift", 22), ("place", 18))  # c3-d4
    pending = wait_until(lambda: state(boris)["opponent"]["pending"], timeout=30,
                         interval=0.1, what="Anna's move on Boris's board")
    assert pending["notation"] == "c3-d4"
    hands(boris, ("lift", 22), ("place", 18))
    wait_until(lambda: state(boris)["moves"] == ["c3-d4"], timeout=20, what="carried out")
    recipe.stop(r"south/mosquitto\.conf")
    for url in (anna, boris):
        wait_until(lambda url=url: state(url)["status"]["id"] == "match.headline.paused",
                   timeout=20, interval=0.2, what="the page to say the match is paused")
    recipe.run_again(r"mosquitto -c \S*south")
    for url in (anna, boris):
        wait_until(lambda url=url: state(url)["opponent"]["reachable"], timeout=30,
                   interval=0.2, what="the match to go on")
    assert state(anna)["moves"] == state(boris)["moves"] == ["c3-d4"]
