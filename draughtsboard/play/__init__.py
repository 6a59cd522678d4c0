"""A board in play: the controller thread (`session`), the resume-or-new decision
(`opening`), what play becomes in the journal (`record_keeper`), the arbiter's actions
(`arbiter`) and the page's view (`view`, published by `publisher`). Imports no backend:
`draughtsboard.cli` gives the session its sensor source, LED sink and (for a simulated
board) switches."""

from .errors import ArbiterError
from .opening import Opening, choose_opening
from .session import PlaySession, SimulatedSwitches
from .view import build_view

__all__ = ["ArbiterError", "Opening", "PlaySession", "SimulatedSwitches", "build_view",
           "choose_opening"]
