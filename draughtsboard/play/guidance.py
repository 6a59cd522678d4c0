"""What the page says to the people at the board: a headline, and under each flag one
plain sentence per thing to do ("Put the piece on e3 back on c5", "Take off the piece on
d4"), each a `Message` the page renders in its reader's language (docs/languages.md).

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

from draughtsboard.board.message import Listed, Message
from draughtsboard.board.ports import squares_from_mask
from draughtsboard.board.rules.notation import format_move, format_square
from draughtsboard.board.rules.position import Move, Position

MAX_LISTED = 6  # squares named in one sentence before "and N more"
MAX_STEPS = 4  # sentences under one flag before they are summed up

PIECE_KINDS = {"w": ("man", "white"), "b": ("man", "black"), "W": ("king", "white"),
               "B": ("king", "black")}


@dataclass(frozen=True)
class Flag:
    """One flag on the page: ``kind`` (its style), a short ``title``, and the sentences
    that say what to do, in the order to do them (each a `Message`; an irregularity
    read from an older record may be its plain text)."""

    kind: str
    title: Message
    steps: tuple[Message | str, ...] = ()

    def as_json(self) -> dict:
        return {"kind": self.kind, "title": self.title.as_json(),
                "steps": [step.as_json() if isinstance(step, Message) else step
                          for step in self.steps]}


@dataclass(frozen=True)
class Guidance:
    """The page's words for one moment: the ``headline`` (who is to do what) and the
    flags, most urgent first."""

    headline: Message
    flags: tuple[Flag, ...] = ()
    carried: Mapping[int, str] = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"headline": self.headline.as_json(),
                "flags": [f.as_json() for f in self.flags]}


def _kind(piece: str, officers: bool) -> str:
    """"man.white", "king.black" (``officers``: a column game's crowned piece is an
    officer)."""
    kind, colour = PIECE_KINDS.get(piece, ("man", "white"))
    if officers and kind == "king":
        kind = "officer"
    return f"{kind}.{colour}"


def column_pieces(column: str, officers: bool = False) -> Listed:
    """A column's pieces, top first, for ``piece.column``'s ``{pieces}``: "white,
    black, black king"."""
    return Listed(tuple(Message.of("piece." + _kind(piece, officers))
                        if piece.isupper() else
                        Message.of("piece.top." + PIECE_KINDS.get(piece, ("", "white"))[1])
                        for piece in column))


def describe_column(column: str, officers: bool = False) -> Message:
    """A square's contents as the object of a sentence: "a white man", "a black king",
    or for a column "a column of 3 (top first: white officer, black, black)"
    (``officers``: a column game, where a crowned piece is an officer)."""
    if len(column) <= 1:
        return Message.of("piece.accusative." + _kind(column or "w", officers))
    return Message.of("guide.column.accusative", count=len(column),
                      pieces=column_pieces(column, officers))


def _square_list(position: Position, squares: Sequence[int], full: bool = False,
                 style: str = "and") -> Listed:
    """Square names for a sentence, joined in the reader's language: "c5", "c5 or e3",
    "a1, c1, e1 and 3 more (lit)" (``full``: every one)."""
    names: list[str | Message] = [format_square(position.variant, s) for s in squares]
    if len(names) > MAX_LISTED and not full:
        more = len(names) - MAX_LISTED + 1
        names = [*names[:MAX_LISTED - 1], Message.of("guide.list.more", count=more)]
    return Listed(tuple(names), style)


def _names(position: Position, squares: Sequence[int], full: bool = False) -> Listed:
    return _square_list(position, squares, full)


def _alternatives(position: Position, squares: Sequence[int]) -> Listed:
    return _square_list(position, squares, style="or")


def _side(position: Position) -> str:
    return "white" if position.white_to_move else "black"


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
                  full: bool = False) -> tuple[Message, ...]:
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
    steps: list[Message] = []
    carried = carried_columns(position, occupied)
    name = lambda s: format_square(position.variant, s)  # noqa: E731 - a short local alias
    officers = position.columns is not None
    if len(extra) == 1 and carried:
        source = [s for s in missing if position.column_at(s) == carried[extra[0]]]
        mover = "w" if position.white_to_move else "b"
        own = [s for s in source if position.column_at(s)[:1].lower() == mover]
        source = own or source
        if source:
            home = source[0]
            steps.append(Message.of("guide.restore.back" if back else "guide.restore.move",
                                    square=name(extra[0]), home=name(home)))
            extra, missing = [], [s for s in missing if s != home]
    if extra:
        steps.append(_take_off(position, extra, full))
    by_contents: dict[str, list[int]] = {}
    for square in missing:
        by_contents.setdefault(position.column_at(square), []).append(square)
    groups = sorted(by_contents.items(), key=lambda item: item[1][0])
    if len(groups) + len(steps) > MAX_STEPS:
        groups = _merge_by_top(groups)
    for contents, squares in groups:
        if len(squares) == 1:
            steps.append(Message.of("guide.restore.put",
                                    piece=describe_column(contents, officers),
                                    square=name(squares[0])))
        else:
            steps.append(Message.of("guide.restore.put_many",
                                    pieces=_plural(contents, officers),
                                    squares=_names(position, squares)))
    return tuple(steps)


def _take_off(position: Position, squares: Sequence[int], full: bool = False) -> Message:
    """"Take off the piece on d4", "Take off the pieces on g5 and d4"."""
    if len(squares) == 1:
        return Message.of("guide.restore.take_off.one",
                          square=format_square(position.variant, squares[0]))
    return Message.of("guide.restore.take_off.many",
                      squares=_names(position, squares, full))


def _down_end(position: Position, occupied: int) -> int | None:
    """The one square a piece was put down on where the position has none (a capture's
    end), if there is one."""
    added = squares_from_mask(occupied & ~position.occupancy())
    return added[0] if len(added) == 1 else None


def _plural(contents: str, officers: bool) -> Message:
    if len(contents) == 1:
        return Message.of("guide.pieces." + _kind(contents, officers))
    return Message.of("guide.pieces.column", count=len(contents))


def _merge_by_top(groups: list[tuple[str, list[int]]]) -> list[tuple[str, list[int]]]:
    """Many different columns missing (a column game being set up): one sentence per
    colour on top, so the list stays short; the LEDs show the squares."""
    merged: dict[str, list[int]] = {}
    for contents, squares in groups:
        merged.setdefault(contents[:1], []).extend(squares)
    return [(top, sorted(squares)) for top, squares in sorted(merged.items(),
                                                               key=lambda i: i[1][0])]


HEADLINES = {
    "setup": "guide.headline.setup",
    "illegal": "guide.headline.illegal",
    "disturbed": "guide.headline.disturbed",
    "ambiguous": "guide.headline.ambiguous",
}


def _under(position: Position, squares: Sequence[int], end: int) -> Message:
    """A column game's captured pieces, to go under the capturing column on ``end``."""
    names = {"end": format_square(position.variant, end)}
    if len(squares) == 1:
        return Message.of("guide.put_under.one",
                          square=format_square(position.variant, squares[0]), **names)
    return Message.of("guide.put_under.many", squares=_names(position, squares), **names)


def opponent_steps(position: Position, move: Move,
                   intents: Mapping[str, Sequence[int]]) -> tuple[Message, ...]:
    """What to do to carry out the opponent's ``move`` (legal in ``position``), from the
    LED intents that say how far it has come: "Move the piece on c3 to e5", "Take off the
    piece on d4", then, once the piece is down, only "Take off the piece on d4". A column
    game's jumped columns that keep pieces are named too (the switches cannot see their
    top piece go)."""
    name = lambda s: format_square(position.variant, s)  # noqa: E731 - a short local alias
    take = sorted(intents.get("opponent_take", ()))
    kept = [s for s in move.captures if position.column_at(s)[1:]]  # columns: top only
    steps: list[Message] = []
    if intents.get("opponent_path"):
        landings = [name(s) for s in move.path[1:]]
        what = "piece" if len(position.column_at(move.start)) <= 1 else "column"
        if len(landings) == 1:
            steps.append(Message.of(f"guide.opponent.move_{what}", start=name(move.start),
                                    end=landings[0]))
        else:
            steps.append(Message.of(f"guide.opponent.move_{what}_via",
                                    start=name(move.start), via=", ".join(landings[:-1]),
                                    end=landings[-1]))
    if take:
        steps.append(_take_off(position, take) if position.columns is None
                     else _under(position, take, move.end))
    if kept:
        steps.append(Message.of("guide.put_top_under", squares=_names(position, kept),
                                end=name(move.end)))
    return tuple(steps)


def take_off_steps(position: Position, squares: Sequence[int],
                   end: int | None = None) -> tuple[Message, ...]:
    """A capture down on its end, its prisoners still on the board: "Take off the piece
    on f4" (a column game: under the capturing piece on ``end``)."""
    if position.columns is not None and end is not None:
        return (_under(position, sorted(squares), end),)
    return (_take_off(position, sorted(squares)),)


def guidance(position: Position, state: str, intents: Mapping[str, Sequence[int]],
             occupied: int, *, result: Message | str | None = None,
             result_reason: Message | str = "",
             irregularity: Message | str | None = None,
             opponent: str | Message | None = None,
             expected: Move | None = None, owed: Position | None = None,
             opponent_failed: bool = False, full_setup: bool = False,
             match_paused: str | Message | None = None,
             match_claim: Message | None = None) -> Guidance:
    """The headline and the flags for a tracker in ``state`` (its `State` value)
    expecting ``position`` with these LED ``intents``, while the switches show
    ``occupied`` (see the module doc). ``result``: the game's result (a result's
    message, or its PDN code), ``result_reason`` why. ``irregularity``: the irregular
    move the opponent may let stand (the fmjd policy), which changes what the players
    are told: putting the position back is then one choice, playing on the other.
    ``opponent``: the name of the opponent whose turn it is (None: a person's turn),
    ``expected`` the move it chose, to be carried out on the board; ``owed``: after the
    opponent's move was taken back, the position before the person's move, which the
    board must show next; ``opponent_failed``: the opponent failed (its error is shown
    beside the flags); ``full_setup``: the set-up's steps in full (a puzzle);
    ``match_paused``: the other board of a match (its name), which cannot be reached: the
    match's clocks stand still on both boards; ``match_claim``: what the other board
    of a match says of the result that this board's arbiter may accept or not."""
    side = _side(position)
    flags: list[Flag] = []
    if match_paused is not None and result is None:
        flags.append(Flag("paused", Message.of("match.flag.paused", name=match_paused),
                          (Message.of("match.flag.paused.step"),)))
    if match_claim is not None:
        step_id = "match.flag.claim_withdrawal.step" \
            if match_claim.id == "match.flag.claim_withdrawal" else "match.flag.claim.step"
        flags.append(Flag("claim", match_claim, (Message.of(step_id),)))
    if state == "illegal" and opponent is not None:
        flags.append(Flag("illegal", Message.of("flag.not_opponents", opponent=opponent),
                          restore_steps(position, occupied)))
    elif state == "illegal" and irregularity:
        flags.append(Flag("illegal", Message.of("flag.irregular"), (
            irregularity, Message.of("guide.irregular.choice"),
            *restore_steps(position, occupied))))
    elif state == "illegal":
        flags.append(Flag("illegal", Message.of("flag.illegal"),
                          restore_steps(position, occupied)))
    elif state in ("setup", "disturbed"):
        title = Message.of("flag.setup" if state == "setup" else "flag.disturbed")
        steps = restore_steps(position, occupied, back=state != "setup",
                              full=full_setup and state == "setup")
        if steps:
            flags.append(Flag("restore" if state == "setup" else "disturbed", title, steps))
    if intents.get("ambiguous"):
        squares = sorted(intents["ambiguous"])
        flags.append(Flag("ambiguous", Message.of("flag.ambiguous"), (
            Message.of("guide.ambiguous", squares=_alternatives(position, squares)),)))
    if owed is not None and state in ("ready", "moving"):
        flags.append(Flag("restore", Message.of("flag.take_back_too"),
                          restore_steps(owed, occupied)))
    if intents.get("take_off"):
        flags.append(Flag("take-off", Message.of("flag.take_off"), take_off_steps(
            position, intents["take_off"], _down_end(position, occupied))))
    if opponent is not None and expected is not None and state in ("ready", "moving"):
        flags.append(Flag("opponent", Message.of(
            f"flag.opponent_plays.{side}", opponent=opponent,
            move=format_move(position, expected)),
            opponent_steps(position, expected, intents)))
    if intents.get("must_capture"):
        squares = sorted(intents["must_capture"])
        step = Message.of("guide.must_capture.one",
                          square=format_square(position.variant, squares[0])) \
            if len(squares) == 1 else \
            Message.of("guide.must_capture.many", count=len(squares),
                       squares=_alternatives(position, squares))
        flags.append(Flag("must-capture", Message.of(f"flag.must_capture.{side}"), (step,)))
    if intents.get("path"):
        flags.append(Flag("hint", Message.of("flag.capture"), (Message.of(
            "guide.next_landing", squares=_alternatives(position, sorted(intents["path"]))),)))
    elif intents.get("destination"):
        flags.append(Flag("hint", Message.of("flag.destinations"), (Message.of(
            "guide.destinations",
            squares=_alternatives(position, sorted(intents["destination"]))),)))
    if result is not None:
        headline = Message.of("guide.headline.game_over_reason", result=result,
                              reason=result_reason) if result_reason else \
            Message.of("guide.headline.game_over", result=result)
    elif match_paused is not None:
        headline = Message.of("match.headline.paused", name=match_paused)
    elif state == "illegal" and opponent is not None:
        headline = Message.of("guide.headline.not_opponents", opponent=opponent)
    elif state == "illegal" and irregularity:
        headline = Message.of("guide.headline.irregular")
    elif state in HEADLINES:
        headline = Message.of(HEADLINES[state])
    elif owed is not None and opponent is not None and state in ("ready", "moving"):
        headline = Message.of("guide.headline.opponent_taken_back", opponent=opponent)
    elif opponent is not None and opponent_failed and state in ("ready", "moving"):
        headline = Message.of(f"guide.headline.opponent_failed.{side}", opponent=opponent)
    elif opponent is not None and expected is None and state in ("ready", "moving"):
        headline = Message.of(f"guide.headline.opponent_thinking.{side}", opponent=opponent)
    elif opponent is not None and expected is not None:
        headline = Message.of(f"guide.headline.opponent_plays.{side}", opponent=opponent,
                              move=format_move(position, expected))
    elif state == "moving":
        headline = Message.of(f"guide.headline.moving.{side}")
    elif state == "game_over" or position.is_game_over():
        headline = Message.of(f"guide.headline.no_move.{side}")
    else:
        headline = Message.of(f"guide.headline.to_move.{side}")
    return Guidance(headline, tuple(flags), carried_columns(position, occupied))
