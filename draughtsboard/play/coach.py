"""The coach: hints, blunder warnings and the evaluation curve of a board in play.

What it does, by mode (docs/user-guide.md, "Training with the engine"):

* **training**: hints on request, in two stages (first the piece to move, then, on a
  second request, its whole path), switchable off for the game; a warning after each
  move that loses material by force within the horizon when another move did not
  (`MaterialProver`), with the move's squares blinking until it is taken back or the
  game goes on; the evaluation of every position for the page's curve;
* **free** (analysis): hints and the curve, no warnings;
* **tournament**: nothing while the game is played (no outside help, no panel on the
  page); once it has a result, the curve of the whole game.

The coach may follow one side only (``sides``: ``play --coach white|black|both``; against
an opponent, the side the person plays): hints on that side's turns, warnings on its
moves.

What the coach says to a person is a `Message` (docs/languages.md): the hint, the
warning and its parts, the panel's note, each refusal (`CoachRefusal`); the page renders
them in its reader's language. Every hint given and every warning is journalled
(`Recorder.record_hint`, `record_coach_note`), so the PDN shows them where they
happened; switching hints or warnings off is journalled too and holds when the game is resumed.

Threads: every method here runs where the game in play is driven (the controller
thread: the game in play calls `after_event` and `game_started`, being its `Follower`;
the web page and the hardware button reach `request_hint` and `set_options` through
``session.call``/``submit``). Searches run on the analyst's thread (`analyst.Analyst`)
and come back through ``post`` (``session.submit``). A job whose position is gone (a
move was played meanwhile) is dropped.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from draughtsboard.board.game.analysis import format_score
from draughtsboard.board.game.record import Game
from draughtsboard.board.game.records import CoachAid, CoachSwitch
from draughtsboard.board.message import Message
from draughtsboard.board.mode import Mode
from draughtsboard.board.rules.engine import MATE, Engine, SearchResult
from draughtsboard.board.rules.engine.material import MaterialProver
from draughtsboard.board.rules.notation import format_move, format_square
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.tracker import TrackerEvent
from draughtsboard.words import english

from .analyst import Analyst, Job, JobRunner
from .errors import CoachError
from .game_in_play import GameInPlay
from .puzzles import PuzzleRunner

log = logging.getLogger("draughtsboard.coach")

HINT_DEPTH = 6  # plies: the search behind a hint (about 0.1 s from an opening here)
HINT_NODES = 150_000  # and its cap, for the middle game and slower boards
CURVE_DEPTH = 4  # the post-game curve of a tournament game: quicker per position
BLUNDER_HORIZON = 3  # quiet plies (captures are followed to the end)
BLUNDER_NODES = 150_000
CACHE = 16  # positions whose search is kept (a takeback comes back to one)
LIVE_SEARCHES = 2  # searches of the game in play kept queued: the newest ones

# What a switch's record says in the PDN (its English comment, as every file written
# before had it). The switch itself is the record's data (`CoachSwitch`), and that is
# what is read back to restore the switches: never these words.
SWITCH_TEXTS = {
    CoachSwitch(CoachAid.HINTS, False): "hints switched off for this game",
    CoachSwitch(CoachAid.HINTS, True): "hints switched on",
    CoachSwitch(CoachAid.WARNINGS, False): "blunder warnings switched off for this game",
    CoachSwitch(CoachAid.WARNINGS, True): "blunder warnings switched on",
}


BOTH_SIDES = frozenset({"white", "black"})


class CoachRefusal(CoachError):
    """A coach request refused now; ``message`` says why in the reader's language (the
    exception's text is the English, for logs and the API's ``error``)."""

    def __init__(self, message_id: str, /, **params) -> None:
        self.message = Message.of(message_id, **params)
        super().__init__(english(self.message))


def _line_text(line: list[str]) -> str:
    """A refutation as a reader takes it in: the reply first, then whole moves, each
    move and its answer together ("f6:h4, a3-b4 d6-c5, b4:d6")."""
    if not line:
        return ""
    return ", ".join([line[0], *(" ".join(line[i:i + 2]) for i in range(1, len(line), 2))])


class Coach:
    """The coach of one game in play (see the module doc), its `Follower` (attached
    with `GameInPlay.attach`). ``post`` runs an answer where the game is driven
    (``session.submit``); ``analyst``: where searches run (default a worker thread);
    ``puzzles``: the puzzles of puzzle mode."""

    def __init__(self, game: GameInPlay, *, post: Callable[[Callable[[], Any]], Any],
                 analyst: JobRunner | None = None, hint_depth: int = HINT_DEPTH,
                 hint_nodes: int = HINT_NODES, blunder_nodes: int = BLUNDER_NODES,
                 puzzles: PuzzleRunner | None = None,
                 sides: frozenset[str] = BOTH_SIDES) -> None:
        self.game_in_play = game
        self.sides = sides
        self.analyst: JobRunner = analyst if analyst is not None else Analyst()
        self.post = post
        self.hint_depth = hint_depth
        self.hint_nodes = hint_nodes
        self.blunder_nodes = blunder_nodes
        self.puzzles = puzzles
        self.hints_on = True
        self.warnings_on = True
        self.hint: dict[str, Any] | None = None
        self.warning: dict[str, Any] | None = None
        self.note: dict[str, Any] | None = None  # the panel's line: a message's JSON
        self.curve: dict[int, int] = {}
        self._searched: OrderedDict[Position, SearchResult] = OrderedDict()
        self._asked: dict[Position, int] = {}  # position -> its search's number (-1: backfill)
        self._hint_wanted = False
        self._generation = 0
        self._searches = 0
        self._game_id = ""
        self._engines: dict[str, Engine] = {}
        self._provers: dict[str, MaterialProver] = {}
        if puzzles is not None:
            puzzles.attach(game, post, self.analyst, self.engine)

    # -- what the session asks ----------------------------------------------------------

    @property
    def mode(self) -> Mode:
        return self.game_in_play.mode

    def game(self) -> Game:
        return self.game_in_play.recorded_game()

    def position(self) -> Position:
        return self.game_in_play.tracker.position

    def led_intents(self) -> dict[str, tuple[int, ...]]:
        """The coach's LED intents, rendered with the tracker's (`render`)."""
        out: dict[str, tuple[int, ...]] = {}
        if self.warning is not None:
            out["blunder"] = tuple(self.warning["squares"])
        if self.hint is not None and self.hint.get("squares"):
            out["hint"] = (self.hint["squares"][0],)
            if self.hint["stage"] == 2:
                out["hint_path"] = tuple(self.hint["squares"][1:])
        if self.puzzles is not None:
            out.update(self.puzzles.led_intents())
        return out

    def follows(self, white: bool) -> bool:
        """Whether the coach follows the side (``white``) to move or that moved."""
        return ("white" if white else "black") in self.sides

    def view(self) -> dict[str, Any] | None:
        """The coach's part of the page; None during a tournament game (no coach at all;
        once it has its result, the evaluation curve)."""
        game = self.game()
        live = self.mode is not Mode.TOURNAMENT or game.result is not None
        if not live:
            return None
        return {
            "available": self.mode is not Mode.TOURNAMENT,
            "hints": self.hints_on and self.mode is not Mode.TOURNAMENT,
            "warnings": self.warnings_on and self.mode is Mode.TRAINING,
            "hint": self.hint,
            "warning": self.warning,
            "note": self.note,
            "curve": [[ply, score] for ply, score in sorted(self.curve.items())] if live
            else [],
            "plies": game.ply,
            "follows": sorted(self.sides),
            "puzzle": self.puzzles.view() if self.puzzles is not None else None,
        }

    def close(self) -> None:
        self.analyst.close()

    def tick(self, now: float) -> bool:
        """Time passed (the driver's thread): a puzzle's "Solved" moment ends."""
        return self.puzzles.tick(now) if self.puzzles is not None else False

    def puzzle_action(self, action: str) -> dict[str, Any]:
        """The solver's ``next``, ``retry`` or ``solution`` (`PuzzleRunner.act`)."""
        if self.puzzles is None:
            raise CoachRefusal("coach.refused.not_puzzle")
        return self.puzzles.act(action)

    # -- the game as it goes ---------------------------------------------------------------

    def game_started(self) -> None:
        """A game began or was resumed: forget the last one; settings from the journal."""
        self._generation += 1
        self._asked.clear()
        self._game_id = self.game_in_play.game_id
        self.hint = self.warning = None
        self.note = None
        self.curve = {}
        self._hint_wanted = False
        self.hints_on = self.warnings_on = True
        for event in self.game().events:
            if event.switch is not None:  # the switch as data, never its words
                if event.switch.aid is CoachAid.HINTS:
                    self.hints_on = event.switch.on
                else:
                    self.warnings_on = event.switch.on
        if self.puzzles is not None:
            self.puzzles.game_started()
        self._follow()

    def after_event(self, event: TrackerEvent) -> None:
        """A tracker event was recorded (controller thread)."""
        if event.kind not in ("move", "takeback", "game_over"):
            return
        game = self.game()
        if event.kind == "game_over" or game.result is not None:
            self._game_over(game)
            return
        self._generation += 1
        self.hint = None
        self._hint_wanted = False
        self.warning = None
        self.note = None
        if event.kind == "takeback":
            for ply in [p for p in self.curve if p > game.ply]:
                del self.curve[ply]
        if self.puzzles is not None and self.puzzles.after_event(event, game):
            self.game_in_play.refresh_leds()
            return  # a puzzle judges its own moves
        if event.kind == "move" and self.mode is Mode.TRAINING and self.warnings_on \
                and game.ply and self.follows(game.positions[-2].white_to_move):
            self._check_blunder(game)
        self._follow()
        self.game_in_play.refresh_leds()

    def game_finished(self) -> None:
        """The game got its result outside the tracker (the arbiter declared it, or
        accepted the draw the rules declare)."""
        self._game_over(self.game())

    def journal_caught_up(self) -> None:
        """The moves the journal held back are recorded (controller thread): a puzzle
        that waited for them begins."""
        if self.puzzles is not None:
            self.puzzles.journal_caught_up()

    def game_resumed(self) -> None:
        """The arbiter withdrew the result: the game goes on, and so does the coach."""
        self._generation += 1
        self._follow()
        self.game_in_play.refresh_leds()

    def _follow(self) -> None:
        """Search the position on the board (the curve, and the next hint ready)."""
        game = self.game()
        if self.mode is Mode.TOURNAMENT and game.result is None:
            return
        self._analyse(game.position, game.ply, game.positions[:-1])

    def _game_over(self, game: Game) -> None:
        self._generation += 1  # a blunder check still under way is for a game in play
        self.hint = None
        self._hint_wanted = False
        if self.puzzles is not None:
            self.puzzles.game_over(game)
        positions = game.positions
        for ply, position in enumerate(positions):
            if ply not in self.curve:
                self._analyse(position, ply, positions[:ply], depth=CURVE_DEPTH)
        self.game_in_play.refresh_leds()

    # -- searches ---------------------------------------------------------------------------

    def engine(self, position: Position) -> Engine:
        engine = self._engines.get(position.variant.name)
        if engine is None:
            engine = self._engines[position.variant.name] = Engine(position.variant)
        return engine

    def _analyse(self, position: Position, ply: int, history, depth: int | None = None) -> None:
        found = self._searched.get(position)
        if found is not None:
            self._analysed(self._generation, ply, position, found)
            return
        if position.is_game_over():  # lost by the side to move: the curve's end
            self.curve[ply] = -MATE if position.white_to_move else MATE
            return
        asked = self._asked.get(position)
        if asked is not None and (asked < 0 or self._searches - asked < LIVE_SEARCHES):
            return  # already on its way
        backfill = depth is not None
        self._searches += 1
        number = self._searches
        self._asked[position] = -1 if backfill else number
        generation = self._generation
        game_id = self.game_in_play.game_id
        engine = self.engine(position)
        limits = {"depth": depth or self.hint_depth, "nodes": self.hint_nodes}

        def work(stop):
            return engine.search(position, history=history, stop=stop, **limits)

        def done(result: SearchResult) -> None:
            self.post(lambda: self._analysed(generation, ply, position, result))

        def stale() -> bool:
            # a position of the game in play gives way to newer ones (fast play must
            # not pile up searches); the curve's gaps are filled when the game ends
            return self.game_in_play.game_id != game_id or (
                not backfill and self._searches - number >= LIVE_SEARCHES)

        # the newest position first: its hint may be asked for
        self.analyst.submit(Job(f"search at ply {ply}", work, done, stale,
                                priority=(1, -number)))

    def _analysed(self, generation: int, ply: int, position: Position,
                  result: SearchResult) -> None:
        """A search came back (controller thread)."""
        self._asked.pop(position, None)
        if result.move is None:
            return
        self._searched[position] = result
        self._searched.move_to_end(position)
        while len(self._searched) > CACHE:
            self._searched.popitem(last=False)
        game = self.game()
        if ply <= game.ply and game.positions[ply] == position:
            # every ply the position stood at (a repetition is asked for once)
            for at, seen in enumerate(game.positions):
                if seen == position:
                    self.curve[at] = result.white_score
        if self._hint_wanted and position == self.position():
            self._hint_wanted = False
            self._show_hint(1, result)

    # -- hints ------------------------------------------------------------------------------

    def request_hint(self) -> dict[str, Any]:
        """The next stage of the hint for the position on the board (controller thread):
        stage 1 the piece, stage 2 its path. `CoachError` when no hint may be given."""
        if self.mode is Mode.TOURNAMENT:
            raise CoachRefusal("coach.refused.tournament_hints")
        if not self.hints_on:
            raise CoachRefusal("coach.refused.hints_off")
        game = self.game()
        if game.result is not None:
            raise CoachRefusal("coach.refused.game_over")
        position = self.position()
        if position.is_game_over():
            raise CoachRefusal("coach.refused.no_move")
        if not self.follows(position.white_to_move):
            # the coach follows one side only, the other one's
            raise CoachRefusal("coach.refused.follows.white" if "white" in self.sides
                               else "coach.refused.follows.black")
        stage = 1 if self.hint is None or self.hint.get("stage", 0) == 0 else 2
        if self.hint is not None and self.hint.get("stage") == 2:
            return self.hint  # both stages given: nothing more to say
        found = self._searched.get(position)
        if found is None:
            self._hint_wanted = True
            self.hint = {"stage": 0, "squares": [], "text": None, "thinking": True}
            self._analyse(position, game.ply, game.positions[:-1])
            return self.hint
        return self._show_hint(stage, found)

    def _show_hint(self, stage: int, result: SearchResult) -> dict[str, Any]:
        position = self.position()
        move = result.move
        assert move is not None  # only results with a move are kept (`searched`)
        variant = position.variant
        start = format_square(variant, move.start)
        if stage == 1:
            text = Message.of("coach.hint.piece", square=start)
            journal = f"hint 1 (the piece): {start}"
        else:
            notation = format_move(position, move)
            text = Message.of("coach.hint.move", move=notation)
            journal = f"hint 2 (the move): {notation} ({format_score(result.white_score)})"
        squares = [move.start] if stage == 1 else [move.start, *move.path[1:]]
        self.hint = {"stage": stage, "squares": squares, "text": text.as_json(),
                     "thinking": False}
        self.note = Message.of("coach.note.hint", hint=text).as_json()
        self.game_in_play.note_hint(journal)
        self.game_in_play.refresh_leds()
        return self.hint

    def set_options(self, hints: bool | None = None, warnings: bool | None = None) -> dict:
        """Switch hints or blunder warnings on or off for this game (journalled)."""
        if self.mode is Mode.TOURNAMENT:
            raise CoachRefusal("coach.refused.tournament")
        if self.game().result is not None:
            raise CoachRefusal("coach.refused.game_over")
        changes = []
        if hints is not None and hints != self.hints_on:
            self.hints_on = hints
            changes.append(CoachSwitch(CoachAid.HINTS, hints))
            if not hints:
                self.hint = None
                self._hint_wanted = False
        if warnings is not None and warnings != self.warnings_on:
            self.warnings_on = warnings
            changes.append(CoachSwitch(CoachAid.WARNINGS, warnings))
            if not warnings:
                self.warning = None
        for switch in changes:
            self.game_in_play.note_coach(SWITCH_TEXTS[switch], switch=switch)
        self.game_in_play.refresh_leds()
        return {"hints": self.hints_on, "warnings": self.warnings_on}

    # -- blunder warnings -----------------------------------------------------------------------

    def prover(self, position: Position) -> MaterialProver:
        prover = self._provers.get(position.variant.name)
        if prover is None:
            prover = self._provers[position.variant.name] = MaterialProver(position.variant)
        return prover

    def _check_blunder(self, game: Game) -> None:
        before = game.positions[-2]
        move = game.moves[-1].move
        generation = self._generation
        prover = self.prover(before)
        nodes = self.blunder_nodes

        def work(stop):
            verdict = prover.better_than(before, move, BLUNDER_HORIZON, nodes, stop)
            if verdict is None or verdict[1] is None or verdict[0] >= 0:
                return verdict, ()
            after = before.play(move)
            left = BLUNDER_HORIZON - (0 if move.captures else 1)
            outcomes = prover.outcomes(after, left, nodes, stop)
            return verdict, outcomes[0].line[:4] if outcomes else ()

        def done(answer) -> None:
            verdict, refutation = answer
            self.post(lambda: self._judged(generation, before, move, verdict, refutation))

        def stale() -> bool:
            return self._generation != generation

        self.analyst.submit(Job(f"blunder check at ply {game.ply}", work, done, stale,
                                priority=(0,)))

    def _judged(self, generation: int, before: Position, move: Move, verdict,
                refutation: tuple[Move, ...]) -> None:
        """The blunder check came back (controller thread)."""
        if generation != self._generation or verdict is None or \
                self.game().result is not None:
            return
        played, better = verdict
        if better is None or played >= 0 or better.gain <= played:
            return
        variant = before.variant
        text = format_move(before, move)
        line = []
        current = before.play(move)
        for step in refutation:
            line.append(format_move(current, step))
            current = current.play(step)
        alternative = format_move(before, better.move)
        lost = -played
        said = blunder_said(text, lost, line)
        advice = better_said(alternative, better.gain)
        square = lambda number: format_square(variant, number)  # noqa: E731
        takeback = takeback_said(square(move.start), square(move.end),
                                 [square(s) for s in move.captures])
        squares = sorted({move.start, move.end, *move.captures})
        whole = Message.of("coach.blunder.text", said=said, better=advice, takeback=takeback)
        self.warning = {"move": text, "lost": lost, "line": line, "better": alternative,
                        "text": whole.as_json(), "said": said.as_json(),
                        "advice": advice.as_json(), "squares": squares,
                        "takeback": takeback.as_json()}
        self.note = Message.of("coach.note.blunder", said=said).as_json()
        # the journal keeps its own English line (a record is language-neutral data)
        self.game_in_play.note_coach(f"blunder warning: {english(said)} {english(advice)}")
        self.game_in_play.refresh_leds()


def blunder_said(move: str, lost: int, line: list[str]) -> Message:
    """What a blunder loses: "d6-c5 loses a piece by force: b4:d6, h8-g7 e1-f2."."""
    if line:
        return Message.of("coach.blunder.loses_line", move=move, count=lost,
                          line=_line_text(line))
    return Message.of("coach.blunder.loses", move=move, count=lost)


def better_said(move: str, gain: int) -> Message:
    """What the better move does: wins pieces, keeps the balance, or loses fewer."""
    if gain > 0:
        return Message.of("coach.blunder.better.wins", move=move, count=gain)
    if gain == 0:
        return Message.of("coach.blunder.better.keeps", move=move)
    return Message.of("coach.blunder.better.loses_less", move=move, count=-gain)


def takeback_said(start: str, end: str, taken: list[str]) -> Message:
    """How to take the move back: the piece from ``end`` to ``start``, and the pieces it
    took (their squares) back on the board."""
    if taken:
        return Message.of("coach.takeback.capture", start=start, end=end,
                          count=len(taken), taken=taken)
    return Message.of("coach.takeback.move", start=start, end=end)
