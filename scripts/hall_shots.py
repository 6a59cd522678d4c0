"""The hall's screenshots in docs/images: the projector view with 20 and with 100 boards,
and the hall page with the arbiter's console, at 1920x1080, from a real hall.

A real mosquitto (the venue's generated configuration), ``draughtsboard hall``, and
protocol-level boards (benchmarks/harness/boards.py: the real hall link before a scripted
game) playing seeded random games with clock times; the pairings (made-up players, some
with long names) imported and the round started from the console, a few results
declared by the arbiter. Debian's chromium takes the pictures (Playwright).

    .venv/bin/python scripts/hall_shots.py [--out docs/images]
    .venv/bin/python scripts/hall_shots.py --language ru --counts 20  # hall-projector-20-ru.jpg
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the benchmarks' harness, from the checkout

from benchmarks.harness.boards import LightBoard  # noqa: E402
from benchmarks.harness.ports import free_port, wait_port  # noqa: E402
from draughtsboard.hall.venue import MOSQUITTO_PATHS, find_tool, write_venue  # noqa: E402

TOKEN = "screenshot-token"
FIRST = ["Anna", "Boris", "Chidi", "Dorota", "Emeka", "Femke", "Grigori", "Hanna", "Ilse",
         "Jan-Willem", "Kateryna", "Lamine", "Marek", "Nadia", "Oumar", "Pieter", "Quirine",
         "Rustam", "Sophie", "Tarik", "Ulla", "Viktor", "Wiebke", "Yaroslava", "Zoltan"]
LAST = ["Kowalczyk-Szymańska", "Vladimirov", "Okonkwo", "Nowak", "Diallo", "de Vries",
        "Petrosyan", "Bakker", "Jansen", "van der Heijden-Smit", "Shevchenko", "Ndiaye",
        "Horváth", "Mansour", "Traoré", "Visser", "Mulder", "Abdullaev", "Lefebvre", "Haddad",
        "Lindqvist", "Sokolov", "Brandt", "Tkachenko", "Szabó"]


def call(url: str, path: str, body=None, content_type: str = "application/json"):
    data = None if body is None else (body.encode() if isinstance(body, str)
                                      else json.dumps(body).encode())
    request = urllib.request.Request(url + path, data=data,
                                     method="GET" if data is None else "POST")
    request.add_header("Authorization", f"Bearer {TOKEN}")
    if data is not None:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def play_with_clocks(board: LightBoard, plies: int, rng: random.Random) -> None:
    """``plies`` random legal moves with clock times (90 minutes and 30 s a move)."""
    clocks = [5400.0, 5400.0]
    for _ in range(plies):
        side = 0 if board.session.current().position.white_to_move else 1
        clocks[side] = max(0.0, clocks[side] - rng.uniform(20, 240) + 30)
        if not board.session.play_random(rng, (clocks[0], clocks[1])):
            break


def hall_with_boards(work: Path, count: int, rng: random.Random, language: str = "en"):
    venue = write_venue(work / "venue", count, port=free_port(), run_as=getpass.getuser(),
                        log_file=work / "mosquitto.log")
    broker = subprocess.Popen([find_tool("mosquitto", MOSQUITTO_PATHS), "-c",
                               str(venue.config)], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_port(venue.port)
    port = free_port()
    env = dict(os.environ, DRAUGHTSBOARD_HALL_TOKEN=TOKEN)
    hall = subprocess.Popen([sys.executable, "-m", "draughtsboard", "hall", "--broker",
                             venue.hall_url(), "--listen", f"127.0.0.1:{port}", "--data",
                             str(work / "hall"), "--language", language], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=open(work / "hall.log", "w"),  # noqa: SIM115
                            env=env, cwd=ROOT)
    wait_port(port)
    url = f"http://127.0.0.1:{port}"
    boards = [LightBoard(n, venue.board_url(n), tags={"Board": str(n)})
              for n in range(1, count + 1)]
    for board in boards:
        board.start()
    names = [f"{f} {last}" for f, last in zip(rng.sample(FIRST * 8, 2 * count),
                                              rng.sample(LAST * 8, 2 * count), strict=True)]
    names[0] = "Anna-Maria Kowalczyk-Szymańska"
    pairings = "round,board,white,black,event,time_control\n" + "".join(
        f"5,{n},{names[2 * n - 2]},{names[2 * n - 1]},Open Championship,5400+30\n"
        for n in range(1, count + 1))
    deadline = time.monotonic() + 60
    while sum(b["online"] for b in call(url, "/api/hall")["boards"]) < count:
        if time.monotonic() > deadline:
            raise SystemExit("the boards did not come online")
        time.sleep(0.5)
    call(url, "/api/arbiter/pairings", pairings, content_type="text/plain")
    # the console's table with more than "delivered": board 3 is off, board 7 still
    # plays its game of before
    boards[2].stop()
    board_seven = boards[6]
    board_seven.session.arbiter.new_game({"Round": "4", "Board": "7", "White": names[12],
                                  "Black": names[13], "Event": "Open Championship"})
    play_with_clocks(board_seven, 31, rng)
    time.sleep(2)
    call(url, "/api/arbiter/start-round", {"round": "5"})
    deadline = time.monotonic() + 60
    while not all(row["state"] == "delivered" or row["board"] in (3, 7)
                  for row in call(url, "/api/hall")["hall"]["pairings"]["5"]):
        if time.monotonic() > deadline:
            raise SystemExit("the pairings were not delivered")
        time.sleep(0.5)
    for board in boards:
        if board.number not in (3, 7):
            play_with_clocks(board, rng.randint(8, 45), rng)
    time.sleep(3)
    for board in [b for b in boards[1::6] if b.number not in (3, 7)]:
        result = rng.choice(["1-0", "0-1", "1/2-1/2"])
        call(url, "/api/arbiter/result", {"board": board.number, "result": result,
                                         "reason": "agreed at the board"})
    time.sleep(2)
    return url, [broker, hall], boards


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    parser.add_argument("--review", metavar="DIR",
                        help="also write PNG copies here, to look at them")
    parser.add_argument("--language", default="en",
                        help="the venue's language (hall --language); pictures of another "
                        "language than English are named ...-CODE.jpg")
    parser.add_argument("--counts", default="20,100", help="the numbers of boards")
    args = parser.parse_args()
    suffix = "" if args.language == "en" else f"-{args.language}"
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--disable-gpu",
                                          "--disable-dev-shm-usage"])
        for count in (int(n) for n in args.counts.split(",")):
            work = Path(tempfile.mkdtemp(prefix="hall-shots-"))
            url, processes, boards = hall_with_boards(work, count, random.Random(count),
                                                      args.language)
            try:
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                page.goto(url + "/projector")
                page.wait_for_selector("#wall .table")
                time.sleep(1)
                page.screenshot(path=str(out / f"hall-projector-{count}{suffix}.jpg"), type="jpeg",
                                quality=70)
                if args.review:
                    page.screenshot(path=str(Path(args.review) / f"projector-{count}{suffix}.png"))
                if count == 20:
                    page = browser.new_page(viewport={"width": 1920, "height": 1080})
                    # a person's page speaks the language they chose (the projector the venue's)
                    page.goto(url + "/" + (f"?lang={args.language}" if suffix else ""))
                    page.locator("#token").fill(TOKEN)
                    page.locator("#use-token").click()
                    page.wait_for_selector("#import-pairings", state="visible")
                    page.locator('#boards .card[data-board="1"]').click()
                    page.wait_for_selector("#detail-moves tr")
                    page.locator("#show-log").click()
                    page.wait_for_selector("#arbiter-log li")
                    page.evaluate("document.getElementById('console').scrollIntoView()")
                    time.sleep(1)
                    page.screenshot(path=str(out / f"hall-console{suffix}.jpg"), type="jpeg",
                                    quality=70)
                    if args.review:
                        page.screenshot(path=str(Path(args.review) / "console.png"))
                        page.evaluate("window.scrollTo(0, 0)")
                        page.screenshot(path=str(Path(args.review) / "hall.png"))
            finally:
                for board in boards:
                    board.stop()
                for process in processes:
                    process.terminate()
                    process.wait(20)
        browser.close()
    print(f"wrote the pictures in {out} (names ending {suffix or 'in .jpg'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
