"""The hall's engine: one MQTT client subscribed to every board, one ingest thread that
alone changes the store, and the arbiter's commands out to the boards.

paho's network thread only puts each message in its board's queue (`BoardInbox`); the
ingest thread takes one board's message after another's, applies it (`Ingest`),
journals it (`HallStore`), sends the ``resend`` requests for what is missing, and wakes
the page's live streams (`Announcer`: within 50 ms of a change, however busy). It
holds the store's lock for one message at a time, so the page and the arbiter never
wait behind a flood. A bad message is logged with its board's number (a few lines a
minute per board at most) and dropped: nothing a board sends can stop the others. What a
full queue drops is asked for again like any gap.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from draughtsboard.board.message import Listed, Message
from draughtsboard.board.rules import parse_fen
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.hall_protocol.broker import BrokerAddress
from draughtsboard.hall_protocol.connect import connect, make_client, reason_failed
from draughtsboard.hall_protocol.messages import (
    CLOCK_ACTIONS,
    GAME_ID,
    Command,
    MessageError,
    Reply,
)
from draughtsboard.hall_protocol.topics import (
    MAX_BOARD,
    PUBLIC_FEED,
    ROOM_LINKS,
    board_topic,
    parse_room_link,
    parse_topic,
    subscription,
)
from draughtsboard.subscribers import Subscribers
from draughtsboard.words import english

from .announce import Announcer
from .arbiter_log import ArbiterLog, Promise
from .delivery import BoardFacts, Decision, Delivery
from .inbox import BoardInbox
from .ingest import Ingest, Resend
from .log_limit import LogLimiter
from .pairings import Pairing
from .room_links import RoomLinks
from .rooms import Room
from .said import HallError, said, shown
from .store import HallStore
from .views import BOTH_LOSE, board_detail, board_summary, with_clock_now

log = logging.getLogger("draughtsboard.hall")

TICK = 1.0  # seconds between looks for missing moves and pairings owed
REPLY_TIMEOUT = 5.0  # seconds the console waits for an online board's answer
UNANSWERED_AFTER = 10.0  # seconds before a command without an answer shows on the card
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
                 reply_timeout: float = REPLY_TIMEOUT, rooms: Iterable[Room] = (),
                 venue_record: bool = False,
                 say: Callable[[Message], str] | None = None) -> None:
        self.address = address
        self.say = say or english  # the start-up lines, in the venue's language
        self.data_dir = Path(data_dir)
        self.wall = wall
        self.reply_timeout = reply_timeout
        self.store = HallStore(self.data_dir, sync=sync)
        self.arbiter = ArbiterLog(self.data_dir / "arbiter.jsonl", sync=sync)
        rooms = tuple(rooms)
        if venue_record and not rooms:  # a public hall: the venue's feed is its one room
            rooms = (Room(PUBLIC_FEED, 1, MAX_BOARD),)
        self.ingest = Ingest(self.store, paired=self.arbiter.round_games,
                             links=RoomLinks(rooms), venue_record=venue_record)
        self.delivery = Delivery()
        self._decisions: dict[tuple[int, str], Decision] = {}  # (board, round) -> shown
        self._decided = 0  # grows when a decision shown changes
        self._desks_cache: tuple[tuple, dict[int, dict[str, Any]]] | None = None
        self._info_cache: tuple[tuple, dict[str, Any]] | None = None
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
        self.internal_errors = 0  # messages whose handling failed on a bug of the hall's
        self.closing = False
        # a public mirror's link (`hall.mirror.Mirror.state`), shown as ``mirror`` in
        # `hall_info` when the hall runs one
        self.mirror_state: Callable[[], dict[str, Any]] | None = None
        self.client = make_client(address, client_id,
                                  logger=logging.getLogger("draughtsboard.hall.mqtt"))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        with self.store.lock:
            loaded = self.store.load()
        log.info("%s", self.say(Message.of("cli.hall.read_back", count=loaded,
                                           path=str(self.data_dir))))
        self._thread = threading.Thread(target=self._run, name="hall-ingest", daemon=True)
        self._thread.start()
        log.info("%s", self.say(Message.of("cli.hall.subscribing", broker=str(self.address))))
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
        client.subscribe([(subscription(), 1), (ROOM_LINKS, 1)])
        self.connected = True
        log.info("hall: connected to the broker")
        self._notify()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        if self.connected and reason_failed(reason_code):
            log.warning("hall: lost the broker (%s); reconnecting", reason_code)
        elif self.connected:  # a normal disconnection: the hall's own stop
            log.info("hall: disconnected from the broker (%s)", reason_code)
        self.connected = False
        self._notify()

    def _on_message(self, client, userdata, message) -> None:
        room = parse_room_link(message.topic)
        if room is not None:  # rare, and about many boards at once: taken here
            with self.store.lock:
                changed = self.ingest.room_link(room, bytes(message.payload))
                if changed:
                    self.version += 1
            if changed:
                cut = self.ingest.links.is_cut(room)
                if room == PUBLIC_FEED and self.ingest.venue_record:
                    log.warning("hall: the venue's feed is %s", "interrupted (the bridge or "
                                "the venue hall's mirror is down): the boards are shown "
                                "cut off" if cut else "back")
                else:
                    log.warning("hall: room %s's link to the event is %s", room,
                                "cut" if cut else "back")
                self._notify()
            return
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
        announcer = Announcer()
        while not self._stopping.is_set():
            now = time.monotonic()
            taken = self.inbox.take(timeout=announcer.wait(now, min(0.1, next_tick - now)))
            requests: list[Resend] = []
            commands: list[tuple[int, Command]] = []
            if taken is not None:
                board, (kind, payload, received) = taken
                with self.store.lock:
                    requests += self._handle(board, kind, payload, received)
                    if self.arbiter.promises_of(board):  # it may take its pairing now
                        commands += self._deliver([board])
                    self.version += 1
                announcer.changed()
            if time.monotonic() >= next_tick:
                next_tick = time.monotonic() + TICK
                with self.store.lock:
                    before = self.version
                    requests += self.ingest.missing(self.wall())
                    commands += self._deliver(sorted({b for b, _ in self.arbiter.promises}))
                    if self.version != before:  # a pairing's state changed
                        announcer.changed()
            for request in requests:
                self._send_resend(request)
            for board, command in commands:
                self._publish(board, command)
            if announcer.due(time.monotonic()):
                self._notify()

    def _handle(self, board: int, kind: str, payload: bytes, received: float) -> list[Resend]:
        if kind == "reply":
            self._reply(board, payload)
            return []
        try:
            return self.ingest.handle(board, kind, payload, received)
        except (MessageError, DraughtsError, KeyError, TypeError, ValueError) as error:
            self.bad_messages += 1
            self.ingest.note_problem(board, said("hall.problem.bad", kind=kind,
                                                 error=str(error)[:300]))
            quiet = self.quiet.allow(("bad", board))
            if quiet is not None:
                log.warning("board %d: bad %s message dropped: %s%s", board, kind, error, quiet)
        except OSError as error:
            quiet = self.quiet.allow(("disk", board))
            if quiet is not None:
                log.error("board %d: could not journal a %s message (%s); the board is asked "
                          "again once the disk takes writes%s", board, kind, error, quiet)
        except Exception as error:  # noqa: BLE001 - a bug must not stop the whole hall
            # Left to rise, it would end the ingest thread: every board's moves would stop
            # reaching the record, silently. The message is dropped (the board is asked
            # again for what the record lacks), the arbiter sees it, the log has the trace.
            self.internal_errors += 1
            self.ingest.note_problem(board, said("hall.problem.failed", kind=kind,
                                                 error=repr(error)[:300]))
            quiet = self.quiet.allow(("bug", board))
            if quiet is not None:
                log.exception("board %d: the hall failed on a %s message (a bug: please "
                              "report it)%s", board, kind, quiet)
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
            if answered and sent is not None:  # (answered says sent is not None)
                self._sent[reply.id] = (board, sent[1] + 1)
        if not answered and reply.id not in self._resends:
            # an answer to nothing this hall asked that board (or one answer too many):
            # never written down
            self._bad_reply(board, f"an answer to command {reply.id[:20]!r}, which the hall "
                            "did not send it or has its answers to")
            return
        if reply.id.startswith("resend-"):
            self._resend_answered(board, reply)
        else:
            self._answered(board, reply)
        if future is not None and not future.done():
            future.set_result(reply)

    def _answered(self, board: int, reply: Reply) -> None:
        """A board's answer to one of the arbiter's commands: journalled (a pairing it
        started is bound to its game, a refusal shows on its card), and a game the board
        started at the hall's asking is one the hall expects."""
        try:
            with self.store.lock:  # the round's games change with a new game's answer
                sent = self.arbiter.outstanding.get(reply.id)
                before = dict(self.arbiter.round_games)
                self.arbiter.note("reply", self.wall(), board=board, id=reply.id,
                                  ok=reply.ok, error=reply.error,
                                  result=reply.result if isinstance(reply.result, str) else None)
                for (paired_board, round_name), game in self.arbiter.round_games.items():
                    if before.get((paired_board, round_name)) != game:
                        self._round_game_named(paired_board, round_name, game)
                if sent is not None and sent.get("board") == board:
                    self.delivery.forget(reply.id)
                    if reply.ok:
                        self._carried_out(board, sent, reply)
                self.version += 1
        except OSError as error:
            log.error("arbiter log: %s", error)

    def _carried_out(self, board: int, sent: dict, reply: Reply) -> None:
        """What a board did at the hall's asking shows in its game next, and the hall
        follows it there (lock held): the game it started is expected, its takeback and
        its corrected position are the arbiter's, not claims."""
        cmd, game = sent.get("cmd"), sent.get("game")
        if cmd == "new_game" and isinstance(reply.result, str) and GAME_ID.match(reply.result):
            self.ingest.expect(board, reply.result)
            if isinstance(game, str):  # the game it closed for it: closed at the hall's word
                self.ingest.order(board, game, "close", "*")
        elif cmd == "takeback" and isinstance(game, str) and isinstance(sent.get("ply"), int):
            self.ingest.order(board, game, "takeback", sent["ply"])
        elif cmd == "position" and isinstance(game, str) and isinstance(reply.result, str):
            self.ingest.order(board, game, "position", reply.result)

    def _resend_answered(self, board: int, reply: Reply) -> None:
        request = self._resends.pop(reply.id, None)
        if not reply.ok:
            quiet = self.quiet.allow(("resend refused", board))
            if quiet is not None:
                log.warning("board %d: resend refused: %s%s", board, reply.error, quiet)
            if request is not None and request.first is None and request.board == board:
                self.ingest.give_up(board, request.game, reply.error)

    def _bad_reply(self, board: int, why: str) -> None:
        self.bad_messages += 1
        quiet = self.quiet.allow(("bad reply", board))
        if quiet is not None:
            log.warning("board %d: reply dropped: %s%s", board, why, quiet)

    def _round_game_named(self, board: int, round_name: str, game_id: str) -> None:
        """A game became the round's game on a board: if the hall lacks it, it is asked
        for (and shown as asked for until it comes); other games of the round become the
        arbiter's question."""
        self.ingest.want(board, game_id, said("hall.wanted.round_game", round=round_name))
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

    def known(self, board: int) -> bool:
        """Whether the hall knows ``board``: it sent a message, has games here or has a
        pairing. A command to another board is refused (no card appears for it)."""
        return board in self.ingest.boards or board in self.store.games or any(
            p.board == board for ps in self.arbiter.pairings.values() for p in ps)

    def _check_known(self, board: int) -> None:
        if not self.known(board):
            raise HallError(said("console.error.unknown_board", board=board))

    def _expect_answer(self, command_id: str, board: int) -> None:
        """The board's answers to this command are taken (a few: it may come twice),
        again after each time the command is sent (call with the replies' lock held)."""
        self._sent[command_id] = (board, 0)
        self._sent.move_to_end(command_id)
        while len(self._sent) > SENT_REMEMBERED:
            self._sent.popitem(last=False)

    def _publish(self, board: int, command: Command) -> None:
        self.client.publish(board_topic(board, "command"), command.to_json(), qos=1)

    def send_command(self, board: int, cmd: str, **fields) -> tuple[str, concurrent.futures.Future]:
        """Journal the command, then send it; its answer comes through the future."""
        command = Command(f"hall-{uuid.uuid4().hex[:16]}", cmd, **fields)
        future: concurrent.futures.Future = concurrent.futures.Future()
        with self._replies_lock:
            self._replies[command.id] = future
            self._expect_answer(command.id, board)
        with self.store.lock:
            self.arbiter.note("command", self.wall(), board=board, id=command.id, cmd=cmd,
                              **{k: v for k, v in fields.items() if v not in (None, "", {})})
            self.version += 1
        self._publish(board, command)
        self._notify()
        return command.id, future

    def answer(self, command_id: str, future: concurrent.futures.Future,
               timeout: float | None = None, *, board: int | None = None) -> dict[str, Any]:
        """The board's answer, waited for while the board is online (``reply_timeout``
        at most); an offline board's command waits at the broker, and the console is told
        at once. The answer, when it comes, shows on the board's card either way."""
        if board is not None and not self._online(board):
            with self._replies_lock:
                self._replies.pop(command_id, None)
            return {"ok": None, "error": said("console.answer.offline", board=board)}
        try:
            reply = future.result(self.reply_timeout if timeout is None else timeout)
        except concurrent.futures.TimeoutError:
            with self._replies_lock:
                self._replies.pop(command_id, None)
            return {"ok": None, "error": said("console.answer.not_yet")}
        return {"ok": reply.ok, "result": reply.result, "error": reply.error}

    def _online(self, board: int) -> bool:
        live = self.ingest.boards.get(board)
        return live is not None and live.online

    def command(self, board: int, cmd: str, **fields) -> dict[str, Any]:
        """Send a command about the board's current game and wait for its answer."""
        with self.store.lock:
            self._check_known(board)
            live = self.ingest.boards.get(board)
            fields.setdefault("game", live.said_current or live.current if live else None)
        return self.answer(*self.send_command(board, cmd, **fields), board=board)

    def declare_result(self, board: int, result: str, reason: str,
                       game_id: str | None = None) -> dict[str, Any]:
        """The arbiter's result for ``game_id`` (the game on the board's card; None: the
        board's current game), one of the variant's as written (a Russian board takes no
        2-0): in the hall's record at once (no board message can replace it), then sent
        to the board, whose answer is returned."""
        with self.store.lock:
            self._check_known(board)
            game_id = game_id or self._current_game(board)
            variant = self._arbiters_game(board, game_id).game.variant
            results = (*variant.results, BOTH_LOSE)  # 0-0: both lose, in every variant
            if result not in results:
                raise HallError(said("console.error.not_a_result", result=result[:20],
                                     variant=said("hall.variant." + variant.name.replace("-", "_")),
                                     results=Listed(results, "or")))
            self.ingest.arbiter_result(board, game_id, result, reason, self.wall())
            self.version += 1
        self._notify()
        answer = self.answer(*self.send_command(board, "result", game=game_id, result=result,
                                                reason=reason), board=board)
        return {**answer, "recorded": said("console.recorded.result", result=result,
                                           game=game_id)}

    def set_tags(self, board: int, tags: dict[str, str],
                 game_id: str | None = None) -> dict[str, Any]:
        """The arbiter's tags for ``game_id`` (None: the board's current game): in the
        hall's record at once, then sent to the board."""
        with self.store.lock:
            self._check_known(board)
            game_id = game_id or self._current_game(board)
            self.ingest.arbiter_tags(board, game_id, tags)
            self.version += 1
        self._notify()
        return self.answer(*self.send_command(board, "set_tags", game=game_id, tags=tags),
                           board=board)

    def withdraw_result(self, board: int, game_id: str | None = None) -> dict[str, Any]:
        """The arbiter takes the result of ``game_id`` (None: the board's current game)
        back: out of the hall's record at once (the feed says ``*`` again), then sent to
        the board. A result the rules proved stands."""
        with self.store.lock:
            self._check_known(board)
            game_id = game_id or self._current_game(board)
            hall_game = self._arbiters_game(board, game_id)
            recorded: Message | str = ""
            if hall_game.finished:
                if hall_game.result_source == "rules":
                    raise HallError(said("console.error.rules_result", game=game_id))
                if hall_game.game.result is None:
                    raise HallError(said("console.error.closed_unfinished", game=game_id))
                self.store.withdraw_result(hall_game, self.wall())
                recorded = said("console.recorded.withdrawn", game=game_id)
                self.version += 1
        self._notify()
        answer = self.answer(*self.send_command(board, "withdraw", game=game_id), board=board)
        return {**answer, "recorded": recorded} if recorded else answer

    def take_back(self, board: int, ply: int, game_id: str | None = None) -> dict[str, Any]:
        """The arbiter takes ``game_id`` (None: the board's current game) back to ``ply``
        (0: the start): the board does it, and the hall's record follows when the
        board's game shows it."""
        with self.store.lock:
            self._check_known(board)
            game_id = game_id or self._current_game(board)
            have = self._arbiters_game(board, game_id).ply
            if not 0 <= ply <= have:
                raise HallError(said("console.error.ply", ply=ply, game=game_id, count=have))
        return self.answer(*self.send_command(board, "takeback", game=game_id, ply=ply),
                           board=board)

    def accept_position(self, board: int, fen: str,
                        game_id: str | None = None) -> dict[str, Any]:
        """The arbiter's correction of ``game_id`` (None: the board's current game): play
        goes on from ``fen`` (checked for the board's variant first); the hall's record
        follows when the board's game shows it."""
        with self.store.lock:
            self._check_known(board)
            game_id = game_id or self._current_game(board)
            variant = self._arbiters_game(board, game_id).game.variant
            try:
                parse_fen(variant, fen)
            except DraughtsError as error:
                raise HallError(said("console.error.fen", error=str(error)[:300])) from None
        return self.answer(*self.send_command(board, "position", game=game_id, fen=fen),
                           board=board)

    def clock(self, board: int, action: str, game_id: str | None = None) -> dict[str, Any]:
        """The arbiter starts, pauses or resumes the clock of the board's game."""
        if action not in CLOCK_ACTIONS:
            raise HallError(said("console.error.clock_action",
                                 actions=Listed(CLOCK_ACTIONS, "or")))
        return self.command(board, "clock", action=action,
                            **({"game": game_id} if game_id else {}))

    def _arbiters_game(self, board: int, game_id: str):
        """The game an action of the arbiter is about (`ValueError` if the hall lacks
        it)."""
        hall_game = self.store.game(board, game_id)
        if hall_game is None:
            raise HallError(said("claim.error.no_game", board=board, game=game_id))
        return hall_game

    def _current_game(self, board: int) -> str:
        """The board's current game in the hall (`ValueError` if it has none)."""
        live = self.ingest.boards.get(board)
        latest = self.store.latest(board)
        game_id = (live.current if live else None) or (latest.game_id if latest else None)
        if game_id is None:
            raise HallError(said("console.error.no_game", board=board))
        return game_id

    def confirm(self, board: int, kind: str, game_id: str, claim_id: str) -> Message:
        """The arbiter confirms the claim they read (`ClaimError` if it is gone or has
        changed since)."""
        with self.store.lock:
            done = self.ingest.confirm(board, kind, game_id, claim_id, self.wall())
            self.arbiter.note("confirm", self.wall(), board=board, claim=kind, game=game_id)
            if kind == "round":  # the arbiter makes it the round's game
                confirmed = self.store.game(board, game_id)
                assert confirmed is not None  # `confirm` found the claim's game
                round_name = confirmed.round
                self.arbiter.note("round_game", self.wall(), board=board, round=round_name,
                                  game=game_id)
                self.ingest.round_changed(board, round_name, self.wall())
            self.version += 1
        self._notify()
        return done

    def dismiss(self, board: int, kind: str, game_id: str, claim_id: str) -> Message:
        with self.store.lock:
            done = self.ingest.dismiss(board, kind, game_id, claim_id)
            self.arbiter.note("dismiss", self.wall(), board=board, claim=kind, game=game_id)
            self.version += 1
        self._notify()
        return done

    def clear(self, board: int) -> Message:
        """The arbiter has seen a board's refused commands and bad messages: they leave
        its card (the arbiter's log keeps them)."""
        with self.store.lock:
            self._check_known(board)
            self.arbiter.note("clear", self.wall(), board=board)
            self.ingest.clear_problems(board)
            self.version += 1
        self._notify()
        return said("console.cleared", board=board)

    # -- pairings: the hall's promises to its boards ------------------------------------------

    def import_pairings(self, pairings: list[Pairing]) -> None:
        with self.store.lock:
            self.arbiter.import_pairings(pairings, self.wall())
            self.version += 1
        self._notify()

    def start_round(self, round_name: str) -> list[dict[str, Any]]:
        """Promise each board its pairing of the round (a board that has its game for it
        keeps it) and send it to the boards that can take it now; each board's state at
        once. The others get theirs when they can (`delivery`): a board that is offline
        when it comes back, a board whose game has moves when the arbiter confirms
        closing it (`start_pairing` with ``close``)."""
        with self.store.lock:
            pairings = self.arbiter.pairings.get(round_name)
            if not pairings:
                raise HallError(said("console.error.no_pairings", round=round_name[:20]))
            boards = [p.board for p in pairings]
            self.arbiter.start(round_name, boards, self.wall())
            commands = self._deliver(boards)
            rows = [self.pairing_state(board, round_name) for board in boards]
            self.version += 1
        for board, command in commands:
            self._publish(board, command)
        self._notify()
        return rows

    def start_pairing(self, board: int, round_name: str, *, restart: bool = False,
                      close: str | None = None) -> dict[str, Any]:
        """One board's pairing of the round now (``restart``: a new game for it even if
        the board has one, which it replaces); ``close``: the game with moves the arbiter
        confirms may be closed for it. The board's state."""
        with self.store.lock:
            if self.arbiter.pairing(round_name, board) is None:
                raise HallError(said("console.error.no_pairing", board=board,
                                     round=round_name[:20]))
            self.arbiter.start(round_name, [board], self.wall(), restart=restart, close=close)
            commands = self._deliver([board])
            row = self.pairing_state(board, round_name)
            self.version += 1
        for number, command in commands:
            self._publish(number, command)
        self._notify()
        return row

    def cancel_pairing(self, board: int, round_name: str) -> Message:
        """The hall no longer owes the board this pairing (a board out of order: the game
        is played elsewhere)."""
        with self.store.lock:
            if (board, round_name) not in self.arbiter.promises:
                raise HallError(said("console.error.not_owed", board=board,
                                     round=round_name[:20]))
            self.arbiter.note("cancel", self.wall(), board=board, round=round_name)
            self._decisions.pop((board, round_name), None)
            self.version += 1
        self._notify()
        return said("console.pairing_cancelled", round=round_name, board=board)

    def _facts(self, board: int) -> BoardFacts:
        """What the hall knows of the board for its pairing (call with the lock held)."""
        live = self.ingest.boards.get(board)
        if live is None:
            return BoardFacts(False, None, None)
        current = live.said_current or live.current
        hall_game = self.store.game(board, current) if current else None
        if hall_game is not None and current:  # (a hall game was found by its id)
            return BoardFacts(live.online, current, hall_game.ply, hall_game.finished,
                              self.arbiter.game_rounds.get((board, current)))
        claimed = self.ingest.claims.get(board, "game", current) if current else None
        if claimed is not None and claimed.record is not None:
            return BoardFacts(live.online, current, len(claimed.record.moves),
                              claimed.record.result is not None)
        return BoardFacts(live.online, current, None)

    def _deliver(self, boards: list[int]) -> list[tuple[int, Command]]:
        """Decide about each pairing the hall owes each of ``boards`` (lock held); the
        commands to publish once the lock is released. The new ones are journalled
        together, with one flush (a round started on 500 boards waits for the disk once,
        not 500 times); if the arbiter's log cannot be written they are not sent, and
        the board's pairing says why until a later look succeeds."""
        now = self.wall()
        out: list[tuple[int, Command]] = []
        new: list[tuple[Promise, Command, dict]] = []
        for board in boards:
            out += self._decide(board, now, new)
        if not new:
            return out
        try:
            self.arbiter.note_all([record for _, _, record in new])
        except OSError as error:
            quiet = self.quiet.allow(("arbiter log", 0))
            if quiet is not None:
                log.error("arbiter log: %s; pairings not sent, tried again in a moment%s",
                          error, quiet)
            unsent = {command.id for _, command, _ in new}
            for promise, _, _ in new:
                self._show(promise.board, promise.round, Decision(
                    "waiting", said("hall.pairing.note.not_journalled",
                                    error=str(error)[:300])))
            return [(board, command) for board, command in out if command.id not in unsent]
        for _, command, _ in new:
            self.delivery.sent(command.id, now)
        return out

    def _decide(self, board: int, now: float,
                new: list[tuple[Promise, Command, dict]]) -> list[tuple[int, Command]]:
        """One board's pairings (lock held): the commands to publish; a new pairing's
        command also goes to ``new``, with the record that journals it."""
        out = []
        facts = self._facts(board)
        owed = sorted(self.arbiter.promises_of(board), key=lambda p: (p.made, len(p.round),
                                                                     p.round))
        for index, promise in enumerate(owed):
            sent = self.arbiter.outstanding.get(promise.command) if promise.command else None
            if index and sent is None:  # one pairing at a time, the first promised first
                decision = Decision("waiting", said("hall.pairing.note.after",
                                                    round=owed[0].round))
            else:
                decision = self.delivery.decide(promise, sent.get("game") if sent else None,
                                                facts, now)
            self._show(board, promise.round, decision)
            if decision.send:
                command, record = self._pairing_command(promise, decision.game, now)
                new.append((promise, command, record))
                out.append((board, command))
            elif decision.again and sent is not None:
                with self._replies_lock:
                    self._expect_answer(sent["id"], board)
                out.append((board, Command(sent["id"], "new_game", sent.get("game"),
                                           tags=dict(sent.get("tags") or {}))))
        return out

    def _show(self, board: int, round_name: str, decision: Decision) -> None:
        """The pairing's state as the page shows it (lock held)."""
        key = (board, round_name)
        if self._decisions.get(key) != decision:
            self._decisions[key] = decision
            self._decided += 1
            self.version += 1

    def _pairing_command(self, promise: Promise, game: str | None,
                         now: float) -> tuple[Command, dict]:
        """A new ``new_game`` for the promise, and the arbiter's log record of it."""
        command = Command(f"hall-{uuid.uuid4().hex[:16]}", "new_game", game,
                          tags=dict(promise.tags))
        with self._replies_lock:
            self._expect_answer(command.id, promise.board)
        record = {"type": "command", "t_wall": now, "board": promise.board, "id": command.id,
                  "cmd": "new_game", **({"game": game} if game else {}),
                  "tags": dict(promise.tags)}
        return command, record

    def pairing_state(self, board: int, round_name: str) -> dict[str, Any]:
        """How the board's pairing of the round stands: ``delivered`` (its ``game``), or
        the decision about what the hall still owes it."""
        with self.store.lock:
            return self._pairing_state(board, round_name)

    def _pairing_state(self, board: int, round_name: str) -> dict[str, Any]:
        bound = self.arbiter.round_games.get((board, round_name))
        if (board, round_name) not in self.arbiter.promises:
            if bound is not None:
                return {"board": board, "round": round_name, "state": "delivered",
                        "note": said("hall.pairing.note.delivered", game=bound), "game": bound}
            return {"board": board, "round": round_name, "state": "not started", "note": None}
        decision = self._decisions.get((board, round_name)) or Decision("waiting", None)
        facts = self._facts(board)
        return {"board": board, "round": round_name, "state": decision.state,
                "note": decision.note, "game": facts.current, "moves": facts.moves}

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
            desks = self._desks()
            for board in self.board_numbers():
                live = self.ingest.live(board)
                latest = self._shown_game(board)
                desk = desks.get(board)
                key = (live.version, latest.game_id if latest else None,
                       latest.version if latest else 0, repr(desk))
                cached = self._summaries.get(board)
                if cached is None or cached[0] != key:
                    cached = self._summaries[board] = (
                        key, board_summary(board, live, latest, self.ingest.wanted(board),
                                           self.ingest.claims.of(board).values(), desk))
                out[board] = (cached[0], with_clock_now(cached[1], live, self.wall()))
            return out

    def detail(self, board: int) -> dict[str, Any] | None:
        with self.store.lock:
            if board not in self.board_numbers():
                return None
            live = self.ingest.live(board)
            return with_clock_now(
                board_detail(board, live, self._shown_game(board),
                             self.store.board_games(board), self.ingest.wanted(board),
                             self.ingest.claims.of(board).values(),
                             self._desks().get(board)), live, self.wall())

    def _desks(self) -> dict[int, dict[str, Any]]:
        """For each board with something of the arbiter's waiting (lock held): the
        pairing the hall still owes it, the commands it refused, the commands it has not
        answered (online, for UNANSWERED_AFTER seconds). One pass over each, again only
        when the arbiter's log or a pairing's state changed, or a few seconds passed."""
        now = self.wall()
        key = (self.arbiter.version, self._decided, int(now // (UNANSWERED_AFTER / 2)))
        if self._desks_cache is not None and self._desks_cache[0] == key:
            return self._desks_cache[1]
        desks: dict[int, dict[str, Any]] = {}

        def desk(board: int) -> dict[str, Any]:
            return desks.setdefault(board, {"pairing": None, "refused": [], "unanswered": []})

        for (board, round_name), promise in sorted(self.arbiter.promises.items()):
            if desk(board)["pairing"] is None:
                state = self.pairing_state(board, round_name)
                desk(board)["pairing"] = {
                    **state, "white": promise.tags.get("White", ""),
                    "black": promise.tags.get("Black", ""), "restart": promise.restart}
        for board, refusals in self.arbiter.refusals.items():
            desk(board)["refused"] = [{"id": r.id, "cmd": r.cmd, "error": r.error,
                                       "t_wall": r.t_wall} for r in refusals]
        for record in self.arbiter.waiting_all():
            number = record.get("board")
            if isinstance(number, int) and self._online(number) \
                    and now - (record.get("t_wall") or now) >= UNANSWERED_AFTER:
                desk(number)["unanswered"].append({"id": record.get("id"),
                                                  "cmd": record.get("cmd"),
                                                  "t_wall": record.get("t_wall")})
        self._desks_cache = (key, desks)
        return desks

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
        """The hall beside its boards: the broker, the disk, rounds, pairings and how
        each stands (made again only when one of them may have changed)."""
        with self.store.lock:
            key = (self.arbiter.version, self._decided, self.connected, self.dropped,
                   self.bad_messages, self.store.write_error,
                   sum(len(games) for games in self.store.games.values()))
            if self._info_cache is None or self._info_cache[0] != key:
                pairings = {r: [{**p.to_dict(), **self._pairing_state(p.board, r)}
                                for p in ps] for r, ps in self.arbiter.pairings.items()}
                self._info_cache = (key, {
                    "connected": self.connected, "dropped": self.dropped,
                    "bad_messages": self.bad_messages,
                    "storage_error": shown(self.store.write_error), "rounds": self.rounds(),
                    "pairings": shown(pairings)})
            info = self._info_cache[1]
        if self.mirror_state is not None:
            info = {**info, "mirror": self.mirror_state()}
        return info

    def changed(self) -> None:
        """Something the pages show beside the boards changed (the public mirror's
        link): wake them."""
        self._notify()

    def board_online(self, board: int) -> bool:
        """Whether the hall has ``board`` online now (its status, its room's link)."""
        return self._online(board)
