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

from draughtsboard.play.errors import ArbiterError

from .coach_routes import error_response, run_action


async def continue_with_builtin(request: Request) -> Response:
    """``POST /api/opponent/continue``: the built-in engine plays on for the opponent."""
    session = request.app.state.session
    if session.game.opponent is None:
        return error_response(404, "this board plays no opponent")
    return await run_action(request, session.game.continue_with_builtin, (ArbiterError,))


OPPONENT_ROUTES = [
    Route("/api/opponent/continue", continue_with_builtin, methods=["POST"]),
]
