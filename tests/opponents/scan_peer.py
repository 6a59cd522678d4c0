"""A DXP follower that talks as Scan 2.0 does in its DXP mode (``scan dxp`` with
``dxp-server = true`` and ``dxp-initiator = false``), as read from its public source, so
that the tests need no Scan: only the choice of moves is ours (a callable), and the time
its "search" takes is an input too.

What Scan does, and this peer with it:

* Framing: it reads into a 256-byte buffer and takes each NUL-ended message out of it in
  turn (several in one read, or one split over reads, both work); it writes each message
  with its NUL, one write each. Here what it says between two searches goes out in one
  write, so the board reads several messages at once (a GAMEEND and a CHAT; a GAMEACC
  and a first move found at once).
* GAMEREQ: a version above 01 is answered GAMEACC code 1; any other request is accepted
  (GAMEACC with its name, "Scan 2.0", code 0), whatever the time, and it takes the time
  as its clock for the whole game and the move count as the game's length. When it plays
  White its first move follows the GAMEACC at once.
* On its turn: a game over by its rules (no legal move: "I lose", reason 1; the third
  repetition of a position, or 50 plies without a capture or a man's move: a draw,
  reason 2) is a GAMEEND with stop code 0, and it waits; once the move count of the
  request is played it ends the game too (GAMEEND reason 0, "unknown", then a CHAT
  "game ended (N moves played, unknown result)"); otherwise it searches and sends MOVE:
  its search's seconds rounded (4 digits), from, to, the number captured and the captured
  squares in ascending order (its bitboard's order).
* A MOVE it receives is applied as given; a move that is not legal, or a message it cannot
  read, makes it exit: the connection closes without a word.
* GAMEEND received: it answers GAMEEND (reason 0, the same stop code) and, for stop code
  1, exits. BACKREQ: BACKACC 0 and it goes back. CHAT: printed. It never sends BACKREQ.
* It thinks on its own DXP clock: about a thirtieth of what is left (30 moves to go in
  the middle game, 10 in the endgame), times 1.2, up to four times that, never more than
  0.95 of a quarter of what is left; its opening book answers at once.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable

from draughtsboard.board.rules import get_variant, initial_position
from draughtsboard.board.rules.position import Move, Position

INTERNATIONAL = get_variant("international")
NAME = "Scan 2.0"
BUFFER = 256

# (position, its moves so far) -> (the move, the seconds its search took)
Choose = Callable[[Position, int], tuple[Move, float]]


def scan_think_seconds(seconds_left: float, endgame: float = 0.0) -> tuple[float, float]:
    """The soft and hard limits of Scan's search, from what is left on its clock (its
    time allocation with no move count and no increment)."""
    moves_left = 30.0 + (10.0 - 30.0) * endgame
    alloc = seconds_left / moves_left * 1.2
    most = max(min(seconds_left, seconds_left / 4.0) * 0.95 - 0.1, 0.0)
    return min(max(alloc - 0.1, 0.0), most), min(max(alloc * 4.0 - 0.1, 0.0), most)


class ScanLikeFollower:
    """A DXP follower on 127.0.0.1 (``port``) that behaves as Scan 2.0 (module doc).
    ``choose`` picks its moves; ``before_move(n)`` runs before its n-th move is sent (a
    test holds it there). ``received`` and ``sent`` list the messages; ``exit_reason``
    says why it stopped."""

    def __init__(self, choose: Choose,
                 before_move: Callable[[int], None] | None = None) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.choose = choose
        self.before_move = before_move
        self.received: list[str] = []
        self.sent: list[str] = []
        self.chats: list[str] = []
        self.exit_reason = ""
        self.position = initial_position(INTERNATIONAL)
        self.history: list[Position] = [self.position]
        self.reversible = 0  # plies since a capture or a man's move
        self.my_white = False
        self.moves_limit = 0
        self.clock_seconds = 0.0
        self.playing = False
        self.my_moves = 0
        self.sock: socket.socket | None = None
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    # -- the socket, as Scan's: a 256-byte buffer, NUL-ended messages ------------------

    def run(self) -> None:
        sock, _ = self.server.accept()
        self.server.close()
        buffer = b""
        with sock:
            while True:
                while b"\0" not in buffer:
                    if len(buffer) >= BUFFER:
                        self.exit_reason = "socket buffer overflow"
                        return
                    data = sock.recv(BUFFER - len(buffer))
                    if not data:
                        self.exit_reason = "connection closed"
                        return
                    buffer += data
                frame, buffer = buffer.split(b"\0", 1)
                text = frame.decode("latin-1")
                self.received.append(text)
                self.sock = sock
                try:
                    self.flush(self.handle(text))
                except SystemExit as stop:
                    self.exit_reason = str(stop)
                    return
                except OSError:
                    self.exit_reason = "connection closed"
                    return
                if self.exit_reason:
                    return

    def flush(self, out: list[str]) -> None:
        if out:
            self.sent.extend(out)
            self.sock.sendall(b"".join(m.encode("ascii") + b"\0" for m in out))

    # -- the messages ----------------------------------------------------------------------

    def handle(self, text: str) -> list[str]:
        kind = text[:1]
        if kind == "R":
            if len(text) not in (43, 94):
                raise SystemExit("bad input (GAMEREQ)")
            if int(text[1:3]) > 1:
                return ["A" + NAME.ljust(32) + "1"]
            self.my_white = text[35] == "W"
            self.clock_seconds = 60.0 * int(text[36:39])
            self.moves_limit = int(text[39:42])
            if text[42] != "A":
                raise SystemExit("this peer starts from the initial position only")
            self.position = initial_position(INTERNATIONAL)
            self.history = [self.position]
            self.playing = True
            self.flush(["A" + NAME.ljust(32) + "0"])  # out before it searches
            return self.update()
        if kind == "M":
            count = int(text[9:11])
            if len(text) != 11 + 2 * count:
                raise SystemExit("bad input (MOVE)")
            start, end = int(text[5:7]), int(text[7:9])
            captured = sorted(int(text[11 + 2 * i:13 + 2 * i]) for i in range(count))
            move = next((m for m in self.position.legal_moves()
                         if m.start == start and m.end == end
                         and sorted(m.captures) == captured), None)
            if move is None:
                raise SystemExit(f"illegal move: {text}")
            self.play(move)
            return self.update()
        if kind == "E":
            out = []
            if self.playing:
                out.append("E0" + text[2])
                self.playing = False
            if text[2] == "1":
                self.exit_reason = "game end with stop code 1"
            return out
        if kind == "C":
            self.chats.append(text[1:])
            return []
        if kind == "B":
            return ["K0"]  # (the tests never take moves back against it)
        if kind == "K":
            return []
        raise SystemExit(f"bad input: {text!r}")

    def play(self, move: Move) -> None:
        man = self.position.piece_at(move.start) in ("w", "b")
        self.reversible = 0 if (man or move.captures) else self.reversible + 1
        self.position = self.position.play(move)
        self.history.append(self.position)

    def is_draw(self) -> bool:
        if self.reversible >= 50:
            return True
        same = [p for p in self.history[len(self.history) - 1 - self.reversible:]
                if p == self.position]
        return len(same) >= 3

    def update(self) -> list[str]:
        """Its turn, as Scan's: the end of the game, or its move."""
        if not self.playing or self.position.white_to_move != self.my_white:
            return []
        ply = len(self.history) - 1
        if not self.position.legal_moves():
            self.playing = False
            return ["E10"]
        if self.is_draw():
            self.playing = False
            return ["E20"]
        if self.moves_limit and ply >= 2 * self.moves_limit:
            self.playing = False
            comment = f"game ended ({ply // 2} moves played, unknown result)"
            self.chats.append(comment)
            return ["E00", "C" + comment]
        self.my_moves += 1
        if self.before_move is not None:  # its search
            self.before_move(self.my_moves)
        move, seconds = self.choose(self.position, self.my_moves)
        self.clock_seconds -= seconds
        captured = sorted(move.captures)
        self.play(move)
        return [f"M{round(seconds):04d}{move.start:02d}{move.end:02d}{len(captured):02d}"
                + "".join(f"{square:02d}" for square in captured)]
