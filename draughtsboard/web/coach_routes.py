"""The coach's requests from the page: a hint, and hints or warnings on or off.

No arbiter token: the coach exists only in training and free play, where the page is the
trainee's (in tournament mode every request is refused, 409). Each request runs on the
session's controller thread (``session.call``), like every other change to the game. The
coach is the one the app was made with (``app.state.coach``).

A refusal answers ``{"error": the English line, "message": the same as a message's
JSON}``: the page shows the message in its reader's language (docs/languages.md).
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from draughtsboard.board.message import Message
from draughtsboard.http_limits import failure_status, failure_text, read_json
from draughtsboard.play.coach import Coach
from draughtsboard.play.errors import CoachError, PuzzleError
from draughtsboard.words import english

MAX_BODY = 1024  # the coach's requests are a few bytes


def error_response(status: int, text: str | Message) -> JSONResponse:
    """A refusal: its English line, and its message when it has one."""
    if isinstance(text, Message):
        return JSONResponse({"error": english(text), "message": text.as_json()},
                            status_code=status)
    return JSONResponse({"error": text}, status_code=status)


def refusal(error: Exception) -> str | Message:
    """What a refusal says: its message when it carries one, else its text."""
    message = getattr(error, "message", None)
    return message if isinstance(message, Message) else str(error)


def failure_response(error: Exception) -> JSONResponse:
    """An error answered by its cause (`http_limits.failure_status`): bad input 400, busy
    409, storage or a board that did not answer 503; anything else is a bug, raised."""
    status = failure_status(error)
    if status is None:
        raise error
    return error_response(status, failure_text(error))


def _coach(request: Request) -> Coach | None:
    return request.app.state.coach


async def run_action(request: Request, action, refused: tuple[type[Exception], ...]
                     ) -> Response:
    """Run ``action`` on the session's controller thread (``session.call``) and answer:
    its result, 409 for a refusal of the kinds ``refused`` (not possible in this mode or
    this state of the game), else by the error's cause."""
    session = request.app.state.session
    try:
        result = await run_in_threadpool(session.call, action)
    except refused as error:
        return error_response(409, refusal(error))
    except Exception as error:  # noqa: BLE001 - answered by its cause, or raised
        return failure_response(error)
    return JSONResponse({"ok": True, "result": result})


async def _run(request: Request, action: Callable[[Coach], object]) -> Response:
    """``action`` on the coach, when there is one (404 otherwise)."""
    coach = _coach(request)
    if coach is None:
        return error_response(404, Message.of("coach.refused.no_coach"))
    return await run_action(request, lambda: action(coach), (CoachError, PuzzleError))


async def hint(request: Request) -> Response:
    """The next stage of the hint: ``{"result": {"stage", "squares", "text"}}``."""
    return await _run(request, lambda coach: coach.request_hint())


async def options(request: Request) -> Response:
    """``{"hints": true|false, "warnings": true|false}`` (either may be left out)."""
    try:
        data = await read_json(request, MAX_BODY)
        changes = {}
        for key in ("hints", "warnings"):
            if key in data:
                if not isinstance(data[key], bool):
                    return error_response(400, Message.of("coach.refused.bad_option",
                                                          key=key))
                changes[key] = data[key]
    except ValueError as error:
        return error_response(400, str(error))
    return await _run(request, lambda coach: coach.set_options(**changes))


async def puzzle(request: Request) -> Response:
    """``{"action": "next" | "retry" | "solution"}``: skip, try again, show the solution."""
    try:
        data = await read_json(request, MAX_BODY)
    except ValueError as error:
        return error_response(400, str(error))
    action = data.get("action")
    if action not in ("next", "retry", "solution"):
        return error_response(400, Message.of("puzzle.refused.bad_action",
                                              action=repr(action)[:40]))
    return await _run(request, lambda coach: coach.puzzle_action(action))


COACH_ROUTES = [
    Route("/api/coach/puzzle", puzzle, methods=["POST"]),
    Route("/api/coach/hint", hint, methods=["POST"]),
    Route("/api/coach/options", options, methods=["POST"]),
]
