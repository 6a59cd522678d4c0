"""An external engine over the Hub protocol (``--opponent hub:COMMAND``), e.g. Scan 3.x.

Two layers, as in pyserial's threaded protocols:

* `HubConversation` is the protocol without I/O: it says which lines to send and turns
  each line received into what it means (the engine is ready, its move), checking every
  one. Tests drive it line by line.
* `HubOpponent` runs the engine as a child process, writes the conversation's lines to
  its standard input and reads its standard output through a `Channel` with deadlines:
  a program that does not start, a malformed line, a move not legal in our position, an
  engine that exceeds its time, and an engine that dies mid-game are each one typed
  `OpponentError` with a one-line message.

Variants: a Hub engine plays 10x10 by default; another variant only when the engine
declares a ``variant`` parameter that names it (docs/opponents.md lists the names).
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from typing import TypeVar

from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import Variant

from .base import (
    Clocks,
    GameTrack,
    OpponentError,
    OpponentGoneError,
    OpponentIllegalMoveError,
    OpponentProtocolError,
    OpponentStartError,
    OpponentTimeoutError,
    OpponentUnsupportedError,
)
from .channel import Channel, ChannelClosed, ChannelTimeout, FrameTooLong
from .hub_text import (
    MAX_LINE,
    HubLine,
    HubTextError,
    format_line,
    format_move,
    format_position,
    hub_variant_name,
    parse_line,
    parse_move,
)

HANDSHAKE_SECONDS = 10.0  # from start to "ready" (Scan loads its tables in about a second)
GRACE_SECONDS = 1.0  # beyond its time an engine may take this long to answer, and 25 % more
STOP_SECONDS = 2.0  # after "stop", the time to give the engine to send its "done"


class HubConversation:
    """The Hub protocol from the GUI's side for one engine: handshake, then searches."""

    def __init__(self, variant: Variant, level: int | None = None) -> None:
        self.variant = variant
        self.level = level
        self.state = "new"
        self.engine_name = ""
        self.engine_version = ""
        self.params: dict[str, HubLine] = {}

    # -- what to send ---------------------------------------------------------------------

    def hello(self) -> list[str]:
        self.state = "hello"
        return ["hub"]

    def search(self, track: GameTrack, clocks: Clocks) -> list[str]:
        """The lines that ask for a move in the track's position."""
        if self.state != "ready":
            raise OpponentProtocolError(f"asked to search while {self.state}")
        start = track.start
        if start is None:
            raise OpponentError("the game has not started")
        moves = []
        position = start
        for move in track.moves:
            moves.append(format_move(position, move))
            position = position.play(move)
        pos = {"pos": format_position(start)}
        if moves:
            pos["moves"] = " ".join(moves)
        if clocks.own is None:
            level = format_line("level", move_time=f"{clocks.move_seconds:g}")
        elif clocks.increment:
            level = format_line("level", time=f"{clocks.own:.3f}", inc=f"{clocks.increment:g}")
        else:
            level = format_line("level", time=f"{clocks.own:.3f}")
        self.state = "thinking"
        return [format_line("pos", **pos), level, "go think"]

    # -- what was received ----------------------------------------------------------------

    def receive(self, text: str, position: Position | None = None
                ) -> list[str] | Move | None:
        """Act on one line: during the handshake, the lines to send next (a list) once
        the engine waits, or ``[]`` when it is ready; while thinking, its move (checked
        against ``position``); None for a line that needs nothing."""
        try:
            line = parse_line(text)
        except HubTextError as error:
            raise OpponentProtocolError(f"said {text[:60]!r}: {error}") from None
        if line is None:
            return None
        if line.command == "error":
            raise OpponentProtocolError(f"reported an error: {line.get('message', '')[:120]}")
        if self.state == "hello":
            return self._on_hello(line)
        if self.state == "init":
            if line.command == "ready":
                self.state = "ready"
                return []
            return None
        if self.state == "thinking":
            if line.command != "done":
                return None  # info lines, pong
            self.state = "ready"
            text_move = line.get("move")
            if not text_move:
                raise OpponentProtocolError(f"said {text[:60]!r}: done without a move")
            assert position is not None  # a caller that asked for a search passes it
            try:
                return parse_move(position, text_move)
            except HubTextError as error:
                raise OpponentIllegalMoveError(f"played {text_move[:40]!r}: {error}") from None
        return None

    def _on_hello(self, line: HubLine) -> list[str] | None:
        if line.command == "id":
            self.engine_name = line.get("name", "") or ""
            self.engine_version = line.get("version", "") or ""
            return None
        name = line.get("name")
        if line.command == "param" and name:
            self.params[name] = line
            return None
        if line.command != "wait":
            return None
        send = self._variant_lines() + self._level_lines() + ["init"]
        self.state = "init"
        return send

    def _variant_lines(self) -> list[str]:
        wanted = hub_variant_name(self.variant)
        param = self.params.get("variant")
        values = (param.get("values", "") or "").split() if param else []
        if param is None or not values:
            if wanted == "normal":
                return []
            raise _naming(OpponentUnsupportedError(
                f"{self.display_name()} declares no variants: it plays only international "
                f"draughts, not {self.variant.title}"))
        if wanted not in values:
            raise _naming(OpponentUnsupportedError(
                f"{self.display_name()} does not play {self.variant.title} (its variants: "
                f"{' '.join(values)[:80]}; ours is called {wanted!r})"))
        if param.get("value") == wanted:
            return []
        return [format_line("set-param", name="variant", value=wanted)]

    def _level_lines(self) -> list[str]:
        if self.level is None:
            return []
        if "level" not in self.params:
            raise _naming(OpponentUnsupportedError(
                f"{self.display_name()} has no level parameter"))
        return [format_line("set-param", name="level", value=str(self.level))]

    def display_name(self) -> str:
        name = " ".join(filter(None, (self.engine_name, self.engine_version)))
        return f"the Hub engine {name!r}" if name else "the Hub engine"


OpponentErrorT = TypeVar("OpponentErrorT", bound=OpponentError)


def _naming(error: OpponentErrorT) -> OpponentErrorT:
    """``error``, marked as naming the engine already (its message starts with the
    conversation's `display_name`)."""
    error.names_the_opponent = True
    return error


class HubOpponent:
    """An external Hub engine as a child process, for one game at a time."""

    kind = "hub"

    def __init__(self, variant: Variant, command: str, *, level: int | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 handshake_seconds: float = HANDSHAKE_SECONDS) -> None:
        self.variant = variant
        self.command = command
        self._clock = clock
        self._handshake_seconds = handshake_seconds
        self._conversation = HubConversation(variant, level)
        self._track = GameTrack(variant)
        self._process: subprocess.Popen | None = None
        self._channel: Channel | None = None

    @property
    def name(self) -> str:
        conversation = self._conversation
        name = " ".join(filter(None, (conversation.engine_name,
                                      conversation.engine_version)))
        return name or f"Hub engine {self.command}"

    # -- the game ---------------------------------------------------------------------------

    def start(self, position: Position, opponent_is_white: bool,
              history: tuple[Position, ...] = ()) -> None:
        self._track.begin(position, opponent_is_white, history)
        if self._process is None:
            self._launch()
        else:
            self._send(["new-game"])

    def other_side_moved(self, move: Move) -> None:
        self._track.other_side_moved(move)

    def move(self, clocks: Clocks, stop: Callable[[], bool] | None = None) -> Move:
        position = self._track.check_opponents_turn()
        self._check_alive("before its move")
        budget = clocks.budget() if clocks.own is not None else clocks.move_seconds
        deadline = self._clock() + budget * 1.25 + GRACE_SECONDS
        self._send(self._conversation.search(self._track, clocks))
        stopped = False
        while True:
            text = self._read(deadline, "while thinking", None if stopped else stop)
            if text is None:  # asked to stop: the engine still owes its "done"
                stopped = True
                self._send(["stop"])
                deadline = min(deadline, self._clock() + STOP_SECONDS)
                continue
            answer = self._said(text, position)
            if isinstance(answer, Move):
                self._track.play(answer)
                return answer

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.poll() is None and process.stdin and not process.stdin.closed:
                process.stdin.write(b"quit\n")
                process.stdin.flush()
        except OSError:
            pass
        for stream in (process.stdin, process.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        try:
            process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    # -- the process ------------------------------------------------------------------------

    def _launch(self) -> None:
        try:
            argv = shlex.split(self.command)
        except ValueError as error:
            raise OpponentStartError(f"cannot read the command {self.command!r}: {error}"
                                     ) from None
        if not argv:
            raise OpponentStartError("no Hub engine command given")
        try:
            self._process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as error:
            raise OpponentStartError(f"cannot start the Hub engine {self.command!r}: "
                                     f"{error.strerror or error}") from None
        stdout = self._process.stdout
        assert stdout is not None  # started with stdout=PIPE
        self._channel = Channel(stdout.fileno(), b"\n", MAX_LINE, self._clock)
        deadline = self._clock() + self._handshake_seconds
        try:
            self._send(self._conversation.hello())
            while self._conversation.state != "ready":
                text = self._read(deadline, "before it was ready")
                assert text is not None  # read without `stop`: a line or an error
                answer = self._said(text)
                if isinstance(answer, list) and answer:  # (the handshake answers lists)
                    self._send(answer)
        except OpponentError as error:
            self.close()
            if isinstance(error, (OpponentUnsupportedError, OpponentStartError)):
                raise
            raise OpponentStartError(str(error)) from None

    def _said(self, text: str, position: Position | None = None) -> list[str] | Move | None:
        """The conversation's reading of a line; its error names the engine (one line a
        person can act on) and the process is stopped (its state is unknown now)."""
        try:
            return self._conversation.receive(text, position)
        except OpponentError as error:
            self.close()
            if error.names_the_opponent:
                raise
            raise _naming(type(error)(f"{self._conversation.display_name()} {error}")) from None

    def _send(self, lines: list[str]) -> None:
        process = self._process
        if process is None:
            raise OpponentGoneError(f"the Hub engine {self.command!r} is not running")
        stdin = process.stdin
        assert stdin is not None  # started with stdin=PIPE
        try:
            stdin.write("".join(line + "\n" for line in lines).encode())
            stdin.flush()
        except OSError:
            raise self._gone("when sent a line") from None

    def _read(self, deadline: float, during: str,
              stop: Callable[[], bool] | None = None) -> str | None:
        channel = self._channel
        assert channel is not None  # made by `_launch`, before anything is read
        try:
            frame = channel.read(deadline, stop)
        except ChannelTimeout:
            self.close()
            raise OpponentTimeoutError(f"{self._conversation.display_name()} did not "
                                       f"answer in time {during}") from None
        except ChannelClosed:
            raise self._gone(during) from None
        except FrameTooLong as error:
            self.close()
            raise OpponentProtocolError(f"{self._conversation.display_name()} sent a line "
                                        f"too long ({error})") from None
        if frame is None:
            return None
        return frame.decode("utf-8", "replace").rstrip("\r")

    def _check_alive(self, during: str) -> None:
        if self._process is None or self._process.poll() is not None:
            raise self._gone(during)

    def _gone(self, during: str) -> OpponentError:
        process = self._process
        status = None
        if process is not None:
            try:
                status = process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                status = None
        self.close()
        how = f" (exit status {status})" if status is not None else ""
        kind = OpponentStartError if self._conversation.state in ("new", "hello", "init") \
            else OpponentGoneError
        return kind(f"the Hub engine {self.command!r} stopped{how} {during}")


def default_hub_command() -> str:
    """``draughtsboard hub`` as this installation runs it (the tests' external engine)."""
    return f"{shlex.quote(sys.executable)} -m draughtsboard hub"

