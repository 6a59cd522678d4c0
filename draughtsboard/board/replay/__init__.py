"""Games played physically, in virtual time: a scripted hand (`hand`) makes each move
switch by switch on an injected simulated board, and the harness (`harness`) checks that
the real tracker recorded exactly the moves played. Sits on top of the rules and the
tracker; the simulated boards themselves are adapters (`draughtsboard.hardware`,
`draughtsboard.firmware_bridge`) chosen by the command line.
"""

from .hand import NoiseStats, ScriptedHand, SwitchAction
from .harness import GameReport, OpenBoard, VirtualBoard, percentile, random_game, replay_game

__all__ = [
    "GameReport", "NoiseStats", "OpenBoard", "ScriptedHand", "SwitchAction", "VirtualBoard",
    "percentile", "random_game", "replay_game",
]
