"""What the board says aloud, as messages: a pure function of what it publishes.

A person who does not look at the board (a blind player, or anyone away from a screen)
hears the game as players say it: each move with its squares in the board's language
("цэ 3 бьёт е 5", "c3 takes e5", "32 to 28"), the pieces a capture takes, a crowning,
an illegal move and the squares to put right, a required capture, the opponent's move to
carry out, a draw that can be claimed, the result; a move amended in place (taken back
and played again between two publications, as free play does when a piece moves on) is
said as changed, with the move that now stands; the squares to put right after a piece
was knocked over, kept off the board or moved by nobody's move, as after an illegal
move. Everything here is a `Message` of the
catalogs (``spoken.*``); a square's letter is a message too, so the Russian catalog says
"цэ" where English says "c". Numbers stay digits: the speech engine reads them in the
language of its voice ("3" is "три" in Russian).

`what_changed` compares what the board publishes now (its game and view) with what was
last heard (`Heard`) and says what is new, each `Announcement` with a kind, so that a
listener who wants only the moves gets only the moves (`KINDS_OF_LEVEL`). No I/O, no
thread, no clock: the announcer and the tests feed it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.rules.position import Move, Position
from draughtsboard.board.rules.variants import Variant

# The kinds of announcement, and which ones each verbosity level speaks.
MOVE, FLAG, INFO = "move", "flag", "info"
LEVELS = ("off", "moves", "flags", "all")
KINDS_OF_LEVEL: dict[str, frozenset[str]] = {
    "off": frozenset(),
    "moves": frozenset({MOVE}),
    "flags": frozenset({MOVE, FLAG}),
    "all": frozenset({MOVE, FLAG, INFO}),
}


@dataclass(frozen=True)
class Announcement:
    """One thing to say: its ``kind`` (`MOVE`, `FLAG`, `INFO`), its messages in order
    (said as sentences one after the other) and, for a move, when the move was recorded
    (the board's monotonic clock), from which the speaker measures its delay."""

    kind: str
    messages: tuple[Message, ...]
    recorded_at: float | None = None


def spoken_square(variant: Variant, number: int) -> Message | str:
    """A square as said: ``spoken.square`` with its file's name (``c3``: "цэ 3" in
    Russian), or the number itself on a numbered board ("32")."""
    if not variant.algebraic_moves:
        return str(number)
    name = variant.geometry.name(number)
    return Message.of("spoken.square", file=Message.of(f"spoken.file.{name[0]}"),
                      rank=name[1:])


def spoken_move(variant: Variant, move: Move) -> Message:
    """A move as said: "c3 to d4", or a capture with every landing square and how many
    pieces it takes ("c3 takes e5 and g7, 2 pieces")."""
    squares = [spoken_square(variant, square) for square in move.path]
    if move.captures:
        return Message.of("spoken.move.capture", start=squares[0], landings=squares[1:],
                          count=len(move.captures))
    return Message.of("spoken.move.step", start=squares[0], end=squares[-1])


def crowns(before: Position, move: Move, after: Position) -> bool:
    """Whether ``move`` crowns its piece (a man on the start, a king on the end)."""
    piece, crowned = before.piece_at(move.start), after.piece_at(move.end)
    return piece is not None and piece.islower() and crowned is not None \
        and crowned.isupper()


def spoken_played(before: Position, move: Move, after: Position) -> tuple[Message, ...]:
    """A move played, and its crowning if it crowns."""
    said = spoken_move(before.variant, move)
    if crowns(before, move, after):
        return said, Message.of("spoken.promotion")
    return (said,)


def spoken_result(variant: Variant, code: str) -> Message | None:
    """The result a PDN code means, as said ("White wins"); ``None`` for ``*``."""
    white, draw, black = variant.results
    by_code = {white: "white_wins", draw: "draw", black: "black_wins", "0-0": "both_lose",
               "1-0": "white_wins", "0-1": "black_wins", "1/2-1/2": "draw"}
    key = by_code.get(code)
    return None if key is None else Message.of(f"spoken.result.{key}")


@dataclass(frozen=True)
class Heard:
    """What the listener was last told about: the game, how far into it (and its moves,
    so that a move amended in place is told), the flags
    standing, the opponent's move waiting to be carried out, a draw claimable, the
    result."""

    game_id: str
    ply: int
    illegal: tuple[int, ...] = ()
    moves: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()  # path, captures
    must_capture: tuple[int, ...] = ()
    opponent: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    draw_claim: bool = False
    result: str | None = None
    restore: tuple[int, ...] = ()


def heard_now(game_id: str, game: Game, view: Mapping[str, Any]) -> Heard:
    """What there is to hear in a publication (the game and the page's view)."""
    intents = view.get("intents") or {}
    opponent = view.get("opponent") or {}
    pending = opponent.get("pending") if isinstance(opponent, Mapping) else None
    result = game.result_text()
    return Heard(
        game_id=game_id, ply=game.ply,
        moves=tuple((tuple(m.move.path), tuple(m.move.captures)) for m in game.moves),
        illegal=tuple(intents.get("illegal", ())),
        must_capture=tuple(sorted(intents.get("must_capture", ()))),
        opponent=(tuple(pending["path"]), tuple(pending.get("captures", ())))
        if isinstance(pending, Mapping) and pending.get("path") else None,
        draw_claim=bool(view.get("draw_claim")),
        result=None if result == "*" else result,
        restore=tuple(sorted(intents.get("restore", ()))))


def _squares(variant: Variant, squares: Sequence[int]) -> list[Message | str]:
    return [spoken_square(variant, square) for square in squares]


def _common_start(before: Heard, now: Heard) -> int:
    """How many plies the two games share from their start. A `Heard` made without its
    moves (the first of a new game) shares all it has."""
    if not before.moves and before.ply:
        return min(before.ply, now.ply)
    kept = 0
    for old, new in zip(before.moves, now.moves, strict=False):
        if old != new:
            break
        kept += 1
    return min(kept, before.ply, now.ply)


def what_changed(before: Heard | None, game_id: str, game: Game,
                 view: Mapping[str, Any]) -> tuple[Heard, list[Announcement]]:
    """What is new since ``before`` (see the module doc), and what is now heard. The
    first publication a listener sees says nothing: a resumed game is not read out."""
    now = heard_now(game_id, game, view)
    if before is None:
        return now, []
    variant = game.variant
    said: list[Announcement] = []
    if now.game_id != before.game_id:
        said.append(Announcement(INFO, (Message.of("spoken.new_game"),)))
        before = Heard(game_id, 0)
    kept = _common_start(before, now)
    if kept < before.ply and kept == now.ply:
        said.append(Announcement(INFO, (Message.of("spoken.takeback"),)))
    elif now.ply > kept:
        positions = game.positions
        messages: list[Message] = []
        if kept < before.ply:  # taken back and played again in one publication
            back = before.ply - kept
            messages.append(Message.of("spoken.amended") if back == 1
                            else Message.of("spoken.amended.many", count=back))
        for ply in range(kept, now.ply):
            played = game.moves[ply]
            messages.extend(spoken_played(positions[ply], played.move, positions[ply + 1]))
        said.append(Announcement(MOVE, tuple(messages), game.moves[-1].t_monotonic))
    if now.illegal and (now.illegal, now.restore) != (before.illegal, before.restore):
        squares = now.restore or now.illegal
        said.append(Announcement(FLAG, (Message.of(
            "spoken.flag.illegal", squares=_squares(variant, squares),
            count=len(squares)),)))
    elif not now.illegal and now.restore and (
            before.illegal or not set(now.restore) <= set(before.restore)):
        # a piece knocked over, kept off or moved by nobody's move: said when it is
        # flagged and when another square joins, not while the squares are put right
        said.append(Announcement(FLAG, (Message.of(
            "spoken.flag.restore", squares=_squares(variant, now.restore),
            count=len(now.restore)),)))
    if now.must_capture and now.must_capture != before.must_capture:
        said.append(Announcement(FLAG, (Message.of(
            "spoken.flag.must_capture", squares=_squares(variant, now.must_capture)),)))
    if now.opponent is not None and now.opponent != before.opponent:
        move = Move(*now.opponent)
        said.append(Announcement(MOVE, (Message.of(
            "spoken.opponent.move", move=spoken_move(variant, move)),)))
    if now.draw_claim and not before.draw_claim:
        said.append(Announcement(INFO, (Message.of("spoken.draw_claim"),)))
    if now.result is not None and now.result != before.result:
        result = spoken_result(variant, now.result)
        if result is not None:
            said.append(Announcement(MOVE, (result,)))
    return now, said


def for_level(announcements: Sequence[Announcement], level: str) -> Announcement | None:
    """The announcements a verbosity level speaks, joined into one (said in order; the
    moves' recording time kept), or ``None`` when it speaks none of them."""
    kinds = KINDS_OF_LEVEL[level]
    kept = [a for a in announcements if a.kind in kinds]
    if not kept:
        return None
    recorded = [a.recorded_at for a in kept if a.recorded_at is not None]
    return Announcement(kept[0].kind, tuple(m for a in kept for m in a.messages),
                        recorded[0] if recorded else None)


def level_for_mode(level: str | None, mode: str) -> str:
    """The verbosity in effect: the one asked for, else ``off`` in tournament mode (a
    hall stays quiet, and a board that speaks helps no one there unasked) and ``moves``
    in the others (training, free play, puzzles)."""
    if level is not None:
        return level
    return "off" if mode == "tournament" else "moves"


def text_of(render: Callable[[Message], str], announcement: Announcement) -> str:
    """An announcement in words (``render``: a language's renderer, `words_for`), its
    messages said as sentences one after the other."""
    sentences = [render(message).strip().rstrip(".") for message in announcement.messages]
    return ". ".join(sentence for sentence in sentences if sentence) + "."
