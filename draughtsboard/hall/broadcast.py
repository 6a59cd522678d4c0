"""The round as lidraughts broadcasts it: the published view of the round's games that
``/round/<n>/games.pdn``, ``games.json`` and ``<board>.PDN`` serve (docs/hall.md,
"Broadcasting on lidraughts"; docs/pdn.md, "Published PDN").

lidraughts' relay polls the round's file and matches each game to a chapter of its
study by the game's place in the list; a game missing at a place, or one whose static
tags (Event, Site, Round, White, Black) are another place's, fails the whole sync and no
game of the round moves on. So every board keeps its place on every poll (`_listed`):
the paired boards in board order, then the boards that play the round unpaired in the
order their games came in; each its game as the hall's feed shows it
(`feed.game_at`), or, while it has none yet, while the arbiter is asked which game is
its game, or while it plays a column game, its pairing's tags alone (a game with no
moves, which lidraughts takes without touching the moves it already shows).

What lidraughts reads differently from the board's own PDN, and so is written here as a
view, the board's PDN writer unchanged:

* FEN squares one by one: lidraughts reads a square at a time and skips a range
  (``21-32``), which loses the pieces and cuts the game at its first move.
* No ``]`` (nor ``[``, ``"`` or a backslash) inside a tag value: lidraughts ends a tag's
  value at the first ``]`` and drops every tag after it, GameType among them. They
  become ``)``, ``(``, ``'`` and ``/``.
* ``TimeControl`` as ``base+increment`` in whole seconds, the only form lidraughts reads.
* The roster tags lidraughts compares (Event, Site, Round, White, Black) always written,
  ``?`` when unknown, so that a board's entry keeps the same static tags before and
  after its game begins.
* Column games' and Lasca's moves left out (their board listed by its tags alone):
  lidraughts has no column variant (it would show a column game on a Russian board, and
  a Lasca game's moves fail on its default board, failing the sync for every game). The
  hall's own files keep them (`feed.round_games`, ``/round/<n>/hall.pdn``,
  ``/round/<n>/<board>.pdn``).

Which game a board without one will play is not known: its entry's GameType is the
variant of the board's last game the hall took in, else (none, or a column game) the
one lidraughts can show that most boards last played, else international.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial

from draughtsboard.board.game.pdn_writer import write_game
from draughtsboard.board.game.record import STANDARD_TAGS, Game
from draughtsboard.board.rules.position import Position
from draughtsboard.board.rules.variants import Variant, get_variant

from .feed import game_at, round_game_of
from .pairings import Pairing
from .store import HallGame, HallStore

# the tags lidraughts compares to keep a game at its chapter (RelayGame.staticTags)
STATIC_TAGS = ("Event", "Site", "Round", "White", "Black")
UNKNOWN = "?"
FALLBACK_VARIANT = "international"
_TIME_CONTROL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+(?:\.\d+)?))?\s*$")
_VALUE = str.maketrans({"]": ")", "[": "(", '"': "'", "\\": "/"})


@dataclass(frozen=True)
class Published:
    """A board's entry in the published round: its PDN and its Result tag."""

    board: int
    pdn: str
    result: str = "*"


def fen_squares(position: Position) -> str:
    """A single-piece position's FEN with each square written on its own
    (``W:W21,22,...,32:B1,...``), kings as ``K5``: what lidraughts reads. The position's
    own text (`Position.fen`) with its ranges spelled out."""
    side, *sections = position.fen().split(":")
    out = [side]
    for section in sections:
        squares = []
        for token in filter(None, section[1:].split(",")):
            first, dash, last = token.partition("-")
            squares += [str(n) for n in range(int(first), int(last) + 1)] if dash else [token]
        out.append(section[:1] + ",".join(squares))
    return ":".join(out)


def time_control(text: str) -> str | None:
    """A TimeControl as lidraughts reads it, ``base+increment`` in whole seconds (None:
    not one the hall can read)."""
    match = _TIME_CONTROL.match(text)
    if match is None:
        return None
    base, increment = match.group(1), match.group(2) or "0"
    return f"{round(float(base))}+{round(float(increment))}"


def tag_value(text: str) -> str:
    """A tag value lidraughts reads whole: no ``]``, ``[``, ``"`` or backslash (which
    its JSON reading would take for an escape); one line."""
    return " ".join(text.translate(_VALUE).split())


def _tag_lines(tags: Sequence[tuple[str, str]]) -> list[str]:
    return [f'[{name} "{tag_value(value)}"]' for name, value in tags]


def _tags(known: Mapping[str, str], variant: Variant, result: str,
          start: Position | None) -> list[tuple[str, str]]:
    """The published tags: the roster (the static tags always), Result, GameType, the
    start when it is not the variant's, then the rest by name."""
    rest = dict(known)
    out: list[tuple[str, str]] = []
    for name in STANDARD_TAGS:
        value = rest.pop(name, None)
        if name == "TimeControl" and value is not None:
            value = time_control(value)
        if name in STATIC_TAGS and not (value or "").strip():
            value = UNKNOWN
        if value is not None:
            out.append((name, value))
    out.append(("Result", result))
    out.append(("GameType", variant.pdn_gametype))
    if start is not None:
        out += [("SetUp", "1"), ("FEN", fen_squares(start))]
    return out + sorted(rest.items())


def published_game(game: Game) -> str:
    """A game as lidraughts is given it: the published tags, then the moves as the
    hall's feed writes them (the arbiter's notes left out; an irregular move and a
    correction as their embedded commands, which lidraughts ignores: its game stops
    there)."""
    written = write_game(game, events=False)
    _, _, movetext = written.partition("\n\n")
    start = None if game.starts_from_initial else game.start
    tags = _tags(game.tags, game.variant, game.result_text(), start)
    return "\n".join(_tag_lines(tags)) + "\n\n" + movetext


def tags_only(known: Mapping[str, str], variant: Variant, result: str = "*") -> str:
    """A board's entry without a game lidraughts can show: its pairing's tags, no moves,
    the result (``*`` before its game)."""
    tags = _tags(known, variant, result, None)
    return "\n".join(_tag_lines(tags)) + f"\n\n{result}\n\n"


def _shows(hall_game: HallGame) -> bool:
    """Whether lidraughts can show the game (it has no column variant)."""
    return not hall_game.game.variant.holds_columns


def usual_variant(store: HallStore) -> Variant:
    """The variant lidraughts can show that most boards last played, else international
    (lock held)."""
    seen = Counter(game.game.variant.name for game in
                   (store.newest(board) for board in sorted(store.games))
                   if game is not None and _shows(game))
    return get_variant(seen.most_common(1)[0][0] if seen else FALLBACK_VARIANT)


def expected_variant(store: HallStore, board: int, usual: Callable[[], Variant]) -> Variant:
    """The game a board will play, as lidraughts can show it (lock held): that of its
    last game the hall took in, else (none, or a column game) ``usual()``."""
    newest = store.newest(board)
    return newest.game.variant if newest is not None and _shows(newest) else usual()


def _known_tags(store: HallStore, board: int, round_name: str,
                pairing: Pairing | None) -> dict[str, str]:
    """A board's tags for the round without its game: its pairing's, else those of the
    board's first game of the round."""
    if pairing is not None:
        return pairing.tags()
    games = [g for g in store.board_games(board) if g.round == round_name]
    first = min(games, key=lambda g: (g.started_received, g.number), default=None)
    tags = {} if first is None else dict(first.game.tags)
    return {name: tags[name] for name in (*STATIC_TAGS, "Board", "TimeControl")
            if name in tags}


def _listed(store: HallStore, round_name: str, cutoff: float | None,
            paired_boards: Collection[int]) -> list[int]:
    """The boards of the published round, each in the place it keeps on every poll: the
    paired boards by board number, then each other board with a game of the round
    lidraughts can show, in the order the hall took in the first such game (a late board
    goes after the others instead of moving them). A board once listed stays listed:
    what it plays later (a column game, a game the arbiter is asked about) changes its
    entry, never the places."""
    first: dict[int, float] = {}
    for board in store.games:
        if board in paired_boards:
            continue
        times = [g.started_received for g in store.board_games(board)
                 if g.round == round_name and _shows(g)
                 and (cutoff is None or g.started_received <= cutoff)]
        if times:
            first[board] = min(times)
    return sorted(paired_boards) + sorted(first, key=lambda board: (first[board], board))


def broadcast_games(store: HallStore, round_name: str, cutoff: float | None,
                    paired: Mapping[tuple[int, str], str] | None = None,
                    contested: Collection[tuple[int, str]] = (),
                    pairings: Sequence[Pairing] = ()) -> list[Published]:
    """The round as lidraughts is given it (call with the store's lock held): every
    board in its place (`_listed`), each its game, or its tags alone while it has none
    lidraughts can show (none yet, one the arbiter is asked about, a column game).
    ``paired`` and ``contested`` as for `feed.round_games`; ``pairings``: the round's
    imported pairings."""
    of_board = {p.board: p for p in pairings if p.round == round_name}
    out = []
    usual = cache(partial(usual_variant, store))  # worked out once, when first needed
    for board in _listed(store, round_name, cutoff, of_board):
        chosen = None if (board, round_name) in contested else \
            round_game_of(store, board, round_name, paired, cutoff)
        if chosen is not None and _shows(chosen):
            game, _ = game_at(chosen, cutoff)
            out.append(Published(board, published_game(game), game.result_text()))
            continue
        result = "*"
        if chosen is not None:  # a column game: its place, its players and its result
            game, _ = game_at(chosen, cutoff)
            result = game.result_text()
        variant = expected_variant(store, board, usual)
        known = _known_tags(store, board, round_name, of_board.get(board))
        out.append(Published(board, tags_only(known, variant, result), result))
    return out
