"""The round as lidraughts broadcasts it: the published view of the round's games that
``/round/<n>/games.pdn``, ``games.json`` and ``<board>.PDN`` serve (docs/hall.md,
"Broadcasting on lidraughts"; docs/pdn.md, "Published PDN").

lidraughts' relay polls the round's file and matches each game to a chapter of its
study by the game's place in the list; a game missing at a place, or one whose static
tags (Event, Site, Round, White, Black) are another place's, fails the whole sync and no
game of the round moves on. So once a round's pairings are imported, every paired board
is listed on every poll, in board order: its game as the hall's feed shows it
(`feed.game_at`), or, while it has none yet or while the arbiter is asked which game is
its game, its pairing's tags alone (a game with no moves and the result ``*``, which
lidraughts takes without touching the moves it already shows).

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
* Column games and Lasca left out: lidraughts has no column variant (it would show a
  column game on a Russian board, and a Lasca game's moves fail on its default board,
  failing the sync for every game). The hall's own files keep them
  (`feed.round_games`, ``/round/<n>/hall.pdn``, ``/round/<n>/<board>.pdn``).

Which game a board without one will play is not known: its entry's GameType is the
variant of the board's last game the hall took in, else the one most boards last
played, else international.
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
from .store import HallStore

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


def tags_only(known: Mapping[str, str], variant: Variant) -> str:
    """A board's entry before its game: its pairing's tags, no moves, the result ``*``."""
    tags = _tags(known, variant, "*", None)
    return "\n".join(_tag_lines(tags)) + "\n\n*\n\n"


def usual_variant(store: HallStore) -> Variant:
    """The variant most boards last played, else international (lock held)."""
    seen = Counter(game.game.variant.name for game in
                   (store.newest(board) for board in sorted(store.games)) if game is not None)
    return get_variant(seen.most_common(1)[0][0] if seen else FALLBACK_VARIANT)


def expected_variant(store: HallStore, board: int, usual: Callable[[], Variant]) -> Variant:
    """The game a board will play, as far as the hall can tell (lock held): that of its
    last game the hall took in, else ``usual()``."""
    newest = store.newest(board)
    return newest.game.variant if newest is not None else usual()


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


def broadcast_games(store: HallStore, round_name: str, cutoff: float | None,
                    paired: Mapping[tuple[int, str], str] | None = None,
                    contested: Collection[tuple[int, str]] = (),
                    pairings: Sequence[Pairing] = ()) -> list[Published]:
    """The round as lidraughts is given it, by board number (call with the store's lock
    held): every paired board and every board with a game of the round, each its game
    or its tags alone; column games left out. ``paired`` and ``contested`` as for
    `feed.round_games`; ``pairings``: the round's imported pairings."""
    of_board = {p.board: p for p in pairings if p.round == round_name}
    with_games = {board for board in store.games
                  if any(g.round == round_name and (cutoff is None or g.started_received
                                                    <= cutoff)
                         for g in store.board_games(board))}
    out = []
    usual = cache(partial(usual_variant, store))  # worked out once, when first needed
    for board in sorted(set(of_board) | with_games):
        chosen = None if (board, round_name) in contested else \
            round_game_of(store, board, round_name, paired, cutoff)
        if chosen is not None:
            game, _ = game_at(chosen, cutoff)
            if not game.variant.holds_columns:
                out.append(Published(board, published_game(game), game.result_text()))
            continue
        variant = expected_variant(store, board, usual)
        known = _known_tags(store, board, round_name, of_board.get(board))
        if not variant.holds_columns and known:
            out.append(Published(board, tags_only(known, variant)))
    return out
