"""The built-in engine's side of the Hub protocol, as a state machine without I/O.

``draughtsboard hub`` reads lines from standard input and hands each to
`HubEngineSession.receive`, which answers with what to do: lines to write, a search to
start (`SearchOrder`), a search to stop, or quit. The search itself runs on the command's
worker thread (`run_search`), so that ``stop`` and ``ping`` are answered while it thinks.
Every input is checked: a position that cannot be read, a move list with an illegal move,
a search asked for before ``init`` or in a position without a legal move is answered
with ``error message="..."`` and changes nothing.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from draughtsboard import __version__
from draughtsboard.board.rules.engine import MATE, MATE_BOUND, MAX_SECONDS, Engine
from draughtsboard.board.rules.engine.levels import LEVEL_NUMBERS, LevelPlayer
from draughtsboard.board.rules.position import Position
from draughtsboard.board.rules.variants import Variant

from .hub_text import (
    HUB_VARIANT_NAMES,
    HubTextError,
    format_line,
    format_move,
    hub_variant,
    parse_line,
    parse_move,
    parse_position,
)

ENGINE_NAME = "draughtsboard"
FULL_STRENGTH = max(LEVEL_NUMBERS)
DEFAULT_MOVE_SECONDS = 1.0  # when the GUI sends no ``level`` before ``go``
MAX_MOVES_LISTED = 2_000  # a longer ``moves`` list is not a game
TIME_SHARE_MOVES = 30  # a sudden-death clock is spent as if this many moves remained


@dataclass(frozen=True)
class Limits:
    """What the GUI's ``level`` asked for (all None: no limit, think until ``stop``)."""

    depth: int | None = None
    nodes: int | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class SearchOrder:
    """A search to run: the position, the positions before it, the limits and the level
    (1-9 play at that level within the limits; 10 obeys the limits alone)."""

    variant: Variant
    position: Position
    history: tuple[Position, ...]
    limits: Limits
    level: int
    seed: str


@dataclass
class Reply:
    """What to do after a line: write ``lines``, then start ``search`` or ``stop`` it,
    then ``quit``."""

    lines: list[str] = field(default_factory=list)
    search: SearchOrder | None = None
    stop: bool = False
    quit: bool = False


class HubEngineSession:
    """The protocol's state: parameters, the position, the limits, whether a search runs."""

    def __init__(self) -> None:
        self.variant = hub_variant("normal")
        self.level = FULL_STRENGTH
        self.initialised = False
        self.searching = False
        self.position: Position | None = None
        self.history: tuple[Position, ...] = ()
        self.limits = Limits(seconds=DEFAULT_MOVE_SECONDS)
        self.games = 0

    def receive(self, text: str) -> Reply:
        """Act on one line from the GUI."""
        try:
            line = parse_line(text)
        except HubTextError as error:
            return Reply([_error(str(error))])
        if line is None:
            return Reply()
        if self.searching and line.command not in ("ping", "stop", "ponder-hit", "quit"):
            return Reply([_error(f"{line.command!r} during a search (only ping, stop, "
                                 f"ponder-hit)")])
        handler = getattr(self, "_on_" + line.command.replace("-", "_"), None)
        if handler is None:
            return Reply()  # the protocol: ignore what you do not understand
        return handler(line)

    def search_done(self) -> None:
        self.searching = False

    # -- initialisation -----------------------------------------------------------------

    def _on_hub(self, line) -> Reply:
        values = " ".join(HUB_VARIANT_NAMES)
        return Reply([
            format_line("id", name=ENGINE_NAME, version=__version__,
                        author="draughtsboard project", country="?"),
            format_line("param", name="variant", value="normal", type="enum", values=values),
            format_line("param", name="level", value=str(FULL_STRENGTH), type="int",
                        min=str(min(LEVEL_NUMBERS)), max=str(FULL_STRENGTH)),
            "wait",
        ])

    def _on_set_param(self, line) -> Reply:
        name, value = line.get("name"), line.get("value", "")
        if name == "variant":
            try:
                self.variant = hub_variant(value)
            except HubTextError as error:
                return Reply([_error(str(error))])
            self.position, self.history = None, ()
        elif name == "level":
            if not (value.isdigit() and int(value) in LEVEL_NUMBERS):
                return Reply([_error(f"level {value!r} is not 1-10")])
            self.level = int(value)
        return Reply()

    def _on_init(self, line) -> Reply:
        self.initialised = True
        return Reply(["ready"])

    def _on_ping(self, line) -> Reply:
        return Reply(["pong"])

    def _on_new_game(self, line) -> Reply:
        self.games += 1
        return Reply()

    def _on_quit(self, line) -> Reply:
        return Reply(stop=self.searching, quit=True)

    def _on_stop(self, line) -> Reply:
        return Reply(stop=self.searching)

    def _on_ponder_hit(self, line) -> Reply:
        return Reply()  # a ponder search already counts as thinking (docs/opponents.md)

    # -- a search -----------------------------------------------------------------------

    def _on_pos(self, line) -> Reply:
        text = line.get("pos")
        if not text:
            return Reply([_error("pos without pos=")])
        try:
            position = parse_position(self.variant, text)
            history = [position]
            moves = (line.get("moves") or "").split()
            if len(moves) > MAX_MOVES_LISTED:
                raise HubTextError(f"{len(moves)} moves listed (at most {MAX_MOVES_LISTED})")
            for text_move in moves:
                position = position.play(parse_move(position, text_move))
                history.append(position)
        except HubTextError as error:
            self.position = None
            return Reply([_error(str(error))])
        self.position, self.history = position, tuple(history[:-1])
        return Reply()

    def _on_level(self, line) -> Reply:
        try:
            self.limits = _limits(line)
        except ValueError as error:
            return Reply([_error(str(error))])
        return Reply()

    def _on_go(self, line) -> Reply:
        if not self.initialised:
            return Reply([_error("go before init")])
        if self.position is None:
            return Reply([_error("go without a position")])
        if not self.position.legal_moves():
            return Reply([_error(f"no legal move in {self.position.fen()}")])
        limits = self.limits
        if "analyze" in line.args:
            limits = Limits(limits.depth, limits.nodes, None) if any(
                (limits.depth, limits.nodes)) else Limits()
        self.searching = True
        return Reply(search=SearchOrder(self.variant, self.position, self.history, limits,
                                        self.level, f"hub-{self.games}"))


def _limits(line) -> Limits:
    """The limits of a ``level`` line (Hub: depth, move-time, time with moves and inc,
    infinite; pydraughts also sends nodes)."""
    def number(name: str, kind=float):
        text = line.get(name)
        try:
            value = kind(text)
        except (TypeError, ValueError):
            raise ValueError(f"level {name}={text!r} is not a number") from None
        if not 0 <= value <= MAX_SECONDS or value != value:
            raise ValueError(f"level {name}={text!r} is out of range")
        return value

    if "infinite" in line.args:
        return Limits()
    if "depth" in line.args:
        return Limits(depth=max(1, number("depth", int)))
    if "nodes" in line.args:
        return Limits(nodes=max(1, number("nodes", int)))
    if "move-time" in line.args:
        return Limits(seconds=max(0.01, number("move-time")))
    if "time" in line.args:
        remaining = number("time")
        increment = number("inc") if "inc" in line.args else 0.0
        moves = number("moves", int) if "moves" in line.args else 0
        share = remaining / max(1, moves or TIME_SHARE_MOVES) + increment
        return Limits(seconds=max(0.01, min(share, remaining * 0.5 + increment)))
    raise ValueError(f"level without a limit: {' '.join(line.args) or 'nothing'}")


def _error(message: str) -> str:
    return format_line("error", message=message.replace('"', "'"))


def run_search(order: SearchOrder, stop: threading.Event) -> list[str]:
    """Run one search; its ``info`` and ``done`` lines (on the worker thread: the caller
    marks the search finished before it writes ``done``, so that the GUI's next line,
    sent as soon as it reads ``done``, finds the session idle)."""
    position = order.position
    limits = order.limits
    if order.level < FULL_STRENGTH:
        player = LevelPlayer(order.variant, order.level, seed=order.seed)
        choice = player.choose(position, order.history, seconds=limits.seconds,
                               stop=stop.is_set)
        return [format_line("info", depth="0", score=_score(choice.score),
                            nodes=str(choice.nodes)),
                format_line("done", move=format_move(position, choice.move))]
    if limits.depth is None and limits.nodes is None and limits.seconds is None:
        limits = Limits(depth=64)  # until stopped (or a forced result is found)
    result = Engine(order.variant).search(position, depth=limits.depth, nodes=limits.nodes,
                                          seconds=limits.seconds, history=order.history,
                                          stop=stop.is_set)
    pv, current = [], position
    for step in result.pv:
        pv.append(format_move(current, step))
        current = current.play(step)
    move = result.move
    assert move is not None  # the session asks for a search only where a move exists
    extra = {"ponder": pv[1]} if len(pv) > 1 else {}
    return [format_line("info", depth=str(result.depth), score=_score(result.score),
                        nodes=str(result.nodes), time=f"{result.seconds:.3f}",
                        pv=" ".join(pv)),
            format_line("done", move=format_move(position, move), **extra)]


def _score(score: int) -> str:
    """A score in men, as Scan writes it; a forced result in N plies is 100 - N/100 men
    (what pydraughts and Hub read as a win)."""
    if abs(score) > MATE_BOUND:
        plies = MATE - abs(score)
        return f"{(10000 - plies) / 100 * (1 if score > 0 else -1):.2f}"
    return f"{score / 100:.2f}"
