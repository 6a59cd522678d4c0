"""The hands of ``draughtsboard emulate``: its commands, one a line, made into switch actions.

``draughtsboard emulate --pty`` runs a board microcontroller behind a pseudo-terminal
(the composition root wires it); what happens on the board comes from its standard input:

    22-17, c3-d4, 22x13     a move in the game's notation, made by a hand from the
                            position the emulator keeps (lift, put down, captured
                            pieces taken off), as `draughtsboard replay` does it
    lift N, place N         one switch, at once
    unplug, plug            pull the USB cable, put it back (the device reboots)
    reset                   reset the device
    position                the position the emulator keeps (FEN)
    quit                    stop

Each command is answered with one line on standard output (``ok ...`` or ``error: ...``),
so a script can wait for it. Nothing here touches a device: `Hands` turns lines into
scheduled switch changes and cable actions, which the composition root carries out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from draughtsboard.board.replay.hand import ScriptedHand
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.fen import format_fen
from draughtsboard.board.rules.notation import format_move, parse_move
from draughtsboard.board.rules.position import Position

CABLE = ("unplug", "plug", "reset", "quit")


class Schedulable(Protocol):
    """Switches that take changes at given times (the simulated board)."""

    @property
    def occupied(self) -> int: ...

    def columns_closed(self, rows: int) -> int: ...

    def schedule(self, at: float, square: int, closed: bool) -> None: ...

    def advance(self, now: float) -> None: ...


class TimedSwitches:
    """Switches read by a device thread and set by the command thread, on one clock: each
    read applies the changes due by then."""

    def __init__(self, board: Schedulable, clock: Callable[[], float]) -> None:
        self.board = board
        self.clock = clock
        self.lock = threading.Lock()

    @property
    def occupied(self) -> int:
        with self.lock:
            self.board.advance(self.clock())
            return self.board.occupied

    def columns_closed(self, rows: int) -> int:
        """The columns the device reads with ``rows`` driven (the board's matrix)."""
        with self.lock:
            self.board.advance(self.clock())
            return self.board.columns_closed(rows)

    def schedule(self, at: float, square: int, closed: bool) -> None:
        with self.lock:
            self.board.schedule(at, square, closed)


class Hands:
    """The emulator's commands on ``position``; switch changes go to ``switches``."""

    def __init__(self, position: Position, switches: TimedSwitches) -> None:
        self.position = position
        self.switches = switches
        self.hand = ScriptedHand(None)
        self.busy_until = 0.0  # a move waits for the one before it

    def command(self, line: str, now: float) -> tuple[str, str | None]:
        """(the answer line, the cable action to carry out or None)."""
        words = line.split()
        if not words:
            return "", None
        word = words[0].lower()
        if word in CABLE and len(words) == 1:
            return f"ok {word}", word
        if word == "position" and len(words) == 1:
            return f"ok {format_fen(self.position)}", None
        if word in ("lift", "place") and len(words) == 2:
            return self._switch(word, words[1], now), None
        if len(words) == 1:
            return self._move(words[0], now), None
        return f"error: not understood: {line.strip()!r}", None

    def _switch(self, word: str, text: str, now: float) -> str:
        count = self.position.variant.geometry.square_count
        if not text.isdigit() or not 1 <= int(text) <= count:
            return f"error: no square {text!r} (1-{count})"
        at = max(now, self.busy_until)
        self.switches.schedule(at, int(text), word == "place")
        return f"ok {word} {text}"

    def _move(self, text: str, now: float) -> str:
        try:
            move = parse_move(self.position, text)
        except DraughtsError as error:
            return f"error: {error}"
        start = max(now, self.busy_until)
        actions, done = self.hand.play(self.position, move, start)
        for action in actions:
            self.switches.schedule(action.at, action.square, action.closed)
        written = format_move(self.position, move)
        self.position = self.position.play(move)
        self.busy_until = done
        return f"ok {written} (done in {done - now:.1f} s)"
