"""A board's link to the hall: it follows the play session and publishes through the
venue's MQTT broker, and carries the hall's commands back to the session.

Play never waits for the network. The session only sets an event when it has a new view
(`PlaySession.subscribe`); this link's own thread reads the session's latest read-only
game copy, asks the `Outbox` what is new, and hands that to paho-mqtt, whose network
thread sends it and reconnects for ever when the broker or the network goes away. The
journal stays the source of truth: after any outage (the broker, the network or this
board down) everything past what the broker acknowledged is published again from the
session's game, and the hall fills any remaining gap by asking (``resend``).

Topics and messages: `draughtsboard.hall_protocol`; the broker's address and credentials
(`BrokerAddress`) are logged without the password.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

from draughtsboard.board.game.record import Game
from draughtsboard.hall_protocol.broker import BrokerAddress
from draughtsboard.hall_protocol.connect import connect, make_client, reason_failed
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import (
    Command,
    MessageError,
    Reply,
    StatusMessage,
    decode_json,
)
from draughtsboard.hall_protocol.topics import ROOM_LINKS, board_topic, parse_room_link

from .command_queue import CommandQueue
from .commands import ArbiterActions, carry_out
from .outbox import Outbox, Publication, game_publication, ply_publication

log = logging.getLogger("draughtsboard.hall_link")

STATUS_INTERVAL = 30.0  # seconds between status messages (uptime, health)
PENDING_LIMIT = 20_000  # publications awaiting their PUBACK that are remembered
ANSWERS_KEPT = 200  # answers to the hall's commands, by id, for a command sent again


class LinkedSession(Protocol):
    """What the link needs of the play session (`PlaySession` has it all)."""

    arbiter: ArbiterActions

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]: ...

    def published(self) -> tuple[str, Game | None, dict[str, Any]]: ...

    def call(self, action: Callable[[], Any], timeout: float = 5.0) -> Any: ...


class HallLink:
    """Publishes one board (``board``: its number in the hall) to the broker at
    ``address``. ``health()`` gives the board's own health for the status (stuck
    switches, serial link faults); ``read_game(game_id)`` reads an older game of the
    board, for the hall's ``resend``."""

    def __init__(self, session: LinkedSession, address: BrokerAddress, board: int, *,
                 software: str = "", health: Callable[[], dict[str, Any]] | None = None,
                 read_game: Callable[[str], Game] | None = None,
                 wall: Callable[[], float] = time.time,
                 clock: Callable[[], float] = time.monotonic,
                 status_interval: float = STATUS_INTERVAL) -> None:
        self.session = session
        self.address = address
        self.board = board
        self.software = software
        self.health = health
        self.read_game = read_game
        self.wall = wall
        self.clock = clock
        self.status_interval = status_interval
        self.outbox = Outbox()
        self.command_topic = board_topic(board, "command")
        self._started = clock()
        self._events: queue.SimpleQueue = queue.SimpleQueue()
        self.commands = CommandQueue()
        self._answers: OrderedDict[str, Reply] = OrderedDict()  # command id -> its answer
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._connected = False
        self._pending: dict[int, tuple[str, int]] = {}
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self.published_count = 0
        self.client = make_client(address, f"draughtsboard-board-{board}",
                                  logger=logging.getLogger("draughtsboard.hall_link.mqtt"))
        self.client.will_set(board_topic(board, "status"),
                             StatusMessage(online=False).to_json(), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message

    @property
    def connected(self) -> bool:
        return self._connected

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        log.info("board %d: publishing to the hall through %s", self.board, self.address)
        self._unsubscribe = self.session.subscribe(self._wake.set)
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f"hall-link-{self.board}")
        self._thread.start()
        connect(self.client, self.address)

    def stop(self, timeout: float = 3.0) -> None:
        """Say ``offline`` (a clean goodbye: the broker does not send the Last Will) and
        disconnect. Safe twice."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        self._wake.set()
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._connected:
            info = self.client.publish(board_topic(self.board, "status"),
                                       self._status(online=False), qos=1, retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()

    # -- paho's network thread: only notes what happened --------------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_failed(reason_code):
            log.warning("board %d: the broker refused the connection: %s", self.board,
                        reason_code)
            return
        client.subscribe(self.command_topic, qos=1)
        client.subscribe(ROOM_LINKS, qos=1)  # a room's broker: its bridge to the event's
        self._events.put(("connected", None))
        self._wake.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        if self._connected and reason_failed(reason_code):
            log.warning("board %d: lost the broker (%s); play goes on, the journal keeps "
                        "every move", self.board, reason_code)
        elif self._connected:  # a normal disconnection: the board's own stop
            log.info("board %d: disconnected from the broker (%s)", self.board, reason_code)
        self._connected = False

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        self._events.put(("ack", (mid, reason_failed(reason_code))))
        self._wake.set()

    def _on_message(self, client, userdata, message) -> None:
        if message.topic == self.command_topic:
            self.commands.put(bytes(message.payload))
            self._wake.set()
        elif parse_room_link(message.topic) and bytes(message.payload) == b"1":
            self._events.put(("bridged", None))
            self._wake.set()

    # -- the link's thread -------------------------------------------------------------------

    def _run(self) -> None:
        next_status = 0.0
        while not self._stopping.is_set():
            self._wake.wait(max(0.05, next_status - self.clock()) if self._connected else 1.0)
            self._wake.clear()
            try:
                status_due = self._handle_events()
                for payload in self.commands.take_all():
                    self._command(payload)
                if not self._connected:
                    continue
                if status_due or self.clock() >= next_status:
                    self._send(Publication("status", self._status(online=True), retain=True))
                    next_status = self.clock() + self.status_interval
                game_id, game, view = self.session.published()
                if game is not None:
                    for publication in self.outbox.plan(game_id, game, view, self.wall()):
                        self._send(publication)
                ended = self.outbox.take_ended()
                if ended is not None:
                    ended_game = self._read_game(ended)
                    if ended_game is not None:
                        self._send(game_publication(game_record(ended, ended_game)))
            except Exception:  # noqa: BLE001 - the link must outlive any one bad moment
                log.exception("board %d: hall link error (play goes on)", self.board)

    def _handle_events(self) -> bool:
        reconnected = False
        while True:
            try:
                kind, value = self._events.get_nowait()
            except queue.Empty:
                return reconnected
            if kind == "connected":
                log.info("board %d: connected to the broker", self.board)
                self.outbox.connected()
                self._connected = reconnected = True
            elif kind == "bridged":  # the room's link to the event's broker is (back) up:
                # what the event's broker lost while it was down comes from here again
                log.info("board %d: the room's bridge to the event is up", self.board)
                self.outbox.connected()
                reconnected = True
            elif kind == "ack":
                mid, failed = value
                ply = self._pending.pop(mid, None)
                if failed:
                    log.error("board %d: the broker refused a message (ACL?)", self.board)
                elif ply is not None:
                    self.outbox.acknowledged(*ply)

    def _command(self, payload: bytes) -> None:
        try:
            command = Command.from_json(payload)
        except MessageError as error:
            log.warning("board %d: a bad command from the hall dropped: %s", self.board, error)
            try:
                ident = decode_json(payload).get("id")
            except MessageError:
                return
            if isinstance(ident, str) and len(ident) <= 64:
                self._reply(Reply(ident, False, error=str(error)))
            return
        if command.cmd == "resend":
            self._reply(self._resend(command))
            return
        answered = self._answers.get(command.id)
        if answered is None:  # a command sent again (no answer came) is done once
            answered = self._answers[command.id] = carry_out(self.session.arbiter, command)
            while len(self._answers) > ANSWERS_KEPT:
                self._answers.popitem(last=False)
        self._reply(answered)

    def _read_game(self, game_id: str) -> Game | None:
        """A game that is not the current one, as its journal has it (on the controller
        thread: the recorder is the session's); the last copy seen without a reader."""
        read_game = self.read_game
        if read_game is None:
            return self.outbox.previous(game_id)
        return self.session.call(lambda: read_game(game_id))

    def _resend(self, command: Command) -> Reply:
        game_id = command.game
        assert game_id is not None  # a resend names its game (`Command.from_dict` checks)
        current_id, current, _ = self.session.published()
        try:
            game = current if game_id == current_id else self._read_game(game_id)
        except Exception as error:  # noqa: BLE001 - any failure is the answer
            return Reply(command.id, False, error=f"no game {game_id} here: {error}")
        if game is None:
            return Reply(command.id, False, error=f"no game {game_id} here")
        record = game_record(game_id, game)
        if command.first is None:
            self._send(game_publication(record))
            return Reply(command.id, True, len(record.moves))
        last = min(command.last or command.first, len(record.moves))
        for seq in range(command.first, last + 1):
            self._send(ply_publication(game_id, seq, record.changes - len(record.moves) + seq,
                                       record.moves[seq - 1]))
        return Reply(command.id, True, max(0, last - command.first + 1))

    def _reply(self, reply: Reply) -> None:
        self._send(Publication("reply", reply.to_json()))

    def _status(self, online: bool) -> bytes:
        health: dict[str, Any] = {}
        if self.health is not None:
            try:
                health = dict(self.health())
            except Exception as error:  # noqa: BLE001 - health is a report, not a duty
                health = {"error": f"health report failed: {error}"}
        game_id = self.session.published()[0] or None
        return StatusMessage(online, self.software, round(self.clock() - self._started, 1),
                             game_id, health, self.wall()).to_json()

    def _send(self, publication: Publication) -> None:
        info = self.client.publish(board_topic(self.board, publication.kind),
                                   publication.payload, qos=1, retain=publication.retain)
        self.published_count += 1
        if publication.ply is not None:
            if len(self._pending) >= PENDING_LIMIT:
                self._pending.clear()  # forgotten acks only mean a few moves sent again
            self._pending[info.mid] = publication.ply
