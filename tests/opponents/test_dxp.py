"""DXP: the messages, the conversation, whole 10x10 games against pydraughts' DXP
implementation in both directions, and every way a peer can fail."""

import random
import socket
import threading

import draughts
import pytest
from draughts.engine import DXPEngine  # (its own module cannot be imported first)
from draughts.engines.dxp_communication.dxp_classes import DamExchange

from draughtsboard.board.rules import get_variant, initial_position, parse_fen
from draughtsboard.opponents import (
    Clocks,
    DxpOpponent,
    base,
)
from draughtsboard.opponents.dxp import DxpConversation
from draughtsboard.opponents.dxp_messages import (
    BackRequest,
    DxpMessageError,
    GameAccept,
    GameEnd,
    GameRequest,
    MoveMessage,
    parse_message,
)

from .games import MAX_PLIES, play_whole_game, ticking_clock

INTERNATIONAL = get_variant("international")


# -- messages --------------------------------------------------------------------------

@pytest.mark.parametrize("message", [
    GameRequest("Tornado voor Windows 4.0", False, 90, 50, None),
    GameRequest("x", True, 5, 0, parse_fen(INTERNATIONAL, "B:W31,K40:B1,2")),
    GameAccept("Kingsrow", 0), MoveMessage(12, 5, 25, (4, 22, 12, 23, 20)),
    MoveMessage(1, 6, 11, ()), GameEnd(2, 1), BackRequest(5, False),
])
def test_messages_round_trip(message):
    assert parse_message(INTERNATIONAL, message.format()) == message


def test_the_examples_of_the_protocol_read_as_documented():
    request = parse_message(INTERNATIONAL, "R01Tornado voor Windows 4.0        W060065A")
    assert (request.name, request.follower_white, request.minutes, request.moves) == \
        ("Tornado voor Windows 4.0", True, 60, 65)
    assert parse_message(INTERNATIONAL, "M001205250422122320") == \
        MoveMessage(12, 5, 25, (22, 12, 23, 20))


@pytest.mark.parametrize("text", ["", "Q", "M00120525", "M0012052504221223", "E0",
                                  "R01short", "A" + "x" * 40, "M00ab0525000",
                                  "C" + "\u00e9", "K"])
def test_malformed_messages_are_errors(text):
    with pytest.raises(DxpMessageError):
        parse_message(INTERNATIONAL, text)


def test_pydraughts_writes_what_we_read():
    dxp = DamExchange()
    assert parse_message(INTERNATIONAL, dxp.msg_move([32, 28], [], 3)) == \
        MoveMessage(3, 32, 28, ())
    assert parse_message(INTERNATIONAL, dxp.msg_gameend("2")) == GameEnd(2, 1)


# -- the conversation without a socket --------------------------------------------------

def test_the_follower_refuses_a_game_that_is_not_the_boards():
    conversation = DxpConversation(INTERNATIONAL, "follower")
    conversation.expect_request(initial_position(INTERNATIONAL), opponent_is_white=True)
    replies, _ = conversation.receive(GameRequest("peer", True, 10, 0, None).format())
    assert parse_message(INTERNATIONAL, replies[0]) == GameAccept("draughtsboard", 2)
    assert "other way" in str(conversation.pending_error)


def test_a_peer_move_on_our_turn_or_an_illegal_one_is_refused():
    conversation = DxpConversation(INTERNATIONAL, "initiator")
    conversation.request(initial_position(INTERNATIONAL), opponent_is_white=False)
    conversation.receive(GameAccept("peer", 0).format())
    with pytest.raises(base.OpponentProtocolError, match="on our turn"):
        conversation.receive(MoveMessage(0, 32, 28, ()).format())
    conversation.our_move(initial_position(INTERNATIONAL).legal_moves()[0])
    with pytest.raises(base.OpponentIllegalMoveError, match="19-25, not legal"):
        conversation.receive(MoveMessage(0, 19, 25, ()).format())


def test_dxp_is_refused_for_other_variants_in_one_line():
    with pytest.raises(base.OpponentUnsupportedError, match="only international"):
        DxpConversation(get_variant("russian"), "initiator")


# -- whole games against pydraughts -----------------------------------------------------

def pydraughts_move(board: draughts.Board, rng: random.Random):
    return rng.choice(board.legal_moves())


def close_pydraughts(engine: DXPEngine) -> None:
    """Close pydraughts' socket without its seven-second linger (its close() sleeps)."""
    sender = engine.sender
    sock = sender.socket.sock
    sender.socket.closed = True
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()
    sender.receiver.close()


@pytest.mark.slow
def test_pydraughts_initiator_plays_a_whole_game_against_our_follower():
    """pydraughts' DXP client (the initiator, White, random moves) against the board as
    follower (``dxp-listen``, Black, the built-in engine at level 3); both sides check
    every move with their own rules."""
    follower = DxpOpponent(INTERNATIONAL, "127.0.0.1", 0, role="follower",
                           accept_seconds=30)
    follower.listen()
    port = follower.address[1]
    peer_log: list[str] = []

    def peer() -> None:
        rng = random.Random("dxp-follower")
        engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port})
        board = draughts.Board(variant="standard")
        try:
            while not board.is_over() and len(board.move_stack) < MAX_PLIES:
                board.push(pydraughts_move(board, rng))
                if board.is_over():
                    break
                answer = engine.play(board).move
                if answer is None:
                    break  # the board ended the game
                board.push(answer)
        finally:
            peer_log.append(board.fen)
            close_pydraughts(engine)

    thread = threading.Thread(target=peer, daemon=True)
    thread.start()
    try:
        game = play_whole_game(follower, INTERNATIONAL, opponent_is_white=True,
                               clocks=Clocks(move_seconds=30), level=3, seed="dxp")
    finally:
        follower.close()
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert game.outcome() is not None
    assert game.ply > 10
    assert follower.name.strip() == "DXP Client"


class PydraughtsFollower:
    """A DXP follower made of pydraughts' message reading and writing and its rules,
    with a plain socket: pydraughts ships only an initiator."""

    def __init__(self, seed: str) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.dxp = DamExchange()
        self.rng = random.Random(seed)
        self.board = draughts.Board(variant="standard")
        self.ended = None
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def frames(self, sock):
        buffer = b""
        while True:
            while b"\0" not in buffer:
                chunk = sock.recv(1024)
                if not chunk:
                    return
                buffer += chunk
            frame, buffer = buffer.split(b"\0", 1)
            yield frame.decode()

    def send(self, sock, text):
        sock.sendall(text.encode() + b"\0")

    def play_one(self, sock):
        move = self.rng.choice(self.board.legal_moves())
        self.board.push(move)
        self.send(sock, self.dxp.msg_move(move.steps_move, move.captures, 0))

    def run(self):
        sock, _ = self.server.accept()
        with sock:
            for text in self.frames(sock):
                data = self.dxp.parse(text)
                if data["type"] == "R":
                    self.send(sock, "A" + "pydraughts follower".ljust(32) + "0")
                    if data["fColor"] == "W":
                        self.play_one(sock)
                elif data["type"] == "M":
                    wanted = f"{data['from']}{data['to']}" + "".join(
                        sorted(str(int(c)).zfill(2) for c in data["captures"]))
                    move = next(m for m in self.board.legal_moves()
                                if m.hub_position_move == wanted)
                    self.board.push(move)
                    if not self.board.is_over():
                        self.play_one(sock)
                elif data["type"] == "E":
                    self.ended = data["reason"]
                    self.send(sock, self.dxp.msg_gameend("0"))
                    return


@pytest.mark.slow
def test_our_initiator_plays_a_whole_game_against_a_pydraughts_follower():
    peer = PydraughtsFollower("dxp-initiator")
    initiator = DxpOpponent(INTERNATIONAL, "127.0.0.1", peer.port, role="initiator")
    try:
        game = play_whole_game(initiator, INTERNATIONAL, opponent_is_white=True,
                               clocks=Clocks(move_seconds=30), level=3, seed="dxp-i")
    finally:
        initiator.close()
    peer.thread.join(timeout=30)
    assert initiator.name == "pydraughts follower"
    assert game.outcome() is not None and game.ply > 10
    assert peer.board.is_over() or peer.ended is not None


# -- failures, each one line --------------------------------------------------------------

class ScriptedPeer:
    """A DXP follower that answers the game request and then sends ``script`` (raw
    frames; None closes the connection), each after the board's next message."""

    def __init__(self, script, accept=None) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.script = list(script)
        self.accept = accept or "A" + "scripted".ljust(32) + "0"
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        sock, _ = self.server.accept()
        with sock:
            sock.recv(1024)  # the game request
            sock.sendall(self.accept.encode() + b"\0")
            for frame in self.script:
                if frame is None:
                    return
                sock.sendall(frame + b"\0" if isinstance(frame, bytes) else
                             frame.encode() + b"\0")
            sock.recv(1024)  # wait for the board to close


def started_against(peer, opponent_is_white=True, **kwargs):
    opponent = DxpOpponent(INTERNATIONAL, "127.0.0.1", peer.port, **kwargs)
    opponent.start(initial_position(INTERNATIONAL), opponent_is_white=opponent_is_white)
    return opponent


@pytest.mark.parametrize("script, error, message", [
    ([None], base.OpponentGoneError, "disconnected while thinking"),
    (["M0000191400"], base.OpponentIllegalMoveError, "played 19-14, not legal"),
    (["Mxyz"], base.OpponentProtocolError, "MOVE"),
    ([b"\xff\xfe"], base.OpponentProtocolError, "not DXP"),
    (["E31"], base.OpponentGoneError, "ended the game .it claims a win"),
    (["M" + "1" * 200], base.OpponentProtocolError, "not DXP"),
])
def test_a_failing_peer_is_one_typed_line(script, error, message):
    opponent = started_against(ScriptedPeer(script))
    with pytest.raises(error, match=message) as raised:
        opponent.move(Clocks(move_seconds=30))
    assert "\n" not in str(raised.value)
    opponent.close()
    opponent.close()


def test_a_peer_that_does_not_move_in_time_times_out():
    opponent = started_against(ScriptedPeer([]), clock=ticking_clock(1.0))
    with pytest.raises(base.OpponentTimeoutError, match="did not answer in time"):
        opponent.move(Clocks(move_seconds=3))


def test_stop_while_the_peer_thinks():
    opponent = started_against(ScriptedPeer([]))
    with pytest.raises(base.OpponentStoppedError):
        opponent.move(Clocks(move_seconds=30), stop=lambda: True)
    opponent.close()


def test_a_refused_game_and_an_unreachable_peer_are_start_errors():
    refusing = ScriptedPeer([], accept="A" + "busy".ljust(32) + "2")
    with pytest.raises(base.OpponentStartError, match="refused the game: it does not want"):
        started_against(refusing)
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(base.OpponentStartError, match="cannot reach"):
        DxpOpponent(INTERNATIONAL, "127.0.0.1", port).start(
            initial_position(INTERNATIONAL), True)


def test_a_follower_nobody_connects_to_times_out():
    follower = DxpOpponent(INTERNATIONAL, "127.0.0.1", 0, role="follower",
                           accept_seconds=0.05)
    with pytest.raises(base.OpponentTimeoutError, match="no DXP initiator connected"):
        follower.start(initial_position(INTERNATIONAL), True)


@pytest.mark.parametrize("script, kind, said", [
    (["E11"], "resigns", "Scan resigns: record the result in the arbiter panel"),
    (["E21"], "claims_draw", "Scan claims a draw by its own rules and stops"),
    (["E31"], "claims_win", "Scan claims a win by its own rules and stops"),
    (["E11"], "resigns", "Scan сдаётся"),
    (["E01"], "ends", "Scan ended the game without a reason"),
])
def test_a_peer_that_ends_the_game_is_said_as_what_it_said_not_as_a_failure(script, kind,
                                                                             said):
    from draughtsboard.opponents import OpponentEndedGameError
    from draughtsboard.play.opponent_seat import error_message
    from draughtsboard.words import words_for

    opponent = started_against(ScriptedPeer(script))
    with pytest.raises(OpponentEndedGameError) as raised:
        opponent.move(Clocks(move_seconds=30))
    opponent.close()
    assert raised.value.kind == kind
    language = "ru" if any("а" <= c <= "я" for c in said) else "en"
    assert words_for(language)(error_message(raised.value, "Scan")).startswith(said)
