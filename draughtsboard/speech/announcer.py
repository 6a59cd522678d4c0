"""The announcer: follows a board in play and tells the speaker what is new.

It follows the play session as the hall link does: the session wakes it when it has
published a new view (`subscribe`), and on its own thread it reads the latest
publication (`published`: the game id, a read-only copy of the game, the view, all from
one moment), compares it with what it last heard (`spoken.what_changed`) and hands what
the verbosity level speaks to the speaker, which never makes anyone wait. Play never
waits for the announcer either: a wake-up is an event set, nothing more.

The level (`spoken.LEVELS`) is read against the game's mode at every publication: with
none asked for, a tournament game is silent and the other modes say the moves
(`spoken.level_for_mode`).

It is also the board's voice for a player's answers (the button, ``/api/ask/...``):
`say` hands them to the speaker as answers, which never push a move out. A hint asked
for while the coach still thinks is said once it arrives (`want_hint`): the announcer
sees it in a later publication of the same position.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol

from draughtsboard.board.game.record import Game
from draughtsboard.board.message import Message
from draughtsboard.words import words_for

from .answers import answer_hint, spoken_text
from .spoken import (
    MOVE,
    Announcement,
    Heard,
    for_level,
    level_for_mode,
    text_of,
    what_changed,
)

log = logging.getLogger("draughtsboard.speech")

# Said once when the announcer first sees the game, at every level but off.
READY = Announcement(MOVE, (Message.of("speech.ready"),))


class FollowedSession(Protocol):
    """What the announcer needs of the play session (`PlaySession` has it)."""

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]: ...

    def published(self) -> tuple[str, Game | None, dict[str, Any]]: ...


class Voice(Protocol):
    """What the announcer needs of the speaker (`sink.Speaker`)."""

    def say(self, text: str, recorded_at: float | None = None, *,
            answer: bool = False) -> bool: ...


class Announcer:
    """Tells ``voice`` what is new on ``session`` in ``language``, at ``level`` (one of
    `spoken.LEVELS`, or ``None``: by the game's mode). `check` does one round on the
    caller's thread (the tests call it); `start` runs rounds on a thread of its own,
    one per wake-up."""

    def __init__(self, session: FollowedSession, voice: Voice, language: str,
                 level: str | None = None) -> None:
        self.session = session
        self.voice = voice
        self.level = level
        self.language = language
        self.words = words_for(language).spoken()  # numbers said in words
        self.heard: Heard | None = None
        self._lock = threading.Lock()
        self._hint_wanted: tuple[str, int] | None = None  # (game id, ply) asked in
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None

    def check(self) -> str | None:
        """Compare the latest publication with what was heard; say what the level
        speaks. Returns the text handed to the voice, if any."""
        game_id, game, view = self.session.published()
        if game is None:
            return None
        self._hint_arrived(game_id, game, view)
        first = self.heard is None
        self.heard, news = what_changed(self.heard, game_id, game, view)
        level = level_for_mode(self.level, str(view.get("mode", game.mode)))
        if first and level != "off":  # the listener hears that the sound works
            news = [READY]
        announcement = for_level(news, level)
        if announcement is None:
            return None
        text = text_of(self.words, announcement)
        self.voice.say(text, announcement.recorded_at)
        return text

    def say(self, text: str, recorded_at: float | None = None, *,
            answer: bool = True) -> bool:
        """Say a player's answer (see the module doc); whether it is to be heard."""
        return bool(self.voice.say(text, recorded_at, answer=answer))

    def want_hint(self) -> None:
        """A player asked for a hint and heard that the coach still thinks: say the
        hint once it is published for the position asked in (once)."""
        game_id, game, _ = self.session.published()
        if game is None:
            return
        with self._lock:
            self._hint_wanted = (game_id, game.ply)
        self._wake.set()

    def _hint_arrived(self, game_id: str, game: Game, view: dict[str, Any]) -> None:
        with self._lock:
            wanted = self._hint_wanted
            if wanted is None:
                return
            if wanted != (game_id, game.ply):
                self._hint_wanted = None  # the position moved on: that hint is gone
                return
            coach = view.get("coach") or {}
            hint = coach.get("hint") if isinstance(coach, dict) else None
            if not isinstance(hint, dict) or hint.get("thinking") or not hint.get("stage"):
                return
            self._hint_wanted = None
        self.say(spoken_text(self.words, answer_hint(game.position, hint)))

    def start(self) -> Announcer:
        self._unsubscribe = self.session.subscribe(self._wake.set)
        self._thread = threading.Thread(target=self._run, daemon=True, name="announcer")
        self._thread.start()
        self._wake.set()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        """Stop following. Safe twice."""
        self._stopping.set()
        self._wake.set()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._stopping.is_set():
                return
            try:
                self.check()
            except Exception:  # noqa: BLE001 - speech must never stop play
                log.exception("the announcer failed on a publication (play goes on)")
