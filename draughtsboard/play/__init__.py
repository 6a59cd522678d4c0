"""A board in play: the game in play and its rules (`game_in_play`, no thread), the
controller thread around it (`session`), the resume-or-new decision (`opening`), the
arbiter's actions (`arbiter`) and the page's view (`view`, published by `publisher`).
Imports no backend: `draughtsboard.cli` gives the session its sensor source, LED sink
and (for a simulated board) switches."""

from .arbiter import ArbiterDesk
from .errors import ArbiterError
from .game_in_play import GameInPlay
from .opening import Opening, choose_opening
from .session import PlaySession, SimulatedSwitches
from .view import build_view

__all__ = ["ArbiterDesk", "ArbiterError", "GameInPlay", "Opening", "PlaySession",
           "SimulatedSwitches", "build_view", "choose_opening"]
