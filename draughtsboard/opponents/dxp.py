"""A DamExchange (DXP) peer as the opponent: ``dxp:HOST:PORT`` (the board connects and
asks for the game: the initiator) and ``dxp-listen:HOST:PORT`` (the board waits for a
program such as Scan or Kingsrow to connect and ask: the follower). 10x10 only: DXP has
no way to name another variant.

Two layers, as in pyserial's threaded protocols:

* `DxpConversation`: the protocol without I/O. Fed each message received, it answers with
  the messages to send and what happened (the game accepted, the peer's move checked by
  our rules); every failure is a typed `OpponentError` with one line.
* `DxpOpponent`: the TCP socket (DXP's layer 1: each message ends with ``\\0``) and the
  deadlines, through a `Channel`.

A takeback asked by the peer (BACKREQ) is refused (BACKACC 1): the board's record is the
authority on what was played.

Time: DXP gives the follower minutes for the whole game (GAMEREQ), never a time per move,
and an engine plans with that clock (Scan thinks about a thirtieth of what is left, up to a
quarter of it, once its opening book runs out). So the board waits for a peer's move as
long as the peer's own DXP clock has time left (what it was offered, less the time its
moves took by our clock), plus a quarter and a grace, never for a time per move it was
not told. As initiator the board offers the game's ``TimeControl`` (its base), else
``--opponent-seconds`` times `MOVES_OFFERED`, in whole minutes, with no move count:
Scan ends (adjudicates) a game once the move count of the request is played.
"""

from __future__ import annotations

import math
import socket
import time
from collections.abc import Callable

from draughtsboard.board.rules.fen import initial_position
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import Variant

from .base import (
    Clocks,
    GameTrack,
    OpponentEndedGameError,
    OpponentError,
    OpponentGoneError,
    OpponentIllegalMoveError,
    OpponentProtocolError,
    OpponentStartError,
    OpponentStoppedError,
    OpponentTimeoutError,
    OpponentUnsupportedError,
)
from .channel import Channel, ChannelClosed, ChannelTimeout, FrameTooLong
from .dxp_messages import (
    ACCEPT_REASONS,
    END_KINDS_BY_REASON,
    END_REASONS,
    MAX_MESSAGE,
    BackAccept,
    BackRequest,
    Chat,
    DxpMessageError,
    GameAccept,
    GameEnd,
    GameRequest,
    Message,
    MoveMessage,
    move_message,
    move_of,
    parse_message,
    start_position,
)

OUR_NAME = "draughtsboard"
CONNECT_SECONDS = 10.0
ACCEPT_SECONDS = 300.0  # dxp-listen: how long the board waits for the initiator
GRACE_SECONDS = 2.0
DXP_VARIANT = "international"
MOVES_OFFERED = 50  # without a TimeControl: the game's time is this many moves' time
MAX_MINUTES = 999   # DXP's three digits


def offered_minutes(game_seconds: float) -> int:
    """The whole minutes a GAMEREQ offers for ``game_seconds`` (rounded up, 1-999)."""
    return max(1, min(MAX_MINUTES, math.ceil(game_seconds / 60 - 1e-9)))


def check_variant(variant: Variant) -> None:
    if variant.name != DXP_VARIANT:
        raise OpponentUnsupportedError(
            f"DXP plays only international draughts (10x10), not {variant.title}")


class DxpConversation:
    """The DXP game from our side, as ``role`` "initiator" or "follower"."""

    def __init__(self, variant: Variant, role: str, minutes: int = 10, moves: int = 0) -> None:
        check_variant(variant)
        self.variant = variant
        self.role = role
        self.minutes = minutes
        self.moves = moves
        self.peer_name = ""
        self.state = "new"
        self.track = GameTrack(variant)
        self.pending_error: OpponentError | None = None  # a refusal we answered, to raise
        self.peer_seconds_left = 60.0 * minutes  # the peer's DXP clock
        self.peer_moves = 0

    @property
    def peer_has_clock(self) -> bool:
        """Whether the game's request set a clock (DXP's 0 minutes: none)."""
        return self.minutes > 0

    def charge(self, seconds: float) -> None:
        """The peer moved after ``seconds`` (our clock): off its DXP clock, and a new
        period's time on it after each ``moves`` of its moves when the request had a
        move count."""
        self.peer_moves += 1
        self.peer_seconds_left = max(0.0, self.peer_seconds_left - seconds)
        if self.moves and self.peer_moves % self.moves == 0:
            self.peer_seconds_left += 60.0 * self.minutes

    # -- the start ------------------------------------------------------------------------

    def request(self, position: Position, opponent_is_white: bool,
                history: tuple[Position, ...] = ()) -> list[str]:
        """Initiator: the GAMEREQ for this game (the peer, the follower, plays the
        opponent's colour)."""
        self.track.begin(position, opponent_is_white, history)
        self.state = "requested"
        self.peer_seconds_left, self.peer_moves = 60.0 * self.minutes, 0
        start = None if position == initial_position(self.variant) else position
        return [GameRequest(OUR_NAME, opponent_is_white, self.minutes, self.moves,
                            start).format()]

    def expect_request(self, position: Position, opponent_is_white: bool,
                       history: tuple[Position, ...] = ()) -> None:
        """Follower: wait for the initiator's GAMEREQ for this game."""
        self.track.begin(position, opponent_is_white, history)
        self.state = "waiting"

    # -- what was received ----------------------------------------------------------------

    def receive(self, text: str) -> tuple[list[str], Move | None]:
        """The messages to send and, when the peer moved, its move (legal, and already
        applied to the track)."""
        try:
            message = parse_message(self.variant, text)
        except DxpMessageError as error:
            raise OpponentProtocolError(f"the DXP peer sent {error}") from None
        return self._on(message)

    def _on(self, message: Message) -> tuple[list[str], Move | None]:
        if isinstance(message, Chat):
            return [], None
        if isinstance(message, BackRequest):
            return [BackAccept(1).format()], None
        if isinstance(message, GameEnd):
            self.state = "ended"
            reason = END_REASONS.get(message.reason, f"reason {message.reason}")
            raise OpponentEndedGameError(
                f"the DXP peer {self._who()}ended the game ({reason})",
                END_KINDS_BY_REASON.get(message.reason, "ends"))
        if self.state == "requested":
            if not isinstance(message, GameAccept):
                raise OpponentProtocolError(f"the DXP peer answered the game request with "
                                            f"{message.format()[:40]!r}")
            self.peer_name = message.name
            if message.code != 0:
                reason = ACCEPT_REASONS.get(message.code, f"code {message.code}")
                raise OpponentStartError(f"the DXP peer {self._who()}refused the game: "
                                         f"{reason}")
            self.state = "playing"
            return [], None
        if self.state == "waiting":
            if not isinstance(message, GameRequest):
                raise OpponentProtocolError(f"the DXP initiator sent "
                                            f"{message.format()[:40]!r} before a game request")
            return self._on_request(message), None
        if self.state == "playing":
            if isinstance(message, MoveMessage):
                return [], self._on_move(message)
            if isinstance(message, GameRequest):
                raise OpponentGoneError(f"the DXP peer {self._who()}started a new game")
        raise OpponentProtocolError(f"the DXP peer sent {message.format()[:40]!r} while "
                                    f"{self.state}")

    def _on_request(self, request: GameRequest) -> list[str]:
        self.peer_name = request.name
        self.minutes, self.moves = request.minutes, request.moves
        self.peer_seconds_left, self.peer_moves = 60.0 * request.minutes, 0
        track = self.track
        if request.version != "01":
            self.state = "ended"
            self.pending_error = OpponentStartError(
                f"the DXP initiator {self._who()}speaks version {request.version}, not 01")
            return [GameAccept(OUR_NAME, 1).format()]
        wanted_follower_white = not track.opponent_is_white
        asked = start_position(self.variant, request)
        problem = None
        if request.follower_white != wanted_follower_white:
            side = "White" if wanted_follower_white else "Black"
            problem = f"the board plays {side} and the DXP initiator wants it the other way"
        elif asked != track.position:
            problem = (f"the DXP initiator asked to start from {asked.fen()}, the board's "
                       f"game is at {track.position.fen()}")
        if problem is not None:
            self.state = "ended"
            self.pending_error = OpponentStartError(problem)
            return [GameAccept(OUR_NAME, 2).format()]
        self.state = "playing"
        return [GameAccept(OUR_NAME, 0).format()]

    def _on_move(self, message: MoveMessage) -> Move:
        track = self.track
        if not track.opponents_turn:
            raise OpponentProtocolError(f"the DXP peer {self._who()}moved on our turn "
                                        f"({message.format()})")
        position = track.position
        move = move_of(position, message)
        if move is None:
            captured = "x".join(str(s) for s in message.captures)
            text = f"{message.start}{'x' if captured else '-'}{message.end}" + \
                (f" taking {captured}" if captured else "")
            raise OpponentIllegalMoveError(f"the DXP peer {self._who()}played {text}, "
                                           f"not legal in {position.fen()}")
        track.play(move)
        return move

    # -- what to send ---------------------------------------------------------------------

    def our_move(self, move: Move, seconds: int = 0) -> list[str]:
        self.track.other_side_moved(move)
        return [move_message(move, seconds).format()]

    def end(self) -> list[str]:
        if self.state != "playing":
            return []
        self.state = "ended"
        return [GameEnd(0, 1).format()]

    def _who(self) -> str:
        return f"{self.peer_name!r} " if self.peer_name else ""


class DxpOpponent:
    """A DXP peer over TCP, the board as ``role`` "initiator" (connects to host:port) or
    "follower" (listens on host:port for one initiator)."""

    def __init__(self, variant: Variant, host: str, port: int, role: str = "initiator", *,
                 minutes: int = 10, moves: int = 0,
                 clock: Callable[[], float] = time.monotonic,
                 connect_seconds: float = CONNECT_SECONDS,
                 accept_seconds: float = ACCEPT_SECONDS) -> None:
        if role not in ("initiator", "follower"):
            raise ValueError(f"role {role!r}")
        self.kind = "dxp" if role == "initiator" else "dxp-listen"
        self.variant = variant
        self.host, self.port, self.role = host, port, role
        self._clock = clock
        self._connect_seconds = connect_seconds
        self._accept_seconds = accept_seconds
        self._conversation = DxpConversation(variant, role, minutes, moves)
        self._socket: socket.socket | None = None
        self._listener: socket.socket | None = None
        self._channel: Channel | None = None
        self._turn_started: float | None = None  # when the peer's turn began (our clock)

    @property
    def name(self) -> str:
        return self._conversation.peer_name or f"DXP peer at {self.host}:{self.port}"

    @property
    def address(self) -> tuple[str, int]:
        """Where the follower listens (the port the system gave for port 0)."""
        if self._listener is not None:
            return self._listener.getsockname()[:2]
        return self.host, self.port

    def listen(self) -> None:
        """Follower: bind and listen now (so a caller can learn the port), before
        `start` waits for the initiator."""
        if self._listener is not None:
            return
        try:
            self._listener = socket.create_server((self.host, self.port))
        except OSError as error:
            raise OpponentStartError(f"cannot listen for DXP on {self.host}:{self.port}: "
                                     f"{error.strerror or error}") from None

    # -- the game ---------------------------------------------------------------------------

    def start(self, position: Position, opponent_is_white: bool,
              history: tuple[Position, ...] = ()) -> None:
        conversation = self._conversation
        if self.role == "initiator":
            self._connect()
            self._send(conversation.request(position, opponent_is_white, history))
        else:
            conversation.expect_request(position, opponent_is_white, history)
            self._accept()
        deadline = self._clock() + self._connect_seconds
        while conversation.state in ("requested", "waiting"):
            received = self._receive(deadline, "before the game began", start=True)
            assert received is not None  # None only when `stop` says so, and none is given
            replies, _ = received
            self._send(replies)
        if conversation.pending_error is not None:
            error, conversation.pending_error = conversation.pending_error, None
            self.close()
            raise error
        # the peer's clock runs from the game's start when it moves first (Scan sends
        # its first move right after its GAMEACC)
        self._turn_started = self._clock() if conversation.track.opponents_turn else None

    def other_side_moved(self, move: Move) -> None:
        self._send(self._conversation.our_move(move))
        self._turn_started = self._clock()  # the peer thinks from now on

    def move(self, clocks: Clocks, stop: Callable[[], bool] | None = None) -> Move:
        conversation = self._conversation
        conversation.track.check_opponents_turn()
        started = self._turn_started if self._turn_started is not None else self._clock()
        self._turn_started = started
        if conversation.peer_has_clock:
            # its own DXP clock, which it plans with (see the module doc)
            budget = conversation.peer_seconds_left
            during = (f"while thinking: its DXP clock ({conversation.minutes} min for the "
                      f"game) ran out")
        else:
            budget = clocks.own if clocks.own is not None else clocks.move_seconds
            during = "while thinking"
        deadline = started + budget * 1.25 + GRACE_SECONDS
        while True:
            received = self._receive(deadline, during, stop=stop)
            if received is None:
                raise OpponentStoppedError("stopped before the DXP peer moved")
            replies, move = received
            self._send(replies)
            if move is not None:
                conversation.charge(max(0.0, self._clock() - started))
                self._turn_started = None
                return move

    def close(self) -> None:
        sock, self._socket = self._socket, None
        if sock is not None:
            try:
                ending = self._conversation.end()
                if ending:
                    sock.sendall("".join(m + "\0" for m in ending).encode("ascii"))
            except OSError:
                pass
            sock.close()
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()

    # -- the socket -------------------------------------------------------------------------

    def _connect(self) -> None:
        try:
            connected = socket.create_connection((self.host, self.port),
                                                 timeout=self._connect_seconds)
        except OSError as error:
            raise OpponentStartError(f"cannot reach the DXP peer at {self.host}:{self.port}: "
                                     f"{error.strerror or error}") from None
        self._socket = connected
        connected.settimeout(None)
        self._channel = Channel(connected, b"\0", MAX_MESSAGE, self._clock)

    def _accept(self) -> None:
        self.listen()
        listener = self._listener
        assert listener is not None  # `listen` made it or raised
        listener.settimeout(self._accept_seconds)
        try:
            self._socket, _ = listener.accept()
        except TimeoutError:
            self.close()
            raise OpponentTimeoutError(f"no DXP initiator connected to {self.host}:"
                                       f"{self.port} within {self._accept_seconds:g} s"
                                       ) from None
        except OSError as error:
            self.close()
            raise OpponentStartError(f"DXP on {self.host}:{self.port}: "
                                     f"{error.strerror or error}") from None
        self._socket.settimeout(None)
        self._channel = Channel(self._socket, b"\0", MAX_MESSAGE, self._clock)

    def _send(self, messages: list[str]) -> None:
        if not messages:
            return
        if self._socket is None:
            raise OpponentGoneError("the DXP connection is closed")
        try:
            self._socket.sendall("".join(m + "\0" for m in messages).encode("ascii"))
        except OSError:
            self.close()
            raise OpponentGoneError(f"the DXP peer at {self.host}:{self.port} disconnected"
                                    ) from None

    def _receive(self, deadline: float, during: str, start: bool = False,
                 stop: Callable[[], bool] | None = None
                 ) -> tuple[list[str], Move | None] | None:
        if self._channel is None:
            raise OpponentGoneError("the DXP connection is closed")
        try:
            frame = self._channel.read(deadline, stop)
            if frame is None:
                return None
            text = frame.decode("ascii")
        except ChannelTimeout:
            self.close()
            raise OpponentTimeoutError(f"the DXP peer at {self.host}:{self.port} did not "
                                       f"answer in time {during}") from None
        except ChannelClosed:
            self.close()
            kind = OpponentStartError if start else OpponentGoneError
            raise kind(f"the DXP peer at {self.host}:{self.port} disconnected {during}"
                       ) from None
        except (FrameTooLong, UnicodeDecodeError):
            self.close()
            raise OpponentProtocolError(f"the DXP peer at {self.host}:{self.port} sent a "
                                        f"message that is not DXP") from None
        try:
            return self._conversation.receive(text)
        except OpponentError:
            self.close()
            raise
