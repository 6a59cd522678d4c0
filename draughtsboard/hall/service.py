"""The hall's engine: one MQTT client subscribed to every board, one ingest thread that
alone changes the store, and the arbiter's commands out to the boards.

paho's network thread only puts each message in its board's queue (`BoardInbox`); the
ingest thread takes one board's message after another's, applies it (`Ingest`),
journals it (`HallStore`), sends the ``resend`` requests for what is missing, and wakes
the page's live streams. It holds the store's lock for one message at a time, so the
page and the arbiter never wait behind a flood. A bad message is logged with its board's
number (a few lines a minute per board at most) and dropped: nothing a board sends can
stop the others. What a full queue drops is asked for again like any gap.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.hall_protocol.broker import BrokerAddress
from draughtsboard.hall_protocol.connect import connect, make_client, reason_failed
from draughtsboard.hall_protocol.messages import Command, MessageError, Reply
from draughtsboard.hall_protocol.topics import board_topic, parse_topic, subscription
from draughtsboard.subscribers import Subscribers

from .arbiter_log import ArbiterLog
from .inbox import BoardInbox
from .ingest import Ingest, Resend
from .log_limit import LogLimiter
from .pairings import Pairing
from .store import HallStore
from .views import board_detail, board_summary

log = logging.getLogger("draughtsboard.hall")

TICK = 1.0  # seconds between looks for missing moves
REPLY_TIMEOUT = 5.0
RESENDS_REMEMBERED = 10_000  # resend commands awaiting their answer
SENT_REMEMBERED = 10_000  # the arbiter's commands whose answers are still taken
ANSWERS_TAKEN = 3  # answers taken per command


def hall_client_id(data_dir: Path | str) -> str:
    """The hall's MQTT client id: the same for every start on one data directory (the
    broker keeps the hall's session and queued messages across a restart), different for
    another directory (two halls on one broker, a main one and a standby, would otherwise
    throw each other off for ever: a broker drops the older of two clients with one id)."""
    digest = hashlib.sha256(str(Path(data_dir).resolve()).encode()).hexdigest()[:12]
    return f"draughtsboard-hall-{digest}"


class HallService:
    def __init__(self, address: BrokerAddress, data_dir: Path | str, *, sync: bool = True,
                 wall: Callable[[], float] = time.time, client_id: str = "draughtsboard-hall",
                 reply_timeout: float = REPLY_TIMEOUT) -> None:
        self.address = address
        self.data_dir = Path(data_dir)
        self.wall = wall
        self.reply_timeout = reply_timeout
        self.store = HallStore(self.data_dir, sync=sync)
        self.arbiter = ArbiterLog(self.data_dir / "arbiter.jsonl", sync=sync)
        self.ingest = Ingest(self.store, paired=self.arbiter.round_games)
        self.inbox = BoardInbox()
        self.quiet = LogLimiter()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._subscribers = Subscribers()
        self._replies: dict[str, concurrent.futures.Future] = {}
        # command id -> (board, answers taken): a command delivered twice (a board that
        # was thrown off and came back) may be answered twice; the later answer counts
        self._sent: OrderedDict[str, tuple[int, int]] = OrderedDict()
        self._replies_lock = threading.Lock()
        self._summaries: dict[int, tuple[tuple, dict[str, Any]]] = {}
        self._resends: dict[str, Resend] = {}  # resend commands awaiting their answer
        self.version = 0
        self.connected = False
        self.dropped = 0
        self.bad_messages = 0
        self.closing = False
        self.client = make_client(address, client_id,
                                  logger=logging.getLogger("draughtsboard.hall.mqtt"))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        with self.store.lock:
            loaded = self.store.load()
        log.info("hall: %d game(s) read back from %s", loaded, self.data_dir)
        self._thread = threading.Thread(target=self._run, name="hall-ingest", daemon=True)
        self._thread.start()
        log.info("hall: subscribing to every board through %s", self.address)
        connect(self.client, self.address)

    def begin_shutdown(self) -> None:
        """The live streams end now (the server is stopping: it need not wait for them)."""
        self.closing = True
        self._notify()

    def stop(self, timeout: float = 5.0) -> None:
        self.begin_shutdown()
        self._stopping.set()
        self.client.disconnect()
        self.client.loop_stop()
        if self._thread is not None:
            self._thread.join(timeout)
        self.store.close()
        self.arbiter.close()

    # -- paho's thread ---------------------------------------------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_failed(reason_code):
            log.error("hall: the broker refused the connection: %s", reason_code)
            return
        client.subscribe(subscription(), qos=1)
        self.connected = True
        log.info("hall: connected to the broker")
        self._notify()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        if self.connected:
            log.warning("hall: lost the broker (%s); reconnecting", reason_code)
        self.connected = False
        self._notify()

    def _on_message(self, client, userdata, message) -> None:
        parsed = parse_topic(message.topic)
        if parsed is None or parsed[1] == "command":
            return
        board, kind = parsed
        payload = bytes(message.payload)
        if not self.inbox.put(board, (kind, payload, self.wall()), len(payload)):
            self.dropped += 1
            quiet = self.quiet.allow(("full", board))
            if quiet is not None:
                log.error("board %d: its messages come faster than the hall takes them; the "
                          "oldest waiting dropped (asked for again)%s", board, quiet)

    # -- the ingest thread -------------------------------------------------------------------

    def _run(self) -> None:
        next_tick = time.monotonic() + TICK
        since_notify = 0
        while not self._stopping.is_set():
            taken = self.inbox.take(timeout=max(0.0, min(0.1, next_tick - time.monotonic())))
            requests: list[Resend] = []
            if taken is not None:
                board, (kind, payload, received) = taken
                with self.store.lock:
                    requests += self._handle(board, kind, payload, received)
                    self.version += 1
                since_notify += 1
            if time.monotonic() >= next_tick:
                next_tick = time.monotonic() + TICK
                with self.store.lock:
                    requests += self.ingest.missing(self.wall())
            for request in requests:
                self._send_resend(request)
            if since_notify and (taken is None or since_notify >= 50):
                since_notify = 0
                self._notify()

    def _handle(self, board: int, kind: str, payload: bytes, received: float) -> list[Resend]:
        if kind == "reply":
            self._reply(board, payload)
            return []
        try:
            return self.ingest.handle(board, kind, payload, received)
        except (MessageError, DraughtsError, KeyError, TypeError, ValueError) as error:
            self.bad_messages += 1
            self.ingest.note_problem(board, f"{kind}: {error}"[:300])
            quiet = self.quiet.allow(("bad", board))
            if quiet is not None:
                log.warning("board %d: bad %s message dropped: %s%s", board, kind, error, quiet)
        except OSError as error:
            quiet = self.quiet.allow(("disk", board))
            if quiet is not None:
                log.error("board %d: could not journal a %s message (%s); the board is asked "
                          "again once the disk takes writes%s", board, kind, error, quiet)
        return []

    def _reply(self, board: int, payload: bytes) -> None:
        try:
            reply = Reply.from_json(payload)
        except MessageError as error:
            self._bad_reply(board, str(error))
            return
        with self._replies_lock:
            future = self._replies.pop(reply.id, None)
            sent = self._sent.get(reply.id)
            answered = sent is not None and sent[0] == board and sent[1] < ANSWERS_TAKEN
            if answered:
                self._sent[reply.id] = (board, sent[1] + 1)
        if not answered and reply.id not in self._resends:
            # an answer to nothing this hall asked that board (or one answer too many):
            # never written down
            self._bad_reply(board, f"an answer to command {reply.id[:20]!r}, which the hall "
                            "did not send it or has its answers to")
            return
        if reply.id.startswith("resend-"):
            request = self._resends.pop(reply.id, None)
            if not reply.ok:
                quiet = self.quiet.allow(("resend refused", board))
                if quiet is not None:
                    log.warning("board %d: resend refused: %s%s", board, reply.error, quiet)
                if request is not None and request.first is None and request.board == board:
                    self.ingest.give_up(board, request.game, reply.error)
            return
        try:
            with self.store.lock:  # the round's games change with a new game's answer
                before = dict(self.arbiter.round_games)
                self.arbiter.note("reply", self.wall(), board=board, id=reply.id,
                                  ok=reply.ok, error=reply.error,
                                  result=reply.result if isinstance(reply.result, str) else None)
                for (paired_board, round_name), game in self.arbiter.round_games.items():
                    if before.get((paired_board, round_name)) != game:
                        self._round_game_named(paired_board, round_name, game)
        except OSError as error:
            log.error("arbiter log: %s", error)
        if future is not None and not future.done():
            future.set_result(reply)

    def _bad_reply(self, board: int, why: str) -> None:
        self.bad_messages += 1
        quiet = self.quiet.allow(("bad reply", board))
        if quiet is not None:
            log.warning("board %d: reply dropped: %s%s", board, why, quiet)

    def _round_game_named(self, board: int, round_name: str, game_id: str) -> None:
        """A game became the round's game on a board: if the hall lacks it, it is asked
        for (and shown as asked for until it comes); other games of the round become the
        arbiter's question."""
        self.ingest.want(board, game_id, f"the board began it as round {round_name}'s game")
        self.ingest.round_changed(board, round_name, self.wall())

    def _send_resend(self, request: Resend) -> None:
        command = Command(f"resend-{uuid.uuid4().hex[:12]}", "resend", request.game,
                          first=request.first, last=request.last)
        if len(self._resends) > RESENDS_REMEMBERED:
            self._resends.clear()  # answers never came: forgetting them costs a re-ask
        self._resends[command.id] = request
        what = (f"moves {request.first}-{request.last}" if request.first is not None
                else "the whole game")
        quiet = self.quiet.allow(("asking", request.board, request.game))
        if quiet is not None:
            log.info("board %d: asking again for %s of game %s%s", request.board, what,
                     request.game, quiet)
        self.client.publish(board_topic(request.board, "command"), command.to_json(), qos=1)

    # -- the arbiter's commands ---------------------------------------------------------------

    def send_command(self, board: int, cmd: str, **fields) -> tuple[str, concurrent.futures.Future]:
        command = Command(f"hall-{uuid.uuid4().hex[:16]}", cmd, **fields)
        future: concurrent.futures.Future = concurrent.futures.Future()
        with self._replies_lock:
            self._replies[command.id] = future
            self._sent[command.id] = (board, 0)
            while len(self._sent) > SENT_REMEMBERED:
                self._sent.popitem(last=False)
        self.arbiter.note("command", self.wall(), board=board, id=command.id, cmd=cmd,
                          **{k: v for k, v in fields.items() if v not in (None, "", {})})
        self.client.publish(board_topic(board, "command"), command.to_json(), qos=1)
        return command.id, future

    def answer(self, command_id: str, future: concurrent.futures.Future,
               timeout: float | None = None) -> dict[str, Any]:
        try:
            reply = future.result(self.reply_timeout if timeout is None else timeout)
        except concurrent.futures.TimeoutError:
            with self._replies_lock:
                self._replies.pop(command_id, None)
            return {"ok": None, "error": "sent; the board has not answered yet (offline? the "
                    "broker keeps the command for it)"}
        return {"ok": reply.ok, "result": reply.result, "error": reply.error}

    def command(self, board: int, cmd: str, **fields) -> dict[str, Any]:
        """Send a command about the board's current game and wait for its answer."""
        with self.store.lock:
            fields.setdefault("game", self.ingest.live(board).current)
        return self.answer(*self.send_command(board, cmd, **fields))

    def declare_result(self, board: int, result: str, reason: str,
                       game_id: str | None = None) -> dict[str, Any]:
        """The arbiter's result for ``game_id`` (the game on the board's card; None: the
        board's current game): in the hall's record at once (no board message can replace
        it), then sent to the board, whose answer is returned."""
        with self.store.lock:
            game_id = game_id or self._current_game(board)
            self.ingest.arbiter_result(board, game_id, result, reason, self.wall())
            self.version += 1
        self._notify()
        answer = self.answer(*self.send_command(board, "result", game=game_id, result=result,
                                                reason=reason))
        return {**answer, "recorded": f"{result} recorded in the hall for game {game_id}"}

    def set_tags(self, board: int, tags: dict[str, str],
                 game_id: str | None = None) -> dict[str, Any]:
        """The arbiter's tags for ``game_id`` (None: the board's current game): in the
        hall's record at once, then sent to the board."""
        with self.store.lock:
            game_id = game_id or self._current_game(board)
            self.ingest.arbiter_tags(board, game_id, tags)
            self.version += 1
        self._notify()
        return self.answer(*self.send_command(board, "set_tags", game=game_id, tags=tags))

    def _current_game(self, board: int) -> str:
        """The board's current game in the hall (`ValueError` if it has none)."""
        live = self.ingest.live(board)
        latest = self.store.latest(board)
        game_id = live.current or (latest.game_id if latest else None)
        if game_id is None:
            raise ValueError(f"board {board} has no game in the hall")
        return game_id

    def confirm(self, board: int, kind: str, game_id: str, claim_id: str) -> str:
        """The arbiter confirms the claim they read (`ClaimError` if it is gone or has
        changed since)."""
        with self.store.lock:
            done = self.ingest.confirm(board, kind, game_id, claim_id, self.wall())
            if kind == "round":  # the arbiter makes it the round's game
                round_name = self.store.game(board, game_id).round
                self.arbiter.note("round_game", self.wall(), board=board, round=round_name,
                                  game=game_id)
                self.ingest.round_changed(board, round_name, self.wall())
            self.version += 1
        self.arbiter.note("confirm", self.wall(), board=board, claim=kind, game=game_id)
        self._notify()
        return done

    def dismiss(self, board: int, kind: str, game_id: str, claim_id: str) -> str:
        with self.store.lock:
            done = self.ingest.dismiss(board, kind, game_id, claim_id)
            self.version += 1
        self.arbiter.note("dismiss", self.wall(), board=board, claim=kind, game=game_id)
        self._notify()
        return done

    def import_pairings(self, pairings: list[Pairing]) -> None:
        self.arbiter.import_pairings(pairings, self.wall())
        self.version += 1
        self._notify()

    def start_round(self, round_name: str) -> list[dict[str, Any]]:
        pairings = self.arbiter.pairings.get(round_name)
        if not pairings:
            raise ValueError(f"no pairings imported for round {round_name!r}")
        sent = []
        for pairing in pairings:
            with self.store.lock:
                current = self.ingest.live(pairing.board).current
            sent.append((pairing, *self.send_command(pairing.board, "new_game", game=current,
                                                     tags=pairing.tags())))
        return [{"board": p.board, **self.answer(i, f)} for p, i, f in sent]

    # -- views for the page ----------------------------------------------------------------------

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake()`` whenever the hall changed (the page's live streams)."""
        return self._subscribers.subscribe(wake)

    def _notify(self) -> None:
        self._subscribers.notify()

    def board_numbers(self) -> list[int]:
        numbers = set(self.ingest.boards) | set(self.store.games)
        for pairings in self.arbiter.pairings.values():
            numbers |= {p.board for p in pairings}
        return sorted(numbers)

    def summaries(self) -> dict[int, tuple[tuple, dict[str, Any]]]:
        """Every board's summary with a key that changes when the summary does."""
        with self.store.lock:
            out = {}
            for board in self.board_numbers():
                live = self.ingest.live(board)
                latest = self._shown_game(board)
                key = (live.version, latest.game_id if latest else None,
                       latest.version if latest else 0)
                cached = self._summaries.get(board)
                if cached is None or cached[0] != key:
                    cached = self._summaries[board] = (
                        key, board_summary(board, live, latest, self.ingest.wanted(board),
                                           self.ingest.claims.of(board).values()))
                out[board] = cached
            return out

    def detail(self, board: int) -> dict[str, Any] | None:
        with self.store.lock:
            if board not in self.board_numbers():
                return None
            return board_detail(board, self.ingest.live(board), self._shown_game(board),
                                self.store.board_games(board), self.ingest.wanted(board),
                                self.ingest.claims.of(board).values())

    def _shown_game(self, board: int):
        """The game a board's card shows: its current game, else its latest."""
        current = self.ingest.live(board).current
        hall_game = self.store.game(board, current) if current else None
        return hall_game or self.store.latest(board)

    def rounds(self) -> list[str]:
        """Rounds with pairings or with games on the boards."""
        with self.store.lock:
            names = {g.round for g in self.store.all_games() if g.round}
        names |= set(self.arbiter.pairings)
        return sorted(names, key=lambda r: (len(r), r))

    def hall_info(self) -> dict[str, Any]:
        return {"connected": self.connected, "dropped": self.dropped,
                "bad_messages": self.bad_messages, "storage_error": self.store.write_error,
                "rounds": self.rounds(),
                "pairings": {r: [p.to_dict() for p in ps]
                             for r, ps in self.arbiter.pairings.items()}}
