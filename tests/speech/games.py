"""A recorded game heard from start to end, as the announcer hears a board in play: the
game grows move by move, and on the way the board flags an illegal move (put right
again), a required capture, the opponent's move to carry out and a draw that can be
claimed; at the end the result is declared."""

from __future__ import annotations

import pathlib
from typing import Any

from draughtsboard.board.game.pdn_reader import decode_pdn, read_pdn
from draughtsboard.board.game.record import Game
from draughtsboard.board.rules.variants import get_variant
from draughtsboard.speech.spoken import Announcement, Heard, text_of, what_changed
from draughtsboard.words import words_for

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"

# Games with multi-captures, crownings and a result (found by the rules, not by hand).
RUSSIAN = ("russian-ussr-championship-part1.pdn", "russian", 12)
INTERNATIONAL = ("international-wk2003.pdn", "international", 6)


def recorded_game(file: str, variant: str, number: int) -> Game:
    result = read_pdn(decode_pdn((DATA / file).read_bytes()), variant=get_variant(variant),
                      source=file)
    (item,) = [item for item in result.games if item.number == number]
    return item.game


def publications(recorded: Game) -> list[tuple[Game, dict[str, Any]]]:
    """What the board would publish while the game is played again (see the module
    doc): a game (a copy, as the session publishes) and the view's fields speech reads."""
    game = Game(recorded.variant, start=recorded.positions[0])
    out: list[tuple[Game, dict[str, Any]]] = [(game.read_only_copy(), {})]
    plies = len(recorded.moves)
    for ply, played in enumerate(recorded.moves):
        move = played.move
        if ply == 2:  # the piece goes two squares on: flagged, then put back
            out.append((game.read_only_copy(), {"intents": {
                "illegal": [move.end], "restore": sorted([move.start, move.end])}}))
            out.append((game.read_only_copy(), {}))
        if move.captures and ply > 4:  # the first capture after the opening is required
            start = sorted({m.start for m in game.position.legal_moves()})
            out.append((game.read_only_copy(), {"intents": {"must_capture": start}}))
        if ply == 5:  # the board's opponent chose this move: carry it out
            out.append((game.read_only_copy(), {"opponent": {"pending": {
                "path": list(move.path), "captures": list(move.captures)}}}))
        game.play(move, t_monotonic=float(ply))
        out.append((game.read_only_copy(), {}))
        if ply == plies - 3:
            out.append((game.read_only_copy(), {"draw_claim": {"result": "1/2-1/2"}}))
    game.set_result(recorded.result)
    out.append((game.read_only_copy(), {}))
    return out


def heard(recorded: Game, language: str) -> list[tuple[Announcement, str]]:
    """Every announcement of the game and its text in ``language``."""
    words = words_for(language).spoken()  # as the speaker says it
    before: Heard | None = None
    said: list[tuple[Announcement, str]] = []
    for game, view in publications(recorded):
        before, news = what_changed(before, "game-1", game, view)
        said.extend((a, text_of(words, a)) for a in news)
    return said
