"""The arbiter's part of the hall benchmark (`benchmarks.hall`) and its figures.

`ArbiterBot` is the arbiter at the console, through the hall's HTTP API only: imports
the rounds' pairings, starts round 1 while a tenth of the boards are off, starts it a
second time a little later (nothing delivered may change), restarts one board's game
(the board's game has moves: the console holds it until the arbiter names the game, then
closes it), confirms the results the boards declared (a draw agreed at the board is the
board's claim until the arbiter confirms it: it looks at the board's record), and starts
each next round once most boards have finished theirs (a board still playing keeps its
game: its pairing is held and goes by itself once its result is in).

The boards note in the events file (one JSON line each, ``t`` their wall clock):
``connected`` (the link is connected), ``paired`` (the session started a game for the
hall's pairing: ``round``, ``game``), ``command`` (a command reached the link: ``cmd``),
``off``/``on`` (a board switched off for the round start, and back).

* ``pairing_delivered_max_s``: for each board off when round 1 started, from its coming
  online again (its first ``connected`` after ``on``) to its game carrying its pairing
  (``paired`` for round 1); the largest. ``pairing_delivered_s`` gives the others too.
* ``games_with_moves_closed_unconfirmed``: games in the boards' own records closed
  unfinished (``*``) with at least one move, other than the one the arbiter confirmed
  closing.
* ``idle_requests_per_board_per_min``: commands that reached the boards in the quiet
  window at the end (nothing played, nothing missing: the feed matches every journal),
  per board and minute.
"""

from __future__ import annotations

import json
import math
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable

from .http import call


def claim_text(claim: dict) -> str:
    """A claim's words in English, to look for the result it claims: the hall sends a
    message (``{"id", "params"}``, rendered by the catalogs) where an older one sent
    English text. Matching the raw JSON instead found nothing, so the arbiter confirmed
    no result and every game stayed a claim ("wrong" counted each of them twice)."""
    from draughtsboard.board.message import Message, is_message_json
    from draughtsboard.words import english

    text = claim.get("text")
    if isinstance(text, str):
        return text
    if is_message_json(text):
        try:
            return english(Message.from_json(text))
        except ValueError:
            pass
    return json.dumps(text)


def pairings_csv(boards: int, rounds: int) -> str:
    lines = ["round,board,white,black,event"]
    for round_number in range(1, rounds + 1):
        for board in range(1, boards + 1):
            lines.append(f"{round_number},{board},White {board}.{round_number},"
                         f"Black {board}.{round_number},hall benchmark")
    return "\n".join(lines) + "\n"


class ArbiterBot:
    """The arbiter at the console (see the module doc). ``hall_url`` is a function: the
    hall is restarted during the run. ``log`` prints a line of the run's story."""

    def __init__(self, hall_url: Callable[[], str], token: str, boards: int, rounds: int,
                 log: Callable[[str], None]) -> None:
        self.hall_url, self.token, self.boards, self.rounds = hall_url, token, boards, rounds
        self.log = log
        self.current_round = 0
        self.started: dict[str, float] = {}  # round -> when it was started
        self.confirmed_close: set[str] = set()  # games the arbiter confirmed closing
        self.restarted: tuple[int, str] | None = None  # (board, round) restarted
        self.confirmed_results = 0
        self.calls_failed = 0
        self.stopping = False
        self.lock = threading.Lock()

    def post(self, path: str, body):
        return call(self.hall_url(), path, body, token=self.token)

    def import_pairings(self) -> None:
        rows = call(self.hall_url(), "/api/arbiter/pairings",
                    pairings_csv(self.boards, self.rounds), token=self.token,
                    content_type="text/plain")["result"]
        self.log(f"{len(rows)} pairings imported ({self.rounds} rounds)")

    def start_round(self, round_name: str) -> dict[str, int]:
        rows = self.post("/api/arbiter/start-round", {"round": round_name})["result"]
        counts: dict[str, int] = {}
        for row in rows:
            counts[row["state"]] = counts.get(row["state"], 0) + 1
        self.started.setdefault(round_name, time.time())
        self.current_round = max(self.current_round, int(round_name))
        self.log(f"round {round_name} started: {counts}")
        return counts

    def restart_one(self, round_name: str) -> str | None:
        """Restart the game of the first board playing the round with a few moves: held
        first (it has moves), then closed once the arbiter names it. The game closed."""
        overview = call(self.hall_url(), "/api/hall")
        for summary in overview["boards"]:
            if summary.get("round") == round_name and summary.get("ply", 0) >= 3 and \
                    not summary.get("result") and summary.get("online"):
                board = summary["board"]
                row = self.post("/api/arbiter/start-pairing",
                                {"board": board, "round": round_name, "restart": True})["result"]
                if row["state"] != "held":
                    self.log(f"restart of board {board}: {row['state']} without confirmation!")
                    return None
                with self.lock:
                    self.confirmed_close.add(row["game"])
                row = self.post("/api/arbiter/start-pairing",
                                {"board": board, "round": round_name, "restart": True,
                                 "close": row["game"]})["result"]
                self.restarted = (board, round_name)
                self.log(f"board {board}'s game {summary['game']} ({summary['ply']} plies) "
                         f"restarted for round {round_name}: {row['state']}")
                return summary["game"]
        return None

    def confirm_results(self) -> None:
        """Confirm each result a board declared that its record has (the benchmark's
        boards agree draws at the board)."""
        overview = call(self.hall_url(), "/api/hall")
        for summary in overview["boards"]:
            for claim in summary.get("claims", []):
                if claim["kind"] != "result" or "benchmark: agreed" not in claim_text(claim):
                    continue
                try:
                    self.post("/api/arbiter/confirm", {
                        "board": summary["board"], "kind": "result", "game": claim["game"],
                        "claim": claim["id"]})  # the claim the arbiter read
                    self.confirmed_results += 1
                except urllib.error.HTTPError:
                    pass  # settled meanwhile

    def round_done_share(self, round_name: str) -> float:
        overview = call(self.hall_url(), "/api/hall")
        rows = overview["hall"]["pairings"].get(round_name, [])
        by_board = {s["board"]: s for s in overview["boards"]}
        finished = 0
        for row in rows:
            summary = by_board.get(row["board"], {})
            if row["state"] == "delivered" and summary.get("game") == row.get("game") \
                    and summary.get("finished"):
                finished += 1
        return finished / max(1, len(rows))

    def run(self, *, twice_after: float, restart_after: float, next_round_share: float) -> None:
        """The arbiter's day, on a thread until `stopping`: round 1 is started by the
        caller; then round 1 again, one restart, the results, the next rounds."""
        twice_done = restart_done = False
        while not self.stopping:
            try:
                now = time.time()
                if not twice_done and now - self.started["1"] >= twice_after:
                    counts = self.start_round("1")
                    self.log(f"round 1 started a second time: {counts}")
                    twice_done = True
                round_name = str(self.current_round)
                if not restart_done and now - self.started[round_name] >= restart_after:
                    restart_done = self.restart_one(round_name) is not None
                self.confirm_results()
                if self.current_round < self.rounds and \
                        self.round_done_share(round_name) >= next_round_share:
                    self.start_round(str(self.current_round + 1))
            except (OSError, ValueError, KeyError) as error:
                self.calls_failed += 1  # the hall restarting, say
                self.log(f"arbiter: {error!r}")
            time.sleep(2.0)


# -- the figures ---------------------------------------------------------------------------------

def read_events(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def pairing_delivery(events: list[dict], late: set[int], round_started: float,
                     outages: tuple[tuple[float, float], ...] | list[tuple[float, float]] = (),
                     ) -> dict:
    """Seconds from a board's coming online to its game carrying round 1's pairing: for
    the boards off at the start (from their first connection after coming back), and
    for the others (from the round's start). ``late_max_s_outside_outages`` leaves out a
    board whose wait overlapped an outage of the broker or the hall (``outages``: down,
    up): the hall cannot answer while it is down."""
    on: dict[int | None, float] = {}
    connected: dict[int | None, float] = {}
    paired: dict[int | None, float] = {}
    for event in sorted(events, key=lambda e: e["t"]):
        board = event.get("board")
        if event["event"] == "on":
            on[board] = event["t"]
        elif event["event"] == "connected" and board in on and board not in connected \
                and event["t"] >= on[board]:
            connected[board] = event["t"]
        elif event["event"] == "paired" and event.get("round") == "1" and board not in paired:
            paired[board] = event["t"]
    late_s = [paired[b] - connected[b] for b in late if b in paired and b in connected]
    clear = [paired[b] - connected[b] for b in late if b in paired and b in connected
             and not any(down <= paired[b] and connected[b] <= up + 5 for down, up in outages)]
    others = [paired[b] - round_started for b in paired if b not in late]
    return {"late_boards": len(late), "late_delivered": len(late_s),
            "late_max_s": round(max(late_s), 2) if late_s else None,
            "late_max_s_outside_outages": round(max(clear), 2) if clear else None,
            "late_outside_outages": len(clear),
            "late_median_s": round(sorted(late_s)[len(late_s) // 2], 2) if late_s else None,
            "on_time_max_s": round(max(others), 2) if others else None}


def closed_unconfirmed(games: dict[int, list], confirmed: set[str]) -> list[str]:
    """Games closed unfinished with moves in them, the arbiter's confirmed one aside."""
    return [gid for listed in games.values() for gid, game in listed
            if game.result is None and game.result_reason and game.ply > 0
            and gid not in confirmed]


def idle_requests(events: list[dict], since: float, until: float, boards: int) -> dict:
    """Commands that reached the boards in the quiet window, per board and minute."""
    commands = [e for e in events if e["event"] == "command" and since <= e["t"] <= until]
    minutes = max(1e-9, (until - since) / 60)
    kinds: dict[str, int] = {}
    for event in commands:
        kinds[event.get("cmd", "?")] = kinds.get(event.get("cmd", "?"), 0) + 1
    return {"per_board_per_min": round(len(commands) / boards / minutes, 3),
            "commands": len(commands), "kinds": kinds, "minutes": round(minutes, 2)}


def rounds_for(moves: int, game_length: int) -> int:
    return max(1, math.ceil(moves / game_length))
