"""Post-game analysis: an evaluation for every move of a game, and the mistakes marked.

Each position of the game is searched once (``search``: a position and the positions
before it in, a `SearchResult` out; the caller chooses the budget). The evaluation after
a move is the search of the position it leads to; what a move cost its player is the
score of the best move minus the score after the move played, both from the mover's side
(zero when the move played is the engine's own choice: two searches of the same move
differ only by noise). Marks follow the usual PDN strength marks: ``??`` (NAG 4, a
blunder) from a man lost, ``?`` (NAG 2, a mistake) from ``MISTAKE``.

Scores are written from White's side in men (``+0.35``); a forced result as ``#N`` (White
wins in N plies) or ``#-N``. In PDN they go into the move's comment as ``[%eval +0.35]``,
the form chess and draughts sites read for evaluation graphs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..rules.engine import MATE, MATE_BOUND, SearchResult
from ..rules.notation import format_move
from ..rules.position import Position
from .record import Game

MISTAKE = 40  # hundredths of a man
BLUNDER = 100

Search = Callable[[Position, Sequence[Position]], SearchResult]


def format_score(white_score: int) -> str:
    """``+0.35``, ``-1.20``, or ``#5`` / ``#-5`` for a forced result in 5 plies."""
    if white_score > MATE_BOUND:
        return f"#{MATE - white_score}"
    if white_score < -MATE_BOUND:
        return f"#-{MATE + white_score}"
    return f"{white_score / 100:+.2f}"


@dataclass(frozen=True)
class MoveVerdict:
    """One move judged: the evaluation after it (White's side), what it cost its player
    (hundredths of a man, never negative), the engine's choice and its mark."""

    ply: int
    text: str
    white_score: int
    depth: int
    loss: int
    best: str
    best_white_score: int
    mark: str  # "", "?" or "??"

    @property
    def comment(self) -> str:
        text = f"[%eval {format_score(self.white_score)}]"
        if self.mark:
            word = "blunder" if self.mark == "??" else "mistake"
            text += (f" {word}: {self.best} was best "
                     f"({format_score(self.best_white_score)})")
        return text

    def as_dict(self) -> dict:
        return {"ply": self.ply, "move": self.text, "score": self.white_score,
                "eval": format_score(self.white_score), "depth": self.depth,
                "loss": self.loss, "best": self.best, "mark": self.mark}


def judge_game(game: Game, search: Search,
               progress: Callable[[int, int], None] | None = None) -> list[MoveVerdict]:
    """A verdict for every move of ``game`` (see the module doc)."""
    positions = game.positions
    results = []
    for index, position in enumerate(positions):
        results.append(search(position, positions[:index]))
        if progress is not None:
            progress(index + 1, len(positions))
    verdicts = []
    for ply, played in enumerate(game.moves):
        before, after = results[ply], results[ply + 1]
        position = positions[ply]
        mover_after = -after.score
        if before.move == played.move:
            loss = 0
        else:
            loss = max(0, before.score - mover_after)
        mark = "??" if loss >= BLUNDER else "?" if loss >= MISTAKE else ""
        best = format_move(position, before.move) if before.move is not None else ""
        verdicts.append(MoveVerdict(ply, played.text, after.white_score, after.depth, loss,
                                    best, before.white_score, mark))
    return verdicts


def annotated(game: Game, verdicts: Sequence[MoveVerdict]) -> Game:
    """A copy of ``game`` with each verdict's comment after its move (any comment already
    there is kept first) and its mark."""
    moves = []
    for played, verdict in zip(game.moves, verdicts, strict=True):
        comment = f"{played.comment} {verdict.comment}" if played.comment else verdict.comment
        moves.append(replace(played, comment=comment,
                             annotation=verdict.mark or played.annotation))
    copy = Game(game.variant, game.start, tags=dict(game.tags), draw_preset=game.draw_preset,
                moves=moves, result=game.result, result_why=game.result_why,
                result_by=game.result_by,
                comment=game.comment, mode=game.mode, start_monotonic=game.start_monotonic,
                start_wall=game.start_wall, events=list(game.events))
    return copy
