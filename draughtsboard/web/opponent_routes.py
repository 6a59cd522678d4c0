"""The opponent's request from the page: after an external engine failed, go on with the
built-in engine from the same position.

No arbiter token: the person at the board asks for it, as for the coach's hints, and it
is only possible once the opponent has failed (409 otherwise). It runs on the session's
controller thread (``session.call``), like every other change to the game.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from draughtsboard.board.message import Message
from draughtsboard.board.rules.engine.levels import LEVEL_NUMBERS
from draughtsboard.http_limits import BodyError, read_json
from draughtsboard.play.errors import ArbiterError

from .coach_routes import error_response, run_action

MAX_BODY = 1024  # {"level": 7}


async def continue_with_builtin(request: Request) -> Response:
    """``POST /api/opponent/continue`` ``{"level": 1-10}`` (optional, 10 without it): the
    built-in engine plays on for the opponent at that level."""
    session = request.app.state.session
    if session.game.opponent is None:
        return error_response(404, Message.of("opponent.refused.none"))
    try:
        level = (await read_json(request, MAX_BODY)).get("level", 10)
    except BodyError as error:
        return error_response(400, str(error))
    if type(level) is not int or level not in LEVEL_NUMBERS:
        return error_response(400, Message.of("opponent.refused.level",
                                              level=repr(level)[:100]))
    return await run_action(request, lambda: session.game.continue_with_builtin(level),
                            (ArbiterError,))


OPPONENT_ROUTES = [
    Route("/api/opponent/continue", continue_with_builtin, methods=["POST"]),
]
