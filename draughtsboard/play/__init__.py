"""A board in play: the controller thread (`session`), the resume-or-new decision
(`opening`) and the page's view (`view`). Imports no backend: `draughtsboard.cli` gives
the session its sensor source, LED sink and (for a simulated board) switches."""

from .opening import Opening, choose_opening
from .session import ArbiterError, PlaySession, SimulatedSwitches
from .view import build_view

__all__ = ["ArbiterError", "Opening", "PlaySession", "SimulatedSwitches", "build_view",
           "choose_opening"]
