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
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.hall_protocol.broker import BrokerAddress
from draughtsboard.hall_protocol.connect import connect, make_client
from draughtsboard.hall_protocol.games import game_record
from draughtsboard.hall_protocol.messages import StateMessage, StatusMessage
from draughtsboard.hall_protocol.topics import public_topic

from .feed import cut_at, game_at
from .store import HallGame, HallStore

log = logging.getLogger(__name__)


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
                 client_id: str = "draughtsboard-mirror") -> None:
        self.store, self.address, self.delay = store, address, delay
        self.wall, self.interval = wall, interval
        self.client_id = client_id
        self._sent: dict[int, tuple] = {}  # board -> what was published last
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.client = None

    def due(self) -> list[Outgoing]:
        """The messages that bring the public side to each board's game as the hall had
        it ``delay`` seconds ago: nothing for a board whose delayed game is as sent."""
        now = self.wall()
        cutoff = now - self.delay
        out: list[Outgoing] = []
        with self.store.lock:
            for board in sorted(self.store.games):
                hall_game = shown_at(self.store, board, cutoff)
                if hall_game is None:
                    continue
                key = (hall_game.game_id, *cut_at(hall_game, cutoff), hall_game.game.result,
                       tuple(hall_game.game.tags.items()))
                sent = self._sent.get(board)
                if sent == key:  # decided without building the game: once a second for
                    continue  # every board, under the store's lock
                game, _ = game_at(hall_game, cutoff)
                if sent is not None and sent[0] != hall_game.game_id:
                    left = self.store.game(board, sent[0])
                    if left is not None:  # the game left behind, whole as of the cutoff
                        before, _ = game_at(left, cutoff)
                        out.append(Outgoing(public_topic(board, "game"), StateMessage(
                            game_record(left.game_id, before), changed=cutoff,
                            pdn=write_game(before, events=False)).to_json(), False))
                out.append(Outgoing(public_topic(board, "status"), StatusMessage(
                    True, "public mirror", None, hall_game.game_id, {}, cutoff).to_json(),
                    True))
                out.append(Outgoing(public_topic(board, "state"), StateMessage(
                    game_record(hall_game.game_id, game), changed=cutoff,
                    pdn=write_game(game, events=False)).to_json(), True))
                self._sent[board] = key
        return out

    def start(self) -> None:
        if self.address is None:
            raise ValueError("a mirror without a broker only answers `due`")
        self.client = make_client(self.address, self.client_id,
                                  logger=logging.getLogger("draughtsboard.hall.mirror.mqtt"))
        connect(self.client, self.address)
        self._thread = threading.Thread(target=self._run, daemon=True, name="hall-mirror")
        self._thread.start()
        log.info("public mirror: each board's game as it stood %.0f s ago, to %s",
                 self.delay, self.address)

    def _run(self) -> None:
        while not self._stopping.wait(self.interval):
            if not self.client.is_connected():
                continue
            try:
                for message in self.due():
                    self.client.publish(message.topic, message.payload, qos=1,
                                        retain=message.retain)
            except Exception:  # noqa: BLE001 - the mirror must not stop the hall
                log.exception("public mirror: a round of publishing failed")

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(5)
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()
