"""Resume or new game: the one decision `draughtsboard play` and the play session share.

The command line needs the answer before the board is opened (a simulated board is set
up in the expected position, and the variant picks the board config); the session needs
it to open the game. Both call `choose_opening`, so they cannot disagree.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.board.rules import (
    Position,
    Variant,
    get_variant,
    initial_position,
    parse_fen,
    parse_start_fen,
)
from draughtsboard.recording import DamagedGame, Recorder
from draughtsboard.words import english

log = logging.getLogger("draughtsboard.play")

DEFAULT_VARIANT = "russian"


@dataclass(frozen=True)
class Opening:
    """What to play: ``resume_id`` (and its recorded ``game``) when an unfinished game is
    resumed; ``damaged`` when the newest unfinished game's journal is damaged (the arbiter
    decides: resume from the last good record or start a new game); else a new game of
    ``variant`` from ``start_fen`` (``None``: the initial position). A new game that
    replaces an unfinished one names it in ``closes`` (and why in ``closes_reason``): the
    session closes it as unfinished (a damaged one through the recorder's repair, which
    keeps a copy), so that it is not resumed by surprise later. ``unused_fen`` is a
    start position asked for that a resumed game does not take (the session says so)."""

    variant: Variant
    resume_id: str | None = None
    game: Game | None = None
    start_fen: str | None = None
    closes: str | None = None
    closes_reason: str = ""
    damaged: DamagedGame | None = None
    unused_fen: str | None = None

    @property
    def resumes(self) -> bool:
        return self.resume_id is not None

    @property
    def expected_position(self) -> Position:
        """The position the board must show before play (re)starts."""
        if self.game is not None:
            return self.game.position
        if self.damaged is not None and self.damaged.game is not None:
            return self.damaged.game.position
        if self.start_fen:
            return parse_fen(self.variant, self.start_fen)
        return initial_position(self.variant)


def choose_opening(recorder: Recorder, *, variant: str | None = None,
                   start_fen: str | None = None, resume: bool = True,
                   fallback_variant: str | None = None,
                   say: Callable[[Message], str] = english) -> Opening:
    """Resume the newest unfinished game (unless ``resume`` is false, or the game is of
    another variant than the one asked for), else a new game, which then closes the
    unfinished one (`Opening.closes`).

    The variant is the one asked for, else the unfinished game's, else
    ``fallback_variant`` (the board config's), else Russian. `UnknownVariantError` and
    the FEN's errors reach the caller, before anything is recorded.

    A damaged unfinished game is never passed over silently: it becomes the opening
    (``damaged``), in its own variant when its start record is readable; with
    ``resume`` false it is closed (``closes``) like any other unfinished game. ``say``
    puts the line it logs when it closes one into the board's language."""
    found = recorder.find_unfinished()
    if isinstance(found, DamagedGame):
        log.error("%s", english(found.describe()))
        if resume:
            known = found.game.variant if found.game is not None else None
            chosen = known or get_variant(variant or fallback_variant or DEFAULT_VARIANT)
            return Opening(chosen, damaged=found)
        chosen = get_variant(variant or fallback_variant or DEFAULT_VARIANT)
        if start_fen:
            parse_fen(chosen, start_fen)
        return Opening(chosen, start_fen=start_fen, closes=found.game_id,
                       closes_reason="a new game was started with --new (its journal "
                                     "was damaged)")
    unfinished = found
    if variant is not None:
        chosen = get_variant(variant)
    elif unfinished is not None and resume:
        chosen = unfinished[1].variant
    else:
        chosen = get_variant(fallback_variant or DEFAULT_VARIANT)
    closes_reason = "a new game was started with --new"
    if resume and unfinished is not None and unfinished[1].variant is not chosen:
        log.warning("%s", say(Message.of("cli.opening.other_variant", game=unfinished[0],
                                         variant=unfinished[1].variant.name,
                                         asked=chosen.name)))
        closes_reason = f"a {chosen.name} game was started instead"
        resume = False
    if unfinished is not None and resume:
        return Opening(chosen, resume_id=unfinished[0], game=unfinished[1],
                       unused_fen=start_fen or None)
    if start_fen:
        parse_start_fen(chosen, start_fen)  # a bad FEN is refused before a game is opened
    if unfinished is not None:
        return Opening(chosen, start_fen=start_fen, closes=unfinished[0],
                       closes_reason=closes_reason)
    return Opening(chosen, start_fen=start_fen)
