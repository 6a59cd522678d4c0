"""Puzzles on the board: set up a position, find the winning line, on to the next one.

A puzzle file is PDN: each game a puzzle, its ``FEN`` tag the position, its moves the
solution (the solver's moves and the replies, in turn), its first comment what to find
("White to play and win 2 pieces"). The project ships one file per variant
(``draughtsboard/play/puzzles/<variant>.pdn``, made by scripts/mine_shots.py: positions
from seeded games, each solution proved by the engine's material prover).

How a puzzle goes (`PuzzleRunner`, driven by the coach on the controller thread):

1. **Set-up**: the puzzle begins as a new game from its position; the tracker waits until
   the board matches, and the LEDs say what to do on each square that differs: green,
   put a piece here; blinking orange, take the piece off. For columns the page lists what
   each column of two pieces or more holds, top first.
2. **Solving**: a move of the solution is accepted; any other move is checked by the
   material prover (in the analyst's thread): if it wins at least as much within the same
   horizon it solves the puzzle too, otherwise the move's squares blink and the page says
   to take it back (training's takeback: put the pieces back).
3. **Replies**: the other side's move is shown on the board as a hint (the piece, then
   its path) for the solver to play for it; the solution's reply when the file gives one,
   else the engine's.
4. **Solved**: the page says so and every piece lights white for a moment
   (`SOLVED_SECONDS`), then the next puzzle begins (its set-up lights).

At any time the solver may skip to the next puzzle, try the same one again from its
set-up, or have the solution shown (its moves on the page, the solver's next move on the
LEDs as a hint); a puzzle solved with the solution shown is not counted as solved. Each
puzzle is a game in the journal: ``Event "Puzzle"``, its number as ``Round``, the puzzle
file's name as ``PuzzleSet``.

What the page shows is a `Message` each (docs/languages.md): the puzzle's title (a
file's comment of the shipped form "White to play and win 2 pieces" becomes one, in the
reader's language; any other comment is shown as it is), the notes and the refusals
(`PuzzleRefusal`). The journal keeps its English lines, as data.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from draughtsboard.board.game.pdn_reader import decode_pdn, read_pdn
from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.ports import squares_from_mask
from draughtsboard.board.rules.engine import Engine
from draughtsboard.board.rules.engine.material import MaterialProver
from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.notation import format_move, format_square
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import Variant
from draughtsboard.board.tracker import State, TrackerEvent
from draughtsboard.words import english

from .analyst import Job, JobRunner
from .errors import ArbiterError, PuzzleError
from .game_in_play import GameInPlay

log = logging.getLogger("draughtsboard.coach")

MAX_FILE = 4 * 1024 * 1024
SOLVED_SECONDS = 3.0  # the "Solved" moment before the next set-up
CHECK_HORIZON = 3
CHECK_NODES = 100_000
REPLY_NODES = 20_000
# the comment the shipped files give each puzzle (scripts/mine_shots.py)
SHIPPED_TITLE = re.compile(r"(White|Black) to play and win (\d{1,4}) pieces?")


class PuzzleRefusal(PuzzleError):
    """A puzzle action that does not fit now; ``message`` says why in the reader's
    language (the exception's text is the English)."""

    def __init__(self, message_id: str, /, **params) -> None:
        self.message = Message.of(message_id, **params)
        super().__init__(english(self.message))


@dataclass(frozen=True)
class Puzzle:
    number: int
    start: Position
    solution: tuple[Move, ...]
    title: str | Message  # a file's own comment is shown as it is


def puzzle_title(comment: str, white: bool) -> str | Message:
    """The title of a puzzle whose file says ``comment`` (its side to move ``white``): a
    message for the shipped files' form and for none, else the comment as it is."""
    side = "white" if white else "black"
    shipped = SHIPPED_TITLE.fullmatch(comment.strip())
    if shipped and shipped.group(1).lower() == side:
        return Message.of(f"puzzle.title.win.{side}", count=int(shipped.group(2)))
    if not comment.strip():
        return Message.of(f"puzzle.title.play.{side}")
    return comment


def solution_text(puzzle: Puzzle) -> str:
    """The solution as it is read: "1. f4-g5 a5:c3 2. g5:a7" (numbered from the
    puzzle's side to move)."""
    position = puzzle.start
    items = []
    number = 1
    for ply, move in enumerate(puzzle.solution):
        white = position.white_to_move
        if white:
            items.append(f"{number}.")
        elif ply == 0:
            items.append(f"{number}...")
        items.append(format_move(position, move))
        if not white:
            number += 1
        position = position.play(move)
    return " ".join(items)


def column_message(column: str) -> Message:
    """A column of the set-up in words, top first (``column``: its pieces as the position
    writes them, w/b men, W/B crowned)."""
    names = {"w": "piece.top.white", "b": "piece.top.black",
             "W": "piece.officer.white", "B": "piece.officer.black"}
    return Message.of("piece.column", count=len(column),
                      pieces=[Message.of(names[piece]) for piece in column])


def shipped_puzzles(variant: Variant) -> Path:
    """The puzzle file that ships for ``variant``."""
    return Path(str(resources.files("draughtsboard.play").joinpath(
        f"puzzles/{variant.name}.pdn")))


def load_puzzles(path: str | Path, variant: Variant) -> list[Puzzle]:
    """The puzzles of a PDN file; `PuzzleError` (one line) when none can be used."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE:
            raise PuzzleError(f"{path}: larger than {MAX_FILE // (1024 * 1024)} MB")
        text = decode_pdn(path.read_bytes())
    except OSError as error:
        raise PuzzleError(f"{path}: {error.strerror or error}") from None
    try:
        read = read_pdn(text, variant=variant, source=str(path))
    except DraughtsError as error:
        raise PuzzleError(str(error)) from None
    if read.errors:
        raise PuzzleError(str(read.errors[0]))
    puzzles: list[Puzzle] = []
    for entry in read.games:
        game: Game = entry.game
        if game.variant is not variant:
            raise PuzzleError(f"{path}: game {entry.number} is {game.variant.name}, "
                              f"not {variant.name}")
        if not game.moves:
            raise PuzzleError(f"{path}: game {entry.number} has no solution moves")
        title = puzzle_title(game.comment or "", game.start.white_to_move)
        puzzles.append(Puzzle(len(puzzles) + 1, game.start,
                              tuple(played.move for played in game.moves), title))
    if not puzzles:
        raise PuzzleError(f"{path}: no puzzle in the file")
    return puzzles


class PuzzleRunner:
    """The puzzles of one game in play (see the module doc). The coach attaches it
    (`attach`) and forwards the game's events."""

    # given by `attach`, before the game opens
    game: GameInPlay
    post: Callable[[Callable[[], Any]], Any]
    analyst: JobRunner
    engine: Callable[[Position], Engine]

    def __init__(self, puzzles: list[Puzzle], source: str = "") -> None:
        self.puzzles = puzzles
        self.source = source
        self.index = 0
        self.state = "setup"  # setup, solving, wrong, checking, solved, done
        self.note: Message | None = None
        self.solved: list[int] = []
        self._wrong: tuple[int, ...] = ()
        self._reply: Move | None = None
        self._reply_position: Position | None = None
        self._generation = 0
        self._prover: MaterialProver | None = None
        self._waiting_to_begin: int | None = None  # a puzzle held back by the journal
        self._solved_at: float | None = None  # the "Solved" moment began (driver's clock)
        self.shown: list[int] = []  # puzzles whose solution was shown
        self._solution_hint: tuple[Position, Move] | None = None

    def attach(self, game: GameInPlay, post: Callable[[Callable[[], Any]], Any],
               analyst: JobRunner, engine: Callable[[Position], Engine]) -> None:
        """What the puzzles run on, given by the coach: the game in play, how an answer
        gets back where the game is driven (``post``), where searches run, and the
        engine for a position."""
        self.game = game
        self.post = post
        self.analyst = analyst
        self.engine = engine

    @property
    def puzzle(self) -> Puzzle:
        return self.puzzles[self.index]

    def solver_is_white(self) -> bool:
        return self.puzzle.start.white_to_move

    # -- the coach's hooks ---------------------------------------------------------------

    def game_started(self) -> None:
        """A game began: which puzzle is it? (A game that is none: begin the first.)"""
        self._generation += 1
        self._wrong, self._reply = (), None
        game = self.game.recorded_game()
        for index, puzzle in enumerate(self.puzzles):
            if puzzle.start == game.start and \
                    tuple(p.move for p in game.moves) == puzzle.solution[:game.ply]:
                self.index = index
                self.state = "setup" if game.ply == 0 else "solving"
                self.note = Message.of("puzzle.note.setup")
                if game.ply:
                    self._next_step(game)
                return
        self.post(lambda: self.begin(0))

    def begin(self, index: int, why: str = "puzzle left for the next one") -> None:
        """Begin puzzle ``index`` as a new game (controller thread)."""
        self._solved_at = None
        self._solution_hint = None
        if index >= len(self.puzzles):
            self.state = "done"
            self.note = Message.of("puzzle.note.done", count=len(self.puzzles),
                                   solved=len(self.solved))
            return
        puzzle = self.puzzles[index]
        try:
            self.game.begin_game(self.tags_for(index), puzzle.start.fen(), why)
        except ArbiterError as error:  # moves not recorded yet: a new game would lose them
            self._waiting_to_begin = index
            self.note = Message.of("puzzle.note.waits", number=puzzle.number,
                                   reason=str(error))
            return
        self._waiting_to_begin = None
        self.index = index
        begun = Message.of("puzzle.log.begin", number=puzzle.number,
                           total=len(self.puzzles), title=puzzle.title)
        log.info("%s", english(begun))
        self.game.log_note("puzzle", english(begun))

    # -- the solver's requests (the page) --------------------------------------------------

    def act(self, action: str) -> dict[str, Any]:
        """``next`` (skip to the next puzzle, or go on after "Solved"), ``retry`` (this
        puzzle again from its set-up) or ``solution`` (show it); the puzzle's view.
        `PuzzleError` for another action, or one that does not fit now."""
        if action == "next":
            if self.state == "done":
                raise PuzzleRefusal("puzzle.refused.done")
            following = self.index + 1
            self.begin(following, "puzzle skipped" if self.state != "solved"
                       else "puzzle solved")
        elif action == "retry":
            if self.state == "done":
                raise PuzzleRefusal("puzzle.refused.done")
            self.begin(self.index, "puzzle tried again")
        elif action == "solution":
            self._show_solution()
        else:
            raise PuzzleRefusal("puzzle.refused.bad_action", action=repr(action)[:40])
        self.game.refresh_leds()
        return self.view()

    def _show_solution(self) -> None:
        if self.state in ("done", "solved"):
            raise PuzzleRefusal("puzzle.refused.not_solving")
        puzzle = self.puzzle
        if puzzle.number not in self.shown:
            self.shown.append(puzzle.number)
        self.game.note_coach(f"solution of puzzle {puzzle.number} shown")
        self.note = Message.of("puzzle.note.solution", moves=solution_text(puzzle))
        game = self.game.recorded_game()
        if self.state != "wrong" and self._on_line(game, game.ply):
            self._hint_solver_move(game)

    def _hint_solver_move(self, game: Game) -> None:
        """The solution shown: the solver's next move lights as a hint."""
        position = game.position
        if game.ply < len(self.puzzle.solution) and \
                position.white_to_move == self.solver_is_white():
            self._solution_hint = (position, self.puzzle.solution[game.ply])
        else:
            self._solution_hint = None

    def tick(self, now: float) -> bool:
        """Time passed: after the "Solved" moment the next puzzle begins; whether
        something changed."""
        if self.state == "solved" and self._solved_at is not None and \
                now - self._solved_at >= SOLVED_SECONDS:
            self.begin(self.index + 1, "puzzle solved")
            return True
        return False

    def journal_caught_up(self) -> None:
        """The moves the journal held back are recorded: a puzzle waiting for that
        begins (controller thread)."""
        if self._waiting_to_begin is not None:
            self.begin(self._waiting_to_begin)

    def tags_for(self, index: int) -> dict[str, str]:
        """The tags of the game of puzzle ``index``: the puzzle set is the file's name
        (never its path: a record names no directory of the machine it was made on)."""
        tags = {"Event": "Puzzle", "Round": str(self.puzzles[index].number),
                "Annotator": "draughtsboard"}
        name = Path(self.source).stem if self.source else ""
        if name:
            tags["PuzzleSet"] = name
        return tags

    def after_event(self, event: TrackerEvent, game: Game) -> bool:
        """Judge a move or a takeback; True (the coach does nothing more with it)."""
        self._generation += 1
        self._wrong, self._reply = (), None
        if event.kind == "takeback":
            self._next_step(game)
            return True
        puzzle = self.puzzle
        ply = game.ply - 1
        played = game.moves[-1].move
        if not self._on_line(game, game.ply - 1):
            # a refused move not taken back, or a move made while one was checked
            self._refuse(played, "puzzle.note.off_line_first")
            return True
        before = game.positions[-2]
        solver_moved = before.white_to_move == self.solver_is_white()
        expected = puzzle.solution[ply] if ply < len(puzzle.solution) else None
        if played == expected or (not solver_moved and expected is None):
            self._next_step(game)
        elif solver_moved:
            self._check_alternative(before, played, game.ply)
        else:
            self._refuse(played, "puzzle.note.not_the_reply")
        return True

    def game_over(self, game: Game) -> None:
        if self.state in ("solved", "done"):
            return
        self._generation += 1  # a check still under way is answered here
        position = game.position
        won_off_line = (game.ply > 0 and self._on_line(game, game.ply - 1)
                        and not self._on_line(game, game.ply)
                        and position.white_to_move != self.solver_is_white()
                        and not position.legal_moves())
        if won_off_line:  # another move than the solution's that wins the game outright
            self._solved(Message.of(
                "puzzle.solved.wins_game",
                move=format_move(game.positions[-2], game.moves[-1].move)))
            return
        self._next_step(game)

    def _on_line(self, game: Game, plies: int) -> bool:
        """Whether the game's first ``plies`` moves are the solution's."""
        played = tuple(p.move for p in game.moves[:plies])
        return played == self.puzzle.solution[:len(played)]

    # -- steps --------------------------------------------------------------------------------

    def _next_step(self, game: Game) -> None:
        puzzle = self.puzzle
        position = game.position
        if not self._on_line(game, game.ply):
            self.state = "wrong"
            self.note = Message.of("puzzle.note.off_line")
            return
        solver_to_move = position.white_to_move == self.solver_is_white()
        solver_moves_left = [i for i in range(game.ply, len(puzzle.solution))
                             if (i % 2 == 0)]
        if not solver_moves_left and (solver_to_move or game.ply >= len(puzzle.solution)):
            self._solved(Message.of("puzzle.solved.plain", number=puzzle.number))
            return
        self.state = "solving"
        if solver_to_move:
            if puzzle.number in self.shown:
                self._hint_solver_move(game)
                self.note = Message.of("puzzle.note.solution_your_move",
                                       moves=solution_text(puzzle))
                return
            self.note = Message.of("puzzle.note.your_move", number=puzzle.number,
                                   total=len(self.puzzles))
            return
        if game.ply < len(puzzle.solution):
            self._show_reply(position, puzzle.solution[game.ply])
        else:
            self._engine_reply(game)

    def _show_reply(self, position: Position, move: Move) -> None:
        self._reply, self._reply_position = move, position
        side = "white" if position.white_to_move else "black"
        self.note = Message.of(f"puzzle.note.reply.{side}", move=format_move(position, move))

    def _engine_reply(self, game: Game) -> None:
        position = game.position
        engine = self.engine(position)
        generation = self._generation

        def work(stop):
            return engine.search(position, nodes=REPLY_NODES, stop=stop,
                                 history=game.positions[:-1])

        def done(result) -> None:
            def deliver() -> None:
                if generation == self._generation and result.move is not None:
                    self._show_reply(position, result.move)
                    self.game.refresh_leds()
            self.post(deliver)

        self.analyst.submit(Job("puzzle reply", work, done,
                                      lambda: generation != self._generation))

    def _check_alternative(self, before: Position, played: Move, ply: int) -> None:
        """Another move than the solution's: does it win as much? (analyst's thread)"""
        self.state = "checking"
        self.note = Message.of("puzzle.note.checking")
        self._wrong = tuple(sorted({played.start, played.end}))
        puzzle = self.puzzle
        generation = self._generation
        if self._prover is None or self._prover.variant is not before.variant:
            self._prover = MaterialProver(before.variant)
        prover = self._prover

        def work(stop):
            needed = prover.gain(before, puzzle.solution[ply - 1], CHECK_HORIZON,
                                 CHECK_NODES, stop) if ply - 1 < len(puzzle.solution) else 1
            got = prover.gain(before, played, CHECK_HORIZON, CHECK_NODES, stop)
            return needed, got

        def done(answer) -> None:
            def deliver() -> None:
                if generation != self._generation:
                    return
                needed, got = answer
                if got is None or needed is None:  # the check ran out of nodes
                    self._refuse(played, "puzzle.note.unchecked")
                elif got >= max(needed, 1):
                    self._solved(Message.of("puzzle.solved.wins_as_much",
                                            move=format_move(before, played)))
                else:
                    self._refuse(played, "puzzle.note.not_solution")
                self.game.refresh_leds()
            self.post(deliver)

        self.analyst.submit(Job("puzzle check", work, done,
                                      lambda: generation != self._generation))

    def _refuse(self, played: Move, why: str) -> None:
        """A move refused: ``why`` is the id of the note that says so."""
        self.state = "wrong"
        self._solution_hint = None
        self._wrong = tuple(sorted({played.start, played.end}))
        self.note = Message.of(why)

    def _solved(self, said: Message) -> None:
        self.state = "solved"
        self._solution_hint = None
        number = self.puzzle.number
        if number in self.shown:
            said = Message.of("puzzle.solved.shown", number=number)
        elif number not in self.solved:
            self.solved.append(number)
        following = self.index + 1
        more = following < len(self.puzzles)
        self.note = Message.of("puzzle.note.solved_next", solved=said,
                               number=following + 1) if more else said
        self.game.note_coach(english(said))  # the journal's line: English, as data
        self._solved_at = self.game.clock()

    # -- what the board and the page show ---------------------------------------------------

    def led_intents(self) -> dict[str, tuple[int, ...]]:
        tracker = self.game.tracker
        out: dict[str, tuple[int, ...]] = {}
        if tracker.state is State.SETUP:
            wanted = tracker.position.occupancy()
            differ = tracker.intents.get("restore", ())
            out["setup_fill"] = tuple(s for s in differ if wanted >> (s - 1) & 1)
            out["setup_empty"] = tuple(s for s in differ if not wanted >> (s - 1) & 1)
        if self._wrong:
            out["blunder"] = self._wrong
        shown = self._solution_hint
        if self._reply is not None and self._reply_position == tracker.position:
            out["hint"] = (self._reply.start,)
            out["hint_path"] = tuple(self._reply.path[1:])
        elif shown is not None and shown[0] == tracker.position:
            out["hint"] = (shown[1].start,)
            out["hint_path"] = tuple(shown[1].path[1:])
        if self.state == "solved":  # the moment: every piece lights
            out["solved"] = tuple(squares_from_mask(tracker.position.occupancy()))
        return out

    def view(self) -> dict[str, Any]:
        puzzle = self.puzzle
        position = puzzle.start
        variant = position.variant
        columns = []  # what the board cannot show: columns of two pieces or more
        if position.columns is not None:
            for number in variant.geometry.numbers:
                column = position.column_at(number)
                if len(column) > 1:
                    columns.append([format_square(variant, number), column,
                                    column_message(column).as_json()])
        title = puzzle.title
        return {"number": puzzle.number, "count": len(self.puzzles),
                "title": title.as_json() if isinstance(title, Message) else title,
                "heading": Message.of("puzzle.heading", number=puzzle.number,
                                      total=len(self.puzzles), title=title).as_json(),
                "state": self.state,
                "note": self.note.as_json() if self.note is not None else None,
                "solved": list(self.solved), "shown": list(self.shown),
                "solver": "White" if self.solver_is_white() else "Black",
                "solved_count": Message.of("puzzle.solved_so_far",
                                           count=len(self.solved)).as_json(),
                "setup": columns}
