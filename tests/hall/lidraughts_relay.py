"""A lidraughts broadcast in miniature: what lidraughts' relay does with a round feed it
polls, followed rule by rule from its source (RoepStoep/lidraughts), so the hall's tests
can poll the hall's feed as lidraughts would and see what a real broadcast would show.

Where each rule comes from:

* ``modules/relay/src/main/RelayFormat.scala``: the format guess. PDN is tried first
  (the first game of ``MultiPdn.split`` must import), then JSON (anything ``Json.parse``
  reads and is not null); the guess is kept (10 minutes there: for the whole run here).
* ``modules/relay/src/main/RelayFetch.scala``: a PDN file is split into at most
  ``maxChapters`` games (64, 128 for official broadcasts) after ``<br>`` becomes a blank
  line; a JSON file is ``{"games": [{"pdn": ...}]}``, every game kept, ``\\n`` and ``\\"``
  unescaped, ``[Empty]`` an empty game, ``result`` and ``board`` unread. Every game must
  import and none may be empty (``multiPdnToGames``), else the whole sync fails.
* ``modules/study/src/main/MultiPdn.scala``: the split, on a blank line before ``[``.
* ``modules/relay/src/main/RelayInputSanity.scala``: before a sync, each chapter's game
  is the one at its place in the list: none there is ``Missing``; one whose static tags
  differ while another game's match the chapter is ``Misplaced``; either fails the sync
  (one game alone, matching the last chapter, is allowed: "TCEC style").
* ``modules/relay/src/main/RelaySync.scala`` and ``RelayGame.scala``: a game updates the
  chapter of its place (of its static tags ``white black round event site`` when it is
  alone), else a new chapter is made from it: its variant and start position are fixed
  then. A chapter's tags take every tag of the game that differs; its moves are walked
  along the game's: moves it has are kept (a takeback leaves the moves taken back
  showing until another move is played), a new move goes on as the main line.
* ``modules/study/src/main/PdnImport.scala`` and
  ``modules/importer/src/main/DataForm.scala`` (``ImportData.preprocess``): the game is
  replayed from its FEN; at the first move that is not legal there the game stops (an
  irregular move or an arbiter's correction, which lidraughts does not read, ends it).
* ``modules/draughts/src/main/format/pdn/Parser.scala``: lines trimmed, ``%`` lines
  dropped; the tag lines are the leading lines starting with ``[``; a tag is ``[``, a
  name of letters, a value of anything but ``]``, then ``]``, quotes removed, and the
  first text that is not a tag ends the tags (a ``]`` inside a value drops every later
  tag); moves match ``field[-x:]field([x:]field)*``, fields ``50|[1-4][0-9]|0?[1-9]|
  [a-h][1-8]``, each read on the game's board or the whole game fails to import.
* ``modules/study/src/main/PdnTags.scala``: a game keeps only the tags a study shows
  (players, TimeControl, Date, Result, Termination, Site, Event, Round, Annotator; not
  Board, GameType or FEN), and none whose value is ``""``, ``?`` or ``unknown``.
* ``modules/draughts/src/main/format/pdn/tagModel.scala``: the variant is ``GameType``
  (``([0-9]+)(,[WB],[0-9]+,[0-9]+,[ANS][0123](,[01])?)?``, its number: 20
  international, 25 Russian, ...), else a ``Variant`` tag lidraughts names, else
  international; ``TimeControl`` is read only as ``base+increment`` (``Clock.scala``).
* ``modules/draughts/src/main/format/Forsyth.scala``: a FEN's squares are read one by
  one (a number, or on 8x8 an algebraic name; ``K`` a king); anything else, a range
  ``21-32`` among them, is skipped.

Only the two variants this project plays and lidraughts has (international, Russian)
are replayed; a game of another lidraughts variant is read but its moves are not
checked.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from draughtsboard.board.rules.errors import DraughtsError
from draughtsboard.board.rules.fen import initial_position, parse_fen
from draughtsboard.board.rules.notation import parse_move, parse_square
from draughtsboard.board.rules.position import Position
from draughtsboard.board.rules.variants import get_variant

MAX_CHAPTERS = 64  # Study.maxChapters; twice that for an official broadcast
STATIC_TAGS = ("white", "black", "round", "event", "site")
# tagModel.scala's known tag types: their names are matched whatever the case
KNOWN_TAGS = {name.lower(): name for name in (
    "Event", "Site", "Date", "UTCDate", "UTCTime", "Round", "White", "Black", "TimeControl",
    "WhiteClock", "BlackClock", "WhiteElo", "BlackElo", "WhiteRating", "BlackRating",
    "WhiteRatingDiff", "BlackRatingDiff", "WhiteTitle", "BlackTitle", "WhiteTeam",
    "BlackTeam", "Result", "FEN", "Variant", "GameType", "MicroMatch", "ECO", "Opening",
    "Termination", "Annotator")}
GAME_TYPES = {20: "standard", 25: "russian", 26: "brazilian", 40: "frisian", 96: "breakthrough",
              97: "frysk", 98: "antidraughts", 99: "fromPosition"}
# PdnTags.scala: the tags a study keeps (of a game's, in a chapter), and values it drops
RELEVANT_TAGS = ("White", "WhiteElo", "WhiteTitle", "WhiteTeam", "Black", "BlackElo",
                 "BlackTitle", "BlackTeam", "TimeControl", "Date", "Result", "Termination",
                 "Site", "Event", "Round", "Annotator")
UNKNOWN_VALUES = ("", "?", "unknown")
OURS = {"standard": "international", "fromPosition": "international", "russian": "russian"}
GAME_TYPE = re.compile(r"([0-9]+)(,[WB],[0-9]+,[0-9]+,[ANS][0123](,[01])?)?")
SPLIT = re.compile(r"\n\n(?=\[)")
TAG = re.compile(r"\s*\[\s*([a-zA-Z]+)(?![a-zA-Z])\s*([^\]]+)\]")
FIELD = r"50|[1-4][0-9]|0?[1-9]|[a-h][1-8]"
MOVE = re.compile(rf"({FIELD})[\-x:]({FIELD})([x:]({FIELD}))*[?!□⨀]{{0,2}}")
NUMBER = re.compile(r"[1-9]\d*\.+\s*")
NAG = re.compile(r"\$\d+")
RESULTS = ("*", "1/2-1/2", "½-½", "0.5-0.5", "1-1", "0-1", "0-2", "1-0", "2-0")
WHITE_SPACE = re.compile(r"\s+")


class RelayError(Exception):
    """What lidraughts' sync log would show: the poll failed, no game was updated."""


@dataclass
class RelayGame:
    """One game of a poll as lidraughts imported it."""

    index: int
    tags: dict[str, str]  # the tags a study keeps (PdnTags), by name
    variant: str  # lidraughts' variant key
    start: Position | None  # None: a variant this reader does not replay
    moves: list[str]  # the main line lidraughts kept (it stops at a move not legal)
    cut: bool  # whether moves of the game were dropped (not legal where they stood)

    def static(self, tags: dict[str, str]) -> bool:
        return all(tags.get(KNOWN_TAGS[name]) == self.tags.get(KNOWN_TAGS[name])
                   for name in STATIC_TAGS)

    @property
    def clock(self) -> tuple[int, int] | None:
        """The clock read from ``TimeControl`` (``Clock.readPdnConfig``)."""
        parts = self.tags.get("TimeControl", "").split("+")
        if len(parts) == 2 and all(re.fullmatch(r"-?\d+", p) for p in parts):
            return int(parts[0]), int(parts[1])
        return None


@dataclass
class Chapter:
    """A chapter of the broadcast's study: what its viewers see of one game."""

    index: int
    variant: str
    start: Position | None
    tags: dict[str, str]
    # the move tree: each path (a tuple of moves) -> its children, the main line first
    children: dict[tuple[str, ...], list[str]] = field(default_factory=dict)

    @property
    def mainline(self) -> list[str]:
        path: tuple[str, ...] = ()
        while self.children.get(path):
            path = path + (self.children[path][0],)
        return list(path)

    def add(self, path: tuple[str, ...], move: str) -> None:
        """A move after ``path``, made the main line (``promoteToMainline``)."""
        siblings = self.children.setdefault(path, [])
        if move in siblings:
            siblings.remove(move)
        siblings.insert(0, move)

    def promote(self, path: tuple[str, ...]) -> None:
        for depth in range(len(path)):
            self.add(path[:depth], path[depth])


# -- one game: Parser.full, ImportData.preprocess ----------------------------------------------

def _tag_name(name: str) -> str:
    return KNOWN_TAGS.get(name.lower(), name)


def read_tags(text: str) -> dict[str, str]:
    """``TagParser``: tags from the start while they parse; the rest is ignored."""
    tags: dict[str, str] = {}
    at = 0
    while (match := TAG.match(text, at)) is not None:
        name = _tag_name(match.group(1))
        tags.pop(name, None)
        tags[name] = match.group(2).replace('"', "")
        at = match.end()
    return tags


def split_tags_and_moves(text: str) -> tuple[str, str]:
    text = re.sub(r'"\]\s*(\{|\d+\.)', lambda m: '"]\n' + m.group(1), text)
    text = re.sub(r'\[(FILENAME\s+")', lambda m: "\n[" + m.group(1), text)
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    count = 0
    while count < len(lines) and lines[count].startswith("["):
        count += 1
    tag_lines, move_lines = lines[:count], lines[count:]
    if move_lines and move_lines[-1].startswith("[") and move_lines[-1].endswith("]"):
        move_lines = move_lines[:-1]
    return "\n".join(tag_lines), "\n".join(move_lines)


class _Moves:
    """``MovesParser``: comments, numbers, moves, NAGs, variations, a result."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def _skip(self) -> None:
        match = WHITE_SPACE.match(self.text, self.at)
        if match:
            self.at = match.end()

    def _comment(self) -> str | None:
        self._skip()
        text = self.text
        if text.startswith("{", self.at):
            end = text.find("}", self.at)
            if end < 0:
                return None
            comment, self.at = text[self.at + 1:end], end + 1
            return comment
        if text.startswith(";", self.at):
            end = text.find("\n", self.at)
            end = len(text) if end < 0 else end
            if end == self.at + 1:
                return None
            comment, self.at = text[self.at + 1:end], end
            return comment
        match = re.compile(r'/FEN "[\w:,]*"/').match(text, self.at)
        if match:
            self.at = match.end()
            return match.group(0)
        return None

    def _token(self, pattern: re.Pattern) -> str | None:
        self._skip()
        match = pattern.match(self.text, self.at)
        if match is None:
            return None
        self.at = match.end()
        return match.group(0)

    def line(self, inside: bool = False) -> tuple[list[str], str | None]:
        """The moves of a line, and its result (None: none)."""
        while self._comment() is not None:
            pass
        moves: list[str] = []
        while True:
            start = self.at
            while self._token(NUMBER) is not None or self._comment() is not None:
                pass
            move = self._token(MOVE)
            if move is None:
                self.at = start
                break
            moves.append(move)
            while self._token(NAG) is not None or self._comment() is not None:
                pass
            while True:
                self._skip()
                if not self.text.startswith("(", self.at):
                    break
                self.at += 1
                self.line(inside=True)
                self._skip()
                if not self.text.startswith(")", self.at):
                    raise RelayError("Cannot parse moves: unclosed variation")
                self.at += 1
            while self._comment() is not None:
                pass
        self._skip()
        result = next((r for r in RESULTS if self.text.startswith(r, self.at)), None)
        if result is not None:
            self.at += len(result)
        while self._comment() is not None:
            pass
        self._skip()
        if not inside and self.at < len(self.text):
            raise RelayError(f"Cannot parse moves at {self.text[self.at:self.at + 30]!r}")
        if result is None and moves and moves[-1] == "1-1":
            moves, result = moves[:-1], "1-1"
        return moves, result


def _fields(variant: str, move: str) -> list[int] | None:
    """``MoveParser.stdIfValid``: each field on the variant's board, or None."""
    ours = OURS.get(variant)
    size = 32 if variant == "russian" else 50
    squares = []
    for token in re.split(r"[-x:]", move.rstrip("?!□⨀")):
        if token.isdigit():
            if not 1 <= int(token) <= size:
                return None
            squares.append(int(token))
        elif size == 32 and ours is not None:
            squares.append(parse_square(get_variant(ours), token))
        else:
            return None
    return squares


def read_fen(variant: str, text: str) -> Position:
    """``Forsyth.makeBoard``: squares one by one; what is not a square is skipped."""
    ours = get_variant(OURS[variant])
    sections = text.split(":")
    kept = []
    for section in sections[1:]:
        if not section or section[0] not in "WB":
            continue
        squares = []
        for token in section[1:].rstrip(".").split(","):
            king = token.startswith("K")
            name = token[1:] if king or token[:1] in "GP" else token
            if token[:1] in "GP":
                continue
            try:
                number = parse_square(ours, name) if name.isdigit() or (
                    ours.geometry.square_count == 32 and re.fullmatch(r"[a-h][1-8]", name)) \
                    else None
            except DraughtsError:
                number = None
            if number is not None:
                squares.append(("K" if king else "") + str(number))
        kept.append(section[0] + ",".join(squares))
    side = "B" if text[:1] == "B" else "W"
    return parse_fen(ours, ":".join([side, *kept]))


def import_game(pdn: str, index: int) -> RelayGame:
    """``PdnImport``: one game as lidraughts takes it in (`RelayError`: it cannot)."""
    lines = [line.strip() for line in pdn.replace("\ufeff", "").split("\n")]
    text = "\n".join(line for line in lines if not line.startswith("%"))
    tag_text, move_text = split_tags_and_moves(text)
    tags = read_tags(tag_text)
    moves, result = _Moves(move_text).line()
    if result is not None and "Result" not in tags:
        tags["Result"] = result
    kept = {name: tags[name] for name in RELEVANT_TAGS
            if name in tags and tags[name] not in UNKNOWN_VALUES}  # PdnTags.apply
    variant = "standard"
    if "GameType" in tags:
        match = GAME_TYPE.fullmatch(tags["GameType"])
        variant = GAME_TYPES.get(int(match.group(1)), "standard") if match else "standard"
    elif tags.get("Variant", "").lower() in {v.lower() for v in GAME_TYPES.values()}:
        variant = next(v for v in GAME_TYPES.values() if v.lower() == tags["Variant"].lower())
    fields = [_fields(variant, move) for move in moves]
    bad = next((m for m, f in zip(moves, fields, strict=True) if f is None or len(f) < 2), None)
    if bad is not None:
        raise RelayError(f"Cannot parse move: {bad}")
    if variant not in OURS:
        return RelayGame(index, kept, variant, None, moves, False)
    start = read_fen(variant, tags["FEN"]) if "FEN" in tags else \
        initial_position(get_variant(OURS[variant]))
    position, legal = start, []
    for move, squares in zip(moves, fields, strict=True):
        try:
            separator = "x" if re.search(r"[x:]", move) else "-"
            played = parse_move(position, separator.join(str(s) for s in squares or ()))
        except DraughtsError:
            break  # Reader.Result.Incomplete: lidraughts stops the game here
        legal.append(move)
        position = position.play(played)
    return RelayGame(index, kept, variant, start, legal, len(legal) < len(moves))


# -- a poll: RelayFormat, RelayFetch, MultiPdn ----------------------------------------------------

def split(text: str, limit: int) -> list[str]:
    return SPLIT.split(text.replace("\r", ""), maxsplit=limit)[:limit]


def looks_like_pdn(body: str) -> bool:
    games = split(body.replace("<br>", "\n\n"), 1)
    if not games:
        return False
    try:
        import_game(games[0], 0)
    except RelayError:
        return False
    return True


def looks_like_json(body: str) -> bool:
    try:
        return json.loads(body) is not None
    except ValueError:
        return False


def guess_format(body: str) -> str:
    """``RelayFormatApi.guessFormat``: PDN first, then JSON."""
    if looks_like_pdn(body):
        return "pdn"
    if looks_like_json(body):
        return "json"
    raise RelayError("Cannot find any DGT compatible files")


def games_of(body: str, fmt: str, limit: int = MAX_CHAPTERS) -> list[RelayGame]:
    """``RelayFetch.doFetch`` and ``multiPdnToGames``."""
    if fmt == "pdn":
        pdns = split(body.replace("<br>", "\n\n"), limit)
    else:
        try:
            data = json.loads(body)
        except ValueError as error:
            raise RelayError(f"Invalid JSON: {error}") from None
        if not isinstance(data, dict) or not isinstance(data.get("games"), list):
            raise RelayError("Invalid JSON: no games")
        pdns = []
        for entry in data["games"]:
            text = entry.get("pdn") if isinstance(entry, dict) else None
            if isinstance(text, str):
                text = "" if text == "[Empty]" else text
                pdns.append(text.replace("\\n", "\n").replace('\\"', '"'))
    games = []
    for index, pdn in enumerate(pdns):
        game = import_game(pdn, index)
        if not game.tags and not game.moves:
            raise RelayError(f"Found an empty PDN at index {index}")
        games.append(game)
    return games


# -- the sync: RelayInputSanity, RelaySync --------------------------------------------------------

class Broadcast:
    """A lidraughts broadcast of one URL: its format once guessed, its study's
    chapters; `poll` takes one answer of the feed (`RelayError`: the sync failed)."""

    def __init__(self, limit: int = MAX_CHAPTERS) -> None:
        self.limit = limit
        self.format: str | None = None
        self.chapters: list[Chapter] = []
        self.last: list[RelayGame] = []

    def poll(self, body: str) -> list[RelayGame]:
        if self.format is None:
            self.format = guess_format(body)
        games = games_of(body, self.format, self.limit)
        fail = self._sanity(games)
        if fail:
            raise RelayError(fail)
        for game in games:
            if len(games) == 1:
                chapter = next((c for c in self.chapters if game.static(c.tags)), None)
            else:
                chapter = next((c for c in self.chapters if c.index == game.index), None)
            if chapter is None:
                chapter = Chapter(game.index, game.variant, game.start, dict(game.tags))
                self.chapters.append(chapter)
                path: tuple[str, ...] = ()
                for move in game.moves:
                    chapter.add(path, move)
                    path += (move,)
                continue
            chapter.tags.update(game.tags)  # updateChapterTags: each tag that differs
            self._update_tree(chapter, game)
        self.last = games
        return games

    def _sanity(self, games: list[RelayGame]) -> str | None:
        if not self.chapters:
            return None
        if len(games) == 1 and games[0].static(self.chapters[-1].tags):
            return None
        for chapter in self.chapters:
            if chapter.index >= len(games):
                return f"Missing game for Chapter {chapter.index + 1}"
            if not games[chapter.index].static(chapter.tags):
                other = next((g for g in games if g.static(chapter.tags)), None)
                if other is not None:
                    return f"Game {other.index + 1} matches with Chapter {chapter.index + 1}"
        return None

    @staticmethod
    def _update_tree(chapter: Chapter, game: RelayGame) -> None:
        path: tuple[str, ...] = ()
        rest = list(game.moves)
        while rest and rest[0] in chapter.children.get(path, []):
            path += (rest.pop(0),)
        if path != tuple(chapter.mainline[:len(path)]):
            chapter.promote(path)
        for move in rest:
            chapter.add(path, move)
            path += (move,)

    def shown(self) -> list[dict]:
        """What the broadcast's viewers see, chapter by chapter."""
        return [{"index": c.index, "variant": c.variant, "start": c.start,
                 "white": c.tags.get("White"), "black": c.tags.get("Black"),
                 "result": c.tags.get("Result"),
                 "moves": c.mainline, "tags": dict(c.tags)} for c in self.chapters]
