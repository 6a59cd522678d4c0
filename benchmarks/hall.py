"""The tournament hall under fire: many boards through a real mosquitto to a real hall,
while the broker, boards and the hall are killed and boards are cut off the network.

Every board runs the real play pipeline on the simulated board: a scripted hand (random
legal moves, seeded) acting on the simulated switches, the reed-matrix driver scanning
them in real time, the tracker, the journal (fsync per record) and the hall link
publishing through paho-mqtt. Boards run as threads in worker processes of ten; one
extra worker runs a single board, so that a board's own memory is measured alone. The
hall is ``draughtsboard hall`` in its own process; this script reads its page's live
stream (server-sent events) as a browser would.

During the run: the broker is killed (SIGKILL) and restarted twice, one worker of ten
boards is killed (SIGKILL) and restarted, the hall is killed and restarted once, and
another worker of ten boards is cut off the broker for 30 s (a proxy in this script stops
forwarding, as a dead switch would, then drops their connections).

At the end the arbiter confirms the results the boards declared (a draw agreed on the
board is the board's claim until then), and every board's journal is compared with the
hall's broadcast feed
(``/round/<r>/games.pdn``, read with the project's PDN reader): ``lost`` counts journal
moves missing from the feed, ``duplicated`` feed moves beyond the journal's, ``wrong``
moves or results that differ. ``p50_ms``/``p95_ms``: from a move's completion on a
board (its journal time) to the hall page's stream showing it, over the moves made
while nothing was down; ``catchup_s``: after each reconnection of a board (or restart of
the hall), how long until the hall showed every move that board had then. Memory: the
hall's resident set, and a one-board process's.

    python benchmarks/hall.py --boards 100 --moves 90 --pace 2

The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "benchmark-hall-token"
HALL_URL = re.compile(r"the hall's page: (http://[0-9.]+:\d+)/")
WORKER_SIZE = 10


# -- a board worker process ------------------------------------------------------------------------

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
    events = open(args.events, "a", buffering=1)  # noqa: SIM115 - lives as long as the process
    lock = threading.Lock()

    def note(**fields) -> None:
        with lock:
            events.write(json.dumps({"t": time.time(), **fields}) + "\n")

    class Board:
        def __init__(self, number: int) -> None:
            self.number = number
            self.recorder = Recorder(Path(args.data) / f"board{number}")
            self.games_done = len(self.recorder.game_ids())
            opening = choose_opening(self.recorder, variant=args.variant)
            tags = {"Round": str(max(1, self.games_done) if opening.resumes else
                                 self.games_done + 1),
                    "Board": str(number), "White": f"White {number}",
                    "Black": f"Black {number}", "Event": "hall benchmark"}
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
            original = self.link.outbox.connected

            def connected() -> None:  # noted for the catch-up figure
                note(board=number, event="connected")
                original()

            self.link.outbox.connected = connected
            self.link.start()
            self.rng = random.Random(args.seed * 1000 + number * 7 + self.games_done)
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

        def new_game(self) -> None:
            game = self.session.published()[1]
            if game is not None and game.result is None and not game.result_reason:
                self.session.arbiter.declare_result("1/2-1/2" if args.variant != "international"
                                            else "1-1", "benchmark: agreed")
            self.games_done = len(self.recorder.game_ids())
            tags = {"Round": str(self.games_done + 1), "Board": str(self.number),
                    "White": f"White {self.number}", "Black": f"Black {self.number}",
                    "Event": "hall benchmark"}
            self.session.arbiter.new_game(tags)
            self.session.hand([("setup", 0)])

        def step(self) -> None:
            if not self.wait_ready():
                return
            game = self.session.published()[1]
            position = self.session.game.tracker.position
            legal = position.legal_moves()
            if game is None or not legal or game.result is not None or game.result_reason \
                    or game.ply >= args.game_length:
                self.new_game()
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
            while not stop.is_set() and self.total < args.moves:
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

    boards = [Board(n) for n in range(args.first, args.last + 1)]
    threads = [threading.Thread(target=b.run, daemon=True) for b in boards]
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


# -- the cut: a TCP proxy that can stop forwarding ------------------------------------------------

class CuttableProxy:
    """Forwards 127.0.0.1:port to the broker; ``cut()`` stops forwarding silently (a dead
    network: nothing arrives, nothing is refused), ``restore()`` drops the dead
    connections so that clients reconnect at once."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port = self.server.getsockname()[1]
        self.cut_off = False
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), 2)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        sockets = [a, b]
        try:
            while True:
                ready, _, _ = select.select(sockets, [], [], 1.0)
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        raise OSError("closed")
                    if not self.cut_off:
                        (b if sock is a else a).sendall(data)
        except OSError:
            pass
        finally:
            a.close()
            b.close()
            with self.lock:
                if (a, b) in self.pairs:
                    self.pairs.remove((a, b))

    def cut(self) -> None:
        self.cut_off = True

    def restore(self) -> None:
        with self.lock:
            pairs = list(self.pairs)
        for a, b in pairs:
            for sock in (a, b):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        self.cut_off = False


# -- the run ---------------------------------------------------------------------------------------

class Processes:
    def __init__(self, work: Path, args) -> None:
        from draughtsboard.hall.venue import MOSQUITTO_PATHS, find_tool, write_venue

        self.args = args
        self.work = work
        self.mosquitto = find_tool("mosquitto", MOSQUITTO_PATHS)
        import getpass

        self.venue = write_venue(work / "venue", args.boards, port=_free_port(),
                                 log_file=work / "mosquitto.log", autosave_interval=1,
                                 run_as=getpass.getuser())
        self.broker: subprocess.Popen | None = None
        self.hall: subprocess.Popen | None = None
        self.hall_url = ""
        self.hall_port = _free_port()
        self.workers: dict[int, subprocess.Popen] = {}
        self.groups: list[tuple[int, int]] = []
        self.done: set[int] = set()
        self.proxy: CuttableProxy | None = None

    def start_broker(self) -> None:
        self.broker = subprocess.Popen([self.mosquitto, "-c", str(self.venue.config)],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
        _wait_port(self.venue.port)

    def kill_broker(self) -> None:
        self.broker.kill()
        self.broker.wait()

    def start_hall(self) -> None:
        env = dict(os.environ, DRAUGHTSBOARD_HALL_TOKEN=TOKEN, PYTHONUNBUFFERED="1")
        self.hall = subprocess.Popen(
            [sys.executable, "-m", "draughtsboard", "hall", "--broker", self.venue.hall_url(),
             "--listen", f"127.0.0.1:{self.hall_port}", "--data", str(self.work / "hall")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(self.work / "hall.log", "a"), env=env, cwd=ROOT)  # noqa: SIM115
        self.hall_url = f"http://127.0.0.1:{self.hall_port}"
        _wait_port(self.hall_port, 120)

    def kill_hall(self) -> None:
        self.hall.kill()
        self.hall.wait()

    def start_worker(self, index: int) -> None:
        first, last = self.groups[index]
        port = self.proxy.port if index == self.args.cut_group else self.venue.port
        process = subprocess.Popen(
            [sys.executable, __file__, "--worker", "--first", str(first), "--last", str(last),
             "--port", str(port), "--venue", str(self.venue.directory), "--data",
             str(self.work / "boards"), "--events", str(self.work / "events.jsonl"),
             "--moves", str(self.args.moves), "--pace", str(self.args.pace), "--seed",
             str(self.args.seed), "--variant", self.args.variant, "--game-length",
             str(self.args.game_length)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
            stderr=open(self.work / f"worker{index}.log", "a"), cwd=ROOT)  # noqa: SIM115
        self.workers[index] = process
        self.done.discard(index)

        def read() -> None:
            for line in process.stdout:
                if line.strip() == "done" and self.workers.get(index) is process:
                    self.done.add(index)

        threading.Thread(target=read, daemon=True).start()

    def kill_worker(self, index: int) -> None:
        self.workers[index].kill()
        self.workers[index].wait()

    def stop_all(self) -> None:
        for process in self.workers.values():
            if process.poll() is None:
                process.terminate()
        for process in self.workers.values():
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
        for process in (self.hall, self.broker):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on port {port}")


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Watcher:
    """The hall page's live stream, as a browser reads it: when each (board, game, ply)
    was first shown."""

    def __init__(self, processes: Processes) -> None:
        self.processes = processes
        self.seen: dict[tuple[int, str], list[float]] = {}  # (board, game) -> time of ply i
        self.lock = threading.Lock()
        self.stopping = False
        threading.Thread(target=self._run, daemon=True).start()

    def _note(self, summary: dict, now: float) -> None:
        game, ply = summary.get("game"), summary.get("ply") or 0
        if not game:
            return
        with self.lock:
            times = self.seen.setdefault((summary["board"], game), [])
            while len(times) < ply:
                times.append(now)

    def _run(self) -> None:
        while not self.stopping:
            try:
                with urllib.request.urlopen(self.processes.hall_url + "/api/events",
                                            timeout=30) as stream:
                    event = ""
                    for raw in stream:
                        line = raw.decode()
                        if line.startswith("event: "):
                            event = line[7:].strip()
                        elif line.startswith("data: "):
                            now = time.time()
                            data = json.loads(line[6:])
                            if event == "hall":
                                for summary in data["boards"]:
                                    self._note(summary, now)
                            elif event == "boards":
                                for summary in data:
                                    self._note(summary, now)
            except (OSError, ValueError):
                time.sleep(0.2)

    def shown(self, board: int, game: str, ply: int) -> float | None:
        with self.lock:
            times = self.seen.get((board, game), [])
            return times[ply - 1] if len(times) >= ply else None


def journals(work: Path, boards: int) -> dict[int, list[tuple[str, object]]]:
    from draughtsboard.recording import Recorder

    out = {}
    for number in range(1, boards + 1):
        with Recorder(work / "boards" / f"board{number}") as recorder:
            out[number] = [(gid, recorder.game(gid)) for gid in recorder.game_ids()]
    return out


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
                    f"claims {game.result_text()}" not in claim["text"]:
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


def compare_with_feed(hall_url: str, games: dict[int, list]) -> dict[str, int]:
    from draughtsboard.board.game.pdn_reader import read_pdn
    from draughtsboard.board.game.pdn_writer import write_game

    rounds = {g.tags.get("Round", "") for listed in games.values() for _, g in listed}
    feed: dict[tuple[str, int], object] = {}
    texts: dict[tuple[str, int], str] = {}
    for round_name in rounds:
        with urllib.request.urlopen(f"{hall_url}/round/{round_name}/games.json",
                                    timeout=30) as response:
            for item in json.loads(response.read())["games"]:
                read = read_pdn(item["pdn"])
                if read.games:
                    feed[(round_name, item["board"])] = read.games[0].game
                    texts[(round_name, item["board"])] = item["pdn"]
    lost = duplicated = wrong = checked = text_differs = 0
    for board, listed in games.items():
        by_round: dict[str, object] = {}
        for _, game in listed:  # the feed shows a board's latest game of each round
            by_round[game.tags.get("Round", "")] = game
        for round_name, game in by_round.items():
            journal = [p.text for p in game.moves]
            shown = feed.get((round_name, board))
            theirs = [p.text for p in shown.moves] if shown is not None else []
            checked += len(journal)
            common = 0
            while common < min(len(journal), len(theirs)) and journal[common] == theirs[common]:
                common += 1
            wrong += min(len(journal), len(theirs)) - common
            lost += max(0, len(journal) - len(theirs))
            duplicated += max(0, len(theirs) - len(journal))
            if shown is not None and (game.result is not None or game.result_reason):
                if shown.result_text() != game.result_text():
                    wrong += 1
            # the whole text too: tags, clock times, comments (the arbiter's notes aside)
            if shown is not None and texts[(round_name, board)] != write_game(game,
                                                                              events=False):
                text_differs += 1
    return {"lost": lost, "duplicated": duplicated, "wrong": wrong + text_differs,
            "checked": checked, "games_whose_pdn_text_differs": text_differs}


def time_feed(hall_url: str, hall_data: Path, games: dict[int, list]) -> dict:
    """How long the feed of the round with the most games takes: over HTTP as it
    stands, and (in this process, the same code on the hall's journals read back) as it
    stood a minute ago, which replays every game to its delayed length."""
    from draughtsboard.hall.feed import round_games
    from draughtsboard.hall.store import HallStore

    counts: dict[str, int] = {}
    for listed in games.values():
        for round_name in {g.tags.get("Round", "") for _, g in listed}:
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--moves", type=int, default=90, help="moves per board")
    parser.add_argument("--pace", type=float, default=2.0,
                        help="seconds between a board's moves (on average)")
    parser.add_argument("--game-length", type=int, default=40,
                        help="plies before a game is agreed drawn and a new one starts")
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cut-seconds", type=float, default=30.0)
    parser.add_argument("--keep", action="store_true", help="keep the working directory")
    # worker mode (internal)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    for name in ("--first", "--last", "--port"):
        parser.add_argument(name, type=int, help=argparse.SUPPRESS)
    for name in ("--venue", "--data", "--events"):
        parser.add_argument(name, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return run_worker(args)
    if args.moves * args.pace < 2.5 * args.cut_seconds + 50:
        raise SystemExit(f"--moves x --pace ({args.moves * args.pace:.0f} s of play) is too "
                         f"short for the outages: at least {2.5 * args.cut_seconds + 50:.0f} s")
    if args.boards < 2 * WORKER_SIZE + 1:
        raise SystemExit(f"--boards: at least {2 * WORKER_SIZE + 1} (one alone, a group to "
                         f"kill, a group to cut)")
    def interrupted(signum, frame) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)  # the finally below stops every process
    work = Path(tempfile.mkdtemp(prefix="hall-bench-"))
    print(f"working in {work}", flush=True)
    args.kill_group, args.cut_group = 1, 2
    processes = Processes(work, args)
    groups = [(1, 1)]
    first = 2
    while first <= args.boards:
        last = min(args.boards, first + WORKER_SIZE - 1)
        groups.append((first, last))
        first = last + 1
    processes.groups = groups
    disruptions: list[tuple[str, float, float, range]] = []  # kind, down, up, boards
    every = range(1, args.boards + 1)
    hall_rss: list[float] = []
    worker_rss: list[tuple[int, float]] = []
    try:
        processes.start_broker()
        processes.proxy = CuttableProxy(processes.venue.port)
        processes.start_hall()
        watcher = Watcher(processes)
        started = time.time()
        for index in range(len(groups)):
            processes.start_worker(index)
        kill_first, kill_last = groups[args.kill_group]
        cut_first, cut_last = groups[args.cut_group]
        length = args.moves * args.pace  # how long the boards play, about
        plan = [(0.15 * length, "broker"), (0.3 * length, "boards"), (0.4 * length, "cut"),
                (0.4 * length + args.cut_seconds + 10, "hall"), (0.85 * length, "broker")]
        cut_until = None

        def sample() -> None:
            hall_rss.append(rss_mb(processes.hall.pid))
            single = processes.workers.get(0)
            if single is not None and single.poll() is None:
                worker_rss.append((1, rss_mb(single.pid)))
            for index, process in processes.workers.items():
                if index and process.poll() is None:
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
                disruptions.append(("cut", cut_started, time.time(),
                                    range(cut_first, cut_last + 1)))
                print(f"{time.time() - started:6.1f} s: cut restored", flush=True)
                cut_until = None
            if int(elapsed) % 5 == 0:
                sample()
            if not plan and cut_until is None and len(processes.done) == len(groups):
                break
            if elapsed > max(3 * length, length + 600):
                print(f"giving up after {elapsed:.0f} s: workers not done: "
                      f"{sorted(set(range(len(groups))) - processes.done)}", flush=True)
                break
            time.sleep(1.0)
        played_for = time.time() - started
        sample()
        # let the last moves arrive, then compare journals and feed
        games = journals(work, args.boards)
        deadline = time.time() + 60
        while time.time() < deadline:
            confirm_declared_results(processes.hall_url, games)
            result = compare_with_feed(processes.hall_url, games)
            if result["lost"] == result["duplicated"] == result["wrong"] == 0:
                break
            time.sleep(2)
        hall_rss.append(rss_mb(processes.hall.pid))
        feed_ms = time_feed(processes.hall_url, work / "hall", games)
    finally:
        if "watcher" in locals():
            watcher.stopping = True
        processes.stop_all()

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
    for line in (work / "events.jsonl").read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "recovery":
            recoveries += 1
        else:
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
        ordered = sorted(values)
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1) if ordered \
            else float("nan")

    figures = {
        "benchmark": "hall", "boards": args.boards, "moves": result["checked"],
        "lost": result["lost"], "duplicated": result["duplicated"], "wrong": result["wrong"],
        "p50_ms": round(statistics.median(steady), 1) if steady else None,
        "p95_ms": pct(steady, 0.95), "p95_ms_all_moves": pct(everything, 0.95),
        "max_ms_all_moves": round(max(everything), 1) if everything else None,
        "moves_timed": len(steady), "moves_never_seen_live": unseen,
        "catchup_s": {k: {"max": round(max(v), 2), "p95": pct(v, 0.95), "boards": len(v)}
                      for k, v in catchup.items()},
        "hall_rss_mb": round(max(hall_rss), 1) if hall_rss else None,
        "board_rss_mb": round(max(boards_alone), 1) if boards_alone else None,
        "board_rss_mb_per_board_in_workers_of_10": round(max(tens), 1) if tens else None,
        "disruptions": [{"kind": k, "down_s": round(up - down, 1), "boards": len(b)}
                        for k, down, up, b in disruptions],
        "games_whose_pdn_text_differs": result["games_whose_pdn_text_differs"],
        "feed": feed_ms, "hand_recoveries": recoveries,
        "workers_unfinished": len(groups) - len(processes.done),
        "seconds": round(played_for, 1), "pace_s": args.pace, "seed": args.seed,
        "goals": {"lost_duplicated_wrong": 0, "p95_ms": 1000, "catchup_s": 5,
                  "hall_rss_mb": 150},
    }
    print(f"{figures['moves']} moves on {args.boards} boards in {played_for:.0f} s; "
          f"lost {figures['lost']}, duplicated {figures['duplicated']}, "
          f"wrong {figures['wrong']}")
    print(f"board -> hall page: p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms over "
          f"{len(steady)} moves made with everything up; p95 over all moves "
          f"{figures['p95_ms_all_moves']} ms")
    print(f"catch-up after reconnection: {json.dumps(figures['catchup_s'])}")
    print(f"memory: hall {figures['hall_rss_mb']} MB, one-board process "
          f"{figures['board_rss_mb']} MB")
    print(f"feed of round {feed_ms['round']} ({feed_ms['games']} games): median "
          f"{feed_ms['http_median_ms']} ms over HTTP, {feed_ms['delayed_median_ms']} ms "
          f"delayed; the arbiter restored {recoveries} board(s) caught mid-move")
    if not args.keep:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(figures))
    return 0 if result["lost"] == result["duplicated"] == result["wrong"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
