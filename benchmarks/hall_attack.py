"""The hall under attack from one board's password, while the honest boards play on.

A real mosquitto (the venue's generated configuration), the real ``draughtsboard hall``
in its own process, and ``--boards`` protocol-level boards in this process
(`harness.boards`: the real hall link before a scripted game). The arbiter imports the
round's pairings and starts the round from the console. Then someone holding board 1's
MQTT password runs, one after the other:

1. ``next-ply``: a legal next move of board 1's game nobody played, with ``changes`` ten
   million; 2. ``result``: board 1's game with the result 0-1; 3. ``made-up-game``: a
   state for game ``999999999-20991231-235959`` (``W:W21:B1``, round 1) and a status
   naming it; 4. ``takeback``: move 1 replaced, with more changes; 5. ``fake-games``: 2,000
   games with made-up ids; 6. ``client-ids``: connecting as board 2's and the hall's
   client ids; 7. ``flood``: 10,000 plies of made-up games in 5 s; 8. ``king-moves``: six
   94 KB states of 2,000 legal king moves each; 9. ``streams``: 63 live streams held open,
   then 70 half-sent requests that reconnect; 10. ``huge``: five 100 MB messages.

Meanwhile an arbiter's client calls the console every 0.25 s (``arbiter_blocked_s``: the
longest run of refused or unanswered calls), the hall's memory is sampled
(``hall_rss_peak_mb``), the page's live stream is read as a browser does
(``honest_p95_ms``: an honest board's move to the page), and the round's feed is read
every second: a forged move, result or game seen in it while the hall showed no claim
for that board counts in ``forged_accepted``.

At the end the arbiter settles the claims as one would at the board (confirming what
the board in front of them shows, dismissing the rest), and the feed is compared with the
boards' games: ``lost``/``duplicated``/``wrong`` over the honest boards' moves and
results (``attacked_board`` the same for board 1). Then ``restart_games_lost``: a tag
corrected from the console, a training board's takebacks, an arbiter's result, the
hall's disk full while a move and a result arrive (a tmpfs filled up, when run as root), each
followed by a restart of the hall: every game the hall had before, as it had it, after.

    python -m benchmarks.hall_attack --boards 8

The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from benchmarks.harness import arbiter
from benchmarks.harness.boards import LightBoard
from benchmarks.harness.broker import Mosquitto, loopback_venue
from benchmarks.harness.hall import HallProcess, Watcher
from benchmarks.harness.mqtt_wire import connect_packet, publish_header
from benchmarks.harness.processes import rss_mb
from draughtsboard.board.game.pdn_reader import read_pdn
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules import get_variant
from draughtsboard.hall_protocol import parse_broker_url
from draughtsboard.hall_protocol.connect import make_client
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import (
    MoveRecord,
    PlyMessage,
    StateMessage,
    StatusMessage,
)
from draughtsboard.hall_protocol.topics import board_topic

TOKEN = "attack-benchmark-token"
ROUND = "1"
VICTIM = 1


# -- the processes ----------------------------------------------------------------------------

def call(url: str, path: str, body=None, *, token: str | None = TOKEN, timeout: float = 10.0,
         content_type: str = "application/json"):
    """The hall's HTTP API as the console calls it (`arbiter.call`), with this
    benchmark's token."""
    return arbiter.call(url, path, body, token=token, timeout=timeout,
                             content_type=content_type)


# -- what runs beside the attacks ----------------------------------------------------------------

class ArbiterProbe:
    """The arbiter's console, called every 0.25 s: the longest run of calls refused or
    unanswered (2 s each at most)."""

    def __init__(self, hall: HallProcess) -> None:
        self.hall = hall
        self.failed_since: float | None = None
        self.longest = 0.0
        self.calls = self.failures = 0
        self.stopping = False
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self.stopping:
            started = time.monotonic()
            try:
                call(self.hall.url, "/api/arbiter/check", {}, timeout=2.0)
                ok = True
            except (OSError, ValueError):
                ok = False
            self.calls += 1
            now = time.monotonic()
            if ok:
                if self.failed_since is not None:
                    self.longest = max(self.longest, now - self.failed_since)
                self.failed_since = None
            else:
                self.failures += 1
                if self.failed_since is None:
                    self.failed_since = started
            time.sleep(max(0.0, 0.25 - (now - started)))

    def blocked_s(self) -> float:
        if self.failed_since is not None:
            return max(self.longest, time.monotonic() - self.failed_since)
        return self.longest


class FeedWatch:
    """The round's feed, read every second: forged moves, results and games seen in it
    for board 1 while the hall showed no claim of that board."""

    def __init__(self, hall: HallProcess, truth) -> None:
        self.hall, self.truth = hall, truth
        self.forged: set[tuple] = set()
        self.stopping = False
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self.stopping:
            try:
                self.look()
            except (OSError, ValueError):
                pass
            time.sleep(1.0)

    def look(self) -> None:
        games = call(self.hall.url, f"/round/{ROUND}/games.json", token=None)["games"]
        detail = call(self.hall.url, f"/api/board/{VICTIM}", token=None)
        flagged = bool(detail.get("claims"))
        for item in games:
            if item["board"] != VICTIM:
                continue
            read = read_pdn(item["pdn"]).games
            if not read:
                continue
            shown = read[0].game
            real = self.truth()
            if shown.tags.get("White") != real.tags.get("White"):
                if not flagged:
                    self.forged.add(("game", shown.tags.get("White")))
                continue
            texts = [p.text for p in shown.moves]
            truth = [p.text for p in real.moves]
            for index, text in enumerate(texts):
                if (index >= len(truth) or truth[index] != text) and not flagged:
                    self.forged.add(("move", index + 1, text))
            if shown.result_text() not in ("*", real.result_text()) and not flagged:
                self.forged.add(("result", shown.result_text()))


# -- the attacker ----------------------------------------------------------------------------------

class Attacker:
    """Someone with board 1's password (any client id: the broker makes it ``board1``)."""

    def __init__(self, venue, client_id: str = "intruder") -> None:
        self.address = parse_broker_url(venue.board_url(VICTIM))
        self.client = make_client(self.address, client_id)
        self.client.max_inflight_messages_set(1000)
        self.client.connect(self.address.host, self.address.port)
        self.client.loop_start()

    def send(self, kind: str, payload: bytes, retain: bool = False, qos: int = 1):
        return self.client.publish(board_topic(VICTIM, kind), payload, qos=qos, retain=retain)

    def close(self) -> None:
        time.sleep(0.5)
        self.client.disconnect()
        self.client.loop_stop()


def king_moves_game(count: int) -> Game:
    game = Game.from_fen(get_variant("russian"), "W:WKc1:BKf8", tags={"Round": ROUND})
    for ply in range(count):
        game.play(["c1-d2", "f8-g7", "d2-c1", "g7-f8"][ply % 4])
    return game


def run_attacks(venue, hall: HallProcess, victim: LightBoard, honest: list[LightBoard],
                rng: random.Random, log) -> dict:
    notes: dict[str, object] = {}

    def pause(seconds: float) -> None:
        time.sleep(seconds)

    # 1. a legal next move nobody played, with ten million changes
    attacker = Attacker(venue)
    game_id, game, _ = victim.session.published()
    probe = Game(game.variant, game.position)
    played = probe.play(rng.choice(probe.position.legal_moves()))
    attacker.send("ply", PlyMessage(game_id, game.ply + 1, 10_000_000, MoveRecord(
        played.text, played.move.path, played.move.captures)).to_json())
    attacker.close()
    log("attack next-ply sent")
    pause(6)
    # 2. the game with a result the board never declared
    attacker = Attacker(venue)
    game_id, game, _ = victim.session.published()
    forged = Game(game.variant, game.start, dict(game.tags), moves=list(game.moves))
    forged.set_result("0-1", "forged")
    attacker.send("state", StateMessage(game_record(game_id, forged)).to_json())
    attacker.close()
    log("attack result sent")
    pause(6)
    # 3. a made-up game with a made-up position, for the round
    attacker = Attacker(venue)
    made_up = Game.from_fen(get_variant("russian"), "W:W21:B1",
                            tags={"Round": ROUND, "White": "Mallory", "Black": "Eve"})
    fake = "999999999-20991231-235959"
    attacker.send("state", StateMessage(game_record(fake, made_up)).to_json())
    attacker.send("status", StatusMessage(True, "x", 1.0, fake).to_json())
    attacker.close()
    log("attack made-up-game sent")
    pause(6)
    # 4. move 1 replaced, with more changes
    attacker = Attacker(venue)
    game_id, game, _ = victim.session.published()
    first = Game(game.variant, game.start)
    other = [m for m in first.position.legal_moves() if not game.moves
             or m != game.moves[0].move][0]
    played = first.play(other)
    attacker.send("ply", PlyMessage(game_id, 1, 1_000_000, MoveRecord(
        played.text, played.move.path, played.move.captures)).to_json())
    attacker.close()
    log("attack takeback sent")
    pause(6)
    # 5. 2,000 games with made-up ids
    attacker = Attacker(venue)
    rss_before = hall.sample()
    for number in range(2000):
        fake_game = Game(get_variant("russian"), tags={"Round": ROUND, "White": "Fake"})
        fake_id = f"{500 + number * 3:05d}-20261201-{number % 60:02d}0000"
        attacker.send("state", StateMessage(game_record(fake_id, fake_game)).to_json())
    attacker.close()
    pause(8)
    files = sum(1 for _ in (hall.data / "boards" / str(VICTIM)).glob("*.jsonl"))
    notes["fake_games"] = {"hall_rss_before_mb": round(rss_before, 1),
                           "hall_rss_after_mb": round(hall.sample(), 1),
                           "journal_files_of_board_1": files}
    log(f"attack fake-games: {notes['fake_games']}")
    # 6. client ids of others, with board 1's password
    before = {board.number: board.link.connected for board in honest}
    hall_log = hall.log.read_text(errors="replace").count("lost the broker")
    for stolen in ("draughtsboard-board-2", "board2", "hall", "draughtsboard-hall"):
        attacker = Attacker(venue, stolen)
        pause(1)
        attacker.close()
    pause(2)
    notes["client_ids"] = {
        "honest_boards_thrown_off": sum(1 for b in honest if before[b.number]
                                        and not b.link.connected),
        "hall_thrown_off": hall.log.read_text(errors="replace").count(
            "lost the broker") - hall_log}
    log(f"attack client-ids: {notes['client_ids']}")
    # 7. 10,000 plies of made-up games in 5 s
    attacker = Attacker(venue)
    move = MoveRecord("c3-d4", (22, 18))
    started = time.monotonic()
    for number in range(10_000):
        attacker.send("ply", PlyMessage(f"{number + 100:05d}-20261201-120000", 1, 1,
                                        move).to_json(), qos=0)
        if number % 2000 == 1999:
            time.sleep(max(0.0, (number + 1) / 2000 - (time.monotonic() - started)))
    attacker.close()
    log("attack flood sent")
    pause(8)
    # 8. six 94 KB states of 2,000 king moves, each the board's next game
    attacker = Attacker(venue)
    kings = king_moves_game(2000)
    latest = victim.session.game_id
    for offset in range(1, 7):
        number = int(latest.split("-")[0]) + offset
        attacker.send("state", StateMessage(game_record(
            f"{number:05d}-20261201-130000", kings)).to_json())
    attacker.close()
    notes["king_moves_state_bytes"] = len(StateMessage(game_record(latest, kings)).to_json())
    log("attack king-moves sent")
    pause(10)
    # 9. the page: live streams held open, then half-sent requests that reconnect
    streams = opened_requests(hall.port, b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n", 63)
    pause(8)
    for sock in streams:
        sock.close()
    slow: list[socket.socket] = []
    until = time.monotonic() + 15
    while time.monotonic() < until:
        alive = []
        for sock in slow:
            try:
                sock.send(b"a")
                alive.append(sock)
            except OSError:
                sock.close()
        slow = alive + opened_requests(hall.port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ",
                                       70 - len(alive))
        time.sleep(0.5)
    for sock in slow:
        sock.close()
    log("attack streams done")
    # 10. five 100 MB messages, streamed on a plain socket (a client library would
    # refuse to send them: the broker tells clients its largest packet)
    sent = [huge_publish(venue, board_topic(VICTIM, "state"), 100 * 1024 * 1024)
            for _ in range(5)]
    notes["huge_mb_sent_before_the_broker_closed"] = [round(n / 2 ** 20, 1) for n in sent]
    log(f"attack huge sent: {notes['huge_mb_sent_before_the_broker_closed']} MB each")
    pause(5)
    return notes


def opened_requests(port: int, request: bytes, count: int) -> list[socket.socket]:
    """Up to ``count`` connections to the hall on ``port``, each sent ``request`` and
    left open; fewer when the hall stops taking them."""
    opened = []
    for _ in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(request)
            opened.append(sock)
        except OSError:
            break
    return opened


def huge_publish(venue, topic: str, size: int) -> int:
    """Connect with board 1's password on a plain socket and stream one PUBLISH of
    ``size`` bytes; how many bytes went out before the broker closed the connection."""
    address = parse_broker_url(venue.board_url(VICTIM))
    sent = 0
    with socket.create_connection((address.host, address.port), timeout=10) as sock:
        sock.sendall(connect_packet("huge", address.username, address.password))
        sock.recv(4)  # CONNACK
        sock.sendall(publish_header(topic, size))
        chunk = b"x" * 65536
        try:
            while sent < size:
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass  # the broker closed the connection
    return sent


# -- the arbiter settles, then the feed is compared --------------------------------------------

def settle_claims(hall: HallProcess, boards: list[LightBoard]) -> dict[str, int]:
    """Confirm what the board in front of the arbiter shows; dismiss the rest."""
    done = {"confirmed": 0, "dismissed": 0}
    for board in boards:
        detail = call(hall.url, f"/api/board/{board.number}", token=None)
        for claim in detail.get("claims", []):
            real = board.session.games.get(claim["game"])
            shown = call(hall.url, f"/api/board/{board.number}", token=None)
            true_claim = real is not None and claim["confirmable"] and (
                claim["kind"] == "game"
                or (claim["kind"] == "result"
                    and real.result_text() in arbiter.claim_text(claim))
                or (claim["kind"] == "moves" and [p.text for p in real.moves]
                    != shown.get("moves"))
                or (claim["kind"] == "tags" and dict(real.tags) != shown.get("tags")))
            action = "confirm" if true_claim else "dismiss"
            try:
                call(hall.url, f"/api/arbiter/{action}", {"board": board.number,
                                                          "kind": claim["kind"],
                                                          "game": claim["game"],
                                                          "claim": claim["id"]})
                done["confirmed" if true_claim else "dismissed"] += 1
            except urllib.error.HTTPError:
                pass
    return done


def compare(hall: HallProcess, boards: list[LightBoard], round_games: dict[int, str]) -> dict:
    games = call(hall.url, f"/round/{ROUND}/games.json", token=None)["games"]
    shown = {item["board"]: read_pdn(item["pdn"]).games[0].game for item in games
             if read_pdn(item["pdn"]).games}
    out = {"lost": 0, "duplicated": 0, "wrong": 0, "checked": 0}
    for board in boards:
        real = board.session.games[round_games[board.number]]
        truth = [p.text for p in real.moves]
        theirs = [p.text for p in shown[board.number].moves] if board.number in shown else []
        common = 0
        while common < min(len(truth), len(theirs)) and truth[common] == theirs[common]:
            common += 1
        out["checked"] += len(truth)
        out["wrong"] += min(len(truth), len(theirs)) - common
        out["lost"] += max(0, len(truth) - len(theirs))
        out["duplicated"] += max(0, len(theirs) - len(truth))
        if board.number in shown and real.result is not None and \
                shown[board.number].result_text() != real.result_text():
            out["wrong"] += 1
        if board.number in shown and shown[board.number].tags.get("White") != \
                real.tags.get("White"):
            out["wrong"] += 1
    return out


def caught_up(hall: HallProcess, boards: list[LightBoard], round_games: dict[int, str],
              timeout: float) -> float | None:
    """Seconds until the hall shows every board's round game whole (None: never)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            result = compare(hall, boards, round_games)
            if result["lost"] == result["duplicated"] == result["wrong"] == 0:
                return time.monotonic() - started
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.5)
    return None


# -- restarts --------------------------------------------------------------------------------------

def hall_games(hall: HallProcess, boards: list[LightBoard]) -> dict:
    """Every game of every board as the hall shows it (moves, tags, result)."""
    out = {}
    for board in boards:
        detail = call(hall.url, f"/api/board/{board.number}", token=None)
        for listed in detail.get("games", []):
            out[(board.number, listed["game"])] = (listed["ply"], listed["result"])
        if detail.get("game"):
            out[(board.number, detail["game"], "current")] = (
                tuple(detail.get("moves", [])), tuple(sorted(detail.get("tags", {}).items())),
                detail.get("result"))
    return out


def restart_and_count(hall: HallProcess, boards: list[LightBoard], kill: bool, log) -> int:
    before = hall_games(hall, boards)
    hall.stop(kill=kill)
    hall.start()
    time.sleep(3)  # the boards' retained states and answers come back
    after = hall_games(hall, boards)
    changed = [key for key, value in before.items() if after.get(key) != value]
    log(f"restart ({'kill' if kill else 'stop'}): {len(before)} games before, "
        f"{len(changed)} changed" + "".join(f"\n  {key}: {before[key]} -> {after.get(key)}"
                                           for key in changed))
    return len(changed)


def full_disk_round(hall: HallProcess, boards: list[LightBoard], rng, log) -> dict:
    """The hall's data directory (a tmpfs) filled up while moves and a result arrive;
    then freed: how long until the hall has them (a restart after it checks they stay)."""
    filler = hall.data / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass  # full
    finally:
        os.close(fd)
    board = boards[-1]
    storage = None
    for _ in range(30):  # enough moves that the journal needs a page the disk lacks
        board.session.play_random(rng)
        time.sleep(0.1)
        storage = storage or call(hall.url, "/api/hall", token=None)["hall"].get(
            "storage_error")
    board.session.declare_result("1/2-1/2", "agreed")
    time.sleep(3)
    storage = storage or call(hall.url, "/api/hall", token=None)["hall"].get("storage_error")
    filler.unlink()
    freed = time.monotonic()
    while time.monotonic() - freed < 120:
        detail = call(hall.url, f"/api/board/{board.number}", token=None)
        if detail.get("moves") == [p.text for p in board.session.current().moves] and any(
                "1/2-1/2" in arbiter.claim_text(c) for c in detail.get("claims", [])):
            break
        time.sleep(0.5)
    catch_up = time.monotonic() - freed
    log(f"full disk: shown {storage!r}; caught up {catch_up:.1f} s after space was freed")
    return {"storage_error_shown": bool(storage), "catch_up_s": round(catch_up, 1)}


def descriptors(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


# -- the run -------------------------------------------------------------------------------------

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=8, help="boards (board 1 is attacked)")
    parser.add_argument("--pace", type=float, default=1.5,
                        help="seconds between an honest board's moves (on average)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-tmpfs", action="store_true",
                        help="no tmpfs for the hall (the full-disk round is skipped)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="hall-attack-"))
    started = time.monotonic()

    def log(text: str) -> None:
        print(f"[{time.monotonic() - started:6.1f} s] {text}", flush=True)

    data = work / "hall"
    data.mkdir()
    mounted = False
    if not args.no_tmpfs and os.geteuid() == 0:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(data)],
                                 capture_output=True).returncode == 0
    try:
        return run(args, work, data, mounted, rng, log)
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(data)], capture_output=True)


def run(args, work: Path, data: Path, mounted: bool, rng: random.Random, log) -> int:
    venue = loopback_venue(work / "venue", args.boards + 1, log_file=work / "mosquitto.log")
    broker = Mosquitto(venue.config, venue.port, log=work / "mosquitto.log")
    hall = HallProcess.on(venue, data, work / "hall.log", token=TOKEN)
    hall.start()
    boards = [LightBoard(n, venue.board_url(n)) for n in range(1, args.boards + 1)]
    trainee = LightBoard(args.boards + 1, venue.board_url(args.boards + 1), mode="training")
    for board in [*boards, trainee]:
        board.start()
    time.sleep(2)
    pairings = "round,board,white,black\n" + "".join(
        f"{ROUND},{b.number},White {b.number},Black {b.number}\n" for b in boards)
    call(hall.url, "/api/arbiter/pairings", pairings, content_type="text/plain")
    call(hall.url, "/api/arbiter/start-round", {"round": ROUND})  # answers at once
    deadline = time.monotonic() + 30
    while True:  # each board's answer comes as it comes: the hall shows it
        rows = call(hall.url, "/api/hall", None, token=None)["hall"]["pairings"][ROUND]
        delivered = sum(row["state"] == "delivered" for row in rows)
        if delivered == len(boards) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    round_games = {b.number: b.session.game_id for b in boards}
    log(f"round started: {delivered} of {len(boards)} boards")

    probe = ArbiterProbe(hall)
    watcher = Watcher(hall.url)
    victim = boards[VICTIM - 1]
    feed_watch = FeedWatch(hall, lambda: victim.session.games[round_games[VICTIM]])
    stop_play = threading.Event()
    rss = {"broker_peak_mb": 0.0}

    def sample() -> None:
        while not stop_play.is_set():
            hall.sample()
            rss["broker_peak_mb"] = max(rss["broker_peak_mb"], rss_mb(broker.process.pid))
            time.sleep(0.25)

    def play(board: LightBoard, seed: int) -> None:
        board_rng = random.Random(seed)
        while not stop_play.is_set():
            time.sleep(board_rng.uniform(0.5, 1.5) * args.pace)
            if not stop_play.is_set() and board.session.game_id == round_games[board.number]:
                board.session.play_random(board_rng)

    threads = [threading.Thread(target=sample, daemon=True)] + [
        threading.Thread(target=play, args=(b, args.seed * 100 + b.number), daemon=True)
        for b in boards]
    for thread in threads:
        thread.start()
    time.sleep(5)
    notes = run_attacks(venue, hall, victim, boards[1:], rng, log)
    time.sleep(5)
    stop_play.set()
    for thread in threads:
        thread.join(10)
    feed_watch.look()
    feed_watch.stopping = True
    forged_before_settling = len(feed_watch.forged)
    settled = settle_claims(hall, boards)
    log(f"arbiter settled the claims: {settled}")
    wait = caught_up(hall, boards[1:], round_games, 60)
    honest = compare(hall, boards[1:], round_games)
    attacked = compare(hall, [victim], round_games)
    probe.stopping = True
    watcher.stopping = True
    delays = []
    for board in boards[1:]:
        for (game_id, ply), moved in board.session.moved_at.items():
            seen = watcher.shown(board.number, game_id, ply)
            if seen is not None and game_id == round_games[board.number]:
                delays.append((seen - moved) * 1000)
    delays.sort()
    log(f"honest boards: {honest}; board 1 after settling: {attacked}")

    # restarts after tags, takebacks, results and a full disk
    restart_lost = 0
    call(hall.url, "/api/arbiter/tags", {"board": 2, "tags": {"Annotator": "corrected"}})
    for _ in range(6):
        trainee.session.play_random(rng)
    trainee.session.take_back()
    trainee.session.play_random(rng)
    call(hall.url, "/api/arbiter/result", {"board": 3, "result": "1-0", "reason": "flag"})
    time.sleep(3)
    restart_lost += restart_and_count(hall, [*boards, trainee], kill=False, log=log)
    trainee.session.take_back()
    trainee.session.play_random(rng)
    time.sleep(2)
    restart_lost += restart_and_count(hall, [*boards, trainee], kill=True, log=log)
    disk = None
    if mounted:
        fds_before = descriptors(hall.pid)
        disk = full_disk_round(hall, [*boards, trainee], rng, log)
        disk["descriptors_leaked"] = descriptors(hall.pid) - fds_before
        restart_lost += restart_and_count(hall, [*boards, trainee], kill=False, log=log)

    for board in [*boards, trainee]:
        board.stop()
    hall.stop()
    broker.stop()

    summary = {
        "benchmark": "hall_attack", "boards": args.boards,
        "lost": honest["lost"], "duplicated": honest["duplicated"], "wrong": honest["wrong"],
        "honest_moves_checked": honest["checked"],
        "attacked_board": attacked,
        "forged_accepted": len(feed_watch.forged),
        "forged_seen_in_feed": sorted(map(str, feed_watch.forged))[:10],
        "forged_before_settling": forged_before_settling,
        "arbiter_blocked_s": round(probe.blocked_s(), 2),
        "arbiter_calls": probe.calls, "arbiter_failures": probe.failures,
        "hall_rss_peak_mb": round(hall.peak_mb, 1),
        "broker_rss_peak_mb": round(rss["broker_peak_mb"], 1),
        "honest_p50_ms": round(statistics.median(delays), 1) if delays else None,
        "honest_p95_ms": round(delays[int(0.95 * (len(delays) - 1))], 1) if delays else None,
        "honest_moves_timed": len(delays),
        "caught_up_after_settling_s": None if wait is None else round(wait, 1),
        "claims_settled": settled,
        "restart_games_lost": restart_lost,
        "full_disk": disk if disk is not None else "skipped (needs root for a tmpfs)",
        **notes,
    }
    print(json.dumps(summary))
    ok = honest["lost"] == honest["duplicated"] == honest["wrong"] == 0 and \
        not feed_watch.forged and restart_lost == 0
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
