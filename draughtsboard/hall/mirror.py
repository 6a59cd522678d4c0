"""The venue's side of a public mirror: each board's game as the hall had it ``delay``
seconds ago, published on the event's broker under ``draughtsboard/v1/public/`` (a
board's ``state``, retained, ``status``, and a game left behind whole on ``game``), which
a public broker's bridge takes, read-only, into its own ``draughtsboard/v1/board/``
tree for a public hall (docs/hall.md, "A public mirror").

The delay is applied here, inside the venue, before anything leaves it: what goes out
is the hall's own record (moves the rules accepted and the board's whole game
confirmed, `feed.game_at`) cut at the delay, so the public side never holds a move
younger than the delay, whoever reads it. `Mirror.due` is the decision, on the hall's
store and the time; the thread around it publishes what it answers, once a second.

The mirror's own presence is ``draughtsboard/v1/public/room/public_feed/link``, retained: "1"
once connected, "0" as its Will (the venue hall killed, its machine gone) and when it
stops. The public broker's bridge takes it in as the public side's one room link, with
its own notification on the same topic, so the public hall shows every board cut off
while either the bridge or the mirror is down, instead of the last word of each board.

Each board's ``status`` says whether the venue hall has the board online, delayed as its
moves are: a board switched off as its game ends would otherwise tell the public that the
game is over before the delay has passed. The mirror's own link (connected, or why not:
a login the broker refused above all) is logged and shown on the venue hall's page
(`Mirror.state`, ``mirror`` in the hall's data).
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.message import Message
from draughtsboard.hall_protocol.broker import BrokerAddress
from draughtsboard.hall_protocol.connect import connect, make_client, reason_failed

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import StateMessage, StatusMessage
from draughtsboard.hall_protocol.topics import PUBLIC_FEED, PUBLIC_ROOT, public_topic

from .feed import cut_at, game_at
from .log_limit import LogLimiter
from .store import HallGame, HallStore

log = logging.getLogger(__name__)
# the mirror's presence, which the public broker's bridge takes in as its room link
FEED_LINK = f"{PUBLIC_ROOT}/room/{PUBLIC_FEED}/link"
REFUSED_LOG_INTERVAL = 60.0  # seconds between two lines about a refused login (paho
# tries again every second or two)


@dataclass(frozen=True)
class Outgoing:
    topic: str
    payload: bytes
    retain: bool


def shown_at(store: HallStore, board: int, cutoff: float) -> HallGame | None:
    """The board's game the hall had begun last by ``cutoff`` (lock held)."""
    games = [g for g in store.board_games(board) if g.started_received <= cutoff]
    return max(games, key=lambda g: (g.started_received, g.number), default=None)


class Mirror:
    """What the public side is owed (``due``), and a thread that publishes it."""

    def __init__(self, store: HallStore, address: BrokerAddress | None, delay: float, *,
                 wall: Callable[[], float], interval: float = 1.0,
                 client_id: str = "draughtsboard-mirror",
                 online: Callable[[int], bool] | None = None,
                 on_change: Callable[[], None] | None = None) -> None:
        self.store, self.address, self.delay = store, address, delay
        # told when the mirror's link changes (the venue hall wakes its pages with it)
        self.on_change = on_change
        self.wall, self.interval = wall, interval
        self.client_id = client_id
        self.online = online  # whether the venue hall has a board online now (None: all)
        self._sent: dict[int, tuple] = {}  # board -> the game published last
        self._status_sent: dict[int, tuple] = {}  # board -> the status published last
        # board -> its changes of presence (wall time, online), the first one as it
        # stood at the delay's cutoff
        self._presence: dict[int, list[tuple[float, bool]]] = {}
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.client: mqtt.Client | None = None  # from `start` on
        self.connected = False
        self.error: Message | None = None  # why the mirror is not connected, if known
        self.quiet = LogLimiter(REFUSED_LOG_INTERVAL)

    def state(self) -> dict[str, Any]:
        """The mirror's link as the venue hall's page shows it."""
        error = self.error
        return {"connected": self.connected,
                "error": None if error is None else error.as_json()}

    def _presence_at(self, board: int, now: float, cutoff: float) -> bool:
        """Whether ``board`` was online at ``cutoff``, as the mirror saw it (a board's
        presence before the mirror's first look is taken as that look's)."""
        if self.online is None:
            return True
        online = bool(self.online(board))
        changes = self._presence.setdefault(board, [(-math.inf, online)])
        if changes[-1][1] != online:
            changes.append((now, online))
        while len(changes) > 1 and changes[1][0] <= cutoff:
            changes.pop(0)
        return changes[0][1]

    def due(self) -> list[Outgoing]:
        """The messages that bring the public side to each board's game as the hall had
        it ``delay`` seconds ago: nothing for a board whose delayed game and presence are
        as sent."""
        now = self.wall()
        cutoff = now - self.delay
        out: list[Outgoing] = []
        with self.store.lock:
            for board in sorted(self.store.games):
                online = self._presence_at(board, now, cutoff)
                hall_game = shown_at(self.store, board, cutoff)
                if hall_game is None:
                    continue
                key = (hall_game.game_id, *cut_at(hall_game, cutoff), hall_game.game.result,
                       tuple(hall_game.game.tags.items()))
                sent = self._sent.get(board)
                status = (hall_game.game_id, online)
                if sent == key and self._status_sent.get(board) == status:
                    continue  # decided without building the game: once a second for
                    # every board, under the store's lock
                if sent != key and sent is not None and sent[0] != hall_game.game_id:
                    left = self.store.game(board, sent[0])
                    if left is not None:  # the game left behind, whole as of the cutoff
                        before, _ = game_at(left, cutoff)
                        out.append(Outgoing(public_topic(board, "game"), StateMessage(
                            game_record(left.game_id, before), changed=cutoff,
                            pdn=write_game(before, events=False)).to_json(), False))
                out.append(Outgoing(public_topic(board, "status"), StatusMessage(
                    online, "public mirror", None, hall_game.game_id, {}, cutoff).to_json(),
                    True))
                self._status_sent[board] = status
                if sent != key:
                    game, _ = game_at(hall_game, cutoff)
                    out.append(Outgoing(public_topic(board, "state"), StateMessage(
                        game_record(hall_game.game_id, game), changed=cutoff,
                        pdn=write_game(game, events=False)).to_json(), True))
                    self._sent[board] = key
        return out

    # -- paho's thread: the mirror's own link -------------------------------------------

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_failed(reason_code):
            self.connected = False
            self.error = Message.of("hall.mirror.refused", reason=str(reason_code))
            quiet = self.quiet.allow("refused")
            if quiet is not None:
                log.error("public mirror: %s refused the mirror's login (%s): nothing reaches "
                          "the public side; check the mirror's password (mirror.password "
                          "of the event's venue)%s", self.address, reason_code, quiet)
            self._changed()
            return
        if self.error is not None:
            log.warning("public mirror: on %s again", self.address)
        else:
            log.info("public mirror: connected to %s", self.address)
        client.publish(FEED_LINK, b"1", qos=1, retain=True)  # (its Will says "0")
        self.connected, self.error = True, None
        self._changed()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        if self.connected and not self._stopping.is_set():
            log.warning("public mirror: lost %s (%s); reconnecting", self.address,
                        reason_code)
            self.error = Message.of("hall.mirror.lost")
        self.connected = False
        self._changed()

    def _on_connect_fail(self, client, userdata) -> None:
        self.connected = False
        if self.error is None or self.error.id == "hall.mirror.lost":
            self.error = Message.of("hall.mirror.unreachable")
            self._changed()
        quiet = self.quiet.allow("unreachable")
        if quiet is not None:
            log.warning("public mirror: cannot reach %s; trying again%s", self.address,
                        quiet)

    def start(self) -> None:
        if self.address is None:
            raise ValueError("a mirror without a broker only answers `due`")
        client = make_client(self.address, self.client_id,
                             logger=logging.getLogger("draughtsboard.hall.mirror.mqtt"))
        self.client = client
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.will_set(FEED_LINK, b"0", qos=1, retain=True)
        connect(client, self.address)
        self._thread = threading.Thread(target=self._run, daemon=True, name="hall-mirror")
        self._thread.start()
        log.info("public mirror: each board's game as it stood %.0f s ago, to %s",
                 self.delay, self.address)

    def _run(self) -> None:
        client = self.client
        assert client is not None  # the thread is started by `start`, after the client
        while not self._stopping.wait(self.interval):
            if not client.is_connected():
                continue
            try:
                for message in self.due():
                    client.publish(message.topic, message.payload, qos=1,
                                        retain=message.retain)
            except Exception:  # noqa: BLE001 - the mirror must not stop the hall
                log.exception("public mirror: a round of publishing failed")

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(5)
        if self.client is not None:
            if self.client.is_connected():  # (a clean goodbye sends no Will)
                try:
                    self.client.publish(FEED_LINK, b"0", qos=1,
                                        retain=True).wait_for_publish(2.0)
                except (RuntimeError, ValueError):
                    pass  # (lost meanwhile: the Will says it)
            self.client.disconnect()
            self.client.loop_stop()
