"""PDN 3.0 reader: lenient about how a file is written, strict about the moves in it.

The reading grammar is PDN 3.0's: tag pairs, ``{}`` comments, ``%`` and ``;`` line
comments, nested ``()`` variations, NAGs (``$3``) and strength marks (``!?``), move
numbers with or without ``...``, squares as numbers or algebraic names, captures written
with ``x``, ``:`` or ``-``, spaces after a separator (``47x 9``, ``1- 7``), CRLF line
ends, several games in one file, ``FEN``/``SetUp`` tags. Every move, variations included,
is checked against the rules.

One bad game does not spoil a file: the text is first cut into games at tag lines (a
line starting ``[Name`` after move text), so an unclosed brace or bracket cannot
swallow the games after it, and each game's problems are collected as `PdnError`s naming
file, game number, line, column and the offending token. The writer is `pdn_writer`.

Bad input costs no more than good input: reading takes time linear in the text and keeps
only the current game's tokens (after a bad token, none), so memory is a small multiple
of the text; variations deeper than ``MAX_VARIATION_DEPTH``, and more than
``MAX_PER_MOVE`` variations, comments or marks on one move, are located errors rather
than deep recursion or quadratic work. A game that is only tags at the very end of a file
(an export cut short) is read as a game without moves, with a warning.

Two embedded commands of our writer carry what the rules cannot replay (docs/pdn.md): a
move followed by ``[%fen FEN]`` is an irregular move that stood (FMJD Annex 1, 5.4) when
it is not the legal move that makes FEN, and play goes on from FEN; a comment with
``[%setup FEN]`` is an arbiter correction, and play goes on from FEN. A move that is not
legal without such a comment is an error as before. Neither needs the comment's words,
so a file our writer wrote in any language reads back the same.

PDN is a view of the record model both ways (docs/architecture.md, "The record model"):
the writer writes the game the model's records built, and the reader reads a file into
those records (a `Start` from the tags, a `MoveMade` for each move with the clocks of
its comments, an `IrregularMove` for a ``[%fen]``, a `Correction` for a ``[%setup]``, a
`Result`) and builds the game with the model's one `apply`, keeping them on the
`PdnGame`. What PDN holds and the model has no kind for is the reader's extras, put on
the game beside them: strength marks and NAGs, comments (before the first move and
after a move), variations (checked on a scratch game from the position before their
move, kept as text).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..mode import Mode
from ..rules.errors import AmbiguousMoveError, DraughtsError, IllegalMoveError
from ..rules.fen import format_fen, parse_fen
from ..rules.notation import format_move, parse_move, split_move
from ..rules.position import Position
from ..rules.variants import VARIANTS, Variant
from .apply import apply, game_of_start
from .record import DERIVED_TAGS, Game, InvalidResultError, move_number, normalise_result
from .records import Correction, IrregularMove, MoveMade, Record, Result, Start


class PdnError(DraughtsError):
    """A bad game in a PDN text, located to the token."""

    def __init__(self, message: str, *, source: str = "<pdn>", game: int = 0, line: int = 0,
                 column: int = 0, token: str = "") -> None:
        self.message = message
        self.source = source
        self.game = game
        self.line = line
        self.column = column
        self.token = token
        self.warning = False  # read, but worth a word (a game cut short)
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.source}: game {self.game}"
        if self.line:
            where += f", line {self.line}, column {self.column}"
        return f"{where}: {self.message}"


@dataclass
class PdnGame:
    """A game read from a text: its number in the file, where it starts, the game; and
    what the file says happened as the record model's records (``start`` and
    ``records``, in order), which the game was built by (`apply`). The game holds the
    reader's extras too (comments, marks, variations: docs/architecture.md)."""

    number: int
    line: int
    game: Game
    start: Start | None = None
    records: tuple[Record, ...] = ()


@dataclass
class PdnReadResult:
    """Every game of a text in file order: the good ones and an error for each bad one;
    ``warnings`` for what was read but looks cut short."""

    games: list[PdnGame] = field(default_factory=list)
    errors: list[PdnError] = field(default_factory=list)
    warnings: list[PdnError] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.games) + len(self.errors)


# -- decoding -----------------------------------------------------------------------------


def decode_pdn(data: bytes) -> str:
    """Text of a PDN file: UTF-8 (with or without BOM), else Windows-1251 (Russian
    files), else Latin-1. Never fails; undecodable garbage shows up as bad tokens."""
    for encoding in ("utf-8-sig", "cp1251"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


# -- tokens -------------------------------------------------------------------------------

_SQUARE = r"(?:[a-z]\d{1,2}|\d{1,2})"
_MOVE = re.compile(rf"{_SQUARE}(?:[ \t]*[-x:×][ \t]*{_SQUARE})+", re.IGNORECASE)
_RESULT = re.compile(r"(?:1/2-1/2|½-½|1-0|0-1|2-0|0-2|1-1|0-0|\*)(?=[\s\[\](){};%]|$)")
_NUMBER = re.compile(r"\d{1,9}[ \t]*\.(?:[ \t]*\.\.)?")
_ELLIPSIS = re.compile(r"\.\.\.?|…")
_NAG = re.compile(r"\$\d+|[!?]{1,2}")
_TAG = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\r\n]|\\.)*)"[ \t]*\]')
_TAG_LINE_AT = re.compile(r"[ \t]*\[[ \t]*[A-Za-z]")  # a tag line, even a broken one
_INCOMPLETE_MOVE = re.compile(rf"{_SQUARE}[ \t]*[-x:×]", re.IGNORECASE)
_WORD = re.compile(r"\S{1,24}")
_CLOCK = re.compile(
    r"\[%clock\s+[wW]\s*(\d{1,6}):(\d\d):(\d\d)\s+[bB]\s*(\d{1,6}):(\d\d):(\d\d)\s*\]")
# Embedded commands: the position after an irregular move, an arbiter's correction.
_FEN_COMMAND = re.compile(r"\[%fen\s+([^\]\s]{1,2000})\s*\]")
_SETUP_COMMAND = re.compile(r"\[%setup\s+([^\]\s]{1,2000})\s*\]")
# The label our writer puts before a correction's text, in any language ("arbiter
# correction at 14:05:09 UTC: ", "исправление арбитра в 14:05:09 UTC: ", "correction de
# l'arbitre : "): words without a colon, perhaps a time of day, then the colon.
_CORRECTION_LABEL = re.compile(
    r"^[^:\[\]]{1,80}?(?:\s\S{1,12}\s\d{1,2}:\d\d:\d\d\sUTC)?\s*:\s*")
IRREGULAR = "irregular"  # the kind of an irregular move read back (the PDN names it in words)
MAX_VARIATION_DEPTH = 32  # variations inside variations
MAX_PER_MOVE = 64  # variations, comments or marks on one move
_BREAKS = "\\n\\r\\x0b\\x0c\\x1c-\\x1e\\x85\\u2028\\u2029"  # what str.splitlines splits on
_LINE = re.compile(rf"[^{_BREAKS}]*(?:\r\n|[{_BREAKS}])?")
_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Token:
    """One lexical item of PDN text, with its offset for error messages."""
    kind: str  # tag, comment, open, close, number, ellipsis, move, nag, result
    text: str
    offset: int
    value: str = ""  # a tag's value
    error: str = ""  # set for kind "bad"


def tokenize(text: str, start: int = 0, end: int | None = None) -> Iterator[Token]:
    """Tokens of ``text[start:end]``; problems come as ``bad`` tokens, never exceptions."""
    end = len(text) if end is None else end
    i = start
    while i < end:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        at_line_start = i == 0 or text[i - 1] in "\r\n"
        if c == ";" or (c == "%" and at_line_start):
            newline = text.find("\n", i, end)
            i = end if newline < 0 else newline + 1
            continue
        if c == "{":
            close = text.find("}", i + 1, end)
            if close < 0:
                yield Token("bad", "{", i, error="unbalanced brace: '{' is never closed")
                return
            yield Token("comment", text[i + 1:close], i)
            i = close + 1
            continue
        if c == "[":
            match = _TAG.match(text, i, end)
            if match is None:
                line_end = text.find("\n", i, end)
                line_end = end if line_end < 0 else line_end
                close = text.find("]", i, line_end)
                why = ("unbalanced bracket: '[' is never closed" if close < 0
                       else "bad tag: expected [Name \"value\"]")
                yield Token("bad", text[i:line_end].strip()[:40], i, error=why)
                i = line_end
                continue
            yield Token("tag", match.group(1), i, value=_unescape(match.group(2)))
            i = match.end()
            continue
        if c in "()":
            yield Token("open" if c == "(" else "close", c, i)
            i += 1
            continue
        for kind, pattern in (("result", _RESULT), ("move", _MOVE), ("number", _NUMBER),
                              ("ellipsis", _ELLIPSIS), ("nag", _NAG)):
            match = pattern.match(text, i, end)
            if match:
                yield Token(kind, match.group(0), i)
                i = match.end()
                break
        else:
            found = _WORD.match(text, i, end)
            assert found is not None  # text[i] is not blank: spaces were skipped above
            word = found.group(0)
            word = re.split(r"[\[\](){};]", word)[0] or word[0]
            if word[0] == "}":
                what = "unbalanced brace: '}' without '{'"
            elif word[0] == "]":
                what = "unbalanced bracket: ']' without '['"
            elif _INCOMPLETE_MOVE.match(word):
                what = "incomplete move"
            else:
                what = "unknown token"
            yield Token("bad", word, i, error=what)
            i += len(word)


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


# -- cutting a text into games ------------------------------------------------------------


def _pieces(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    offset = 0
    seen_moves = False
    while offset < len(text):
        match = _LINE.match(text, offset)
        assert match is not None  # _LINE matches everywhere, if only the empty string
        end = match.end()
        if _TAG_LINE_AT.match(text, offset, end):
            if seen_moves:
                yield start, offset
                start = offset
                seen_moves = False
        elif not seen_moves:
            stripped = text[offset:end].strip()
            if stripped and not stripped.startswith("%"):
                seen_moves = True
        offset = end
    yield start, len(text)


# -- reading ------------------------------------------------------------------------------


class _Lines:
    """Offset -> (line, column), both from 1. The reader asks in file order, so it counts
    line breaks from where it last stopped (linear in all, no table of every line)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.offset = 0
        self.line = 1
        self.line_start = 0

    def locate(self, offset: int) -> tuple[int, int]:
        if offset < self.offset:
            self.offset, self.line, self.line_start = 0, 1, 0
        for match in _BREAK.finditer(self.text, self.offset, offset):
            self.line += 1
            self.line_start = match.end()
        self.offset = offset
        return self.line, offset - self.line_start + 1


class _GameError(Exception):
    def __init__(self, message: str, token: Token | None) -> None:
        self.message = message
        self.token = token


def variant_of_tags(tags: dict[str, str], default: Variant | None) -> Variant:
    """The variant a game's ``GameType`` (and ``Variant``) tags name; ``default`` when
    there are none. An unsupported GameType is an error, never a guess."""
    wanted = tags.get("Variant", "").strip()
    gametype = tags.get("GameType", "").strip()
    if wanted:
        for variant in VARIANTS.values():
            if (variant.pdn_variant_tag or "").lower() == wanted.lower():
                return variant
        raise DraughtsError(f"unsupported Variant {wanted!r}")
    if gametype:
        number = gametype.split(",")[0].strip()
        for variant in VARIANTS.values():
            if variant.pdn_variant_tag is None and variant.pdn_gametype.split(",")[0] == number:
                return variant
        known = sorted({v.pdn_gametype.split(",")[0] for v in VARIANTS.values()
                        if v.pdn_variant_tag is None})
        raise DraughtsError(
            f"unsupported GameType {gametype!r} (supported: {', '.join(known)})")
    if default is None:
        raise DraughtsError("no GameType tag: give the variant (--variant)")
    return default


class _Reader:
    def __init__(self, text: str, source: str, default: Variant | None,
                 draw_preset: str | None) -> None:
        self.start: Start | None = None  # the game being read: its start, game, records
        self.main: Game | None = None
        self.records: list[Record] = []
        self.text = text
        self.source = source
        self.default = default
        self.draw_preset = draw_preset
        self.lines = _Lines(text)
        self.result = PdnReadResult()
        self.number = 0

    def error(self, message: str, token: Token | None, first: int) -> PdnError:
        offset = token.offset if token is not None else first
        line, column = self.lines.locate(offset)
        text = token.text if token is not None else ""
        return PdnError(message, source=self.source, game=self.number, line=line,
                        column=column, token=text)

    def read(self) -> PdnReadResult:
        for entry in self.entries():
            if isinstance(entry, PdnGame):
                self.result.games.append(entry)
            elif entry.warning:
                self.result.warnings.append(entry)
            else:
                self.result.errors.append(entry)
        return self.result

    def entries(self) -> Iterator[PdnGame | PdnError]:
        """Each game or error in file order, one at a time (nothing kept)."""
        pending = None  # one game behind: only the last one may be cut short
        for piece_start, piece_end in _pieces(self.text):
            for tokens, bad in _games(tokenize(self.text, piece_start, piece_end)):
                if pending is not None:
                    yield from self.read_game(*pending, last=False)
                pending = (tokens, bad, piece_start)
        if pending is not None:
            yield from self.read_game(*pending, last=True)

    def read_game(self, tokens: list[Token], bad: Token | None, first: int, *,
                  last: bool) -> Iterator[PdnGame | PdnError]:
        """Read one game (its tokens, or its first bad token)."""
        if bad is None and all(t.kind in ("comment", "result") for t in tokens):
            return  # trailing comments, or a lone result, are not a game
        self.number += 1
        try:
            if bad is not None:
                raise _GameError(f"{bad.error}: {bad.text!r}", bad)
            if last and all(t.kind in ("tag", "comment") for t in tokens):
                game = self.build(tokens, cut_short=True)
                warning = self.error("tags without moves or a result at the end of the file "
                                     "(an export cut short?): read as a game without moves",
                                     tokens[-1], first)
                warning.warning = True
                yield warning
            else:
                game = self.build(tokens)
        except _GameError as problem:
            yield self.error(problem.message, problem.token, first)
        else:
            line = self.lines.locate(tokens[0].offset)[0]
            yield PdnGame(self.number, line, game, self.start, tuple(self.records))

    def build(self, tokens: list[Token], cut_short: bool = False) -> Game:
        tags: dict[str, str] = {}
        index = 0
        while index < len(tokens) and tokens[index].kind == "tag":
            tags[tokens[index].text] = tokens[index].value
            index += 1
        head = tokens[0]
        try:
            variant = variant_of_tags(tags, self.default)
        except DraughtsError as error:
            raise _GameError(str(error), head) from None
        fen = tags.get("FEN", "").strip()
        start = Start(variant.name, {k: v for k, v in tags.items() if k not in DERIVED_TAGS},
                      fen or None, Mode.TOURNAMENT, self.draw_preset)
        try:
            game = game_of_start(start)
        except DraughtsError as error:
            fen_token = next((t for t in tokens if t.kind == "tag" and t.text == "FEN"), head)
            raise _GameError(str(error), fen_token) from None
        self.start, self.main, self.records = start, game, []
        body = tokens[index:]
        self.white_starts = game.start.white_to_move
        if cut_short:
            return game
        if body and body[-1].kind == "result":
            marker = body[-1]
            body = body[:-1]
        else:
            last = body[-1] if body else tokens[-1]
            raise _GameError("truncated game: no result or '*' at its end", last)
        for token in body:
            if token.kind == "tag":
                raise _GameError("tag after the moves", token)
        self.read_moves(game, body, top=True, depth=0)
        self.set_result(game, tags, marker)
        return game

    def set_result(self, game: Game, tags: dict[str, str], marker: Token) -> None:
        text = marker.text
        if text == "*" and tags.get("Result", "*").strip() not in ("", "*"):
            text = tags["Result"]
        try:
            result = normalise_result(game.variant, text)
        except InvalidResultError as error:
            raise _GameError(str(error), marker) from None
        if result is not None:  # as written: a game may be adjourned or resigned
            self.apply(game, Result(result))

    def read_moves(self, game: Game, tokens: list[Token], top: bool,
                   ply_offset: int = 0, depth: int = 0) -> list[str]:
        """Play the moves of a line on ``game``; return the line as PDN text items (the
        text of a variation is kept, re-written, with the move it belongs to)."""
        out: list[str] = []
        index = 0
        follows_move = False
        extras = 0  # variations, comments and marks on the current move
        while index < len(tokens):
            token = tokens[index]
            kind = token.kind
            if kind == "move":
                self.play(game, token, _position_after(tokens, index),
                          _clock_after(tokens, index))
                out.append(self.numbered(game, ply_offset, follows_move))
                follows_move = True
                extras = 0
                index += 1
                continue
            if kind in ("comment", "nag", "open"):
                extras += 1
                if extras > MAX_PER_MOVE:
                    raise _GameError(f"more than {MAX_PER_MOVE} variations, comments or "
                                     "marks on one move", token)
            if kind == "comment" and _SETUP_COMMAND.search(token.text):
                if not top:
                    raise _GameError("a position set up ([%setup]) inside a variation",
                                     token)
                self.correct(game, token)
            elif kind == "comment":
                if not game.moves:
                    if top:
                        game.comment = f"{game.comment} {token.text.strip()}".strip()
                else:
                    self.add_comment(game, token.text)
                out.append("{" + token.text.replace("}", "") + "}")
            elif kind == "nag":
                if not game.moves:
                    raise _GameError(f"annotation before any move: {token.text!r}", token)
                last = game.moves[-1]
                glue = " " if last.annotation and token.text.startswith("$") else ""
                game.replace_last(annotation=last.annotation + glue + token.text)
                out.append(token.text)
            elif kind == "open":
                close = _matching(tokens, index)
                if close < 0:
                    raise _GameError("unbalanced parenthesis: '(' is never closed", token)
                if not game.moves:
                    raise _GameError("variation before any move", token)
                if depth >= MAX_VARIATION_DEPTH:
                    raise _GameError(f"variations nested more than {MAX_VARIATION_DEPTH} "
                                     "deep", token)
                text = self.variation(game, tokens[index + 1:close], ply_offset, depth + 1)
                last = game.moves[-1]
                game.replace_last(variations=last.variations + (text,))
                out.append(f"({text})")
                index = close
            elif kind == "close":
                raise _GameError("unbalanced parenthesis: ')' without '('", token)
            elif kind == "result":
                raise _GameError(f"result {token.text!r} in the middle of a line", token)
            elif kind in ("number", "ellipsis"):
                index += 1
                continue  # move numbers are redundant: read, not checked
            follows_move = False
            index += 1
        return out

    def variation(self, game: Game, tokens: list[Token], ply_offset: int, depth: int) -> str:
        """Check a variation: alternatives to the last move, from the position before it."""
        side = Game(game.variant, game.positions[-2], draw_preset=self.draw_preset)
        items = self.read_moves(side, tokens, top=False, ply_offset=ply_offset + game.ply - 1,
                                depth=depth)
        return " ".join(items)

    def play(self, game: Game, token: Token, after: tuple[str, Token] | None,
             clock: tuple[float, float] | None = None) -> None:
        """Play a move, as the model's record applied: the legal move its text names
        (`MoveMade`, with the clocks its comments give); or, when a comment gives the
        position after it (``after``: the FEN and its comment) and that is not what the
        legal move makes, the irregular move that stood (`IrregularMove`)."""
        position: Position = game.position
        try:
            move = parse_move(position, token.text)
        except (IllegalMoveError, AmbiguousMoveError) as error:
            if after is None:
                raise _GameError(str(error), token) from None
            move = None
        except DraughtsError as error:
            raise _GameError(str(error), token) from None
        if after is not None:
            fen, comment = after
            try:
                made = parse_fen(game.variant, fen)
            except DraughtsError as error:
                raise _GameError(f"[%fen] of {token.text.strip()}: {error}", comment) from None
            if move is None or position.play(move) != made:
                self.play_irregular(game, token, made)
                return
        assert move is not None  # no legal move is read only with `after`, handled above
        self.apply(game, MoveMade(game.ply, move.path, move.captures,
                                  format_move(position, move), clock=clock))

    def play_irregular(self, game: Game, token: Token, after: Position) -> None:
        """An irregular move that stood: its squares from the text, the pieces it took off
        from the two positions (every square emptied but its start)."""
        position = game.position
        try:
            squares = split_move(game.variant, token.text)
        except DraughtsError as error:
            raise _GameError(str(error), token) from None
        start, end = squares[0], squares[-1]
        text = re.sub(r"\s+", "", token.text)
        if position.piece_at(start) is None or after.piece_at(end) is None:
            raise _GameError(f"irregular move {text}: the position in its [%fen] does not "
                             f"follow from it (no piece on its start before, or on its end "
                             f"after)", token)
        gone = position.occupancy() & ~after.occupancy()
        removed = tuple(square for square in range(1, gone.bit_length() + 1)
                        if gone >> (square - 1) & 1 and square != start)
        try:
            self.apply(game, IrregularMove(game.ply, tuple(squares), removed, text,
                                           IRREGULAR, "", format_fen(after)))
        except DraughtsError as error:
            raise _GameError(str(error), token) from None

    def correct(self, game: Game, token: Token) -> None:
        """An arbiter correction: play goes on from the position of its ``[%setup]``."""
        command = _SETUP_COMMAND.search(token.text)
        assert command is not None  # called only for a comment with a [%setup]
        text = token.text[:command.start()] + token.text[command.end():]
        try:
            self.apply(game, Correction(game.ply, command.group(1),
                                        _CORRECTION_LABEL.sub("", " ".join(text.split()))))
        except DraughtsError as error:
            raise _GameError(f"[%setup]: {error}", token) from None

    def apply(self, game: Game, record: Record) -> None:
        """Apply a record read from the file (the model's one `apply`); the game's own
        records are kept for `PdnGame` (a variation's are checked on a scratch game and
        become its text)."""
        apply(game, record)
        if game is self.main:
            self.records.append(record)

    def numbered(self, game: Game, ply_offset: int, follows_move: bool) -> str:
        before = game.positions[-2]
        played = game.moves[-1]
        text = played.text  # a legal move's is `format_move`'s, in the position before it
        number = move_number(self.white_starts, ply_offset + game.ply - 1)
        if before.white_to_move:
            return f"{number}. {text}"
        return text if follows_move else f"{number}... {text}"

    def add_comment(self, game: Game, text: str) -> None:
        """A comment on the last move: one of the reader's extras (its clocks and
        position are the move's record's, read already)."""
        last = game.moves[-1]
        text = _FEN_COMMAND.sub("", text)  # the position after the move: played already
        clock = _CLOCK.search(text)
        if clock:  # the move's clocks: in its record (`_clock_after`)
            text = text[:clock.start()] + text[clock.end():]
        text = text.strip()
        if text:
            game.replace_last(comment=f"{last.comment} {text}".strip())


def _games(tokens: Iterator[Token]) -> Iterator[tuple[list[Token], Token | None]]:
    """Cut a stream of tokens into games: (tokens, ``None``), or ([], the first bad token)
    for a game with one. A game ends after its result at the top level, or before a tag
    that follows its moves. After a bad token the game's tokens are counted (to find its
    end) but no longer kept."""
    current: list[Token] = []
    bad: Token | None = None
    depth = 0
    seen_body = False
    extras = [0] * (MAX_VARIATION_DEPTH + 2)  # per depth: items since the last move
    for token in tokens:
        kind = token.kind
        if kind == "tag" and seen_body and depth == 0:
            yield current, bad
            current, bad, seen_body = [], None, False
            extras = [0] * (MAX_VARIATION_DEPTH + 2)
        level = min(depth, MAX_VARIATION_DEPTH + 1)
        if kind in ("comment", "nag", "open"):
            extras[level] += 1
            if extras[level] > MAX_PER_MOVE and bad is None:
                token = Token("bad", token.text[:24], token.offset, error=f"more than "
                              f"{MAX_PER_MOVE} variations, comments or marks on one move")
        if kind == "open":
            depth += 1
            if depth > MAX_VARIATION_DEPTH + 1 and bad is None:
                token = Token("bad", "(", token.offset, error=f"variations nested more "
                              f"than {MAX_VARIATION_DEPTH} deep")
            elif depth <= MAX_VARIATION_DEPTH + 1:
                extras[depth] = 0
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind in ("move", "number"):
            seen_body = True
            if kind == "move":
                extras[level] = 0
        if token.kind == "bad" and bad is None:
            bad = token
            current = []
        if bad is None:
            current.append(token)
        if kind == "result" and depth == 0:
            yield current, bad
            current, bad, seen_body = [], None, False
    if current or bad is not None:
        yield current, bad


def _position_after(tokens: list[Token], index: int) -> tuple[str, Token] | None:
    """The ``[%fen]`` of the move at ``index`` (in a comment before the next move or
    variation) and its comment, if any."""
    for later in range(index + 1, len(tokens)):  # (no slice: linear in the game)
        token = tokens[later]
        if token.kind == "comment":
            command = _FEN_COMMAND.search(token.text)
            if command:
                return command.group(1), token
        elif token.kind != "nag":
            break
    return None


def _clock_after(tokens: list[Token], index: int) -> tuple[float, float] | None:
    """The clocks of the move at ``index``: the last ``[%clock]`` of the comments that
    belong to it (every comment of its line before the line's next move; its
    variations' comments are theirs)."""
    clock = None
    depth = 0
    for later in range(index + 1, len(tokens)):  # (no slice: linear in the game)
        token = tokens[later]
        if token.kind == "open":
            depth += 1
        elif token.kind == "close":
            depth -= 1
            if depth < 0:
                break
        elif depth == 0 and token.kind == "move":
            break
        elif depth == 0 and token.kind == "comment" \
                and not _SETUP_COMMAND.search(token.text):  # a correction's is not
            found = _CLOCK.search(token.text)  # the first of a comment
            if found:
                h1, m1, s1, h2, m2, s2 = (int(x) for x in found.groups())
                clock = (h1 * 3600 + m1 * 60 + s1, h2 * 3600 + m2 * 60 + s2)
    return clock


def _matching(tokens: list[Token], open_index: int) -> int:
    depth = 0
    for index in range(open_index, len(tokens)):
        kind = tokens[index].kind
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                return index
    return -1


def read_pdn(text: str, *, variant: Variant | None = None, source: str = "<pdn>",
             draw_preset: str | None = None) -> PdnReadResult:
    """Every game of a PDN text. ``variant`` is used for games without a GameType tag."""
    return _Reader(text, source, variant, draw_preset).read()


def iter_pdn(text: str, *, variant: Variant | None = None, source: str = "<pdn>",
             draw_preset: str | None = None) -> Iterator[PdnGame | PdnError]:
    """The games of a PDN text one at a time, in file order: a `PdnGame` for each good one,
    a `PdnError` for each bad one (``warning`` set for a game read but cut short). Nothing
    is kept between two, so a file of any number of games is read in the memory of one."""
    return _Reader(text, source, variant, draw_preset).entries()
