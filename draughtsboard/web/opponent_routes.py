"""The opponent's request from the page: after an external engine failed, go on with the
built-in engine from the same position.

No arbiter token: the person at the board asks for it, as for the coach's hints, and it
is only possible once the opponent has failed (409 otherwise). It runs on the session's
controller thread (``session.call``), like every other change to the game.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from draughtsboard.http_limits import failure_status, failure_text
from draughtsboard.play.errors import ArbiterError


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


async def continue_with_builtin(request: Request) -> Response:
    """``POST /api/opponent/continue``: the built-in engine plays on for the opponent."""
    session = request.app.state.session
    if session.game.opponent is None:
        return _error(404, "this board plays no opponent")
    try:
        text = await run_in_threadpool(session.call, session.game.continue_with_builtin)
    except ArbiterError as error:  # nothing failed: nothing to replace
        return _error(409, str(error))
    except Exception as error:  # noqa: BLE001 - answered by its cause, or raised
        status = failure_status(error)
        if status is None:
            raise
        return _error(status, failure_text(error))
    return JSONResponse({"ok": True, "result": text})


OPPONENT_ROUTES = [
    Route("/api/opponent/continue", continue_with_builtin, methods=["POST"]),
]
