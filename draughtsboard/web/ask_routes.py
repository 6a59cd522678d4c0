"""A player's questions to the board, one call each (docs/accessibility.md, "Asking the
board"): ``/api/ask/last-move``, ``/api/ask/clocks``, ``/api/ask/position``,
``/api/ask/hint``.

``GET`` answers and changes nothing: ``{"message": the answer's message JSON, "text": it
rendered in the reader's language}`` (``?lang=``, else the browser's Accept-Language,
else the board's). ``POST`` answers the same and, when the board speaks (its speaker is
``app.state.voice``), says it aloud on the board too, in the speaker's language
(``"spoken": true``). The hint is the one exception to "the same": ``GET`` tells the hint
standing for this position, ``POST`` asks the coach for the next stage of it, as the hint
button does.

No arbiter token: these are a player's questions. A hint in tournament mode is refused
(409), as the coach's routes refuse it. An unknown question is 404, a language no
catalog has 400, each in one line. The answers themselves are `speech.answers` (pure);
the button's wiring in ``cli/buttons.py`` asks through `answer_now` and `ask_hint` too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from draughtsboard.board.message import Listed, Message
from draughtsboard.play.errors import CoachError
from draughtsboard.speech.answers import (
    CLOCKS,
    HINT,
    LAST_MOVE,
    POSITION,
    QUESTIONS,
    answer_clocks,
    answer_hint,
    answer_last_move,
    answer_position,
    spoken_text,
)
from draughtsboard.words import PSEUDO_LANGUAGE, catalog_languages, choose_language, words_for

from .coach_routes import error_response, failure_response, refusal

MAX_LANG = 20  # characters of ?lang= read
SPOKEN_EVERY = 1.0  # seconds: at most one spoken answer asked over HTTP in this time


class AnswerPace:
    """How often answers asked over HTTP are said on one board: at most one per
    ``every`` seconds of ``clock``."""

    def __init__(self, every: float = SPOKEN_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self._last: float | None = None
        self._lock = threading.Lock()

    def allow(self) -> bool:
        """Whether an answer may be said now (and counts it if so)."""
        with self._lock:
            now = self.clock()
            if self._last is not None and now - self._last < self.every:
                return False
            self._last = now
            return True


def _pace(request: Request) -> AnswerPace:
    state = request.app.state
    pace = getattr(state, "ask_pace", None)
    if pace is None:
        pace = state.ask_pace = AnswerPace()
    return pace


class NotReady(Exception):
    """The board has not published its game yet."""


def answer_now(session: Any, question: str) -> Message:
    """The answer to ``last-move``, ``clocks`` or ``position`` from what ``session`` last
    published, the clocks counted to its wall clock now. `NotReady` before the first
    publication."""
    _, game, view = session.published()
    if game is None:
        raise NotReady()
    if question == LAST_MOVE:
        return answer_last_move(game, view)
    if question == CLOCKS:
        return answer_clocks(view, session.wall())
    if question == POSITION:
        return answer_position(game.position)
    raise ValueError(f"not a question answered from the publication: {question!r}")


def standing_hint(session: Any) -> Message:
    """The hint standing for the position now (what the page shows), without asking."""
    _, game, view = session.published()
    if game is None:
        raise NotReady()
    coach = view.get("coach") or {}
    return answer_hint(game.position, coach.get("hint") if isinstance(coach, dict) else None)


def ask_hint(coach: Any) -> Message:
    """Ask ``coach`` for the next stage of its hint (on the session's controller thread:
    ``session.call`` / ``submit``) and say it; `CoachError` when no hint may be given."""
    hint = coach.request_hint()
    return answer_hint(coach.position(), hint)


def _is_tournament(session: Any) -> bool:
    _, _, view = session.published()
    return view.get("mode") == "tournament"


def _language(request: Request) -> str | None:
    """The reader's language, ``None`` when ``?lang=`` names one no catalog has."""
    asked = request.query_params.get("lang")
    if asked is not None:
        code = asked.strip().lower()[:MAX_LANG]
        if code != PSEUDO_LANGUAGE and code not in catalog_languages():
            return None
        return code
    return choose_language(None, request.headers.get("accept-language"),
                           request.app.state.language)


async def ask(request: Request) -> Response:
    question = request.path_params["question"]
    if question not in QUESTIONS:
        return error_response(404, Message.of(
            "ask.refused.unknown", question=question[:40],
            questions=Listed(QUESTIONS, "or")))
    language = _language(request)
    if language is None:
        return error_response(400, Message.of(
            "ask.refused.language", language=request.query_params["lang"][:MAX_LANG],
            languages=Listed(tuple(catalog_languages()), "or")))
    session = request.app.state.session
    speak = request.method == "POST"
    voice = getattr(request.app.state, "voice", None)
    if speak and voice is not None and not _pace(request).allow():
        return error_response(429, Message.of("ask.refused.too_often",
                                              seconds=f"{_pace(request).every:g}"))
    try:
        if question == HINT:
            coach = getattr(request.app.state, "coach", None)
            if coach is None:
                return error_response(404, Message.of("coach.refused.no_coach"))
            if _is_tournament(session):
                return error_response(409, Message.of("coach.refused.tournament_hints"))
            if speak:
                message = await run_in_threadpool(session.call, lambda: ask_hint(coach))
            else:
                message = standing_hint(session)
        else:
            message = answer_now(session, question)
    except NotReady:
        return error_response(503, Message.of("ask.refused.not_ready"))
    except CoachError as error:
        return error_response(409, refusal(error))
    except Exception as error:  # noqa: BLE001 - answered by its cause, or raised
        return failure_response(error)
    body: dict[str, Any] = {"message": message.as_json(),
                            "text": words_for(language)(message)}
    if speak:
        spoken = False
        if voice is not None:
            spoken = bool(voice.say(spoken_text(words_for(voice.language).spoken(), message),
                                    answer=True))
            if message.id == "ask.hint.thinking" and hasattr(voice, "want_hint"):
                voice.want_hint()  # said when the coach has it
        body["spoken"] = spoken
    return JSONResponse(body, headers={"cache-control": "no-store",
                                       "content-language": language})


ASK_ROUTES = [Route("/api/ask/{question}", ask, methods=["GET", "POST"])]
