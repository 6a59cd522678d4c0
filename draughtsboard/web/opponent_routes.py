"""The opponent's request from the page: after an external engine failed, go on with the
built-in engine from the same position.

In training and free play the person at the board asks for it, as for the coach's
hints, with no token. In a tournament game who plays a seat is the arbiter's to decide
(a match between boards that stopped must not go on against an engine because someone
at either board asked): the arbiter's token is needed (401 without it). It is only
possible once the opponent has failed (409 otherwise). It runs on the session's
controller thread (``session.call``), like every other change to the game.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from draughtsboard.board.message import Message
from draughtsboard.board.rules.engine.levels import LEVEL_NUMBERS
from draughtsboard.http_limits import BodyError, bearer_token, read_json
from draughtsboard.play.errors import ArbiterError

from .coach_routes import error_response, run_action

MAX_BODY = 1024  # {"level": 7}


async def continue_with_builtin(request: Request) -> Response:
    """``POST /api/opponent/continue`` ``{"level": 1-10}`` (optional, 10 without it): the
    built-in engine plays on for the opponent at that level (in a tournament game, with
    the arbiter's token only)."""
    session = request.app.state.session
    if session.game.opponent is None:
        return error_response(404, Message.of("opponent.refused.none"))
    if session.game.mode.value == "tournament":
        given = bearer_token(request.scope)
        if given is None or not session.check_token(given.decode("utf-8", "replace")):
            return error_response(401, Message.of("opponent.refused.token"))
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
