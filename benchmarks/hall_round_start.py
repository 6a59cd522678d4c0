"""How long the console waits when the arbiter starts a round on many boards, and how
long the hall's ingest thread is held meanwhile (the store's lock).

A hall (`HallService`, its journals fsynced as in a venue) with ``--boards`` boards
online, each with its start-up game and no moves (their status and state given to the
hall's ingest directly: no broker, the MQTT client counts what it would publish). The
pairings of one round are imported, then the round is started ``--repeat`` times on a
fresh hall; each time: the call's duration (the console's answer), the disk flushes
during it, and the new_game commands sent. The round is then started again at once on
the same hall (pressed twice): commands sent by the second press (goal 0).

    python -m benchmarks.hall_round_start --boards 500

The last line is JSON: ``start_ms_median``, ``start_ms_max``, ``fsyncs``,
``commands_sent``, ``second_press_commands``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.hall.pairings import parse_pairings
from draughtsboard.hall.service import HallService
from draughtsboard.hall_protocol import parse_broker_url
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import StateMessage, StatusMessage


def hall_with_boards(directory: Path, boards: int) -> tuple[HallService, list]:
    hall = HallService(parse_broker_url("mqtt://hall:x@127.0.0.1:1"), directory, sync=True)
    sent: list = []
    hall.client.publish = lambda topic, payload, qos=0: sent.append(topic)
    empty = Game(get_variant("russian"))
    for board in range(1, boards + 1):
        startup = f"{board:05d}-20261201-110000"
        hall.ingest.handle(board, "status", StatusMessage(True, "bench", 1.0, startup).to_json(),
                           time.time())
        hall.ingest.handle(board, "state", StateMessage(game_record(startup, empty)).to_json(),
                           time.time())
    hall.import_pairings(parse_pairings("round,board,white,black\n" + "".join(
        f"1,{board},White {board},Black {board}\n" for board in range(1, boards + 1))))
    return hall, sent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    durations, flushes, commands, second = [], [], [], []
    real_fsync = os.fsync
    counted: list[int] = []

    def counting_fsync(fd: int) -> None:
        counted.append(fd)
        real_fsync(fd)

    os.fsync = counting_fsync
    for attempt in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="hall-round-") as directory:
            hall, sent = hall_with_boards(Path(directory), args.boards)
            counted.clear()
            started = time.perf_counter()
            hall.start_round("1")
            durations.append((time.perf_counter() - started) * 1000)
            flushes.append(len(counted))
            commands.append(len(sent))
            before = len(sent)
            hall.start_round("1")  # pressed twice, before any board answered
            second.append(len(sent) - before)
            hall.store.close()
            hall.arbiter.close()
        print(f"run {attempt + 1}: {durations[-1]:.0f} ms, {flushes[-1]} fsyncs, "
              f"{commands[-1]} commands, second press {second[-1]}", flush=True)
    os.fsync = real_fsync
    print(json.dumps({"boards": args.boards, "start_ms_median": round(statistics.median(durations)),
                      "start_ms_max": round(max(durations)), "fsyncs": max(flushes),
                      "commands_sent": max(commands), "second_press_commands": max(second)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
