"""The tournament hall under fire: many boards through a real mosquitto to a real hall,
while the broker, boards and the hall are killed and boards are cut off the network, and
an arbiter runs the rounds from the console.

Every board runs the real play pipeline on the simulated board: a scripted hand (random
legal moves, seeded) acting on the simulated switches, the reed-matrix driver scanning
them in real time, the tracker, the journal (fsync per record) and the hall link
publishing through paho-mqtt. Boards run as threads in worker processes of ten; one
extra worker runs a single board, so that a board's own memory is measured alone. The
hall is ``draughtsboard hall`` in its own process; this script reads its page's live
stream (server-sent events) as a browser would.

The arbiter (`harness.arbiter.ArbiterBot`, through the console's HTTP API): the rounds'
pairings imported, round 1 started while a tenth of the boards are switched off (they
come back 30-120 s later, each at its own time, and must get their pairing without the
arbiter), round 1 started a second time 20 s later (nothing delivered may change), one
board's game restarted (it has moves: the console holds it until the arbiter names the
game), the draws the boards agree confirmed, and each next round started once four
boards in five have finished (the others keep their games: their pairing goes by itself
once their result is in). The boards never start a game themselves.

During the run: the broker is killed (SIGKILL) and restarted twice, one worker of ten
boards is killed (SIGKILL) and restarted, the hall is killed and restarted once, and
another worker of ten boards is cut off the broker for 30 s (a proxy in this script stops
forwarding, as a dead switch would, then drops their connections). Then a quiet end
(``--quiet-minutes``, 5): nothing played, nothing missing.

At the end every board's journal is compared with the hall's broadcast feed
(``/round/<r>/games.json``, read with the project's PDN reader): ``lost`` counts journal
moves missing from the feed, ``duplicated`` feed moves beyond the journal's, ``wrong``
moves or results that differ, and games whose whole text differs from the hall's own
file of the game (``/round/<r>/<board>.pdn``; the feed's tags are written for
lidraughts, docs/pdn.md "Published PDN"). ``p50_ms``/``p95_ms``: from a move's completion on a
board (its journal time) to the hall page's stream showing it, over the moves made
while nothing was down; ``catchup_s``: after each reconnection of a board (or restart of
the hall), how long until the hall showed every move that board had then. Memory: the
hall's resident set, and a one-board process's. The arbiter's figures
(`harness.arbiter`): ``pairing_delivered_max_s``, ``games_with_moves_closed_unconfirmed``,
``idle_requests_per_board_per_min`` (over the quiet end); ``hall_cpu_share``: the hall's
CPU time over the time played, as a share of one core.

``--light``: the boards are protocol-level clients (`harness.boards`: the real hall link,
retained state, plies with sequence numbers, answers to commands, before a scripted
game), a hundred to a process, so that the hall itself is measured at 500 boards at one
ply per 20 s each; the arbiter's scenario as above, no other outage.

    python -m benchmarks.hall --boards 100 --moves 90 --pace 2
    python -m benchmarks.hall --light            # 500 boards, 30 moves each, a ply per 20 s
    python -m benchmarks.hall --rooms 3          # rooms bridged to the event: hall_rooms.py

The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from benchmarks.harness.arbiter import (
    ArbiterBot,
    claim_text,
    closed_unconfirmed,
    idle_requests,
    pairing_delivery,
    read_events,
    rounds_for,
)
from benchmarks.harness.boards import LightBoard
from benchmarks.harness.broker import Mosquitto, loopback_venue
from benchmarks.harness.hall import (
    CuttableProxy,
    HallProcess,
    Watcher,
    compare_with_feed,
    wait_online,
)
from benchmarks.harness.processes import CHECKOUT, cpu_seconds, module_command, rss_mb
from benchmarks.harness.stats import share_percentile

TOKEN = "benchmark-hall-token"
HALL_URL = re.compile(r"the hall's page: (http://[0-9.]+:\d+)/")
WORKER_SIZE = 10
LIGHT_WORKER_SIZE = 100  # protocol-level boards in one process


# -- a board worker process ------------------------------------------------------------------------

class EventNotes:
    """A worker's events file (`harness.arbiter` reads it): one JSON line a note, ``t`` the
    wall clock, written whole from any board's thread; open as long as the process."""

    def __init__(self, path: str) -> None:
        self.file = open(path, "a", buffering=1)  # noqa: SIM115 - lives as long as the process
        self.lock = threading.Lock()

    def __call__(self, **fields) -> None:
        with self.lock:
            self.file.write(json.dumps({"t": time.time(), **fields}) + "\n")


def watch_link(link, number: int, note) -> None:
    """A board's link noted in the events file: its connections to the broker and the
    hall's commands that reach it."""
    connected, queued = link.outbox.connected, link.commands.put

    def on_connected() -> None:
        note(board=number, event="connected")
        connected()

    def command(payload: bytes) -> None:
        try:
            cmd = json.loads(payload).get("cmd")
        except (ValueError, AttributeError):
            cmd = "?"
        note(board=number, event="command", cmd=cmd)
        queued(payload)

    link.outbox.connected = on_connected
    link.commands.put = command


def watch_pairings(session, number: int, note) -> None:
    """A board's session noted in the events file when it starts a game for the hall's
    pairing (the hall's ``new_game``)."""
    started_game = session.arbiter.new_game

    def new_game(tags=None, fen=None) -> str:
        game_id = started_game(tags, fen)
        note(board=number, event="paired", round=(tags or {}).get("Round"), game=game_id)
        return game_id

    session.arbiter.new_game = new_game


def run_worker(args) -> int:
    """``--worker``: play boards ``args.first..args.last`` until each has ``--moves``
    moves in its journals, then keep their links up until SIGTERM or SIGKILL."""
    import logging

    from draughtsboard.board.ports import squares_from_mask
    from draughtsboard.board.tracker import State
    from draughtsboard.hall_link import HallLink
    from draughtsboard.hall_protocol import parse_broker_url
    from draughtsboard.hardware.backends import open_simulated_board
    from draughtsboard.play import PlaySession, choose_opening
    from draughtsboard.recording import Recorder

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s: %(message)s")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    note = EventNotes(args.events)

    class Board:
        def __init__(self, number: int) -> None:
            self.number = number
            self.recorder = Recorder(Path(args.data) / f"board{number}")
            opening = choose_opening(self.recorder, variant=args.variant)
            tags = {"Board": str(number)}  # a start-up game: the hall sends the pairing
            occupied = squares_from_mask(opening.expected_position.occupancy())
            self.board = open_simulated_board(opening.variant.geometry, occupied=occupied,
                                              real_time=True)
            self.session = PlaySession(args.variant, self.board, self.board, self.recorder,
                                       hands=self.board.simulation, opening=opening,
                                       tags=tags, token="x")
            self.session.start()
            password = (Path(args.venue) / "boards" / f"{number}.password").read_text().strip()
            url = f"mqtt://board{number}:{password}@127.0.0.1:{args.port}"
            self.link = HallLink(self.session, parse_broker_url(url), number,
                                 software="benchmark", read_game=self.recorder.game)
            watch_link(self.link, number, note)  # for the catch-up and idle figures
            watch_pairings(self.session, number, note)  # for the pairing's delivery
            self.link.start()
            games_done = len(self.recorder.game_ids())
            self.rng = random.Random(args.seed * 1000 + number * 7 + games_done)
            self.total = sum(s.moves for s in self.recorder.list_games())

        def wait_ready(self, timeout: float = 3.0) -> bool:
            """Until the board is ready; after ``timeout`` s of anything else (a hand
            caught mid-move by a scan on a starved machine: illegal, disturbed,
            ambiguous), the arbiter puts the pieces back as the game stands."""
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and not stop.is_set():
                if self.session.game.tracker.state in (State.READY, State.GAME_OVER):
                    return True
                time.sleep(0.02)
            if not stop.is_set():
                note(board=self.number, event="recovery",
                     state=self.session.game.tracker.state.value)
                self.session.hand([("setup", 0)])
            return False

        def finished_rounds(self) -> bool:
            """Whether the board has played every round's game (it waits for no more)."""
            game = self.session.published()[1]
            return game is not None and game.tags.get("Round") == str(args.rounds) and (
                game.result is not None or bool(game.result_reason))

        def step(self) -> None:
            """One move of the round's game; at its end a draw agreed at the board (the
            arbiter confirms it in the hall); between rounds, nothing: the board waits
            for the hall's next pairing (the board never starts a game itself)."""
            game = self.session.published()[1]
            if game is None or "Round" not in game.tags or game.result is not None \
                    or game.result_reason:
                return
            if self.session.game.tracker.state is State.SETUP:
                self.session.hand([("setup", 0)])  # a new game: the pieces to the start
            if not self.wait_ready():
                return
            position = self.session.game.tracker.position
            legal = position.legal_moves()
            if not legal or game.ply >= args.game_length:
                if game.result is None:
                    self.session.arbiter.declare_result("1/2-1/2" if args.variant != "international"
                                                else "1-1", "benchmark: agreed")
                return
            by_end: dict[int, list] = {}
            for move in legal:
                by_end.setdefault(position.play(move).occupancy(), []).append(move)
            unique = [ms[0] for ms in by_end.values() if len(ms) == 1] or legal
            move = self.rng.choice(unique)
            after = position.play(move).occupancy()
            actions = [("lift", move.path[0])]
            for landing in move.path[1:-1]:
                actions += [("place", landing), ("lift", landing)]
            actions.append(("place", move.path[-1]))
            actions += [("lift", s) for s in move.captures if not after >> (s - 1) & 1]
            before = self.session.game.moves_recorded
            self.session.hand(actions)
            deadline = time.monotonic() + 5
            while self.session.game.moves_recorded == before and time.monotonic() < deadline:
                time.sleep(0.01)
            if self.session.game.moves_recorded > before:
                self.total += 1

        def run(self) -> None:
            while not stop.is_set() and self.total < args.moves and not self.finished_rounds():
                try:
                    self.step()
                except Exception as error:  # noqa: BLE001 - reported, the board goes on
                    print(f"board {self.number}: {error}", file=sys.stderr, flush=True)
                stop.wait(args.pace * self.rng.uniform(0.5, 1.5))

        def close(self) -> None:
            self.link.stop(1.0)
            self.session.stop()
            self.board.close()
            self.recorder.close()

    delays = [float(d) for d in args.late_delays.split(",")] if args.late_delays else []
    boards: list[Board] = []

    def board_life(number: int, delay: float) -> None:
        if delay:  # switched off for the round's start: on again after ``delay`` s
            if stop.wait(delay):
                return
            note(board=number, event="on")
        board = Board(number)
        boards.append(board)
        board.run()

    threads = [threading.Thread(target=board_life, daemon=True,
                                args=(n, delays[n - args.first] if delays else 0.0))
               for n in range(args.first, args.last + 1)]
    for thread in threads:
        thread.start()
    print("started", flush=True)
    for thread in threads:
        while thread.is_alive() and not stop.is_set():
            thread.join(0.5)
    if not stop.is_set():
        print("done", flush=True)
    stop.wait()
    for board in boards:
        board.close()
    return 0


def run_light_worker(args) -> int:
    """``--worker --light``: protocol-level boards ``args.first..args.last`` (the real
    hall link before a scripted game, `harness.boards`), one script thread for all of
    them: each plays a random legal move every ``--pace`` seconds (on average) in its
    round's game, agrees a draw at ``--game-length`` plies, and waits for the hall's
    next pairing. SIGUSR1 writes every board's games to ``<data>/light-<first>.json``;
    SIGUSR2 switches the boards off (their links say goodbye), each on again after its
    ``--late-delays`` seconds with the games it had (a board keeps its record)."""
    import heapq
    import logging

    from draughtsboard.hall_protocol.games import game_record

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s: %(message)s")
    from draughtsboard.hall_link import HallLink
    from draughtsboard.hall_protocol import parse_broker_url

    stop = threading.Event()
    dump_asked = threading.Event()
    off_asked = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    signal.signal(signal.SIGUSR1, lambda *a: dump_asked.set())
    signal.signal(signal.SIGUSR2, lambda *a: off_asked.set())
    note = EventNotes(args.events)

    password_dir = Path(args.venue) / "boards"
    boards: dict[int, LightBoard] = {}

    def url(number: int) -> str:
        password = (password_dir / f"{number}.password").read_text().strip()
        return f"mqtt://board{number}:{password}@127.0.0.1:{args.port}"

    def make(number: int) -> LightBoard:
        board = LightBoard(number, url(number), variant=args.variant,
                           tags={"Board": str(number)})
        watch_pairings(board.session, number, note)
        watch_link(board.link, number, note)
        return board

    def switch_on(board: LightBoard) -> None:
        board.link = HallLink(board.session, parse_broker_url(url(board.number)),
                              board.number, software="light-board",
                              read_game=board.session.read_game)
        watch_link(board.link, board.number, note)
        note(board=board.number, event="on")
        board.start()

    def dump() -> None:
        out = {}
        for number, board in boards.items():
            with board.session.lock:
                out[number] = [{"record": game_record(gid, game).fields()}
                               for gid, game in board.session.games.items()]
        path = Path(args.data) / f"light-{args.first}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".tmp").write_text(json.dumps(out))
        os.replace(path.with_suffix(".tmp"), path)
        print("dumped", flush=True)

    delays = [float(d) for d in args.late_delays.split(",")] if args.late_delays else []
    rng = random.Random(args.seed * 7919 + args.first)
    due: list[tuple[float, int]] = []  # (when, board): the next look at each board
    off_until: dict[int, float] = {}  # boards switched off: on again then
    for number in range(args.first, args.last + 1):
        boards[number] = make(number)
        boards[number].start()
        heapq.heappush(due, (time.time(), number))
    totals: dict[int, int] = {}
    finished: set[int] = set()
    print("started", flush=True)
    done_said = False
    while not stop.is_set():
        if dump_asked.is_set():
            dump_asked.clear()
            dump()
        if off_asked.is_set():  # switched off for the round's start
            off_asked.clear()
            for number, board in boards.items():
                note(board=number, event="off")
                board.stop()
                off_until[number] = time.time() + delays[number - args.first]
        when, number = due[0] if due else (time.time() + 1, 0)
        if stop.wait(max(0.0, min(0.5, when - time.time()))) or not due or time.time() < when:
            continue
        heapq.heappop(due)
        board = boards[number]
        if number in off_until:
            if time.time() < off_until[number]:
                heapq.heappush(due, (time.time() + 0.5, number))
                continue
            del off_until[number]
            switch_on(board)
        game = board.session.current()
        if "Round" in game.tags and game.result is None and not game.result_reason \
                and number not in finished:
            if game.ply >= args.game_length or not game.position.legal_moves():
                if game.result is None:
                    board.session.arbiter.declare_result("1-1" if args.variant == "international"
                                                 else "1/2-1/2", "benchmark: agreed")
            else:
                board.session.play_random(rng)
                totals[number] = totals.get(number, 0) + 1
        if totals.get(number, 0) >= args.moves or (
                game.tags.get("Round") == str(args.rounds) and game.result is not None):
            finished.add(number)
        heapq.heappush(due, (time.time() + args.pace * rng.uniform(0.5, 1.5), number))
        if not done_said and len(finished) == args.last - args.first + 1:
            print("done", flush=True)
            done_said = True
    for number, board in boards.items():
        if number not in off_until:
            board.stop()
    return 0


# -- the cut: a TCP proxy that can stop forwarding ------------------------------------------------

# -- the run ---------------------------------------------------------------------------------------

class Processes:
    def __init__(self, work: Path, args) -> None:
        self.args = args
        self.work = work
        self.venue = loopback_venue(work / "venue", args.boards,
                                    log_file=work / "mosquitto.log")
        self.broker: Mosquitto | None = None
        self.hall = HallProcess.on(self.venue, work / "hall", work / "hall.log", token=TOKEN)
        self.hall_url = self.hall.url
        self.workers: dict[int, subprocess.Popen] = {}
        self.groups: list[tuple[int, int]] = []
        self.done: set[int] = set()
        self.dumped: set[int] = set()
        self.proxy: CuttableProxy | None = None

    def start_broker(self) -> None:
        if self.broker is None:
            self.broker = Mosquitto(self.venue.config, self.venue.port,
                                    log=self.work / "mosquitto.log")
        else:
            self.broker.start()

    def kill_broker(self) -> None:
        if self.broker is not None:
            self.broker.kill()

    def start_hall(self) -> None:
        self.hall.start()

    def kill_hall(self) -> None:
        self.hall.stop(kill=True)

    def start_worker(self, index: int, late_delays: list[float] | None = None) -> None:
        first, last = self.groups[index]
        port = self.proxy.port if index == self.args.cut_group else self.venue.port
        extra = ["--light"] if self.args.light else []
        if late_delays:
            extra += ["--late-delays", ",".join(f"{d:.1f}" for d in late_delays)]
        process = subprocess.Popen(
            module_command(
                "benchmarks.hall", "--worker", "--first", str(first), "--last", str(last),
                "--port", str(port), "--venue", str(self.venue.directory), "--data",
                str(self.work / "boards"), "--events", str(self.work / "events.jsonl"),
                "--moves", str(self.args.moves), "--pace", str(self.args.pace), "--seed",
                str(self.args.seed), "--variant", self.args.variant, "--game-length",
                str(self.args.game_length), "--rounds", str(self.args.rounds), *extra),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
            stderr=open(self.work / f"worker{index}.log", "a"), cwd=CHECKOUT)  # noqa: SIM115
        self.workers[index] = process
        self.done.discard(index)

        def read() -> None:
            for line in process.stdout:
                if line.strip() == "done" and self.workers.get(index) is process:
                    self.done.add(index)
                elif line.strip() == "dumped":
                    self.dumped.add(index)

        threading.Thread(target=read, daemon=True).start()

    def kill_worker(self, index: int, sig: int = signal.SIGKILL) -> None:
        self.workers[index].send_signal(sig)
        self.workers[index].wait()

    def dump_light_boards(self, timeout: float = 120.0) -> None:
        """Every light worker writes its boards' games down (SIGUSR1), waited for."""
        self.dumped.clear()
        for process in self.workers.values():
            process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + timeout
        while len(self.dumped) < len(self.workers) and time.monotonic() < deadline:
            time.sleep(0.2)

    def stop_all(self) -> None:
        for process in self.workers.values():
            if process.poll() is None:
                process.terminate()
        for process in self.workers.values():
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
        self.hall.stop()
        if self.broker is not None:
            self.broker.stop()


def journals(work: Path, boards: int) -> dict[int, list[tuple[str, object]]]:
    from draughtsboard.recording import Recorder

    out = {}
    for number in range(1, boards + 1):
        with Recorder(work / "boards" / f"board{number}") as recorder:
            out[number] = [(gid, recorder.game(gid)) for gid in recorder.game_ids()]
    return out


def light_journals(work: Path) -> dict[int, list[tuple[str, object]]]:
    """The protocol-level boards' games, as their workers wrote them down (``--light``):
    each rebuilt from its record the way the hall rebuilds it, with when each move was
    made."""
    from draughtsboard.hall_protocol.games import play_record, start_game
    from draughtsboard.hall_protocol.messages import GameRecord

    out: dict[int, list[tuple[str, object]]] = {}
    for dump in sorted((work / "boards").glob("light-*.json")):
        for board, listed in json.loads(dump.read_text()).items():
            games = out.setdefault(int(board), [])
            for item in listed:
                record = GameRecord.from_fields(item["record"])
                game = start_game(record)
                for move in record.moves:
                    play_record(game, move)
                if record.result is not None:
                    game.set_result(record.result, record.result_reason)
                    if game.result is None:
                        game.result_reason = record.result_reason or "abandoned"
                games.append((record.game, game))
    return out


def move_times(games: dict[int, list]) -> dict[tuple[int, str, int], float]:
    """When each move was made, on its board's clock: (board, game, ply) -> wall time."""
    return {(board, gid, ply): played.t_wall for board, listed in games.items()
            for gid, game in listed for ply, played in enumerate(game.moves, 1)
            if played.t_wall is not None}


def confirm_declared_results(hall_url: str, games: dict[int, list]) -> int:
    """The arbiter's round of the boards: a result declared on a board (the boards here
    agree a draw on the board before each new game) is the board's claim until the
    arbiter confirms it, which the arbiter does when the board's own record has it. The
    number confirmed."""
    confirmed = 0
    for board, listed in games.items():
        with urllib.request.urlopen(f"{hall_url}/api/board/{board}", timeout=30) as response:
            claims = json.loads(response.read()).get("claims", [])
        for claim in claims:
            game = dict(listed).get(claim["game"])
            if claim["kind"] != "result" or game is None or game.result is None or \
                    f"claims {game.result_text()}" not in claim_text(claim):
                continue
            request = urllib.request.Request(
                f"{hall_url}/api/arbiter/confirm", method="POST",
                data=json.dumps({"board": board, "kind": "result", "game": claim["game"],
                                 "claim": claim["id"]}).encode(),
                headers={"Authorization": f"Bearer {TOKEN}",
                         "Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=30):
                    confirmed += 1
            except urllib.error.HTTPError:
                pass  # settled meanwhile
    return confirmed


def time_feed(hall_url: str, hall_data: Path, games: dict[int, list]) -> dict:
    """How long the feed of the round with the most games takes: over HTTP as it
    stands, and (in this process, the same code on the hall's journals read back) as it
    stood a minute ago, which replays every game to its delayed length."""
    from draughtsboard.hall.feed import round_games
    from draughtsboard.hall.store import HallStore

    counts: dict[str, int] = {}
    for listed in games.values():
        for round_name in {g.tags.get("Round", "") for _, g in listed} - {""}:
            counts[round_name] = counts.get(round_name, 0) + 1
    busiest = max(counts, key=counts.get)
    live = []
    for _ in range(10):
        for name in ("games.pdn", "games.json"):
            started = time.perf_counter()
            with urllib.request.urlopen(f"{hall_url}/round/{busiest}/{name}",
                                        timeout=30) as response:
                response.read()
            live.append((time.perf_counter() - started) * 1000)
    store = HallStore(hall_data, sync=False)
    store.load()
    delayed = []
    for _ in range(5):
        started = time.perf_counter()
        shown = round_games(store, busiest, time.time() - 60)
        delayed.append((time.perf_counter() - started) * 1000)
    store.close()
    return {"round": busiest, "games": counts[busiest],
            "http_median_ms": round(statistics.median(live), 1),
            "http_max_ms": round(max(live), 1),
            "delayed_median_ms": round(statistics.median(delayed), 1),
            "delayed_games_shown": len(shown)}


def main() -> int:
    if "--rooms" in sys.argv[1:]:  # a venue in rooms, bridged: its own run (hall_rooms.py)
        from benchmarks.hall_rooms import main as rooms_main

        return rooms_main()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=None,
                        help="boards (default 100, with --light 500)")
    parser.add_argument("--moves", type=int, default=None,
                        help="moves per board (default 90, with --light 30)")
    parser.add_argument("--pace", type=float, default=None,
                        help="seconds between a board's moves, on average (default 2, with "
                        "--light 20)")
    parser.add_argument("--game-length", type=int, default=None,
                        help="plies before a game is agreed drawn (default 40, with --light "
                        "20): the arbiter starts the next round")
    parser.add_argument("--light", action="store_true",
                        help="protocol-level boards, 100 to a process (the hall measured "
                        "at 500 boards); no outages besides the arbiter's scenario")
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cut-seconds", type=float, default=30.0)
    parser.add_argument("--quiet-minutes", type=float, default=5.0,
                        help="minutes with nothing played or missing at the end, over which "
                        "the hall's requests to the boards are counted")
    parser.add_argument("--keep", action="store_true", help="keep the working directory")
    # worker mode (internal)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    for name in ("--first", "--last", "--port", "--rounds"):
        parser.add_argument(name, type=int, help=argparse.SUPPRESS)
    for name in ("--venue", "--data", "--events", "--late-delays"):
        parser.add_argument(name, help=argparse.SUPPRESS)
    args = parser.parse_args()
    defaults = (500, 30, 20.0, 20) if args.light else (100, 90, 2.0, 40)
    for name, value in zip(("boards", "moves", "pace", "game_length"), defaults, strict=True):
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.worker:
        return run_light_worker(args) if args.light else run_worker(args)
    if not args.light and args.moves * args.pace < 2.5 * args.cut_seconds + 50:
        raise SystemExit(f"--moves x --pace ({args.moves * args.pace:.0f} s of play) is too "
                         f"short for the outages: at least {2.5 * args.cut_seconds + 50:.0f} s")
    size = LIGHT_WORKER_SIZE if args.light else WORKER_SIZE
    if args.boards < 4 * size + 1 and not args.light:
        raise SystemExit(f"--boards: at least {4 * size + 1} (one alone, a group to kill, a "
                         f"group to cut, a group off at the round's start)")
    if args.boards < 20:
        raise SystemExit("--boards: at least 20")

    def interrupted(signum, frame) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)  # the finally below stops every process
    work = Path(tempfile.mkdtemp(prefix="hall-bench-"))
    print(f"working in {work}", flush=True)
    args.kill_group, args.cut_group = (None, None) if args.light else (1, 2)
    args.rounds = rounds_for(args.moves, args.game_length)
    processes = Processes(work, args)
    groups = [] if args.light else [(1, 1)]
    first = 1 if args.light else 2
    late_count = max(1, args.boards // 10)  # a tenth of the boards: off at the round start
    while first <= args.boards - late_count:
        last = min(args.boards - late_count, first + size - 1)
        groups.append((first, last))
        first = last + 1
    groups.append((args.boards - late_count + 1, args.boards))
    late_group = len(groups) - 1
    late = set(range(groups[late_group][0], groups[late_group][1] + 1))
    processes.groups = groups
    disruptions: list[tuple[str, float, float, range]] = []  # kind, down, up, boards
    every = range(1, args.boards + 1)
    hall_rss: list[float] = []
    hall_cpu: list[tuple[float, float]] = []  # (wall, the hall's CPU seconds)
    worker_rss: list[tuple[int, float]] = []
    arbiter = ArbiterBot(lambda: processes.hall_url, TOKEN, args.boards, args.rounds,
                         lambda text: print(f"{time.time() - started:6.1f} s: {text}",
                                            flush=True))
    started = time.time()
    try:
        processes.start_broker()
        processes.proxy = CuttableProxy(processes.venue.port)
        processes.start_hall()
        watcher = Watcher(processes.hall_url)
        rng = random.Random(args.seed)
        delays = [rng.uniform(30, 120) for _ in late]
        for index in range(len(groups)):
            processes.start_worker(index, delays if args.light and index == late_group
                                   else None)
        wait_online(processes.hall_url, args.boards)
        arbiter.import_pairings()
        # a tenth of the boards switched off before the round starts; on again 30-120 s
        # after it, each at its own time
        if args.light:  # its boards say goodbye, and come back with their games
            processes.workers[late_group].send_signal(signal.SIGUSR2)
        else:  # switched off: each board resumes its journal when it is on again
            processes.kill_worker(late_group, signal.SIGTERM)
        wait_online(processes.hall_url, args.boards - late_count)
        started = time.time()
        arbiter.start_round("1")
        if not args.light:
            processes.start_worker(late_group, delays)
        bot = threading.Thread(target=arbiter.run, daemon=True, kwargs=dict(
            twice_after=20.0, restart_after=max(30.0, 6 * args.pace),
            next_round_share=0.8))
        bot.start()
        length = args.moves * args.pace  # how long the boards play, about
        plan = [] if args.light else [
            (0.15 * length, "broker"), (0.3 * length, "boards"), (0.4 * length, "cut"),
            (0.4 * length + args.cut_seconds + 10, "hall"), (0.85 * length, "broker")]
        cut_until = None

        def sample() -> None:
            hall_rss.append(rss_mb(processes.hall.pid))
            hall_cpu.append((time.time(), cpu_seconds(processes.hall.pid)))
            single = processes.workers.get(0)
            if not args.light and single is not None and single.poll() is None:
                worker_rss.append((1, rss_mb(single.pid)))
            for index, process in processes.workers.items():
                if (index or args.light) and process.poll() is None:
                    size = groups[index][1] - groups[index][0] + 1
                    worker_rss.append((size, rss_mb(process.pid)))

        while True:
            elapsed = time.time() - started
            if plan and elapsed >= plan[0][0]:
                _, kind = plan.pop(0)
                down = time.time()
                print(f"{elapsed:6.1f} s: {kind} down", flush=True)
                if kind == "broker":
                    processes.kill_broker()
                    time.sleep(3)
                    processes.start_broker()
                    disruptions.append(("broker", down, time.time(), every))
                elif kind == "boards":
                    kill_first, kill_last = groups[args.kill_group]
                    processes.kill_worker(args.kill_group)
                    time.sleep(2)
                    processes.start_worker(args.kill_group)
                    disruptions.append(("boards", down, time.time(),
                                        range(kill_first, kill_last + 1)))
                elif kind == "hall":
                    processes.kill_hall()
                    time.sleep(2)
                    processes.start_hall()
                    disruptions.append(("hall", down, time.time(), every))
                elif kind == "cut":
                    processes.proxy.cut()
                    cut_until = down + args.cut_seconds
                    cut_started = down
            if cut_until is not None and time.time() >= cut_until:
                processes.proxy.restore()
                cut_first, cut_last = groups[args.cut_group]
                disruptions.append(("cut", cut_started, time.time(),
                                    range(cut_first, cut_last + 1)))
                print(f"{time.time() - started:6.1f} s: cut restored", flush=True)
                cut_until = None
            if int(elapsed) % 5 == 0:
                sample()
            if not plan and cut_until is None and len(processes.done) == len(groups):
                break
            if elapsed > max(3 * length, length + 900):
                print(f"giving up after {elapsed:.0f} s: workers not done: "
                      f"{sorted(set(range(len(groups))) - processes.done)}", flush=True)
                break
            time.sleep(1.0)
        played_for = time.time() - started
        sample()
        # let the last moves arrive, then compare journals and feed
        deadline = time.time() + 120
        while True:
            if args.light:
                processes.dump_light_boards()
            games = light_journals(work) if args.light else journals(work, args.boards)
            confirm_declared_results(processes.hall_url, games)
            result = compare_with_feed(processes.hall_url, games)
            if result["lost"] == result["duplicated"] == result["wrong"] == 0 or \
                    time.time() > deadline:
                break
            time.sleep(2)
        # the quiet end: nothing played, nothing missing: what does the hall still ask?
        quiet_from = time.time()
        print(f"{quiet_from - started:6.1f} s: {args.quiet_minutes:g} quiet minute(s)",
              flush=True)
        while time.time() < quiet_from + args.quiet_minutes * 60:
            sample()
            time.sleep(5)
        quiet_until = time.time()
        arbiter.stopping = True
        if args.light:
            processes.dump_light_boards()
        games = light_journals(work) if args.light else journals(work, args.boards)
        result = compare_with_feed(processes.hall_url, games)
        hall_rss.append(rss_mb(processes.hall.pid))
        feed_ms = time_feed(processes.hall_url, work / "hall", games)
    finally:
        arbiter.stopping = True
        if "watcher" in locals():
            watcher.stopping = True
        processes.stop_all()
    events = read_events(work / "events.jsonl")
    delivery = pairing_delivery(events, late, arbiter.started.get("1", started),
                                [(down, up) for kind, down, up, _ in disruptions
                                 if kind in ("broker", "hall")])
    closed = closed_unconfirmed(games, arbiter.confirmed_close)
    idle = idle_requests(events, quiet_from, quiet_until, args.boards)
    steady_cpu = [(t, c) for t, c in hall_cpu if t <= started + played_for]
    cpu_share = None
    if len(steady_cpu) >= 2 and steady_cpu[-1][1] >= steady_cpu[0][1]:  # one hall process
        cpu_share = round((steady_cpu[-1][1] - steady_cpu[0][1]) /
                          max(1e-9, steady_cpu[-1][0] - steady_cpu[0][0]), 3)

    # latencies: moves made while nothing was down (and a little after, for reconnection)
    def disrupted(board: int, t: float) -> bool:
        return any(board in boards and down - 1 <= t <= up + 10
                   for _, down, up, boards in disruptions)

    steady, everything, unseen = [], [], 0
    for board, listed in games.items():
        for gid, game in listed:
            for ply, played in enumerate(game.moves, 1):
                shown = watcher.shown(board, gid, ply)
                if shown is None or played.t_wall is None:
                    unseen += 1
                    continue
                latency = max(0.0, shown - played.t_wall) * 1000
                everything.append(latency)
                if not disrupted(board, played.t_wall):
                    steady.append(latency)
    # catch-up: after each reconnection of a board, until the hall shows all it had
    connections: dict[int, list[float]] = {}
    recoveries = 0
    for event in events:
        if event["event"] == "recovery":
            recoveries += 1
        elif event["event"] == "connected":
            connections.setdefault(event["board"], []).append(event["t"])
    catchup: dict[str, list[float]] = {}
    for kind, _down, up, boards in disruptions:
        for board in boards:
            after = [t for t in connections.get(board, []) if t >= up - 0.5]
            back = up if kind == "hall" else (after[0] if after else None)
            if back is None:
                continue
            listed = games[board]
            pending = [(gid, ply) for gid, game in listed
                       for ply, played in enumerate(game.moves, 1)
                       if played.t_wall is not None and played.t_wall <= back]
            if not pending:
                continue
            gid, ply = pending[-1]
            shown = watcher.shown(board, gid, ply)
            if shown is not None:
                catchup.setdefault(kind, []).append(max(0.0, shown - back))
    boards_alone = [mb for size, mb in worker_rss if size == 1]
    tens = [mb / size for size, mb in worker_rss if size >= WORKER_SIZE]

    def pct(values: list[float], q: float) -> float:
        return round(share_percentile(values, q), 1)

    figures = {
        "benchmark": "hall --light" if args.light else "hall", "boards": args.boards,
        "moves": result["checked"],
        "lost": result["lost"], "duplicated": result["duplicated"], "wrong": result["wrong"],
        "pairing_delivered_max_s": delivery["late_max_s"],
        "pairing_delivered_s": delivery,
        "games_with_moves_closed_unconfirmed": len(closed),
        "idle_requests_per_board_per_min": idle["per_board_per_min"],
        "idle_requests": idle,
        "arbiter": {"rounds": args.rounds, "rounds_started": sorted(arbiter.started),
                    "restarted": arbiter.restarted,
                    "confirmed_closing": sorted(arbiter.confirmed_close),
                    "results_confirmed": arbiter.confirmed_results,
                    "console_calls_failed": arbiter.calls_failed},
        "hall_cpu_share": cpu_share,
        "p50_ms": round(statistics.median(steady), 1) if steady else None,
        "p95_ms": pct(steady, 0.95), "p95_ms_all_moves": pct(everything, 0.95),
        "max_ms_all_moves": round(max(everything), 1) if everything else None,
        "moves_timed": len(steady), "moves_never_seen_live": unseen,
        "catchup_s": {k: {"max": round(max(v), 2), "p95": pct(v, 0.95), "boards": len(v)}
                      for k, v in catchup.items()},
        "hall_rss_mb": round(max(hall_rss), 1) if hall_rss else None,
        "board_rss_mb": round(max(boards_alone), 1) if boards_alone else None,
        "board_rss_mb_per_board_in_workers_of_10": round(max(tens), 1)
        if tens and not args.light else None,
        "light_worker_rss_mb_per_100_boards": round(max(
            mb * 100 / size for size, mb in worker_rss if size >= 10), 1)
        if args.light and worker_rss else None,
        "disruptions": [{"kind": k, "down_s": round(up - down, 1), "boards": len(b)}
                        for k, down, up, b in disruptions],
        "games_whose_pdn_text_differs": result["games_whose_pdn_text_differs"],
        "feed": feed_ms, "hand_recoveries": recoveries,
        "workers_unfinished": len(groups) - len(processes.done),
        "seconds": round(played_for, 1), "pace_s": args.pace, "seed": args.seed,
        "goals": {"lost_duplicated_wrong": 0, "p95_ms": 1000, "catchup_s": 5,
                  "hall_rss_mb": 250 if args.light else 150, "pairing_delivered_max_s": 5,
                  "games_with_moves_closed_unconfirmed": 0,
                  "idle_requests_per_board_per_min": 1},
    }
    print(f"{figures['moves']} moves on {args.boards} boards in {played_for:.0f} s; "
          f"lost {figures['lost']}, duplicated {figures['duplicated']}, "
          f"wrong {figures['wrong']}")
    for example in result["examples"]:
        print(f"  differs: {example}")
    print(f"board -> hall page: p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms over "
          f"{len(steady)} moves made with everything up; p95 over all moves "
          f"{figures['p95_ms_all_moves']} ms")
    print(f"catch-up after reconnection: {json.dumps(figures['catchup_s'])}")
    print(f"memory: hall {figures['hall_rss_mb']} MB, one-board process "
          f"{figures['board_rss_mb']} MB")
    print(f"pairings: {delivery['late_delivered']} of {delivery['late_boards']} boards off at "
          f"the round's start got theirs {delivery['late_max_s']} s at most after coming "
          f"online; games with moves closed without the arbiter: {len(closed)}; the hall's "
          f"requests in the quiet end: {idle['per_board_per_min']} per board and minute; "
          f"hall CPU {cpu_share} of a core")
    print(f"feed of round {feed_ms['round']} ({feed_ms['games']} games): median "
          f"{feed_ms['http_median_ms']} ms over HTTP, {feed_ms['delayed_median_ms']} ms "
          f"delayed; the arbiter restored {recoveries} board(s) caught mid-move")
    if not args.keep:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(figures))
    return 0 if result["lost"] == result["duplicated"] == result["wrong"] == len(closed) == 0 \
        else 1


if __name__ == "__main__":
    sys.exit(main())
