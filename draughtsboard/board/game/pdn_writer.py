"""PDN 3.0 writer: one game (or many) as the text a club or an arbiter files.

What is written, and why:

* ``GameType`` always (and ``Variant`` for games without a GameType number, Lasca), so
  that a reader never has to guess the game; the variant's own result strings.
* ``SetUp "1"`` and ``FEN`` only when the game did not start from the initial position.
* Moves in the short form, the long form only where the short one is ambiguous
  (`notation.format_move` decides), move numbers on White's moves.
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
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from .record import STANDARD_TAGS, Game, GameEvent, move_number
from .tags import is_tag_name, printable

LINE_WIDTH = 79


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


def _event_text(event: GameEvent) -> str:
    labels = {"illegal": "illegal attempt", "irregularity": "irregularity",
              "flag": "flag fall", "draw-offer": "draw by the rules, offered to the arbiter",
              "clock-start": "clock", "clock-pause": "clock", "clock-resume": "clock",
              "result-withdrawn": "arbiter", "correction": "arbiter correction"}
    label = labels.get(event.kind, event.kind)
    if event.kind == "correction" and event.position is None:
        label += ", later taken back"  # a take-back past its ply took it back
    when = ""
    if event.t_wall is not None:
        when = " at " + time.strftime("%H:%M:%S", time.gmtime(event.t_wall)) + " UTC"
    return f"{label}{when}: {event.text}"


def _setup(event: GameEvent) -> str:
    """The embedded command of a correction still in effect ("" for any other event)."""
    if event.kind != "correction" or event.position is None:
        return ""
    return f"[%setup {event.position.fen()}]"


def _event_notes(events_here: list[GameEvent], events: bool) -> list[str]:
    """The comments of the events at one point of the game: every event with its text
    (``events``), else only the positions of corrections."""
    if events:
        return [f"{_event_text(event)} {_setup(event)}".rstrip() for event in events_here]
    return [command for command in map(_setup, events_here) if command]


def format_movetext(game: Game, *, times: bool = True, events: bool = True) -> list[str]:
    """The movetext as items (moves, comments, the result), ready to be wrapped."""
    items: list[str] = []
    by_ply: dict[int, list[GameEvent]] = {}
    for event in game.events:
        by_ply.setdefault(event.ply, []).append(event)
    if game.comment:
        items.append(_comment(game.comment))
    for note in _event_notes(by_ply.get(0, []), events):
        items.append(_comment(note))
    clocks = game.clocks() if times else [None] * game.ply
    thinking = game.thinking_times() if times else [None] * game.ply
    white_starts = game.start.white_to_move
    need_number = True
    for ply, played in enumerate(game.moves):
        white = (ply % 2 == 0) == white_starts
        number = move_number(white_starts, ply)
        prefix = f"{number}. " if white else (f"{number}... " if need_number else "")
        mark = played.annotation
        items.append(prefix + played.text + (f" {mark}" if mark.startswith("$") else mark))
        need_number = False
        notes: list[str] = []
        if played.after is not None:  # an irregular move that stood
            notes.append(f"{played.comment} [%fen {played.after.fen()}]".lstrip())
        elif played.comment:
            notes.append(played.comment)
        if clocks[ply] is not None:
            w, b = clocks[ply]
            white_next = not white
            notes.append(f"[%clock {'W' if white_next else 'w'}{_hms(w)} "
                         f"{'b' if white_next else 'B'}{_hms(b)}]")
        elif thinking[ply] is not None:
            notes.append(f"[%emt {_hms(thinking[ply])}]")
        notes.extend(_event_notes(by_ply.get(ply + 1, []), events))
        for note in notes:
            items.append(_comment(note))
            need_number = True
        for variation in played.variations:
            items.append(f"({variation})")
            need_number = True
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


def write_game(game: Game, *, times: bool = True, events: bool = True) -> str:
    """One game as PDN 3.0 text, ending with a blank line."""
    lines = format_tags(game) + [""] + _wrap(format_movetext(game, times=times, events=events))
    return "\n".join(lines) + "\n\n"


def write_games(games: Iterable[Game], **options) -> str:
    """Several games as one PDN text, each as `write_game` writes it."""
    return "".join(write_game(game, **options) for game in games)
