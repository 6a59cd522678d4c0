"""The board's answers to a player's questions, as messages (docs/accessibility.md,
"Asking the board"): a pure function of what the board publishes, and of the time now.

A player who cannot see the board asks, with the board's button or one call of the
page's API (``/api/ask/...``):

- ``last-move``: the last move as speech says a move, who played it and a crowning; or
  the opponent's move waiting to be carried out;
- ``clocks``: both clocks as the game clock counts them now, in hours, minutes and
  seconds as a person says them ("4 minutes 5 seconds"; Russian and French put a
  count after a feminine noun, which the speech engine would read masculine);
- ``position``: the side to move, then White's pieces and Black's, each side's kings
  first, then its men, square by square (a1, c1, ... rank by rank from White's side; on
  a numbered board by number). A column game says the pieces standing alone so, then
  each column (two or more pieces) with its pieces top first, then how many pieces each
  side has in all, prisoners in columns included;
- ``hint``: the coach's hint (the piece to move, then the move), said with its squares.

Which press asks what is `question_for`. No I/O, no thread, no clock: the callers (the
page's routes, the button's wiring in ``cli/buttons.py``) read the publication and the time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.rules.position import Move, Position

from .spoken import crowns, spoken_move, spoken_square

LAST_MOVE, CLOCKS, POSITION, HINT = "last-move", "clocks", "position", "hint"
QUESTIONS = (LAST_MOVE, CLOCKS, POSITION, HINT)
SIDES = ("white", "black")


def question_for(press: str, button: str, mode: str) -> str:
    """What a press (`presses.SHORT`, ``LONG``, ``DOUBLE``) of ``button`` (``hint`` or
    ``ask``) asks in ``mode``: a long press the clocks, a double press the position, a
    short press the last move; but a short press of the hint button asks the coach for
    the hint, as it always did, in every mode but tournament (where no hint is given)."""
    if press == "long":
        return CLOCKS
    if press == "double":
        return POSITION
    if button == "hint" and mode != "tournament":
        return HINT
    return LAST_MOVE


# -- the last move ---------------------------------------------------------------------------

def answer_last_move(game: Game, view: Mapping[str, Any]) -> Message:
    """The opponent's move waiting to be carried out, else the last move recorded: who
    played it, its squares, its crowning; or that no move has been played."""
    opponent = view.get("opponent") or {}
    pending = opponent.get("pending") if isinstance(opponent, Mapping) else None
    if isinstance(pending, Mapping) and pending.get("path"):
        move = Move(tuple(pending["path"]), tuple(pending.get("captures", ())))
        return Message.of("spoken.opponent.move", move=spoken_move(game.variant, move))
    if not game.moves:
        return Message.of("ask.last_move.none")
    before, after = game.positions[-2], game.positions[-1]
    move = game.moves[-1].move
    side = "white" if before.white_to_move else "black"
    crowned = ".promotion" if crowns(before, move, after) else ""
    return Message.of(f"ask.last_move.{side}{crowned}", move=spoken_move(game.variant, move))


# -- the clocks ------------------------------------------------------------------------------

def duration(seconds: float) -> Message:
    """A time as a person says it: hours, minutes and seconds, the ones that are not
    zero ("1 hour 5 seconds", "минут: 4, секунд: 5"), whole seconds (what the clock shows:
    a part of a second is not counted); "0 seconds" for none."""
    whole = max(0, math.floor(seconds)) if math.isfinite(seconds) else 0
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [Message.of(f"ask.{unit}", count=amount)
             for unit, amount in (("hours", hours), ("minutes", minutes), ("seconds", secs))
             if amount]
    if not parts:
        return Message.of("ask.seconds", count=0)
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return Message.of("ask.duration.two", first=parts[0], second=parts[1])
    return Message.of("ask.duration.three", first=parts[0], second=parts[1], third=parts[2])


def clocks_now(clocks: Mapping[str, Any], wall_now: float) -> tuple[float, float]:
    """Both clocks now, from the game clock's view (`GameClock.view`: seconds left as
    last recorded, and the wall-clock time since which the running side's time goes)."""
    left = {side: float(clocks.get(side) or 0.0) for side in SIDES}
    running, since = clocks.get("running"), clocks.get("since")
    if running in left and since is not None and not clocks.get("held"):
        left[running] -= max(0.0, wall_now - float(since))
    return max(0.0, left["white"]), max(0.0, left["black"])


def answer_clocks(view: Mapping[str, Any], wall_now: float) -> Message:
    """Both clocks at ``wall_now`` (the board's wall clock), or that the game has none."""
    clocks = view.get("clocks")
    if not isinstance(clocks, Mapping):
        return Message.of("ask.clocks.none")
    white, black = clocks_now(clocks, wall_now)
    return Message.of("ask.clocks", white=duration(white), black=duration(black))


# -- the position ----------------------------------------------------------------------------

def _reading_order(position: Position) -> list[int]:
    """The squares in the order a player reads them out: rank by rank from White's
    side, each from the a-file (a1, c1, e1, g1, b2...); on a numbered board, by number."""
    geometry = position.variant.geometry
    numbers = list(geometry.numbers)
    if not position.variant.algebraic_moves:
        return numbers

    def key(number: int) -> tuple[int, str]:
        name = geometry.name(number)
        return int(name[1:]), name[0]

    return sorted(numbers, key=key)


def _side(position: Position, side: str, order: Sequence[int]) -> Message:
    """A side's pieces standing alone (in a column game, its columns come apart)."""
    variant = position.variant
    letter = side[0]
    alone = [s for s in order if len(position.column_at(s)) == 1]
    kings = [s for s in alone if position.piece_at(s) == letter.upper()]
    men = [s for s in alone if position.piece_at(s) == letter]
    groups = {}
    if kings:
        groups["kings"] = Message.of("ask.position.kings", count=len(kings),
                                     squares=[spoken_square(variant, s) for s in kings])
    if men:
        groups["men"] = Message.of("ask.position.men", count=len(men),
                                   squares=[spoken_square(variant, s) for s in men])
    shape = "_".join(groups) or "none"
    if shape == "none" and any(letter in position.column_at(s).lower() for s in order):
        shape = "only_columns"  # all its pieces are in columns
    return Message.of(f"ask.position.{side}.{shape}", **groups)


# a column's piece in words, top first (piece.column's {pieces})
COLUMN_PIECES = {"w": "piece.top.white", "b": "piece.top.black",
                 "W": "piece.officer.white", "B": "piece.officer.black"}


def _columns(position: Position, order: Sequence[int]) -> Message:
    """Every column of two or more pieces: its square, its pieces top first."""
    variant = position.variant
    said = []
    for square in order:
        column = position.column_at(square)
        if len(column) > 1:
            said.append(Message.of(
                "ask.position.column", square=spoken_square(variant, square),
                column=Message.of("piece.column", count=len(column),
                                  pieces=[Message.of(COLUMN_PIECES[p]) for p in column])))
    if not said:
        return Message.of("ask.position.columns.none")
    return Message.of("ask.position.columns", columns=said)


def answer_position(position: Position) -> Message:
    """The side to move, then White's pieces, then Black's (see the module doc)."""
    order = _reading_order(position)
    to_move = "white" if position.white_to_move else "black"
    parts = dict(to_move=Message.of(f"ask.position.to_move.{to_move}"),
                 white=_side(position, "white", order),
                 black=_side(position, "black", order))
    if not position.variant.holds_columns:
        return Message.of("ask.position", **parts)
    pieces = "".join(position.column_at(s) for s in order).lower()
    return Message.of("ask.position.with_columns", **parts,
                      columns=_columns(position, order),
                      totals=Message.of("ask.position.totals", white=str(pieces.count("w")),
                                        black=str(pieces.count("b"))))


# -- the hint --------------------------------------------------------------------------------

def answer_hint(position: Position, hint: Mapping[str, Any] | None) -> Message:
    """The coach's hint (its part of the view, or what `Coach.request_hint` returned)
    as said: stage 1 the piece to move, stage 2 the move; the coach still thinking; or
    no hint asked for in this position."""
    if not isinstance(hint, Mapping) or not hint:
        return Message.of("ask.hint.none")
    if hint.get("thinking"):
        return Message.of("ask.hint.thinking")
    squares = [int(s) for s in hint.get("squares") or ()]
    variant = position.variant
    if hint.get("stage") == 1 and squares:
        return Message.of("ask.hint.piece", square=spoken_square(variant, squares[0]))
    if hint.get("stage") == 2 and len(squares) >= 2:
        found = [m for m in position.legal_moves() if list(m.path) == squares]
        move = found[0] if found else Move(tuple(squares))
        return Message.of("ask.hint.move", move=spoken_move(variant, move))
    return Message.of("ask.hint.none")


def spoken_text(render, message: Message) -> str:
    """An answer in words as the speaker says it: one sentence, a full stop at its end."""
    return render(message).strip().rstrip(".") + "."
