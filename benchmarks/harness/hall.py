"""A real hall for the benchmarks: ``draughtsboard hall`` in its own process, what its page's
live stream shows and when (`Watcher`), a network that can be cut between boards and the
broker (`CuttableProxy`), and the round feeds compared with the boards' own games."""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import Game
from draughtsboard.hall.venue import Venue

from .ports import NotListening, free_port, wait_port
from .processes import CHECKOUT, rss_mb, stop


class HallProcess:
    """``draughtsboard hall`` on a free loopback port, on ``venue``'s broker (or
    ``broker_url``), its data in ``data``, its log appended to ``log``; the arbiter's token
    ``token``. Started again on the same port (``url`` stays), stopped or killed."""

    def __init__(self, broker_url: str, data: Path, log: Path, *, token: str,
                 port: int | None = None) -> None:
        self.broker_url, self.data, self.log, self.token = broker_url, data, log, token
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.peak_mb = 0.0

    @classmethod
    def on(cls, venue: Venue, data: Path, log: Path, *, token: str) -> HallProcess:
        return cls(venue.hall_url(), data, log, token=token)

    def start(self, timeout: float = 120.0) -> None:
        env = dict(os.environ, DRAUGHTSBOARD_HALL_TOKEN=self.token, PYTHONUNBUFFERED="1")
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "draughtsboard", "hall", "--broker", self.broker_url,
                 "--listen", f"127.0.0.1:{self.port}", "--data", str(self.data)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, env=env,
                cwd=CHECKOUT)
        try:
            wait_port(self.port, timeout, process=self.process, what="the hall")
        except NotListening:
            stop(self.process, kill=True)  # never left running when it is given up
            raise

    @property
    def pid(self) -> int:
        assert self.process is not None, "the hall was never started"
        return self.process.pid

    def stop(self, kill: bool = False) -> None:
        """SIGTERM (or SIGKILL with ``kill``), waited for; safe twice."""
        stop(self.process, kill=kill)

    def sample(self) -> float:
        """Its resident memory now, in MB (its peak kept in ``peak_mb``)."""
        if self.process is None:
            return 0.0
        mb = rss_mb(self.process.pid)
        self.peak_mb = max(self.peak_mb, mb)
        return mb


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



# -- what the hall shows ---------------------------------------------------------------------

def wait_online(hall_url: str, count: int, timeout: float = 300.0) -> None:
    """Until the hall shows ``count`` boards online (or exactly that many, after some
    were switched off)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(hall_url + "/api/hall", timeout=30) as response:
                online = sum(1 for b in json.loads(response.read())["boards"] if b["online"])
            if online == count:
                return
        except (OSError, ValueError):
            pass
        time.sleep(1)
    raise SystemExit(f"the hall did not show {count} boards online in {timeout:.0f} s")


class Watcher:
    """The hall page's live stream, as a browser reads it: when each (board, game, ply)
    was first shown."""

    def __init__(self, hall_url: str) -> None:
        self.hall_url = hall_url
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
                with urllib.request.urlopen(self.hall_url + "/api/events",
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


def compare_with_feed(hall_url: str,
                      games: dict[int, list[tuple[str, Game]]]) -> dict[str, Any]:
    """Every board's own games (its record: the truth) against the rounds' feeds: moves
    lost, duplicated or wrong in the broadcast feed (``games.json``, what lidraughts
    polls), and games whose PDN text differs from the hall's own file of the game (the
    first few shown)."""

    rounds = {g.tags["Round"] for listed in games.values() for _, g in listed
              if g.tags.get("Round")}  # a board's start-up game is no round's
    feed: dict[tuple[str, int], Game] = {}
    for round_name in rounds:
        with urllib.request.urlopen(f"{hall_url}/round/{round_name}/games.json",
                                    timeout=30) as response:
            for item in json.loads(response.read())["games"]:
                read = read_pdn(item["pdn"])
                if read.games:
                    feed[(round_name, item["board"])] = read.games[0].game
    lost = duplicated = wrong = checked = text_differs = 0
    examples: list[str] = []
    for board, listed in games.items():
        by_round: dict[str, Game] = {}
        for _, game in listed:  # the feed shows a board's latest game of each round
            if game.tags.get("Round"):
                by_round[game.tags["Round"]] = game
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
            # the whole text too: tags, clock times, comments (the arbiter's notes aside),
            # against the hall's own file of the board's game (the lidraughts-shaped feed
            # writes its tags for lidraughts: docs/pdn.md, "Published PDN")
            own = own_pdn(hall_url, round_name, board) if shown is not None else None
            if own is not None and own != write_game(game, events=False):
                text_differs += 1
                if len(examples) < 5:
                    examples.append(first_difference(
                        f"round {round_name} board {board}",
                        write_game(game, events=False), own))
    return {"lost": lost, "duplicated": duplicated, "wrong": wrong + text_differs,
            "checked": checked, "games_whose_pdn_text_differs": text_differs,
            "examples": examples}


def own_pdn(hall_url: str, round_name: str, board: int) -> str | None:
    """The hall's own file of a board's game of a round (``/round/<r>/<board>.pdn``, as
    the board recorded it), ``None`` when the hall has none."""
    url = f"{hall_url}/round/{urllib.parse.quote(round_name)}/{board}.pdn"
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read().decode("utf-8")
    except urllib.error.HTTPError:
        return None


def first_difference(name: str, journal: str, feed: str) -> str:
    """One line: where a game's PDN from its board's journal and from the feed part
    (so a "wrong" figure says what differed, not only how many)."""
    ours, theirs = journal.splitlines(), feed.splitlines()
    for number, (a, b) in enumerate(zip(ours, theirs, strict=False), 1):
        if a != b:
            return f"{name}, line {number}: journal {a[:120]!r}, feed {b[:120]!r}"
    return (f"{name}: journal {len(ours)} lines, feed {len(theirs)} lines; the longer ends "
            f"{(ours if len(ours) > len(theirs) else theirs)[-1][:120]!r}")
