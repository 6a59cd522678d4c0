"""A venue in rooms under fire: each room's boards publish to the room's own mosquitto,
bridged (mosquitto's ``connection``, written by `draughtsboard.hall.rooms`) to the
event's mosquitto, where one real hall (``draughtsboard hall``, its own process) shows
every board; this script reads the hall page's live stream as a browser would.

Boards are protocol-level (`harness.boards`: the real hall link before a scripted game),
all in this process, each playing a random legal move every ``--pace`` seconds on
average. Room 1's bridge reaches the event's broker through a proxy of this script.
During the run: room 1's link is cut for ``--cut-seconds`` (the proxy stops forwarding,
as a dead line between two towns would, then drops the dead connection), and later the
event's broker is killed (SIGKILL) and started again after ``--down-seconds``. Then the
boards stop, and every board's games are compared with the hall's broadcast feed
(``/round/1/games.json``, read with the project's PDN reader).

Figures: ``lost`` (the boards' moves missing from the feed), ``duplicated`` (feed moves
beyond the board's), ``wrong`` (moves that differ, and games whose PDN text differs);
``p50_ms``/``p95_ms``: from a move on a board to the event hall's page showing it, over
the moves made while everything was up; ``direct_p50_ms``/``direct_p95_ms`` the same for
``--direct-boards`` boards on the event's broker itself, in the same run (the
reference: what the bridge's hop costs); ``cut_catchup_s``: from the room's link coming
back to the hall showing every move room 1's boards had then (the longest board);
``restart_catchup_s``: the same after the event's broker is back, over every board;
``feed_settled_s``: after the boards stop, until the feed has every move and result.

    python -m benchmarks.hall --rooms 3                 # 30 boards a room, a 60 s cut
    python -m benchmarks.hall_rooms --rooms 3 --cut-seconds 20

The last line is JSON.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from benchmarks.harness.boards import LightBoard
from benchmarks.harness.broker import Mosquitto
from benchmarks.harness.hall import CuttableProxy, HallProcess, Watcher, compare_with_feed
from benchmarks.harness.ports import free_port
from draughtsboard.hall.rooms import (
    Room,
    write_event_venue,
    write_room_venue,
)
from draughtsboard.hall_protocol.games import game_record, play_record, start_game

TOKEN = "rooms-benchmark-token"
STARTED: list = []  # whatever this run started, stopped at the end however it ends


class Players:
    """One thread moving every board in turn, each about every ``pace`` seconds."""

    def __init__(self, boards: list[LightBoard], pace: float, moves: int, seed: int) -> None:
        self.boards, self.pace, self.moves = boards, pace, moves
        self.rng = random.Random(seed)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        due = {b.number: time.time() + self.rng.uniform(0, self.pace) for b in self.boards}
        while not self.stopping.is_set():
            number = min(due, key=due.get)
            if self.stopping.wait(max(0.0, due[number] - time.time())):
                return
            board = self.boards[number - self.boards[0].number]
            game = board.session.current()
            if game.ply < self.moves and game.position.legal_moves():
                board.session.play_random(self.rng)
            due[number] = time.time() + self.pace * self.rng.uniform(0.5, 1.5)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(10)


def games_of(boards: list[LightBoard]) -> dict[int, list[tuple[str, object]]]:
    """Each board's games, rebuilt from their records as the hall rebuilds them."""
    out = {}
    for board in boards:
        with board.session.lock:
            listed = list(board.session.games.items())
        out[board.number] = []
        for game_id, game in listed:
            record = game_record(game_id, game)
            rebuilt = start_game(record)
            for move in record.moves:
                play_record(rebuilt, move)
            if record.result is not None:  # as `hall.light_journals` does
                rebuilt.set_result(record.result, record.result_reason)
            out[board.number].append((game_id, rebuilt))
    return out


def had(boards: list[LightBoard]) -> dict[int, tuple[str, int]]:
    return {b.number: (b.session.game_id, b.session.current().ply) for b in boards}


def catch_up(watcher: Watcher, wanted: dict[int, tuple[str, int]], since: float,
             timeout: float = 300.0) -> float:
    """Seconds from ``since`` until the page showed every board's ``wanted`` ply."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if all(ply == 0 or watcher.shown(n, game, ply) is not None
               for n, (game, ply) in wanted.items()):
            return round(time.time() - since, 2)
        time.sleep(0.05)
    return float("inf")


def show_differences(hall_url: str, games: dict) -> None:
    from draughtsboard.board.game.pdn_writer import write_game

    with urllib.request.urlopen(f"{hall_url}/round/1/games.json", timeout=30) as response:
        feed = {item["board"]: item["pdn"] for item in json.loads(response.read())["games"]}
    for board, listed in games.items():
        mine = write_game(listed[-1][1], events=False)
        if feed.get(board) != mine:
            print(f"board {board}:\n--- board\n{mine}\n--- feed\n{feed.get(board)}",
                  file=sys.stderr)


def run(args) -> dict:
    work = Path(tempfile.mkdtemp(prefix="hall-rooms-"))
    user = getpass.getuser()
    per, direct = args.boards_per_room, args.direct_boards
    rooms = [Room(f"room{i}", direct + (i - 1) * per + 1, direct + i * per)
             for i in range(1, args.rooms + 1)]
    event = write_event_venue(work / "event", rooms, boards=direct, port=free_port(),
                              run_as=user, autosave_interval=5)
    brokers = [Mosquitto(event.config, event.port)]
    STARTED.append(brokers[0])
    proxy = CuttableProxy(event.port)  # room 1's line to the event
    room_venues = []
    for index, room in enumerate(rooms):
        written = write_room_venue(work / room.name, room, "127.0.0.1",
                                   proxy.port if index == 0 else event.port,
                                   event.room_passwords[room.name], host="127.0.0.1",
                                   port=free_port(), run_as=user)
        room_venues.append(written)
        brokers.append(Mosquitto(written.config, written.port))
        STARTED.append(brokers[-1])
    hall = HallProcess(event.hall_url(), work / "hall", work / "hall.log", token=TOKEN)
    STARTED.append(hall)
    hall.start(60)
    hall_url = hall.url
    watcher = Watcher(hall_url)
    boards = []
    for number in range(1, direct + 1):  # the reference: on the event's broker itself
        board = LightBoard(number, event.url(f"board{number}", event.board_passwords[number]),
                           tags={"Round": "1", "Board": str(number)})
        STARTED.append(board)
        board.start()
        boards.append(board)
    for room, written in zip(rooms, room_venues, strict=True):
        for number in room.boards:
            board = LightBoard(number, written.board_url(number),
                               tags={"Round": "1", "Board": str(number)})
            STARTED.append(board)
            board.start()
            boards.append(board)
    room1 = [b for b in boards if b.number in rooms[0].boards]
    players = Players(boards, args.pace, args.moves, args.seed)
    calm: list[tuple[float, float, set[int]]] = []  # (from, to, boards): not all up
    figures: dict = {}
    try:
        time.sleep(args.warm_seconds)
        cut_at = time.time()
        proxy.cut()
        time.sleep(args.cut_seconds)
        wanted = had(room1)
        restored = time.time()
        proxy.restore()
        figures["cut_catchup_s"] = catch_up(watcher, wanted, restored)
        calm.append((cut_at, time.time(), {b.number for b in room1}))
        time.sleep(args.warm_seconds)
        down_at = time.time()
        brokers[0].kill()
        time.sleep(args.down_seconds)
        wanted = had(boards)
        back = time.time()
        brokers[0].start()
        figures["restart_catchup_s"] = catch_up(watcher, wanted, back)
        calm.append((down_at, time.time(), {b.number for b in boards}))
        time.sleep(args.warm_seconds)
    finally:
        players.stop()
    wanted = had(boards)
    figures["final_catchup_s"] = catch_up(watcher, wanted, time.time())
    games = games_of(boards)
    settled = time.time()  # the feed follows a board's last messages within seconds
    while True:
        compared = compare_with_feed(hall_url, games)
        if not (compared["lost"] or compared["wrong"]) or time.time() - settled > 60:
            break
        time.sleep(0.5)
    figures.update(compared)
    figures["feed_settled_s"] = round(time.time() - settled, 2)
    if os.environ.get("HALL_ROOMS_SHOW"):  # what differs, for a look
        show_differences(hall_url, games)
    delays: list[float] = []
    reference: list[float] = []
    for board in boards:
        for (game, ply), made in list(board.session.moved_at.items()):
            if any(start <= made <= end and board.number in affected
                   for start, end, affected in calm):
                continue
            shown = watcher.shown(board.number, game, ply)
            if shown is not None:
                (delays if board.number > direct else reference).append((shown - made) * 1000)
    for name, values in (("", delays), ("direct_", reference)):
        values.sort()
        figures.update({
            f"{name}p50_ms": round(statistics.median(values)) if values else None,
            f"{name}p95_ms": round(values[int(0.95 * (len(values) - 1))]) if values else None,
            f"{name}moves_timed": len(values)})
    watcher.stopping = True
    for board in boards:
        board.stop()
    hall.stop()
    for broker in brokers:
        broker.stop()
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=3)
    parser.add_argument("--boards-per-room", type=int, default=30)
    parser.add_argument("--pace", type=float, default=4.0,
                        help="seconds between a board's moves, on average (default 4)")
    parser.add_argument("--moves", type=int, default=200, help="plies at most a game")
    parser.add_argument("--cut-seconds", type=float, default=60.0)
    parser.add_argument("--down-seconds", type=float, default=5.0,
                        help="how long the event's broker stays dead")
    parser.add_argument("--warm-seconds", type=float, default=20.0,
                        help="play with everything up before, between and after the outages")
    parser.add_argument("--direct-boards", type=int, default=10,
                        help="boards on the event's broker itself, the same run's reference "
                        "for the bridge's latency (default 10; they live through the "
                        "event's restart on their own)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the working directory")
    args = parser.parse_args()
    if args.rooms < 1 or args.boards_per_room < 1 or args.direct_boards < 0 \
            or args.direct_boards + args.rooms * args.boards_per_room > 9999:
        raise SystemExit("--rooms and --boards-per-room: at least 1, 9999 boards at most")
    started = time.time()
    try:
        figures = run(args)
    finally:
        for part in reversed(STARTED):  # stop is safe twice
            part.stop()
    print(json.dumps({"benchmark": "hall --rooms", "rooms": args.rooms,
                      "boards": args.rooms * args.boards_per_room,
                      "direct_boards": args.direct_boards, "pace_s": args.pace,
                      "cut_seconds": args.cut_seconds, "down_seconds": args.down_seconds,
                      "seconds": round(time.time() - started), **figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
