"""Crash safety of the recording path: SIGKILL a recording process at random moments.

A child process records games through the real path (`Recorder.record_move`, fsync per
record), resuming the unfinished game after each kill the way the controller does, and
prints a confirmation line for each move only after `record_move` returned (the moment
the board would light its confirmation LED). The parent kills it with SIGKILL at a
random moment, then reloads the journal and checks that every confirmed move is there,
in its place, exactly once, and that no record is repeated. Records are written in small
pieces (``--chunk``) so that some kills land in the middle of a record and leave a torn
tail, which the loader must drop.

Three more ways to lose or hide a move, each a round every few kills:

* **ENOSPC** (``--enospc-every``): a child plays moves through the real hold-and-retry
  path (`HeldRecords`) while its disk is full for a stretch of moves (an injected write
  error that leaves a partial record behind, as a full disk does); it prints each move
  as played and as confirmed; every played move must be in the journal, in order, once
  the disk has room again (``enospc_lost``);
* **a second writer** (``--second-every``): while a child records, a second one is
  started against the same directory; it must refuse (the data directory's lock) without
  writing, and the journal must stay whole (``second_writer_damage``);
* **a flipped byte** (``--flip-every``): a byte in a finished record (not the last line)
  of the live game is flipped and a child starts: it must report the damaged game rather
  than resume past it or start a new one (``hidden_damage``); the byte is then put back.

    .venv/bin/python -m benchmarks.crash_resume --kills 200

The last line is JSON: ``{"kills": N, "lost": 0, "duplicated": 0, "enospc_lost": 0,
"second_writer_damage": 0, "hidden_damage": 0, ...}``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import draughtsboard.board.rules.variants  # noqa: F401  (registers every variant)
from benchmarks.harness.disk import FullDisk
from benchmarks.harness.processes import CHECKOUT, module_command
from draughtsboard.board.rules.notation import format_move
from draughtsboard.board.tracker.events import MoveEvent
from draughtsboard.play.opening import choose_opening
from draughtsboard.recording import DataDirBusyError
from draughtsboard.recording import journal as journal_module
from draughtsboard.recording.journal import load_journal
from draughtsboard.recording.recorder import Recorder
from draughtsboard.recording.tracker_events import HeldRecords

MAX_PLIES = 80
EXIT_BUSY = 75  # as `draughtsboard play` (cli.EXIT_BUSY)
EXIT_DAMAGED = 3


def open_child(directory: str, chunk: int):
    """A recorder holding the directory's lock, and the game to resume (or ``None``), as
    `draughtsboard play` decides it; exits ``EXIT_BUSY`` or ``EXIT_DAMAGED`` when play
    would refuse."""
    recorder = Recorder(directory, chunk_size=chunk)
    try:
        recorder.lock()
    except DataDirBusyError:
        print("busy", flush=True)
        sys.exit(EXIT_BUSY)
    opening = choose_opening(recorder)
    if opening.damaged is not None:
        print(f"damaged {opening.damaged.game_id} {opening.damaged.good}", flush=True)
        sys.exit(EXIT_DAMAGED)
    return recorder, opening


def child(directory: str, seed: int, chunk: int) -> None:
    """Record games forever (until killed), resuming the unfinished one first."""
    recorder, opening = open_child(directory, chunk)
    game_id = None
    if opening.resumes:
        game_id = opening.resume_id
        recorder.record_resume(game_id, time.monotonic(), time.time())
    print("ready", flush=True)
    number = 0
    while True:
        if game_id is None:
            variant = ("international", "russian")[number % 2]
            game_id = recorder.start_game(variant, {"Event": "crash benchmark"},
                                          t_monotonic=time.monotonic(), t_wall=time.time())
            number += 1
        game = recorder.load(game_id)  # a read-only copy: asked again after each record
        outcome = game.outcome()
        if outcome is not None or game.ply >= MAX_PLIES:
            result, reason = outcome or ("*", "benchmark length limit")
            recorder.record_result(game_id, result, reason)
            print(f"result {game_id}", flush=True)
            game_id = None
            continue
        legal = sorted(game.position.legal_moves(), key=lambda m: (m.path, m.captures))
        rng = random.Random(f"{seed}:{game_id}:{game.ply}")
        if game.ply % 7 == 3:
            recorder.record_illegal(game_id, "50-45", "no piece there", time.monotonic(),
                                    time.time())
        move = rng.choice(legal)
        ply = game.ply
        recorder.record_move(game_id, move, time.monotonic(), time.time())
        print(f"move {game_id} {ply} {'-'.join(map(str, move.path))}", flush=True)


def enospc_child(directory: str, seed: int, chunk: int, moves: int) -> None:
    """Play ``moves`` moves through `HeldRecords` with the disk full for a stretch of
    them; print each move when played and when confirmed, then ``done``."""
    recorder, opening = open_child(directory, chunk)
    disk = FullDisk(kept=7)
    journal_module.os.write = disk
    if opening.resumes:
        game_id = opening.resume_id
        recorder.record_resume(game_id, 0.0, time.time())
    else:
        game_id = recorder.start_game("russian", {"Event": "ENOSPC"}, t_wall=time.time())
    rng = random.Random(f"{seed}:{game_id}")
    full_from = rng.randrange(0, moves)
    full_to = rng.randrange(full_from + 1, moves + 1)
    held = HeldRecords(recorder)
    played: list[tuple[int, str]] = []
    position = recorder.load(game_id).position
    ply = recorder.load(game_id).ply
    now = 0.0
    most_held = 0
    for index in range(moves):
        legal = sorted(position.legal_moves(), key=lambda m: (m.path, m.captures))
        if not legal:
            break
        disk.full = full_from <= index < full_to
        move = rng.choice(legal)
        event = MoveEvent(now, "move", format_move(position, move), move.path, move.captures)
        print(f"played {game_id} {ply} {'-'.join(map(str, move.path))}", flush=True)
        played.append((ply, "-".join(map(str, move.path))))
        now += 1.0
        held.add(game_id, event, time.time(), now)
        held.retry(now)
        position = position.play(move)
        ply += 1
        most_held = max(most_held, len(held.held_moves))
        if not held.held:
            for done_ply, path in played:
                print(f"move {game_id} {done_ply} {path}", flush=True)
            played.clear()
    disk.full = False
    for _ in range(100):
        now += 10.0
        held.retry(now)
        if not held.held:
            break
    for done_ply, path in played:
        print(f"move {game_id} {done_ply} {path}", flush=True)
    print(f"most-held {game_id} {most_held}", flush=True)
    print(f"done {game_id} {int(held.held)}", flush=True)


def verify(directory: Path, confirmed: dict[str, dict[int, str]],
           torn_seen: set) -> tuple[int, int]:
    """(lost, duplicated) over every journal in ``directory``; torn tails are added to
    ``torn_seen`` as (game, length) so that each is counted once."""
    recorder = Recorder(directory, lock=False)
    lost = duplicated = 0
    for game_id in recorder.game_ids():
        loaded = load_journal(recorder.path_of(game_id))
        if loaded.torn_tail:
            torn_seen.add((game_id, recorder.path_of(game_id).stat().st_size))
        if loaded.damaged:
            raise SystemExit(f"damaged journal: {loaded.damage}")
        plies = [r["ply"] for r in loaded.records if r.get("type") == "move"]
        duplicated += len(plies) - len(set(plies))
        if not loaded.records:
            continue  # killed while writing the start record: nothing confirmed
        game = recorder.load(game_id)
        for ply, path in confirmed.get(game_id, {}).items():
            if ply >= game.ply or "-".join(map(str, game.moves[ply].move.path)) != path:
                lost += 1
    for game_id in set(confirmed) - set(recorder.game_ids()):
        lost += len(confirmed[game_id])
    return lost, duplicated


def start_child(command: list[str]) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=CHECKOUT)
    return process, process.stdout.readline().strip()


def collect(output: str, confirmed: dict[str, dict[int, str]]) -> None:
    for line in output.splitlines():
        parts = line.split()
        if parts and parts[0] == "move" and len(parts) == 4:
            confirmed.setdefault(parts[1], {})[int(parts[2])] = parts[3]


def enospc_round(command: list[str], directory: Path, confirmed) -> tuple[int, int]:
    """(moves played and missing once the disk had room again: 0 is right, moves that
    were held while the disk was full)."""
    done = subprocess.run(command + ["--enospc-child", "12"], capture_output=True, text=True,
                          timeout=120, check=False)
    played: dict[str, dict[int, str]] = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        if parts and parts[0] == "played":
            played.setdefault(parts[1], {})[int(parts[2])] = parts[3]
    collect(done.stdout, confirmed)
    if done.returncode != 0 or "done" not in done.stdout:
        raise SystemExit(f"ENOSPC child failed ({done.returncode}): {done.stderr[-400:]}")
    lost = 0
    recorder = Recorder(directory, lock=False)
    for game_id, plies in played.items():
        game = recorder.load(game_id)
        for ply, path in plies.items():
            if ply >= game.ply or "-".join(map(str, game.moves[ply].move.path)) != path:
                lost += 1
    held = sum(int(line.split()[2]) for line in done.stdout.splitlines()
               if line.startswith("most-held "))
    return lost, held


def second_writer_round(command: list[str], directory: Path, rng: random.Random,
                        confirmed) -> int:
    """1 if a second process started against the live directory wrote or damaged it."""
    first, ready = start_child(command)
    if ready != "ready":
        first.kill()
        raise SystemExit(f"child did not start: {ready!r}")
    time.sleep(rng.uniform(0, 0.03))
    second = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    time.sleep(rng.uniform(0, 0.03))
    os.kill(first.pid, signal.SIGKILL)
    output = first.stdout.read()
    first.wait()
    first.stdout.close()
    collect(output, confirmed)
    damage = int(second.returncode != EXIT_BUSY or "ready" in second.stdout)
    recorder = Recorder(directory, lock=False)
    for game_id in recorder.game_ids():
        damage += int(load_journal(recorder.path_of(game_id)).damaged)
    return damage


def flip_round(command: list[str], directory: Path, rng: random.Random) -> int | None:
    """1 if a flipped byte in a finished record of the live game went unreported (0 is
    right); ``None`` when there is no live game long enough to flip."""
    recorder = Recorder(directory, lock=False)
    ids = recorder.game_ids()
    if not ids:
        return None
    path = recorder.path_of(ids[-1])
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    if len(lines) < 3 or any(b'"type":"result"' in line for line in lines):
        return None
    index = rng.randrange(1, len(lines) - 1)  # a finished record, never the last line
    start = sum(len(line) for line in lines[:index])
    offset = start + rng.randrange(0, len(lines[index]) - 1)  # not its newline
    damaged = bytearray(data)
    damaged[offset] ^= 1 << rng.randrange(0, 7)
    if damaged[offset] == ord("\n"):
        damaged[offset] ^= 0x20
    path.write_bytes(bytes(damaged))
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        hidden = int(done.returncode != EXIT_DAMAGED or f"damaged {ids[-1]}" not in done.stdout
                     or path.read_bytes() != bytes(damaged))
    finally:
        path.write_bytes(data)  # a person would now choose; the benchmark puts it back
    return hidden


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--enospc-every", type=int, default=5,
                        help="an ENOSPC round after every N kills (0: none)")
    parser.add_argument("--second-every", type=int, default=5,
                        help="a second-writer round after every N kills (0: none)")
    parser.add_argument("--flip-every", type=int, default=5,
                        help="a flipped-byte round after every N kills (0: none)")
    parser.add_argument("--enospc-child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=16, help="bytes per write() call")
    parser.add_argument("--max-delay", type=float, default=0.06,
                        help="seconds after the child is ready before the kill, at most")
    parser.add_argument("--dir", help="journal directory (default: a temporary one)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child and args.enospc_child:
        enospc_child(args.dir, args.seed, args.chunk, args.enospc_child)
        return 0
    if args.child:
        child(args.dir, args.seed, args.chunk)
        return 0
    directory = Path(args.dir or tempfile.mkdtemp(prefix="crash-resume-"))
    rng = random.Random(args.seed)
    confirmed: dict[str, dict[int, str]] = {}
    totals = {"lost": 0, "duplicated": 0}
    rounds = {"enospc_rounds": 0, "enospc_moves_held": 0, "enospc_lost": 0,
              "second_writer_rounds": 0,
              "second_writer_damage": 0, "flip_rounds": 0, "hidden_damage": 0}
    torn_seen: set = set()
    started = time.perf_counter()
    command = module_command("benchmarks.crash_resume", "--child", "--dir", str(directory),
                             "--seed", str(args.seed), "--chunk", str(args.chunk))
    for number in range(1, args.kills + 1):
        process, ready = start_child(command)
        if ready != "ready":
            process.kill()
            raise SystemExit(f"child did not start: {ready!r}")
        time.sleep(rng.uniform(0, args.max_delay))
        os.kill(process.pid, signal.SIGKILL)
        output = process.stdout.read()
        process.wait()
        process.stdout.close()
        collect(output, confirmed)
        lost, duplicated = verify(directory, confirmed, torn_seen)  # before anyone reopens it
        totals["lost"] = max(totals["lost"], lost)
        totals["duplicated"] = max(totals["duplicated"], duplicated)
        if args.flip_every and number % args.flip_every == 0:
            hidden = flip_round(command, directory, rng)
            if hidden is not None:
                rounds["flip_rounds"] += 1
                rounds["hidden_damage"] += hidden
        if args.second_every and number % args.second_every == 0:
            rounds["second_writer_rounds"] += 1
            rounds["second_writer_damage"] += second_writer_round(command, directory, rng,
                                                                  confirmed)
        if args.enospc_every and number % args.enospc_every == 0:
            rounds["enospc_rounds"] += 1
            lost_now, held_now = enospc_round(command, directory, confirmed)
            rounds["enospc_lost"] += lost_now
            rounds["enospc_moves_held"] += held_now
        lost, duplicated = verify(directory, confirmed, torn_seen)
        totals["lost"] = max(totals["lost"], lost)  # cumulative checks: the worst seen
        totals["duplicated"] = max(totals["duplicated"], duplicated)
    moves = sum(len(plies) for plies in confirmed.values())
    report = {"kills": args.kills, "lost": totals["lost"], "duplicated": totals["duplicated"],
              "torn_tails_dropped": len(torn_seen), "confirmed_moves": moves,
              "games": len(Recorder(directory).game_ids()), **rounds,
              "seconds": round(time.perf_counter() - started, 1)}
    print(f"journal directory: {directory}", file=sys.stderr)
    print(json.dumps(report))
    bad = ("lost", "duplicated", "enospc_lost", "second_writer_damage", "hidden_damage")
    return 0 if not any(report[key] for key in bad) else 1


if __name__ == "__main__":
    sys.exit(main())
