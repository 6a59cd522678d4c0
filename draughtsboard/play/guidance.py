"""What the page says to the people at the board: a headline, and under each flag one
plain sentence per thing to do ("Put the piece on e3 back on c5", "Take off the piece on
d4").

The tracker says *which* squares need attention (its LED intents) and the switches say
what is on them; the players need words. Everything here is a pure function of the
tracker's public state (the position it expects, its state, its intents) and the
occupancy the page already receives, so it can be tested square by square without a
board, and it never changes what the tracker decided.

Where the board does not say which piece stands where (a switch only knows "occupied"),
a piece found on a square where none belongs is taken to be the piece lifted by the side
to move (`carried_columns`): a capture in progress keeps its colour on the page, and an
illegal move is described as the piece going back where it came from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from draughtsboard.board.ports import squares_from_mask
from draughtsboard.board.rules.notation import format_move, format_square
from draughtsboard.board.rules.position import Move, Position

MAX_LISTED = 6  # squares named in one sentence before "and N more"
MAX_STEPS = 4  # sentences under one flag before they are summed up

PIECE_WORDS = {"w": "white man", "b": "black man", "W": "white king", "B": "black king"}
TOP_WORDS = {"w": "white", "b": "black", "W": "white king", "B": "black king"}


@dataclass(frozen=True)
class Flag:
    """One flag on the page: ``kind`` (its style), a short ``title``, and the sentences
    that say what to do, in the order to do them."""

    kind: str
    title: str
    steps: tuple[str, ...] = ()

    def as_json(self) -> dict:
        return {"kind": self.kind, "title": self.title, "steps": list(self.steps)}


@dataclass(frozen=True)
class Guidance:
    """The page's words for one moment: the ``headline`` (who is to do what) and the
    flags, most urgent first."""

    headline: str
    flags: tuple[Flag, ...] = ()
    carried: Mapping[int, str] = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"headline": self.headline, "flags": [f.as_json() for f in self.flags]}


def _officers(words: dict[str, str], officers: bool) -> dict[str, str]:
    """Lasca and the column games call a crowned piece an officer."""
    if not officers:
        return words
    return {piece: word.replace("king", "officer") for piece, word in words.items()}


def describe_column(column: str, officers: bool = False) -> str:
    """A square's contents in words: "a white man", "a black king", or for a column
    "a column of 3 (top first: white officer, black, black)" (``officers``: a column
    game, where a crowned piece is an officer)."""
    if not column:
        return "nothing"
    if len(column) == 1:
        return "a " + _officers(PIECE_WORDS, officers).get(column, "piece")
    tops = ", ".join(_officers(TOP_WORDS, officers).get(piece, "?") for piece in column)
    return f"a column of {len(column)} (top first: {tops})"


def _names(position: Position, squares: Sequence[int], full: bool = False) -> str:
    """Square names joined for a sentence: "c5", "c5 or e3", "a1, c1, e1 and 3 more"
    (``full``: every one)."""
    names = [format_square(position.variant, s) for s in squares]
    if len(names) > MAX_LISTED and not full:
        shown = ", ".join(names[:MAX_LISTED - 1])
        return f"{shown} and {len(names) - MAX_LISTED + 1} more (lit)"
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _alternatives(position: Position, squares: Sequence[int]) -> str:
    names = [format_square(position.variant, s) for s in squares]
    if len(names) <= 1:
        return "".join(names)
    if len(names) > MAX_LISTED:
        return ", ".join(names[:MAX_LISTED]) + " …"
    return ", ".join(names[:-1]) + " or " + names[-1]


def _side(position: Position) -> str:
    return "White" if position.white_to_move else "Black"


def carried_columns(position: Position, occupied: int) -> dict[int, str]:
    """For the one square occupied where the position has nothing, the column that is
    most likely standing there: the piece lifted by the side to move when exactly one
    such piece is off the board, else the one piece lifted if there is only one. With
    no such square, several, or no telling which piece, nothing is said (the page shows
    an unknown piece): a guess that could name the wrong colour is worse."""
    expected = position.occupancy()
    added = squares_from_mask(occupied & ~expected)
    if len(added) != 1:
        return {}
    lifted = squares_from_mask(expected & ~occupied)
    mover = "w" if position.white_to_move else "b"
    own = [s for s in lifted if position.column_at(s)[:1].lower() == mover]
    source = own if len(own) == 1 else lifted if len(lifted) == 1 else []
    if len(source) != 1:
        return {}
    column = position.column_at(source[0])
    return {square: column for square in added}


def restore_steps(position: Position, occupied: int, *, back: bool = True,
                  full: bool = False) -> tuple[str, ...]:
    """What to do so that the board shows ``position`` again, as sentences (``full``:
    every square named and every kind of piece or column its own sentence, however many:
    a puzzle's set-up).

    A piece that was moved is told to go back ("Put the piece on e3 back on c5"; with
    ``back`` false, while setting up, "Move the piece on e3 to c5") when the board says
    which piece it is (`carried_columns`); a piece where none belongs is taken off; an
    empty square that needs a piece gets one, named with its colour."""
    expected = position.occupancy()
    extra = squares_from_mask(occupied & ~expected)
    missing = squares_from_mask(expected & ~occupied)
    if not extra and not missing:
        return ()
    steps: list[str] = []
    carried = carried_columns(position, occupied)
    name = lambda s: format_square(position.variant, s)  # noqa: E731 - a short local alias
    if len(extra) == 1 and carried:
        source = [s for s in missing if position.column_at(s) == carried[extra[0]]]
        mover = "w" if position.white_to_move else "b"
        own = [s for s in source if position.column_at(s)[:1].lower() == mover]
        source = own or source
        if source:
            home = source[0]
            steps.append(f"Put the piece on {name(extra[0])} back on {name(home)}" if back
                         else f"Move the piece on {name(extra[0])} to {name(home)}")
            extra, missing = [], [s for s in missing if s != home]
    if extra:
        if len(extra) == 1:
            steps.append(f"Take off the piece on {name(extra[0])}")
        else:
            steps.append(f"Take off the pieces on {_names(position, extra, full)}")
    by_contents: dict[str, list[int]] = {}
    for square in missing:
        by_contents.setdefault(position.column_at(square), []).append(square)
    groups = sorted(by_contents.items(), key=lambda item: item[1][0])
    if len(groups) + len(steps) > MAX_STEPS:
        groups = _merge_by_top(groups)
    for contents, squares in groups:
        if len(squares) == 1:
            steps.append(f"Put {describe_column(contents)} on {name(squares[0])}")
        else:
            steps.append(f"Put {_plural(contents)} on {_names(position, squares)}")
    return tuple(steps)


def _down_end(position: Position, occupied: int) -> int | None:
    """The one square a piece was put down on where the position has none (a capture's
    end), if there is one."""
    added = squares_from_mask(occupied & ~position.occupancy())
    return added[0] if len(added) == 1 else None


def _plural(contents: str) -> str:
    if len(contents) == 1:
        return PIECE_WORDS.get(contents, "piece").replace("man", "men").replace(
            "king", "kings")
    return f"columns of {len(contents)}"


def _merge_by_top(groups: list[tuple[str, list[int]]]) -> list[tuple[str, list[int]]]:
    """Many different columns missing (a column game being set up): one sentence per
    colour on top, so the list stays short; the LEDs show the squares."""
    merged: dict[str, list[int]] = {}
    for contents, squares in groups:
        merged.setdefault(contents[:1], []).extend(squares)
    return [(top, sorted(squares)) for top, squares in sorted(merged.items(),
                                                               key=lambda i: i[1][0])]


HEADLINES = {
    "setup": "Set up the position: the lit squares are wrong",
    "illegal": "Illegal move: put the position back",
    "disturbed": "The position was disturbed: put it back",
    "ambiguous": "Which move? Touch the square you meant",
}


def _taken(position: Position, move: Move, squares: Sequence[int]) -> str:
    """What to do with the pieces a capture took that are still on the board: "take off
    d4" (a column game: "put d4 under the piece on e5", where the captured piece goes
    under the capturing column)."""
    names = _names(position, squares)
    if position.columns is None:
        return f"take off {names}"
    return f"put {names} under the piece on {format_square(position.variant, move.end)}"


def opponent_steps(position: Position, move: Move,
                   intents: Mapping[str, Sequence[int]]) -> tuple[str, ...]:
    """What to do to carry out the opponent's ``move`` (legal in ``position``), from the
    LED intents that say how far it has come: "Move the piece on c3 to e5; take off d4",
    then, once the piece is down, "Take off the piece on d4". A column game's jumped
    columns that keep pieces are named too (the switches cannot see their top piece go)."""
    name = lambda s: format_square(position.variant, s)  # noqa: E731 - a short local alias
    take = sorted(intents.get("opponent_take", ()))
    kept = [s for s in move.captures if position.column_at(s)[1:]]  # columns: top only
    after = []
    if take:
        after.append(_taken(position, move, take))
    if kept:
        after.append(f"put the top piece of {_names(position, kept)} under the piece on "
                     f"{name(move.end)}")
    if intents.get("opponent_path"):
        landings = [name(s) for s in move.path[1:]]
        route = landings[-1] if len(landings) == 1 else \
            ", ".join(landings[:-1]) + " and on to " + landings[-1]
        what = "piece" if len(position.column_at(move.start)) <= 1 else "column"
        step = f"Move the {what} on {name(move.start)} to {route}"
        return ("; ".join([step, *after]),)
    if after:
        text = "; ".join(after)
        return (text[0].upper() + text[1:],)
    return ()


def take_off_steps(position: Position, squares: Sequence[int],
                   end: int | None = None) -> tuple[str, ...]:
    """A capture down on its end, its prisoners still on the board: "Take off the piece
    on f4" (a column game: under the capturing piece on ``end``)."""
    names = _names(position, sorted(squares))
    pieces = "piece" if len(squares) == 1 else "pieces"
    if position.columns is not None and end is not None:
        return (f"Put the {pieces} on {names} under the piece on "
                f"{format_square(position.variant, end)}",)
    return (f"Take off the {pieces} on {names}",)


def guidance(position: Position, state: str, intents: Mapping[str, Sequence[int]],
             occupied: int, *, result: str | None = None, result_reason: str = "",
             irregularity: str | None = None, opponent: str | None = None,
             expected: Move | None = None, owed: Position | None = None,
             opponent_failed: bool = False, full_setup: bool = False) -> Guidance:
    """The headline and the flags for a tracker in ``state`` (its `State` value)
    expecting ``position`` with these LED ``intents``, while the switches show
    ``occupied`` (see the module doc). ``irregularity``: the irregular move the opponent
    may let stand (the fmjd policy), which changes what the players are told: putting
    the position back is then one choice, playing on the other. ``opponent``: the name
    of the opponent whose turn it is (None: a person's turn), ``expected`` the move it
    chose, to be carried out on the board; ``owed``: after the opponent's move was taken
    back, the position before the person's move, which the board must show next;
    ``opponent_failed``: the opponent failed (its error is shown beside the flags);
    ``full_setup``: the set-up's steps in full (a puzzle)."""
    side = _side(position)
    flags: list[Flag] = []
    if state == "illegal" and opponent is not None:
        flags.append(Flag("illegal", f"Not {opponent}'s move",
                          restore_steps(position, occupied)))
    elif state == "illegal" and irregularity:
        flags.append(Flag("illegal", "Irregular move", (
            irregularity,
            "The opponent decides (FMJD Annex 1, 5.4): play on and it stands, or have it "
            "put back:", *restore_steps(position, occupied))))
    elif state == "illegal":
        flags.append(Flag("illegal", "Illegal move", restore_steps(position, occupied)))
    elif state in ("setup", "disturbed"):
        title = "Set up the position" if state == "setup" else "Position disturbed"
        steps = restore_steps(position, occupied, back=state != "setup",
                              full=full_setup and state == "setup")
        if steps:
            flags.append(Flag("restore" if state == "setup" else "disturbed", title, steps))
    if intents.get("ambiguous"):
        squares = sorted(intents["ambiguous"])
        flags.append(Flag("ambiguous", "More than one move fits", (
            "Lift and put back the piece on the square you meant: "
            + _alternatives(position, squares),)))
    if owed is not None and state in ("ready", "moving"):
        flags.append(Flag("restore", "Take your move back too",
                          restore_steps(owed, occupied)))
    if intents.get("take_off"):
        flags.append(Flag("take-off", "Capture down: its prisoners are left", take_off_steps(
            position, intents["take_off"], _down_end(position, occupied))))
    if opponent is not None and expected is not None and state in ("ready", "moving"):
        flags.append(Flag("opponent", f"{side} ({opponent}) plays "
                                      f"{format_move(position, expected)}",
                          opponent_steps(position, expected, intents)))
    if intents.get("must_capture"):
        squares = sorted(intents["must_capture"])
        piece = "the piece" if len(squares) == 1 else "a piece"
        flags.append(Flag("must-capture", f"{side} must capture", (
            f"Capture with {piece} on {_alternatives(position, squares)}",)))
    if intents.get("path"):
        flags.append(Flag("hint", "Capture", (
            "Next landing square: " + _alternatives(position, sorted(intents["path"])),)))
    elif intents.get("destination"):
        flags.append(Flag("hint", "Where it may go", (
            "The lifted piece may go to "
            + _alternatives(position, sorted(intents["destination"])),)))
    if result is not None:
        headline = f"Game over: {result}" + (f" ({result_reason})" if result_reason else "")
    elif state == "illegal" and opponent is not None:
        headline = f"Not {opponent}'s move: put the position back"
    elif state == "illegal" and irregularity:
        headline = "Irregular move: the opponent decides"
    elif state in HEADLINES:
        headline = HEADLINES[state]
    elif owed is not None and state in ("ready", "moving"):
        headline = f"{opponent}'s move is taken back: take your move back too"
    elif opponent is not None and opponent_failed and state in ("ready", "moving"):
        headline = f"{side} ({opponent}) failed: the built-in engine can play on"
    elif opponent is not None and expected is None and state in ("ready", "moving"):
        headline = f"{side} ({opponent}) is thinking"
    elif opponent is not None and expected is not None:
        headline = f"{side} ({opponent}) plays {format_move(position, expected)}: carry " \
                   "it out on the board"
    elif state == "moving":
        headline = f"{side} is moving"
    elif state == "game_over" or position.is_game_over():
        headline = f"Game over: {side} has no legal move"
    else:
        headline = f"{side} to move"
    return Guidance(headline, tuple(flags), carried_columns(position, occupied))
