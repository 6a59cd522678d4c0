"""PDN 3.0 writer: one game (or many) as the text a club or an arbiter files.

What is written, and why:

* ``GameType`` always (and ``Variant`` for games without a GameType number, Lasca), so
  that a reader never has to guess the game; the variant's own result strings.
* ``SetUp "1"`` and ``FEN`` only when the game did not start from the initial position.
* Moves in the short form, the long form only where the short one is ambiguous
  (`notation.format_move` decides), move numbers on White's moves (`number_prefix`).
* After each move, where known, the clocks in the lidraughts form
  ``{[%clock w0:10:00 B0:09:58]}`` (remaining time; the side to move in capitals), else
  the thinking time as ``{[%emt 0:00:12]}``, so each move's time is in the record.
* Illegal attempts, irregularities of procedure and other arbiter events as comments at
  the point they happened: the arbiter's record keeps them, the move list does not.
* What the rules alone cannot replay, as embedded commands that our reader follows
  (docs/pdn.md): an irregular move that stood (FMJD Annex 1, 5.4) carries the position
  it made, ``{irregular (...): ...; allowed to stand [%fen W:W...:B...]}``, and an arbiter
  correction the position play went on from, ``{arbiter correction: ... [%setup ...]}``.
  Both are written even without the arbiter's events: without them the moves that
  follow are not legal.

The words of the comments the writer adds (an irregular move's, the events' labels) are
messages (`draughtsboard.board.message`): ``say`` renders them in the board's language
(the caller passes `draughtsboard.words.words_for(language)`; the core knows no
catalog). Without ``say`` they are the English every file written before had, which the
English catalog says too (a test holds them equal). An event whose journal record kept
its message (an illegal attempt, a flag, a resume...) is said in ``say``'s language too;
one without (a record older than messages) and a result's reason are written as
recorded; tag names, result codes, notation and the
embedded commands never change with the language, and the reader needs none of the
words: an irregular move is read back by its ``[%fen]``, a correction by its
``[%setup]``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from ..message import ID_PATTERN, Message
from .record import STANDARD_TAGS, Game, GameEvent, move_number
from .records import RecordKind, TakebackKind
from .tags import is_tag_name, printable

LINE_WIDTH = 79

Say = Callable[[Message], str]  # a message in words, in one language

# The label of each kind of event in its comment, by the record model's kinds: a message
# id (a kind not named here is written as it is).
EVENT_LABELS: dict[str, str] = {
    RecordKind.ILLEGAL: "pdn.event.illegal", RecordKind.IRREGULARITY: "pdn.event.irregularity",
    RecordKind.FLAG: "pdn.event.flag", RecordKind.DRAW_OFFER: "pdn.event.draw_offer",
    RecordKind.CLOCK_START: "pdn.event.clock", RecordKind.CLOCK_PAUSE: "pdn.event.clock",
    RecordKind.CLOCK_RESUME: "pdn.event.clock",
    RecordKind.RESULT_WITHDRAWN: "pdn.event.arbiter",
    RecordKind.MATCH_STOP: "pdn.event.match_stop",
    RecordKind.CORRECTION: "pdn.event.correction", TakebackKind.TAKEBACK: "pdn.event.takeback",
    TakebackKind.AMENDMENT: "pdn.event.amendment", RecordKind.RESUME: "pdn.event.resume",
    RecordKind.NOTE: "pdn.event.note", RecordKind.HINT: "pdn.event.hint",
    RecordKind.COACH: "pdn.event.coach",
}
CORRECTION_UNDONE = "pdn.event.correction_undone"  # a take-back past its ply took it back
IRREGULAR_PREFIX = "pdn.irregular."  # + an irregular move's kind (``irregular_move``)

# The writer's words without a language: the English of every file written so far.
ENGLISH = {
    "pdn.event.illegal": "illegal attempt", "pdn.event.irregularity": "irregularity",
    "pdn.event.flag": "flag fall",
    "pdn.event.draw_offer": "draw by the rules, offered to the arbiter",
    "pdn.event.clock": "clock", "pdn.event.arbiter": "arbiter",
    "pdn.event.match_stop": "match stopped, for the arbiter",
    "pdn.event.correction": "arbiter correction",
    CORRECTION_UNDONE: "arbiter correction, later taken back",
    "pdn.event.takeback": "takeback", "pdn.event.amendment": "amendment",
    "pdn.event.resume": "resume", "pdn.event.note": "note", "pdn.event.hint": "hint",
    "pdn.event.coach": "coach",
    "pdn.event.timed": "{label} at {time} UTC: {text}",
    "pdn.event.untimed": "{label}: {text}",
}


def english_comment(message: Message) -> str:
    """A message of the writer's in its English (`ENGLISH`); any other, its id."""
    template = ENGLISH.get(message.id)
    if template is None:
        return message.id
    return template.format_map({name: english_comment(value) if isinstance(value, Message)
                                else str(value) for name, value in message.params})


def _quote(value: str) -> str:
    return printable(value).replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    """A comment that cannot end early or hide a result from a line-based reader."""
    text = " ".join(text.replace("{", "(").replace("}", ")").split())
    return "{" + text + "}"


def _hms(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def format_tags(game: Game) -> list[str]:
    """The tag lines of a game: the roster tags it has (Event ... TimeControl), then the
    tags derived from the record (Result, GameType, Variant, SetUp and FEN), then its
    other tags sorted by name."""
    variant = game.variant
    tags: list[tuple[str, str]] = []
    present = dict(game.tags)
    for name in STANDARD_TAGS:
        if name in present:
            tags.append((name, present.pop(name)))
    tags.append(("Result", game.result_text()))
    tags.append(("GameType", variant.pdn_gametype))
    if variant.pdn_variant_tag:
        tags.append(("Variant", variant.pdn_variant_tag))
    if not game.starts_from_initial:
        tags.append(("SetUp", "1"))
        tags.append(("FEN", game.start_fen))
    tags.extend(sorted(present.items()))
    return [f'[{name} "{_quote(value)}"]' for name, value in tags if is_tag_name(name)]


def _event_text(event: GameEvent, say: Say, in_language: bool) -> str:
    """The event's comment: its label and time in ``say``'s words, and what happened as
    its message says it when ``in_language`` and the journal kept one (else the text
    recorded, the English of every file written so far)."""
    label: Message | str = event.kind
    if event.kind == "correction" and event.position is None:
        label = Message.of(CORRECTION_UNDONE)
    elif event.kind in EVENT_LABELS:
        label = Message.of(EVENT_LABELS[event.kind])
    text: Message | str = event.text
    if in_language and event.message is not None:
        text = event.message
    if event.t_wall is None:
        return say(Message.of("pdn.event.untimed", label=label, text=text))
    when = time.strftime("%H:%M:%S", time.gmtime(event.t_wall))
    return say(Message.of("pdn.event.timed", label=label, time=when, text=text))


def irregular_comment(kind: str, recorded: str, say: Say | None) -> str:
    """The comment of an irregular move that stood: with ``say``, the words of its kind
    (``pdn.irregular.<kind>``) in that language; else, or for a kind with no words (one
    read back from a file), the comment recorded with it."""
    if say is None or not kind or not ID_PATTERN.fullmatch(kind):
        return recorded
    message = Message.of(IRREGULAR_PREFIX + kind)
    text = say(message)
    return recorded if text == message.id else text


def _setup(event: GameEvent) -> str:
    """The embedded command of a correction still in effect ("" for any other event)."""
    if event.kind != "correction" or event.position is None:
        return ""
    return f"[%setup {event.position.fen()}]"


def _event_notes(events_here: list[GameEvent], events: bool, say: Say,
                 in_language: bool) -> list[str]:
    """The comments of the events at one point of the game: every event with its text
    (``events``), else only the positions of corrections."""
    if events:
        return [f"{_event_text(event, say, in_language)} {_setup(event)}".rstrip()
                for event in events_here]
    return [command for command in map(_setup, events_here) if command]


def number_prefix(white: bool, number: int, after: str) -> str:
    """The move number written before a move: ``12. `` before White's, and before
    Black's only as the first move of the movetext (``after == "start"``: a game Black
    begins, where a reader must be told whose move it is).

    Not after a comment (``"comment"``: the clocks after every move, an event) nor after
    a variation (``"variation"``): PDN 3.0 makes move numbers optional and writes
    ``23.44-39 {[%clk 1:05:23]} 18-23``, and pydraughts 0.6.7 cannot read a game that
    repeats a number (``7. 32-28 {...} 7... 6x17``, ``7. 32-28 (7. 33-28) 7... 6x17``):
    it deletes a repeated ``7.`` from the rest of the text, ``17.`` and ``27.`` with it
    (docs/pdn.md)."""
    if white:
        return f"{number}. "
    return f"{number}... " if after == "start" else ""


def format_movetext(game: Game, *, times: bool = True, events: bool = True,
                    say: Say | None = None) -> list[str]:
    """The movetext as items (moves, comments, the result), ready to be wrapped; ``say``
    renders the comments' words (see the module doc)."""
    words = say or english_comment
    items: list[str] = []
    by_ply: dict[int, list[GameEvent]] = {}
    for event in game.events:
        by_ply.setdefault(event.ply, []).append(event)
    if game.comment:
        items.append(_comment(game.comment))
    for note in _event_notes(by_ply.get(0, []), events, words, say is not None):
        items.append(_comment(note))
    clocks = game.clocks() if times else [None] * game.ply
    thinking = game.thinking_times() if times else [None] * game.ply
    white_starts = game.start.white_to_move
    after = "start"
    for ply, played in enumerate(game.moves):
        white = (ply % 2 == 0) == white_starts
        prefix = number_prefix(white, move_number(white_starts, ply), after)
        mark = played.annotation
        items.append(prefix + played.text + (f" {mark}" if mark.startswith("$") else mark))
        after = "move"
        notes: list[str] = []
        if played.after is not None:  # an irregular move that stood
            comment = irregular_comment(played.irregularity, played.comment, say)
            notes.append(f"{comment} [%fen {played.after.fen()}]".lstrip())
        elif played.comment:
            notes.append(played.comment)
        clock, spent = clocks[ply], thinking[ply]
        if clock is not None:
            w, b = clock
            white_next = not white
            notes.append(f"[%clock {'W' if white_next else 'w'}{_hms(w)} "
                         f"{'b' if white_next else 'B'}{_hms(b)}]")
        elif spent is not None:
            notes.append(f"[%emt {_hms(spent)}]")
        notes.extend(_event_notes(by_ply.get(ply + 1, []), events, words, say is not None))
        for note in notes:
            items.append(_comment(note))
            after = "comment"
        for variation in played.variations:
            items.append(f"({variation})")
            after = "variation"
    if game.result_reason:
        items.append(_comment(game.result_reason))
    items.append(game.result_text())
    return items


def _wrap(items: Iterable[str]) -> list[str]:
    lines: list[str] = []
    line = ""
    for item in items:
        candidate = f"{line} {item}" if line else item
        if len(candidate) > LINE_WIDTH and line:
            lines.append(line)
            line = item
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def write_game(game: Game, *, times: bool = True, events: bool = True,
               say: Say | None = None) -> str:
    """One game as PDN 3.0 text, ending with a blank line; ``say`` renders the words of
    its comments in a language (default: English, see the module doc)."""
    lines = format_tags(game) + [""] + _wrap(
        format_movetext(game, times=times, events=events, say=say))
    return "\n".join(lines) + "\n\n"


def write_games(games: Iterable[Game], **options) -> str:
    """Several games as one PDN text, each as `write_game` writes it."""
    return "".join(write_game(game, **options) for game in games)
