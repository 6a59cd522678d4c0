"""How long a room's bridge takes to connect, by the room's size: an event's mosquitto
and a room's, written by `draughtsboard.hall.rooms` on the loopback (the room built
directly, so that sizes above ``venue``'s limit of `MAX_ROOM_BOARDS` can be measured
too), the room's broker started after the event's is listening. ``link_s``: from that
start to the event's broker holding the bridge's ``1`` on the room's link topic, read by
the hall's user; ``carrying_s``: to the last board's command, published by the hall
every 0.1 s from then on, reaching that board on its room's broker (the bridge has
subscribed every board's command on the event's broker, each checked against the
event's ACL). ``broken_pipes`` counts the room's broker's "Broken pipe" attempts.

    python -m benchmarks.hall_room_bridge --boards 30,500,9999 --runs 3

The last line is JSON: per size, each run's figures and the median of ``carrying_s``.
"""

from __future__ import annotations

import argparse
import getpass
import json
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from benchmarks.harness.broker import Mosquitto, mosquitto
from benchmarks.harness.ports import free_port
from draughtsboard.hall.rooms import Room, write_event_venue, write_room_venue
from draughtsboard.hall.venue import HALL_USER
from draughtsboard.hall_protocol.topics import ROOT, room_link_topic


def one_run(binary: str, boards: int, folder: Path,
            timeout: float) -> tuple[float, float, int]:
    user = getpass.getuser()
    room = Room("main", 1, boards)
    event = write_event_venue(folder / "event", [room], port=free_port(),
                              log_file=folder / "event.log", run_as=user)
    written = write_room_venue(folder / "main", room, "127.0.0.1", event.port,
                               event.room_passwords["main"], host="127.0.0.1",
                               port=free_port(), log_file=folder / "main.log", run_as=user)
    event_broker = Mosquitto(event.config, event.port, binary=binary, timeout=30)
    up = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=HALL_USER)
    client.username_pw_set(HALL_USER, event.hall_password)
    client.on_connect = lambda c, *_: c.subscribe(room_link_topic("main"), 1)
    client.on_message = lambda c, u, m: up.set() if m.payload == b"1" else None
    client.connect("127.0.0.1", event.port)
    client.loop_start()
    room_broker = None
    board = None
    try:
        time.sleep(0.5)  # subscribed
        began = time.monotonic()
        room_broker = Mosquitto(written.config, written.port, binary=binary, timeout=30)
        if not up.wait(timeout):
            raise SystemExit(f"{boards} boards: the bridge did not connect in {timeout} s")
        linked = time.monotonic() - began
        got = threading.Event()
        board = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"board{boards}")
        board.username_pw_set(f"board{boards}", written.board_passwords[boards])
        board.on_connect = lambda c, *_: c.subscribe(f"{ROOT}/board/{boards}/command", 1)
        board.on_message = lambda *_: got.set()
        board.connect("127.0.0.1", written.port)
        board.loop_start()
        while not got.wait(0.1):
            client.publish(f"{ROOT}/board/{boards}/command", b"{}", qos=1)
            if time.monotonic() - began > timeout:
                raise SystemExit(f"{boards} boards: no command through in {timeout} s")
        carrying = time.monotonic() - began
    finally:
        for made in (board, client):
            if made is not None:
                made.loop_stop()
                made.disconnect()
        for broker in (room_broker, event_broker):
            if broker is not None:
                broker.stop()
    log = (folder / "main.log").read_text(errors="replace")
    return linked, carrying, log.count("Broken pipe")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", default="30,500", help="room sizes, comma-separated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=180.0)
    args = parser.parse_args()
    binary = mosquitto()
    figures = {}
    for boards in (int(n) for n in args.boards.split(",")):
        links, carried, pipes = [], [], []
        for _ in range(args.runs):
            folder = Path(tempfile.mkdtemp(prefix="draughtsboard-bridge-"))
            try:
                linked, carrying, broken = one_run(binary, boards, folder, args.timeout)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            links.append(round(linked, 2))
            carried.append(round(carrying, 2))
            pipes.append(broken)
            print(f"{boards} boards: link up in {linked:.2f} s, carrying in {carrying:.2f} s, "
                  f"{broken} broken pipe(s)", flush=True)
        figures[boards] = {"link_s": links, "carrying_s": carried,
                           "carrying_median_s": statistics.median(carried),
                           "broken_pipes": pipes}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
